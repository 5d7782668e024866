/**
 * Validator sets as CometBFT keeps them: updates returned by FinalizeBlock at height H change the set
 * of height H+2 (the set of H+1 is already fixed in header H's next_validators_hash). Applying an update
 * with power 0 removes the validator, a new key adds it, a known key changes its power; the set stays
 * sorted by power (descending), then address.
 */
import { toHex } from '@chain/crypto';
import type { ValidatorUpdate } from '@chain/app';
import type { Validator } from './cmt-types.js';
import { sortValidators, validatorAddress } from './hashing.js';

/** CometBFT's `MaxTotalVotingPower` (MaxInt64 / 8). */
export const MAX_TOTAL_VOTING_POWER = 1152921504606846975n;

/** The set after `updates` (CometBFT's `ValidatorSet.UpdateWithChangeSet`); throws on an invalid change set. */
export function applyValidatorUpdates(set: readonly Validator[], updates: readonly ValidatorUpdate[]): Validator[] {
  if (updates.length === 0) return [...set];
  const byAddr = new Map<string, Validator>(set.map((v) => [toHex(v.address), v]));
  const seen = new Set<string>();
  for (const u of updates) {
    if (u.pubKey.type !== 'ed25519' || u.pubKey.key.length !== 32) throw new Error(`validator update with an unsupported key (${u.pubKey.type}, ${u.pubKey.key.length} bytes)`);
    if (u.power < 0n) throw new Error(`validator update with negative power ${u.power}`);
    if (u.power > MAX_TOTAL_VOTING_POWER) throw new Error(`validator update with power ${u.power} above the maximum ${MAX_TOTAL_VOTING_POWER}`);
    const address = validatorAddress(u.pubKey.key);
    const key = toHex(address);
    if (seen.has(key)) throw new Error(`duplicate validator update for ${key.toUpperCase()}`);
    seen.add(key);
    if (u.power === 0n) {
      if (!byAddr.delete(key)) throw new Error(`failed to find validator ${key.toUpperCase()} to remove`);
      continue;
    }
    const prior = byAddr.get(key);
    byAddr.set(key, { address, pubKey: u.pubKey.key, votingPower: Number(u.power), proposerPriority: prior?.proposerPriority ?? 0 });
  }
  const next = sortValidators([...byAddr.values()]);
  if (next.length === 0) throw new Error('applying the validator changes would result in empty set');
  const total = next.reduce((n, v) => n + BigInt(v.votingPower), 0n);
  if (total > MAX_TOTAL_VOTING_POWER) throw new Error(`total voting power ${total} exceeds the maximum ${MAX_TOTAL_VOTING_POWER}`);
  return next;
}

/** Whether two sets are the same validators with the same powers, in the same order. */
export function sameValidatorSet(a: readonly Validator[], b: readonly Validator[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (toHex(a[i]!.pubKey) !== toHex(b[i]!.pubKey) || a[i]!.votingPower !== b[i]!.votingPower) return false;
  }
  return true;
}
