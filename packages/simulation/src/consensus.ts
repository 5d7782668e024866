/**
 * What consensus would hand the app, simulated as CometBFT does it: the validator set of every height
 * (validator updates returned at height H change the set of H + 2), the decided last commit of each block
 * (every validator of the previous height, some absent by a per-validator liveness model, always more
 * than 2/3 of the power signed), a proposer from the block's set, and now and then a misbehaviour
 * (duplicate vote or light client attack) of a validator of a recent height.
 */
import type { BlockIdFlag, CommitInfo, Misbehavior, ValidatorUpdate, VoteInfo } from '@chain/app';
import { sha256 } from '@chain/crypto';
import type { Rand } from './rand.js';

export interface SetValidator {
  /** CometBFT address: sha256(ed25519 key)[:20] */
  readonly address: Uint8Array;
  readonly pubKey: Uint8Array;
  readonly power: bigint;
}

/** A validator set, in CometBFT's order (power descending, then address ascending). */
export type ValidatorSet = readonly SetValidator[];

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** The consensus address of an ed25519 key (CometBFT's `PubKey.Address()`). */
export function consensusAddress(pubKey: Uint8Array): Uint8Array {
  return sha256(pubKey).subarray(0, 20);
}

function sortSet(vals: SetValidator[]): SetValidator[] {
  return vals.sort((a, b) => (a.power === b.power ? Buffer.compare(Buffer.from(a.address), Buffer.from(b.address)) : a.power > b.power ? -1 : 1));
}

/** `set` with `updates` applied (power 0 removes; an update of an absent validator with power 0 is an error, as CometBFT). */
export function applyValidatorUpdates(set: ValidatorSet, updates: readonly ValidatorUpdate[]): SetValidator[] {
  const byAddr = new Map<string, SetValidator>(set.map((v) => [hex(v.address), v]));
  const seen = new Set<string>();
  for (const u of updates) {
    if (u.pubKey.type !== 'ed25519') throw new Error(`validator update with key type ${u.pubKey.type}`);
    if (u.power < 0n) throw new Error(`validator update with negative power ${u.power}`);
    const address = consensusAddress(u.pubKey.key);
    const k = hex(address);
    if (seen.has(k)) throw new Error(`duplicate validator update for ${k}`);
    seen.add(k);
    if (u.power === 0n) {
      if (!byAddr.has(k)) throw new Error(`validator update removes ${k}, which is not in the set`);
      byAddr.delete(k);
    } else byAddr.set(k, { address, pubKey: u.pubKey.key, power: u.power });
  }
  if (byAddr.size === 0) throw new Error('validator updates would leave an empty validator set (consensus halts)');
  return sortSet([...byAddr.values()]);
}

export function totalPower(set: ValidatorSet): bigint {
  return set.reduce((s, v) => s + v.power, 0n);
}

/** A validator's liveness state: online (rarely misses), flaky (misses often), offline (misses every block). */
type Liveness = 'online' | 'flaky' | 'offline';

export interface LivenessParams {
  /** probability to miss a block in each state */
  readonly missChance: Readonly<Record<Liveness, number>>;
  /** per block, the probability to move from each state to each state (rows sum to 1) */
  readonly transitions: Readonly<Record<Liveness, Readonly<Record<Liveness, number>>>>;
  /** probability that a signature is a nil vote (counts as signed for slashing, not for the precommit power) */
  readonly nilChance: number;
}

/** Most validators sign; now and then one goes offline long enough to be jailed for downtime. */
export const DEFAULT_LIVENESS: LivenessParams = {
  missChance: { online: 0.01, flaky: 0.3, offline: 1 },
  transitions: {
    online: { online: 0.97, flaky: 0.02, offline: 0.01 },
    flaky: { online: 0.2, flaky: 0.75, offline: 0.05 },
    offline: { online: 0.05, flaky: 0.05, offline: 0.9 },
  },
  nilChance: 0.02,
};

const STATES: readonly Liveness[] = ['online', 'flaky', 'offline'];

export interface BlockConsensus {
  readonly lastCommit: CommitInfo;
  readonly proposer: Uint8Array;
  readonly misbehavior: Misbehavior[];
  readonly nextValidatorsHash: Uint8Array;
}

/** The validator sets by height, the liveness of each validator, and what each block's request carries. */
export class ConsensusSimulator {
  private readonly sets = new Map<number, SetValidator[]>();
  private readonly times = new Map<number, Date>();
  private readonly liveness = new Map<string, Liveness>();
  absentVotes = 0;
  nilVotes = 0;
  misbehaviors = 0;

  constructor(initial: ValidatorSet, readonly params: LivenessParams = DEFAULT_LIVENESS) {
    if (initial.length === 0) throw new Error('the simulation needs a non-empty initial validator set');
    const set = sortSet([...initial]);
    this.sets.set(1, set);
    this.sets.set(2, set);
  }

  /** The set of height `h` (known up to the last finalized height + 2). */
  setAt(h: number): ValidatorSet {
    const s = this.sets.get(h);
    if (!s) throw new Error(`no validator set known for height ${h}`);
    return s;
  }

  /** Records the updates FinalizeBlock returned at `height`: they make the set of `height + 2`. */
  finalized(height: number, time: Date, updates: readonly ValidatorUpdate[]): void {
    this.times.set(height, time);
    this.sets.set(height + 2, applyValidatorUpdates(this.setAt(height + 1), updates));
    // forget what no request can refer to any more
    for (const h of this.sets.keys()) if (h < height - 100) this.sets.delete(h);
    for (const h of this.times.keys()) if (h < height - 100) this.times.delete(h);
  }

  /**
   * The consensus part of block `height`'s request: the last commit over the set of `height - 1`, the
   * proposer, misbehaviour (one with probability `misbehaviorChance`, or surely when `forceMisbehavior`),
   * and the next validators hash (a digest of the set of `height + 1`).
   */
  block(rand: Rand, height: number, misbehaviorChance: number, forceMisbehavior: boolean): BlockConsensus {
    const set = this.setAt(height);
    const proposer = rand.pick(set).address;
    const lastCommit = height <= 1 ? { round: 0, votes: [] } : this.lastCommit(rand, this.setAt(height - 1));
    const misbehavior: Misbehavior[] = [];
    if (height > 2 && (forceMisbehavior || rand.bool(misbehaviorChance))) {
      const from = Math.max(1, height - 20);
      const h = rand.int(from, height - 1);
      const past = this.sets.get(h);
      const time = this.times.get(h);
      if (past && time) {
        const v = rand.pick(past);
        misbehavior.push({
          type: rand.bool(0.9) ? 1 : 2,
          validator: { address: v.address, power: v.power },
          height: h,
          time,
          totalVotingPower: totalPower(past),
        });
        this.misbehaviors++;
      }
    }
    const next = this.setAt(height + 1);
    const nextValidatorsHash = sha256(Buffer.concat(next.map((v) => Buffer.concat([Buffer.from(v.pubKey), Buffer.from(v.power.toString(16).padStart(16, '0'), 'hex')]))));
    return { lastCommit, proposer, misbehavior, nextValidatorsHash };
  }

  private step(rand: Rand, key: string): Liveness {
    const cur = this.liveness.get(key) ?? 'online';
    const row = this.params.transitions[cur];
    const next = STATES[rand.weighted(STATES.map((s) => row[s]))]!;
    this.liveness.set(key, next);
    return next;
  }

  /**
   * The votes of `set`: absent by liveness, now and then a nil vote, but always more than 2/3 of the power
   * for the block (CometBFT would not have committed otherwise).
   */
  private lastCommit(rand: Rand, set: ValidatorSet): CommitInfo {
    const total = totalPower(set);
    const flags: BlockIdFlag[] = set.map((v) => {
      if (rand.bool(this.params.missChance[this.step(rand, hex(v.address))])) return 1;
      return rand.bool(this.params.nilChance) ? 3 : 2;
    });
    let committed = set.reduce((s, v, i) => (flags[i] === 2 ? s + v.power : s), 0n);
    for (const i of rand.shuffle(set.map((_, i) => i))) {
      if (committed * 3n > total * 2n) break;
      if (flags[i] !== 2) {
        flags[i] = 2;
        committed += set[i]!.power;
      }
    }
    const votes: VoteInfo[] = set.map((v, i) => {
      if (flags[i] === 1) this.absentVotes++;
      if (flags[i] === 3) this.nilVotes++;
      return { validator: { address: v.address, power: v.power }, blockIdFlag: flags[i]! };
    });
    return { round: 0, votes };
  }
}
