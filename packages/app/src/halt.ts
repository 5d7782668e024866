/**
 * A deliberate stop of the chain (the SDK's panic in a block hook, e.g. x/upgrade's `UPGRADE "<name>" NEEDED
 * at height: <h>`): thrown from a pre-block or begin-block hook, it fails FinalizeBlock, so the block is
 * never committed, and tells the consensus engine to stop producing blocks instead of retrying the height.
 * A restart of the same binary reaches the same hook at the same height and stops again.
 */
export class ChainHaltError extends Error {
  /** marker read by `isChainHalt` (works across copies of this package) */
  readonly chainHalt = true as const;

  constructor(message: string, readonly height: number) {
    super(message);
    this.name = 'ChainHaltError';
  }
}

/** True for a `ChainHaltError` (by its marker, so a second copy of @chain/app is recognized too). */
export function isChainHalt(e: unknown): e is ChainHaltError {
  return e instanceof Error && (e as { chainHalt?: unknown }).chainHalt === true;
}
