/** The execution context handed to every keeper call: state, block header, gas, events, mode. */
import { prefixStore } from '@chain/store';
import type { KVStore } from '@chain/store';
import type { Event } from '@chain/events';
import { GasKVStore, InfiniteGasMeter } from './gas.js';
import type { GasMeter } from './gas.js';
import type { DecCoin } from './coins.js';
import type { CommitInfo, Misbehavior } from './abci.js';

export type ExecMode = 'check' | 'recheck' | 'deliver' | 'simulate' | 'query' | 'genesis' | 'block';

/**
 * What consensus decided about the block being executed (the SDK's `comet.Info`): the previous block's
 * commit with each validator's vote (distribution allocates fees by it, slashing tracks liveness from
 * it), the misbehaviour committed in this block (evidence), and the next validator set's hash.
 */
export interface CometInfo {
  readonly lastCommit: CommitInfo;
  readonly misbehavior: readonly Misbehavior[];
  readonly nextValidatorsHash: Uint8Array;
  readonly proposerAddress: Uint8Array;
}

export const EMPTY_COMET_INFO: CometInfo = Object.freeze({
  lastCommit: Object.freeze({ round: 0, votes: [] }),
  misbehavior: [],
  nextValidatorsHash: new Uint8Array(),
  proposerAddress: new Uint8Array(),
});

export interface BlockInfo {
  readonly height: number;
  readonly time: Date;
  readonly chainId: string;
  /** consensus address of the block proposer (empty outside blocks) */
  readonly proposer: Uint8Array;
  /** hash of the block being executed (its header hash; empty outside FinalizeBlock) */
  readonly hash?: Uint8Array;
  /** consensus information of the block (empty outside FinalizeBlock) */
  readonly comet?: CometInfo;
}

/** Collects the events of one execution scope (a message, a tx, a block hook). */
export class EventManager {
  readonly events: Event[] = [];
  emit(type: string, attributes: Record<string, string> | [string, string][]): void {
    const list = Array.isArray(attributes) ? attributes : Object.entries(attributes);
    this.events.push({ type, attributes: list.map(([key, value]) => ({ key, value, index: true })) });
  }
  emitEvent(e: Event): void {
    this.events.push(e);
  }
  emitAll(events: readonly Event[]): void {
    for (const e of events) this.events.push(e);
  }
}

const enc = new TextEncoder();
const storePrefixes = new Map<string, Uint8Array>();

/** Byte prefix of a module's store inside the single state tree: `<storeKey>/`. */
export function storePrefix(storeKey: string): Uint8Array {
  let p = storePrefixes.get(storeKey);
  if (!p) {
    if (storeKey.includes('/')) throw new Error(`store key may not contain '/': ${storeKey}`);
    p = enc.encode(storeKey + '/');
    storePrefixes.set(storeKey, p);
  }
  return p;
}

export class Context {
  constructor(
    /** the (branched) root state this context reads and writes */
    readonly ms: KVStore,
    readonly block: BlockInfo,
    readonly mode: ExecMode,
    readonly gasMeter: GasMeter = new InfiniteGasMeter(),
    readonly events: EventManager = new EventManager(),
    readonly minGasPrices: readonly DecCoin[] = [],
  ) {}

  /** the module stores handed out (one per store key: a context's state and meter never change) */
  private stores: Map<string, KVStore> | undefined;

  /** The store of one module; metered in tx modes (simulation counts gas on an infinite meter). */
  kv(storeKey: string): KVStore {
    const stores = (this.stores ??= new Map());
    let kv = stores.get(storeKey);
    if (kv === undefined) {
      const unmetered = this.mode === 'query' || this.mode === 'genesis' || this.mode === 'block';
      const base = unmetered ? this.ms : new GasKVStore(this.ms, this.gasMeter);
      kv = prefixStore(base, storePrefix(storeKey));
      stores.set(storeKey, kv);
    }
    return kv;
  }

  /** The block's consensus information: last commit votes, misbehaviour, next validators hash. */
  get comet(): CometInfo { return this.block.comet ?? EMPTY_COMET_INFO; }

  get isCheckTx(): boolean { return this.mode === 'check' || this.mode === 'recheck'; }
  get isSimulate(): boolean { return this.mode === 'simulate'; }

  withStore(ms: KVStore): Context {
    return new Context(ms, this.block, this.mode, this.gasMeter, this.events, this.minGasPrices);
  }
  withGasMeter(m: GasMeter): Context {
    return new Context(this.ms, this.block, this.mode, m, this.events, this.minGasPrices);
  }
  withEvents(e: EventManager): Context {
    return new Context(this.ms, this.block, this.mode, this.gasMeter, e, this.minGasPrices);
  }
}
