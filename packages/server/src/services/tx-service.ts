/**
 * The tx service (Simulate, GetTx, BroadcastTx, GetTxsEvent) of `chain.tx.v1beta1.Service` (Cosmos
 * `cosmos.tx.v1beta1.Service`), served through the app's query router to REST, gRPC and abci_query.
 */
import type { App, QueryServer } from '@chain/app';
import { MAX_PAGE_LIMIT } from '@chain/app';
import { MempoolError } from '@chain/consensus';
import { parseQuery, QueryParseError } from '@chain/events';
import { fromHex, toHex, sha256 } from '@chain/crypto';
import { statusError, GrpcCode } from '@chain/errors';
import type { ProtoObject, chain_base_abci_v1beta1, chain_base_query_v1beta1 } from '@chain/codec';
import { chain_tx_v1beta1 } from '@chain/tx';
import { broadcastResponse, checkTxResponse, deliverTxResponse, txResponse } from './tx-response.js';
import { MEMPOOL_ERROR_CODES } from './broadcast.js';
import type { ConsensusSource } from '../consensus-source.js';

/** One `events` entry of the pre-0.50 API: `{eventType}.{eventAttribute}{op}{value}` (SDK EventRegex, relaxed for digits). */
const EVENT_RE = /^[a-zA-Z_][a-zA-Z0-9_.-]*\.[a-zA-Z0-9_-]+(=|<=|>=|<|>)\S.*$/;
/** Longest query CometBFT's tx_search accepts. */
const MAX_QUERY_LENGTH = 512;
const MAX_UINT64 = 18446744073709551615n;
/** Simulation reports an infinite gas meter; the app reports it as MAX_SAFE_INTEGER. */
const INFINITE_GAS = Number.MAX_SAFE_INTEGER;

/**
 * Rewrites the alias message type URLs inside a query (`/cosmos.…`, and those of the registry's aliases, e.g.
 * `/plugchain.prc10.MsgIssueToken`) to the canonical names events carry. Other quoted values are left alone.
 */
export function canonicalizeQuery(app: App, q: string): string {
  return q.replace(/'(\/[A-Za-z_][A-Za-z0-9_.]*)'/g, (m, url: string) => {
    const c = app.registry.canonicalTypeUrl(url);
    return c ? `'${c}'` : m;
  });
}

/** Our opaque `pagination.next_key` for tx search: the offset of the next page, 8 bytes big-endian. */
function encodeOffsetKey(offset: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(offset));
  return b;
}

function decodeOffsetKey(key: Uint8Array): number {
  if (key.length !== 8) throw statusError(GrpcCode.INVALID_ARGUMENT, 'invalid pagination.key: not a key returned by this query');
  const v = new DataView(key.buffer, key.byteOffset, 8).getBigUint64(0);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw statusError(GrpcCode.INVALID_ARGUMENT, 'invalid pagination.key: not a key returned by this query');
  return Number(v);
}

const BROADCAST_MODES: Record<number, string> = { 0: 'unspecified', 1: 'block', 2: 'sync', 3: 'async' };
const { BroadcastMode, OrderBy } = chain_tx_v1beta1;

type Tx = chain_tx_v1beta1.Tx;
type TxResponse = chain_base_abci_v1beta1.TxResponse;

/** The definition of the service (`chain.tx.v1beta1.Service`) that `createTxService` implements. */
export const TxService = chain_tx_v1beta1.Service;

/**
 * tx-response.ts builds TxResponse objects as untyped plain objects (ProtoObject) with the fields of
 * `chain.base.abci.v1beta1.TxResponse`; this is where they enter the typed service.
 */
const asTxResponse = (o: ProtoObject): TxResponse => o as TxResponse;

export function createTxService(app: App, source: ConsensusSource, opts: { broadcastTimeoutMs: number }): QueryServer<chain_tx_v1beta1.ServiceMethods> {
  const loadTx = async (hash: Uint8Array) => {
    const ref = hash.length === 32 ? await source.txByHash(hash) : undefined;
    if (!ref) return undefined;
    const [block, results] = await Promise.all([source.block(ref.height), source.results(ref.height)]);
    const raw = block?.block.data.txs[ref.index];
    const result = results?.txResults[ref.index];
    if (!block || !raw || !result) return undefined;
    return { raw, height: ref.height, result, block };
  };

  /** TxRaw of the deprecated `SimulateRequest.tx` (re-marshaled, as the SDK does when tx_bytes is empty). */
  const txRawOf = (tx: Tx): Uint8Array => app.registry.encode('chain.tx.v1beta1.TxRaw', {
    body_bytes: app.registry.encode('chain.tx.v1beta1.TxBody', tx.body ?? {}),
    auth_info_bytes: app.registry.encode('chain.tx.v1beta1.AuthInfo', tx.auth_info ?? {}),
    signatures: tx.signatures,
  });

  return {
    Simulate: async (_ctx, req) => {
      let raw = req.tx_bytes;
      if (raw.length === 0 && req.tx) raw = txRawOf(req.tx);
      if (raw.length === 0) throw statusError(GrpcCode.INVALID_ARGUMENT, 'empty txBytes is not allowed');
      const r = await app.simulate(raw);
      if (r.code !== 0) {
        const wanted = r.gasWanted >= INFINITE_GAS ? MAX_UINT64 : BigInt(r.gasWanted);
        throw statusError(GrpcCode.UNKNOWN, `${r.log} With gas wanted: '${wanted}' and gas used: '${r.gasUsed}' `);
      }
      return {
        gas_info: { gas_wanted: MAX_UINT64, gas_used: BigInt(r.gasUsed) },
        result: {
          data: r.data, log: r.log,
          events: r.events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index ?? false })) })),
          msg_responses: r.msgResponses ?? [],
        },
      };
    },
    GetTx: async (_ctx, req) => {
      const hashText = req.hash;
      if (!hashText) throw statusError(GrpcCode.INVALID_ARGUMENT, 'tx hash cannot be empty');
      let hash: Uint8Array;
      try {
        if (/^0x/i.test(hashText)) throw new Error('invalid byte: U+0078 \'x\'');
        hash = fromHex(hashText);
      } catch {
        throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid tx hash ${JSON.stringify(hashText.slice(0, 100))}: encoding/hex: invalid byte`);
      }
      const t = await loadTx(hash);
      if (!t) throw statusError(GrpcCode.NOT_FOUND, `tx not found: ${hashText}`);
      return { tx: app.registry.decode<Tx>('chain.tx.v1beta1.Tx', t.raw), tx_response: asTxResponse(txResponse(t.raw, t.height, t.result, t.block)) };
    },
    BroadcastTx: async (_ctx, req) => {
      const raw = req.tx_bytes;
      if (raw.length === 0) throw statusError(GrpcCode.INVALID_ARGUMENT, 'invalid empty tx');
      const mode = req.mode;
      if (mode !== BroadcastMode.BROADCAST_MODE_BLOCK && mode !== BroadcastMode.BROADCAST_MODE_SYNC && mode !== BroadcastMode.BROADCAST_MODE_ASYNC) {
        // the SDK returns a plain error here (gRPC Unknown → HTTP 500)
        throw statusError(GrpcCode.UNKNOWN, `unsupported return type ${BROADCAST_MODES[mode] ?? String(mode)}; supported types: sync, async, block`);
      }
      const hash = sha256(raw);
      const mempoolRejection = (e: MempoolError) => ({ tx_response: asTxResponse(broadcastResponse(hash, { code: MEMPOOL_ERROR_CODES[e.kind], codespace: 'sdk', log: e.message })) });
      if (mode === BroadcastMode.BROADCAST_MODE_ASYNC) {
        // ASYNC: the mempool pre-checks only; CheckTx runs in the background
        const rejected = await source.broadcastAsync(raw);
        if (rejected) return mempoolRejection(rejected);
        return { tx_response: asTxResponse(broadcastResponse(hash, { code: 0, codespace: '', log: '' })) };
      }
      if (mode === BroadcastMode.BROADCAST_MODE_SYNC) {
        let res;
        try {
          res = await source.broadcastSync(raw);
        } catch (e) {
          if (e instanceof MempoolError) return mempoolRejection(e);
          throw e;
        }
        return { tx_response: asTxResponse(broadcastResponse(hash, res)) };
      }
      let out;
      try {
        out = await source.broadcastCommit(raw, opts.broadcastTimeoutMs);
      } catch (e) {
        if (e instanceof MempoolError) return mempoolRejection(e);
        throw e;
      }
      if (out.check.code !== 0) return { tx_response: asTxResponse(checkTxResponse(hash, out.check)) };
      const inc = out.included;
      if (!inc) throw statusError(GrpcCode.DEADLINE_EXCEEDED, 'timed out waiting for tx to be included in a block');
      return { tx_response: asTxResponse(deliverTxResponse(raw, inc.height, inc.result)) };
    },
    GetTxsEvent: async (_ctx, req) => {
      const events = req.events.filter((e) => e.trim() !== '');
      const queryText = req.query.trim();
      let q: string;
      if (queryText) {
        q = queryText;
      } else {
        if (events.length === 0) throw statusError(GrpcCode.INVALID_ARGUMENT, 'must declare at least one event to search');
        for (const e of events) {
          if (!EVENT_RE.test(e)) throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid event; event ${e} should be of the format: {eventType}.{eventAttribute}={value}`);
        }
        q = events.join(' AND ');
      }
      if (q.length > MAX_QUERY_LENGTH) throw statusError(GrpcCode.INVALID_ARGUMENT, `maximum query length exceeded (${q.length} > ${MAX_QUERY_LENGTH})`);
      const canonical = canonicalizeQuery(app, q);
      try {
        parseQuery(canonical);
      } catch (e) {
        if (e instanceof QueryParseError) throw statusError(GrpcCode.INVALID_ARGUMENT, `failed to parse query: ${e.message}`);
        throw e;
      }
      // page size and start: `page`/`limit` (0.46+) win over `pagination.{offset,key,limit}`
      const pag: Partial<chain_base_query_v1beta1.PageRequest> = req.pagination ?? {};
      const reqLimit = Number(req.limit);
      const pagLimit = Number(pag.limit ?? 0n);
      if (reqLimit > MAX_PAGE_LIMIT) throw statusError(GrpcCode.INVALID_ARGUMENT, `limit must be at most ${MAX_PAGE_LIMIT}, got ${req.limit}`);
      if (pagLimit > MAX_PAGE_LIMIT) throw statusError(GrpcCode.INVALID_ARGUMENT, `pagination.limit must be at most ${MAX_PAGE_LIMIT}, got ${pag.limit}`);
      const limit = reqLimit || pagLimit || MAX_PAGE_LIMIT;
      const key = pag.key && pag.key.length > 0 ? pag.key : undefined;
      const pagOffset = Number(pag.offset ?? 0n);
      if (key && pagOffset > 0) throw statusError(GrpcCode.INVALID_ARGUMENT, 'paginate: invalid request, either offset or key is expected, got both');
      const page = Number(req.page);
      const offset = page > 0 ? (page - 1) * limit : key ? decodeOffsetKey(key) : pagOffset;
      if (!Number.isSafeInteger(offset)) throw statusError(GrpcCode.INVALID_ARGUMENT, `page out of range: ${req.page}`);
      const orderDesc = req.order_by === OrderBy.ORDER_BY_DESC;
      // the indexer pages by page number; an offset that is not a multiple of the limit spans two pages
      const first = await source.searchTxs(canonical, { page: Math.floor(offset / limit) + 1, perPage: limit, orderDesc });
      let refs = first.txs.slice(offset % limit);
      if (offset % limit !== 0 && refs.length < limit && offset + refs.length < first.total) {
        const second = await source.searchTxs(canonical, { page: Math.floor(offset / limit) + 2, perPage: limit, orderDesc });
        refs = refs.concat(second.txs).slice(0, limit);
      }
      const txs: Tx[] = [];
      const responses: TxResponse[] = [];
      for (const ref of refs) {
        const [block, results] = await Promise.all([source.block(ref.height), source.results(ref.height)]);
        const raw = block?.block.data.txs[ref.index];
        const result = results?.txResults[ref.index];
        if (!block || !raw || !result) continue;
        txs.push(app.registry.decode<Tx>('chain.tx.v1beta1.Tx', raw));
        responses.push(asTxResponse(txResponse(raw, ref.height, result, block)));
      }
      const nextOffset = offset + refs.length;
      return {
        txs,
        tx_responses: responses,
        pagination: { next_key: nextOffset < first.total && refs.length > 0 ? encodeOffsetKey(nextOffset) : null, total: BigInt(first.total) },
        total: BigInt(first.total),
      };
    },
  };
}

export { toHex };
