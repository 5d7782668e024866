/**
 * ABCI queries on the raw store paths, as the SDK's `baseapp` `handleQueryStore` → `rootmulti.Store.Query` →
 * `iavl.Store.Query` (v0.50): `/store/<name>/key` (data: the key in the store; with `prove`, the ICS-23 proof
 * ops `ics23:iavl` then `ics23:simple`, against the app hash in the header of the next block) and
 * `/store/<name>/subspace` (data: a key prefix; the value is a `cosmos.base.kv.v1beta1.Pairs` of the latest
 * state, as the SDK's).
 */
import protobuf from 'protobufjs';
import { concatBytes as concat } from '@chain/crypto';
import { prefixEnd, type CommitStore } from '@chain/store';
import { Errors } from '@chain/errors';
import type { QueryRequest, QueryResponse } from './abci.js';
import { queryErrorToAbci } from './query-errors.js';

export function isStoreQuery(path: string): boolean {
  return path === '/store' || path.startsWith('/store/');
}

export async function queryStore(store: CommitStore, req: QueryRequest, height: number): Promise<QueryResponse> {
  const empty = new Uint8Array(0);
  try {
    if (height <= 1 && req.prove) throw Errors.InvalidRequest.wrap('cannot query with proof when height <= 1; please provide a valid height');
    // baseapp: the path segments after "store"; rootmulti parsePath: /<storeName>[/<subpath>]
    const segs = req.path.split('/').filter((s) => s !== '');
    const name = segs[1] ?? '';
    const subpath = segs.length > 2 ? `/${segs.slice(2).join('/')}` : '';
    if (!store.storeNames.includes(name)) throw Errors.UnknownRequest.wrap(`no such store: ${name}`);
    if (req.data.length === 0) throw Errors.TxDecode.wrap('query cannot be zero length');
    const prefix = new TextEncoder().encode(`${name}/`);
    if (subpath === '/key') {
      const base = { code: 0, codespace: '', log: '', key: req.data, value: empty, height };
      if (height > store.lastHeight || height < store.earliestHeight) {
        // iavl.Store.Query: an absent version answers code 0 with this log; with prove, rootmulti refuses
        if (req.prove) throw Errors.InvalidRequest.wrap('proof is unexpectedly empty; ensure height has not been pruned');
        return { ...base, log: 'version does not exist' };
      }
      if (req.prove) {
        const { value, proofOps } = store.proveAt(height, name, req.data);
        return { ...base, value: value ?? empty, proofOps };
      }
      return { ...base, value: (await store.getAt(height, concat(prefix, req.data))) ?? empty };
    }
    if (subpath === '/subspace') {
      // Pairs { repeated Pair pairs = 1 }, Pair { bytes key = 1; bytes value = 2 }
      const w = protobuf.Writer.create();
      const start = concat(prefix, req.data);
      for (const [k, v] of store.state.iterator(start, prefixEnd(start))) w.uint32(10).fork().uint32(10).bytes(k.subarray(prefix.length)).uint32(18).bytes(v).ldelim();
      return { code: 0, codespace: '', log: '', key: req.data, value: w.finish(), height };
    }
    throw Errors.UnknownRequest.wrap(`unexpected query path: ${subpath}`);
  } catch (e) {
    return { ...queryErrorToAbci(e), value: empty, height };
  }
}
