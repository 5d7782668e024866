/**
 * geth's StateOverride for eth_call, eth_estimateGas and debug_traceCall:
 * `{<address>: {balance?, nonce?, code?, state?, stateDiff?}}`. `state` replaces the whole storage of the
 * account, `stateDiff` only the slots given (the two are mutually exclusive). Overrides are written into
 * the store of the context they are applied to: callers apply them to a throwaway branch of the query
 * state only.
 */
import type { Context } from '@chain/app';
import { fromHex } from '@chain/crypto';
import { GrpcCode, statusError } from '@chain/errors';
import { unmetered } from './keeper.js';
import type { EvmKeeper } from './keeper.js';

/** The override of one account (parsed). */
export interface AccountOverride {
  readonly address: Uint8Array;
  readonly balance?: bigint;
  readonly nonce?: bigint;
  readonly code?: Uint8Array;
  /** the account's complete storage (slot, 32-byte value) */
  readonly state?: readonly (readonly [Uint8Array, Uint8Array])[];
  /** slots to change (slot, 32-byte value) */
  readonly stateDiff?: readonly (readonly [Uint8Array, Uint8Array])[];
}

export type StateOverride = readonly AccountOverride[];

const FIELDS = new Set(['balance', 'nonce', 'code', 'state', 'stateDiff']);
const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_UINT64 = (1n << 64n) - 1n;

const invalid = (msg: string): Error => statusError(GrpcCode.INVALID_ARGUMENT, msg);

function quantity(v: unknown, what: string, max: bigint): bigint {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(v)) throw invalid(`invalid ${what}: expected a 0x-prefixed hex quantity, got ${JSON.stringify(v)}`);
  const n = BigInt(v);
  if (n > max) throw invalid(`invalid ${what}: ${v} is too large`);
  return n;
}

function bytes(v: unknown, what: string): Uint8Array {
  if (typeof v !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(v)) throw invalid(`invalid ${what}: expected 0x-prefixed hex bytes`);
  return fromHex(v.slice(2).toLowerCase());
}

/** A storage key or value: 0x hex of at most 32 bytes, left-padded to 32. */
function word(v: unknown, what: string): Uint8Array {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(v)) throw invalid(`invalid ${what}: expected 0x-prefixed hex of at most 32 bytes, got ${JSON.stringify(v)}`);
  return fromHex(v.slice(2).toLowerCase().padStart(64, '0'));
}

function slots(v: unknown, what: string): [Uint8Array, Uint8Array][] {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(`invalid ${what}: expected an object of storage slot → value`);
  return Object.entries(v).map(([k, val]) => [word(k, `${what} slot ${k}`), word(val, `${what} value of slot ${k}`)]);
}

/** Parses a StateOverride object (JSON value); undefined / null is no override. Throws INVALID_ARGUMENT. */
export function parseStateOverride(json: unknown): StateOverride {
  if (json === undefined || json === null) return [];
  if (typeof json !== 'object' || Array.isArray(json)) throw invalid('invalid state override: expected an object of address → account override');
  const seen = new Set<string>();
  const out: AccountOverride[] = [];
  for (const [key, o] of Object.entries(json as Record<string, unknown>)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(key)) throw invalid(`invalid state override: ${JSON.stringify(key)} is not a 20-byte 0x address`);
    const lower = key.toLowerCase();
    if (seen.has(lower)) throw invalid(`invalid state override: address ${key} appears twice`);
    seen.add(lower);
    if (typeof o !== 'object' || o === null || Array.isArray(o)) throw invalid(`invalid state override of ${key}: expected an object`);
    const a = o as Record<string, unknown>;
    for (const f of Object.keys(a)) {
      if (!FIELDS.has(f)) throw invalid(`invalid state override of ${key}: unsupported field ${JSON.stringify(f)} (supported: balance, nonce, code, state, stateDiff)`);
    }
    const given = (f: string): boolean => a[f] !== undefined && a[f] !== null;
    if (given('state') && given('stateDiff')) throw invalid(`account ${key} has both 'state' and 'stateDiff'`);
    out.push({
      address: fromHex(lower.slice(2)),
      balance: given('balance') ? quantity(a.balance, `balance override of ${key}`, MAX_UINT256) : undefined,
      nonce: given('nonce') ? quantity(a.nonce, `nonce override of ${key}`, MAX_UINT64) : undefined,
      code: given('code') ? bytes(a.code, `code override of ${key}`) : undefined,
      state: given('state') ? slots(a.state, `state override of ${key}`) : undefined,
      stateDiff: given('stateDiff') ? slots(a.stateDiff, `stateDiff override of ${key}`) : undefined,
    });
  }
  return out;
}

/** Writes the overrides into the store of `ctx` (which must be a throwaway branch). */
export function applyStateOverride(keeper: EvmKeeper, ctx: Context, overrides: StateOverride): void {
  const u = unmetered(ctx);
  const denom = keeper.params(u).denom;
  for (const o of overrides) {
    const addr = o.address;
    if (o.balance !== undefined) {
      const cur = keeper.bank.getBalance(u, addr, denom);
      if (o.balance > cur) keeper.bank.addCoins(u, addr, [{ denom, amount: (o.balance - cur).toString() }]);
      else if (o.balance < cur) keeper.bank.subCoins(u, addr, [{ denom, amount: (cur - o.balance).toString() }]);
    }
    if (o.nonce !== undefined) {
      const acc = keeper.ak.getAccount(u, addr) ?? keeper.ak.newAccountWithAddress(u, addr);
      acc.base.sequence = o.nonce;
      keeper.ak.setAccount(u, acc);
    }
    if (o.code !== undefined) keeper.setCode(u, addr, o.code);
    if (o.state !== undefined) {
      const zero = new Uint8Array(32);
      for (const [slot] of [...keeper.storage(u, addr)]) keeper.setState(u, addr, slot, zero);
      for (const [slot, value] of o.state) keeper.setState(u, addr, slot, value);
    }
    for (const [slot, value] of o.stateDiff ?? []) keeper.setState(u, addr, slot, value);
  }
}
