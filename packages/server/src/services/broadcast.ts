/** Broadcast helpers shared by the CometBFT RPC and the REST/gRPC tx service. */
import type { Engine } from '@chain/consensus';
import { MempoolError } from '@chain/consensus';

/**
 * `broadcast_tx_async` semantics: starts CheckTx and returns the mempool pre-check rejection (full,
 * too large, already in cache) if there is one, without waiting for CheckTx itself. The pre-checks run
 * synchronously at the start of `Engine.checkTx`, so their rejection is visible after one turn of
 * the event loop; CheckTx results are not awaited.
 */
export async function checkTxAsync(engine: Engine, raw: Uint8Array): Promise<MempoolError | undefined> {
  let rejected: unknown;
  engine.checkTx(raw).catch((e: unknown) => { rejected = e; });
  await new Promise<void>((resolve) => setImmediate(resolve));
  return rejected instanceof MempoolError ? rejected : undefined;
}

/** Cosmos SDK codes of CometBFT mempool rejections (`CheckCometError`: 19 in cache, 20 full, 21 too large). */
export const MEMPOOL_ERROR_CODES: Record<MempoolError['kind'], number> = { 'in-cache': 19, full: 20, 'too-large': 21 };
