/** The tx service (Simulate, GetTx, BroadcastTx, GetTxsEvent), served through the app's query router. */
import type { App, QueryHandler } from '@chain/app';
import { MAX_PAGE_LIMIT } from '@chain/app';
import type { Engine } from '@chain/consensus';
import { MempoolError } from '@chain/consensus';
import { parseQuery, QueryParseError } from '@chain/events';
import { fromHex, toHex, sha256 } from '@chain/crypto';
import { statusError, GrpcCode } from '@chain/errors';
import { broadcastResponse, txResponse } from './tx-response.js';

const EVENT_RE = /^[a-zA-Z_][a-zA-Z0-9_.-]*\.[a-zA-Z0-9_-]+(=|<=|>=|<|>)\S.*$/;
const MEMPOOL_CODES: Record<MempoolError['kind'], number> = { 'in-cache': 19, full: 20, 'too-large': 21 };

/** Rewrites `/cosmos.` message type URLs inside a query to the canonical names events carry. */
export function canonicalizeQuery(app: App, q: string): string {
  return q.replace(/'(\/cosmos\.[A-Za-z0-9_.]+)'/g, (m, url: string) => {
    const c = app.registry.canonicalTypeUrl(url);
    return c ? `'${c}'` : m;
  });
}

export function createTxService(app: App, engine: Engine, opts: { broadcastTimeoutMs: number }): Record<string, QueryHandler> {
  const loadTx = async (hashHex: string) => {
    let hash: Uint8Array;
    try {
      hash = fromHex(hashHex);
    } catch (e) {
      throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid tx hash ${hashHex}: ${(e as Error).message}`);
    }
    const ref = hash.length === 32 ? await engine.indexer.byHash(hash) : undefined;
    if (!ref) return undefined;
    const block = await engine.blocks.block(ref.height);
    const results = await engine.blocks.results(ref.height);
    const raw = block?.block.data.txs[ref.index];
    const result = results?.txResults[ref.index];
    if (!block || !raw || !result) return undefined;
    return { raw, height: ref.height, result, block };
  };

  return {
    Simulate: async (_ctx, req) => {
      const raw = req.tx_bytes as Uint8Array | undefined;
      if (!raw || raw.length === 0) throw statusError(GrpcCode.INVALID_ARGUMENT, 'empty txBytes is not allowed');
      const r = await app.simulate(raw);
      if (r.code !== 0) throw statusError(GrpcCode.UNKNOWN, `${r.log} With gas wanted: '${r.gasWanted}' and gas used: '${r.gasUsed}' `);
      return {
        gas_info: { gas_wanted: BigInt('18446744073709551615'), gas_used: BigInt(r.gasUsed) },
        result: {
          data: r.data, log: r.log,
          events: r.events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index ?? false })) })),
          msg_responses: r.msgResponses ?? [],
        },
      };
    },
    GetTx: async (_ctx, req) => {
      const hash = String(req.hash ?? '');
      if (!hash) throw statusError(GrpcCode.INVALID_ARGUMENT, 'tx hash cannot be empty');
      const t = await loadTx(hash);
      if (!t) throw statusError(GrpcCode.NOT_FOUND, `tx not found: ${hash}`);
      return { tx: app.registry.decode('chain.tx.v1beta1.Tx', t.raw), tx_response: txResponse(t.raw, t.height, t.result, t.block) };
    },
    BroadcastTx: async (_ctx, req) => {
      const raw = req.tx_bytes as Uint8Array | undefined;
      if (!raw || raw.length === 0) throw statusError(GrpcCode.INVALID_ARGUMENT, 'invalid empty tx');
      const mode = Number(req.mode ?? 0);
      if (mode !== 1 && mode !== 2 && mode !== 3) {
        throw statusError(GrpcCode.INVALID_ARGUMENT, 'unsupported return type BROADCAST_MODE_UNSPECIFIED; supported types: sync, async, block');
      }
      if (mode === 3) {
        // ASYNC: answer at once; CheckTx runs in the background
        engine.checkTx(raw).catch(() => undefined);
        return { tx_response: broadcastResponse(sha256(raw), { code: 0, codespace: '', log: '', gasWanted: 0, gasUsed: 0 }) };
      }
      let res;
      try {
        res = await engine.checkTx(raw);
      } catch (e) {
        if (e instanceof MempoolError) {
          return { tx_response: broadcastResponse(sha256(raw), { code: MEMPOOL_CODES[e.kind], codespace: 'sdk', log: e.message, gasWanted: 0, gasUsed: 0 }) };
        }
        throw e;
      }
      if (res.code !== 0 || mode !== 1) return { tx_response: broadcastResponse(res.hash, res) };
      const inc = await engine.waitForTx(res.hash, opts.broadcastTimeoutMs);
      if (!inc) throw statusError(GrpcCode.DEADLINE_EXCEEDED, 'timed out waiting for tx to be included in a block');
      const block = await engine.blocks.block(inc.height);
      return { tx_response: txResponse(raw, inc.height, inc.result, block) };
    },
    GetTxsEvent: async (_ctx, req) => {
      const events = ((req.events as string[] | undefined) ?? []).filter((e) => e.trim() !== '');
      const queryText = String(req.query ?? '').trim();
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
      let query;
      try {
        query = parseQuery(canonicalizeQuery(app, q));
      } catch (e) {
        if (e instanceof QueryParseError) throw statusError(GrpcCode.INVALID_ARGUMENT, `failed to parse query: ${e.message}`);
        throw e;
      }
      const pag = (req.pagination ?? {}) as { offset?: bigint; limit?: bigint };
      let limit = Number(req.limit ?? 0n) || Number(pag.limit ?? 0n) || MAX_PAGE_LIMIT;
      if (limit > MAX_PAGE_LIMIT) throw statusError(GrpcCode.INVALID_ARGUMENT, `limit must be at most ${MAX_PAGE_LIMIT}, got ${limit}`);
      if (limit < 1) limit = MAX_PAGE_LIMIT;
      const offset = req.page && Number(req.page) > 0 ? (Number(req.page) - 1) * limit : Number(pag.offset ?? 0n);
      const orderDesc = Number(req.order_by ?? 0) === 2;
      // the indexer pages by page number; an offset that is not a page multiple is served from a wider page
      const page = Math.floor(offset / limit) + 1;
      const first = await engine.indexer.search(query, { page, perPage: limit, orderDesc });
      let refs = first.txs.slice(offset % limit);
      if (offset % limit !== 0 && refs.length < limit) {
        const second = await engine.indexer.search(query, { page: page + 1, perPage: limit, orderDesc });
        refs = refs.concat(second.txs).slice(0, limit);
      }
      const txs: unknown[] = [];
      const responses: unknown[] = [];
      for (const ref of refs) {
        const block = await engine.blocks.block(ref.height);
        const results = await engine.blocks.results(ref.height);
        const raw = block?.block.data.txs[ref.index];
        const result = results?.txResults[ref.index];
        if (!block || !raw || !result) continue;
        txs.push(app.registry.decode('chain.tx.v1beta1.Tx', raw));
        responses.push(txResponse(raw, ref.height, result, block));
      }
      const nextOffset = offset + refs.length;
      return {
        txs, tx_responses: responses,
        pagination: { next_key: nextOffset < first.total ? new TextEncoder().encode(String(nextOffset)) : null, total: BigInt(first.total) },
        total: BigInt(first.total),
      };
    },
  };
}

export { toHex };
