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
