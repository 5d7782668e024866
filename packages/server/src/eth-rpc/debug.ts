/**
 * The `debug` namespace: geth's tracing API.
 *
 * - debug_traceTransaction(hash, config?), debug_traceBlockByNumber(number, config?),
 *   debug_traceBlockByHash(hash, config?): the block is replayed on a throwaway branch of the state after
 *   the previous height (its begin-block hooks, then every tx before the traced one, Cosmos txs included;
 *   the adapter's traceBlock, `EthereumExecution`), so a trace shows exactly the recorded execution; the replayed gas used
 *   and failure are checked against the receipt.
 * - debug_traceCall(call, blockNrOrHash, config?): the call on the state of that block, with
 *   `config.stateOverrides` (geth StateOverride) applied on a throwaway branch.
 *
 * config: `tracer` ('' / absent = struct logger, 'callTracer'), `tracerConfig` ({onlyTopCall, withLog}),
 * `timeout` (Go duration, default 5s, per traced tx), struct logger options `disableStack`,
 * `disableStorage`, `enableMemory`, `enableReturnData`, `limit` (entries). Errors: malformed params
 * -32602; unknown tx / block, genesis, unknown tracer, timeouts -32000 with geth's messages.
 */
import { fromTimestamp } from '@chain/consensus';
import type { ReplayBlockRequest } from '@chain/app';
import type { EthTraceOptions as TracerOptions, EthTracedTx as TracedTx } from './adapter.js';
import type { Backend, EthBlock } from './backend.js';
import { callRequest } from './eth.js';
import type { Handler } from './types.js';
import { InvalidParams, RpcError, ServerError, parseHash } from './util.js';

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration string (`5s`, `300ms`, `1m30s`, `1.5h`) in milliseconds. */
export function parseGoDuration(text: string): number {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy;
  let ms = 0;
  let pos = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    ms += Number(m[1]) * UNITS[m[2]!]!;
    pos = re.lastIndex;
  }
  if (s === '' || pos !== s.length) throw InvalidParams(`invalid timeout: time: invalid duration ${JSON.stringify(text)}`);
  return ms;
}

function bool(o: Record<string, unknown>, key: string, where: string): boolean | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw InvalidParams(`invalid ${where}.${key}: expected a boolean, got ${JSON.stringify(v)}`);
  return v;
}

/** geth's TraceConfig (and TraceCallConfig when `call`) → tracer options and the state overrides. */
export function parseTraceConfig(v: unknown, call = false): { opts: TracerOptions; overrides: unknown } {
  if (v === undefined || v === null) return { opts: {}, overrides: undefined };
  if (typeof v !== 'object' || Array.isArray(v)) throw InvalidParams('invalid trace config: expected an object');
  const c = v as Record<string, unknown>;
  if (c.tracer !== undefined && c.tracer !== null && typeof c.tracer !== 'string') throw InvalidParams('invalid trace config.tracer: expected a string');
  const limit = c.limit;
  if (limit !== undefined && limit !== null && !(typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0)) {
    throw InvalidParams(`invalid trace config.limit: expected a non-negative integer, got ${JSON.stringify(limit)}`);
  }
  let timeoutMs: number | undefined;
  if (c.timeout !== undefined && c.timeout !== null) {
    if (typeof c.timeout !== 'string') throw InvalidParams('invalid trace config.timeout: expected a duration string like "5s"');
    timeoutMs = parseGoDuration(c.timeout);
  }
  let tracerConfig: { onlyTopCall?: boolean; withLog?: boolean } | undefined;
  const tc = c.tracerConfig;
  if (tc !== undefined && tc !== null) {
    if (typeof tc !== 'object' || Array.isArray(tc)) throw InvalidParams('invalid trace config.tracerConfig: expected an object');
    const t = tc as Record<string, unknown>;
    tracerConfig = { onlyTopCall: bool(t, 'onlyTopCall', 'tracerConfig'), withLog: bool(t, 'withLog', 'tracerConfig') };
  }
  if (call && c.blockOverrides !== undefined && c.blockOverrides !== null) throw InvalidParams('blockOverrides are not supported by this node');
  const opts: TracerOptions = {
    tracer: (c.tracer as string | undefined) ?? undefined,
    tracerConfig,
    timeoutMs,
    disableStack: bool(c, 'disableStack', 'trace config'),
    disableStorage: bool(c, 'disableStorage', 'trace config'),
    enableMemory: bool(c, 'enableMemory', 'trace config'),
    enableReturnData: bool(c, 'enableReturnData', 'trace config'),
    limit: (limit as number | undefined) ?? undefined,
  };
  return { opts, overrides: call ? c.stateOverrides : undefined };
}

/** Tracing failures → JSON-RPC errors (timeouts, unknown tracers, bad calls: -32000 with the message). */
function rpcError(e: unknown): Error {
  if (e instanceof RpcError) return e;
  return ServerError(e instanceof Error ? e.message : String(e));
}

/** The committed block `height` as a replay request (the header fields the execution read, its txs). */
async function replayRequest(b: Backend, height: number): Promise<ReplayBlockRequest> {
  const sb = await b.source.block(height);
  if (!sb) throw ServerError(`block #${height} not found`);
  const h = sb.block.header;
  return { height, time: fromTimestamp(h.time), proposer: h.proposerAddress, txs: sb.block.data.txs };
}

/** Replays and traces the Ethereum txs of `block` (or only `only`), checked against their receipts. */
async function traceEthBlock(b: Backend, block: EthBlock, opts: TracerOptions, only?: string): Promise<TracedTx[]> {
  // block 1 also carries the genesis state (InitChain): there is no state before it to replay on
  if (block.height <= 1) throw ServerError('genesis is not traceable');
  let traced: TracedTx[];
  try {
    traced = await b.execution.traceBlock(await replayRequest(b, block.height), opts, only);
  } catch (e) {
    throw rpcError(e);
  }
  for (const t of traced) {
    const rec = block.txs.find((x) => x.tx.hashHex === t.hash);
    const replayedFailed = t.execution.vmError !== undefined;
    if (!rec || rec.gasUsed !== t.execution.gasUsed || (rec.failed !== undefined) !== replayedFailed) {
      throw ServerError(`replay of tx ${t.hash} diverged from its receipt (gas used ${t.execution.gasUsed} vs ${rec?.gasUsed ?? 'none'})`);
    }
  }
  return traced;
}

async function traceBlockAt(b: Backend, block: EthBlock | undefined, what: string, config: unknown): Promise<unknown> {
  const { opts } = parseTraceConfig(config);
  if (!block) throw ServerError(`block ${what} not found`);
  if (block.height === 0) throw ServerError('genesis is not traceable');
  if (block.txs.length === 0) return [];
  return (await traceEthBlock(b, block, opts)).map((t) => ({ txHash: t.hash, result: t.result }));
}

export const debugMethods: Record<string, Handler> = {
  debug_traceTransaction: async ([hash, config], { backend }) => {
    const h = parseHash(hash, 'transaction hash');
    const { opts } = parseTraceConfig(config);
    const found = await backend.txByHash(h);
    if (!found) throw ServerError('transaction not found');
    const [t] = await traceEthBlock(backend, found.block, opts, h);
    if (!t) throw ServerError(`transaction ${h} was not executed by the replay of block #${found.block.height}`);
    return t.result;
  },
  debug_traceBlockByNumber: async ([tag, config], { backend }) => {
    if (tag === 'pending') throw InvalidParams('tracing the pending block is not supported');
    const h = await backend.resolveBlock(tag, { arg: 0, hashes: false });
    // geth's earliest is the genesis block
    if (h === 0 || tag === 'earliest') throw ServerError('genesis is not traceable');
    return traceBlockAt(backend, h === undefined ? undefined : await backend.blockByHeight(h), `#${String(tag)}`, config);
  },
  debug_traceBlockByHash: async ([hash, config], { backend }) => {
    const h = parseHash(hash, 'block hash');
    return traceBlockAt(backend, await backend.blockByHash(h), h, config);
  },
  debug_traceCall: async ([call, tag, config], ctx) => {
    const { opts, overrides } = parseTraceConfig(config, true);
    const req = callRequest(call, ctx, overrides);
    const { backend } = ctx;
    const height = await backend.resolveTag(tag ?? 'latest', true);
    try {
      return await backend.execution.traceCall(height, req, opts);
    } catch (e) {
      throw rpcError(e);
    }
  },
};
