/**
 * Tracing (the `debug_trace*` methods): geth's tracers over executions that are exactly the original ones.
 *
 * - A committed tx is traced by replaying its block (App.replayBlock): the state after the previous
 *   height, the block's begin-block hooks (fee market base fee), then every tx before it, Cosmos txs
 *   included, and finally the tx itself with a tracer attached to its EVM run. The replay runs on a
 *   throwaway branch; the committed state is never written.
 * - A call (debug_traceCall) runs like eth_call, optionally on state overrides, with a tracer attached.
 *
 * Each traced run has its own time limit (geth's `timeout`, 5 s by default): the traced EVM run yields to
 * the event loop and is aborted at the deadline ({@link TraceTimeoutError}). The traces of one request
 * have a size cap (TraceTooLargeError), so no trace can exhaust the node's memory.
 */
import type { App, Context, ReplayBlockRequest } from '@chain/app';
import type { ProtoObject } from '@chain/codec';
import { branch } from '@chain/store';
import { CallTracer } from './call-tracer.js';
import type { CallTracerConfig } from './call-tracer.js';
import { ExecutionTimeoutError } from './executor.js';
import type { ExecutionResult, RunBudget } from './executor.js';
import type { EvmKeeper, TxTracing } from './keeper.js';
import { callMessage, callState, prepareCall } from './query.js';
import { StructLogger } from './struct-logger.js';
import type { StructLoggerConfig } from './struct-logger.js';
import { TraceSize } from './tracer.js';
import type { EvmTracer } from './tracer.js';

/** geth's default trace timeout. */
export const DEFAULT_TRACE_TIMEOUT_MS = 5000;

/** Names of the tracers served besides the default struct logger. */
export const TRACER_NAMES = ['callTracer'] as const;

/** Which tracer, and its options (geth's TraceConfig, parsed). */
export interface TracerOptions extends StructLoggerConfig {
  /** undefined or '' → the struct logger */
  readonly tracer?: string;
  readonly tracerConfig?: CallTracerConfig;
  /** time limit of each traced run (ms) */
  readonly timeoutMs?: number;
  /** cap on the estimated JSON size of the request's traces (default DEFAULT_MAX_TRACE_BYTES) */
  readonly maxBytes?: number;
}

/** A tracer that produces a JSON result when its run has finished. */
export interface ResultTracer extends EvmTracer {
  result(): unknown;
}

/** A traced run that exceeded its time limit (geth: `execution timeout`). */
export class TraceTimeoutError extends Error {
  constructor() {
    super('execution timeout');
  }
}

/** An unknown tracer name (geth: `tracer not found`). */
export class TracerNotFoundError extends Error {
  constructor(name: string) {
    super(`tracer not found: ${JSON.stringify(name)} (available: the default struct logger, ${TRACER_NAMES.join(', ')})`);
  }
}

/**
 * A new tracer for `opts` (throws {@link TracerNotFoundError} for unknown names); `size` is the result size
 * budget it counts against (shared by the tracers of one request).
 */
export function createTracer(opts: TracerOptions = {}, size = new TraceSize(opts.maxBytes)): ResultTracer {
  if (opts.tracer === undefined || opts.tracer === '') return new StructLogger(opts, size);
  if (opts.tracer === 'callTracer') return new CallTracer(opts.tracerConfig, size);
  throw new TracerNotFoundError(opts.tracer);
}

function budgetOf(timeoutMs: number): RunBudget {
  return { deadline: performance.now() + timeoutMs, timeoutMs };
}

/** `t`'s hooks, plus a record of the executor's result of the run. */
function recording(t: ResultTracer): { hooks: EvmTracer; execution: () => ExecutionResult | undefined } {
  let execution: ExecutionResult | undefined;
  const hooks: EvmTracer = {
    step: t.step?.bind(t),
    enter: t.enter?.bind(t),
    exit: t.exit?.bind(t),
    finish: (m, env, r) => { execution = r; t.finish?.(m, env, r); },
  };
  return { hooks, execution: () => execution };
}

/**
 * Traces an EthCallRequest (see query.ts) on the query state `query` (with its `overrides` applied on a
 * throwaway branch). Returns the tracer's result.
 */
export async function traceCall(keeper: EvmKeeper, query: Context, req: ProtoObject, opts: TracerOptions = {}): Promise<unknown> {
  const tracer = createTracer(opts);
  const prepared = prepareCall(keeper, query, req);
  const a = prepared.a;
  const { ctx, env } = callState(keeper, query, req.overrides, prepared.env);
  if (a.gas < a.minGas) throw new Error(`intrinsic gas too low: have ${a.gas}, want ${a.minGas}`);
  try {
    await keeper.execute(ctx.withStore(branch(ctx.ms)), callMessage(a, a.gas), env, budgetOf(opts.timeoutMs ?? DEFAULT_TRACE_TIMEOUT_MS), tracer);
  } catch (e) {
    if (e instanceof ExecutionTimeoutError) throw new TraceTimeoutError();
    throw e;
  }
  return tracer.result();
}

/** One traced Ethereum tx of a block. */
export interface TracedTx {
  /** 0x Ethereum tx hash */
  readonly hash: string;
  /** index of its Cosmos tx in the block */
  readonly cosmosIndex: number;
  /** the tracer's result */
  readonly result: unknown;
  /** the executor's result of the replayed run (gas used after refunds, failure) */
  readonly execution: ExecutionResult;
}

/**
 * Replays block `req` and traces its Ethereum txs (only `only` when given: the replay stops after it).
 * Each traced tx gets a fresh tracer from `opts` and its own time limit. Txs the original block did not
 * execute (failed ante) are not executed by the replay either and so are not traced.
 */
export async function traceBlock(app: App, keeper: EvmKeeper, req: ReplayBlockRequest, opts: TracerOptions = {}, only?: string): Promise<TracedTx[]> {
  createTracer(opts); // fail on a bad tracer name before replaying anything
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TRACE_TIMEOUT_MS;
  const size = new TraceSize(opts.maxBytes);
  const replay = await app.replayBlock(req);
  const runs: { hash: string; cosmosIndex: number; tracer: ResultTracer; rec: ReturnType<typeof recording>; tracing: TxTracing }[] = [];
  try {
    keeper.traceTxs(replay.block, (hash) => {
      if (only !== undefined && hash !== only) return undefined;
      const tracer = createTracer(opts, size);
      const rec = recording(tracer);
      const tracing: TxTracing = { tracer: rec.hooks, budget: budgetOf(timeoutMs) };
      runs.push({ hash, cosmosIndex: replay.executed - 1, tracer, rec, tracing });
      return tracing;
    });
    while (replay.executed < req.txs.length) {
      await replay.next();
      const last = runs[runs.length - 1];
      if (last?.tracing.error !== undefined) {
        if (last.tracing.error instanceof ExecutionTimeoutError) throw new TraceTimeoutError();
        throw last.tracing.error;
      }
      if (only !== undefined && last !== undefined) break;
    }
  } finally {
    replay.close();
  }
  const out: TracedTx[] = [];
  for (const r of runs) {
    const execution = r.rec.execution();
    // a tx whose ante passed but whose message failed before the EVM ran has nothing to report
    if (execution) out.push({ hash: r.hash, cosmosIndex: r.cosmosIndex, result: r.tracer.result(), execution });
  }
  return out;
}
