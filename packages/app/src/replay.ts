/** Types of the re-execution of a committed block (App.replayBlock), the base of transaction tracing. */
import type { ExecTxResult, FinalizeBlockRequest } from './abci.js';
import type { BlockInfo } from './context.js';

/** A committed block to re-execute: its header fields the execution reads, and its txs. */
export interface ReplayBlockRequest {
  readonly height: number;
  readonly time: Date;
  readonly proposer: Uint8Array;
  readonly txs: readonly Uint8Array[];
  /** the block's FinalizeBlock request, when known: the replay's contexts then carry its hash and comet info */
  readonly finalize?: FinalizeBlockRequest;
}

/** A block being re-executed on a throwaway branch (see {@link App.replayBlock}). */
export interface BlockReplay {
  /** the block info every context of the replay carries */
  readonly block: BlockInfo;
  /** txs executed so far */
  readonly executed: number;
  /** executes the block's next tx; its result as FinalizeBlock reported it */
  next(): Promise<ExecTxResult>;
  /** drops the replay's state */
  close(): void;
}

/**
 * A dry run of the next block (see {@link App.dryRunBlock}): the block executed step by step on a throwaway
 * branch of the latest state, so that a caller (a simulation) can read the state between its txs.
 */
export interface BlockDryRun {
  /** the block info every context of the dry run carries */
  readonly block: import('./context.js').BlockInfo;
  /**
   * A read-only context over the block's state so far (begin-block done, the txs delivered so far): reads
   * see the state a next tx would see; writes go to a throwaway buffer.
   */
  context(): import('./context.js').Context;
  /** the block's state changes so far, sorted by key */
  changes(): import('@chain/store').Change[];
  /** executes a tx as FinalizeBlock would (deliver mode, ante, messages); its result */
  deliver(tx: Uint8Array): Promise<import('./abci.js').ExecTxResult>;
  /** runs the end-block hooks: the validator updates and the app hash FinalizeBlock would return for these txs */
  end(): Promise<{ readonly validatorUpdates: import('./module.js').ValidatorUpdate[]; readonly appHash: Uint8Array }>;
}
