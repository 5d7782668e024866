/**
 * The tracer seam of the executor: hooks a traced run attaches to the ethereumjs EVM of its lane
 * (`step`, `beforeMessage`, `afterMessage` on `evm.events`) and detaches afterwards. A run without a tracer
 * attaches nothing, so ethereumjs skips building its per-opcode step events (it checks
 * `events.listenerCount('step')`) and untraced execution costs exactly what it did before.
 */
import type { EVM, EVMResult, InterpreterStep, Message as EvmMessage } from '@ethereumjs/evm';
import type { BlockEnv, ExecutionResult, Message } from './executor.js';

/** Hooks of one traced run; every hook is optional. */
export interface EvmTracer {
  /** before each opcode (ethereumjs `step`: gas left, full cost, stack, memory, depth 0 = top frame) */
  step?(s: InterpreterStep): void;
  /** a frame starts (ethereumjs `beforeMessage`; depth 0 is the top-level call) */
  enter?(m: EvmMessage): void;
  /** the frame last entered ends (ethereumjs `afterMessage`) */
  exit?(r: EVMResult): void;
  /** the run is over: the message, the block it ran in and what the executor made of it (gas after refunds) */
  finish?(m: Message, env: BlockEnv, r: ExecutionResult): void;
}

/** Attaches `t`'s hooks to `evm`; returns the function that detaches them again. */
export function attachTracer(evm: EVM, t: EvmTracer): () => void {
  const step = t.step ? (s: InterpreterStep): void => t.step!(s) : undefined;
  const enter = t.enter ? (m: EvmMessage): void => t.enter!(m) : undefined;
  const exit = t.exit ? (r: EVMResult): void => t.exit!(r) : undefined;
  // one-argument listeners: ethereumjs calls them synchronously (two-argument ones are awaited)
  if (step) evm.events.on('step', step);
  if (enter) evm.events.on('beforeMessage', enter);
  if (exit) evm.events.on('afterMessage', exit);
  return () => {
    if (step) evm.events.off('step', step);
    if (enter) evm.events.off('beforeMessage', enter);
    if (exit) evm.events.off('afterMessage', exit);
  };
}

export { gethError } from './vm-errors.js';

/** Opcodes that open a frame, by number (the type of the frame their next `beforeMessage` starts). */
export const FRAME_OPS: ReadonlyMap<number, string> = new Map([
  [0xf0, 'CREATE'], [0xf1, 'CALL'], [0xf2, 'CALLCODE'], [0xf4, 'DELEGATECALL'], [0xf5, 'CREATE2'], [0xfa, 'STATICCALL'],
]);

/**
 * The full gas cost of a step as geth reports it. ethereumjs' step cost of the CALL family excludes the
 * gas forwarded to the callee (it charges what the callee used afterwards); geth's includes it: the
 * requested gas capped at all but 1/64 of what is left after the call's own cost (EIP-150).
 */
export function stepCost(s: InterpreterStep): bigint {
  const op = s.opcode.code;
  const cost = s.opcode.dynamicFee ?? BigInt(s.opcode.fee);
  if (op !== 0xf1 && op !== 0xf2 && op !== 0xf4 && op !== 0xfa) return cost;
  const requested = s.stack[s.stack.length - 1];
  const avail = s.gasLeft - cost;
  if (requested === undefined || avail < 0n) return cost;
  const cap = avail - avail / 64n;
  return cost + (requested < cap ? requested : cap);
}

/** Default cap on the (estimated JSON) size of the traces of one request. */
export const DEFAULT_MAX_TRACE_BYTES = 64 * 1024 * 1024;

/** A trace grew past its size cap: the traced run is aborted (a huge trace must not exhaust the node's memory). */
export class TraceTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`trace result too large (more than ${Math.round(maxBytes / (1024 * 1024))} MiB); use limit, disableStack, disableStorage or the callTracer`);
  }
}

/** The size budget of the traces of one request (shared by the tracers of a block). */
export class TraceSize {
  private used = 0;
  constructor(readonly maxBytes = DEFAULT_MAX_TRACE_BYTES) {}
  /** Accounts `bytes` more; throws {@link TraceTooLargeError} past the cap. */
  add(bytes: number): void {
    this.used += bytes;
    if (this.used > this.maxBytes) throw new TraceTooLargeError(this.maxBytes);
  }
}
