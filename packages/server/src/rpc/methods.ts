/** The CometBFT v0.38 RPC methods served by the embedded engine (CMT rpc/core). */
import type { RpcNode as Node } from './host.js';
import { MempoolError, txProof } from '@chain/consensus';
import type { StoredBlock } from '@chain/consensus';
import type { QueryResponse } from '@chain/app';
import type { IdleRoundState } from './format.js';
import { parseQuery, QueryParseError } from '@chain/events';
import type { Query } from '@chain/events';
import { toBase64, toHex, sha256 } from '@chain/crypto';
import { RpcErrors } from './errors.js';
import type { ParamSpec, Params } from './params.js';
import { blockIdJson, blockJson, blockResultsJson, checkTxJson, commitJson, consensusParamsJson, emptyBlockIdJson, genesisJson, headerJson, hex, normalizeTime, consensusStateJson, dumpConsensusStateJson, pubKeyJson, rfc3339Nano, txProofJson, txResultJson } from './format.js';
import { parseDurationMs } from '../address.js';
import { canonicalizeQuery } from '../services/tx-service.js';
import { checkTxAsync } from '../services/broadcast.js';

export interface MethodDef {
  readonly params: readonly ParamSpec[];
  /** websocket only (subscribe, unsubscribe, unsubscribe_all): handled by the server */
  readonly wsOnly?: boolean;
  /**
   * CometBFT's `rpc.Cacheable`: successful responses carry `Cache-Control: public, max-age=86400`,
   * always, or only when the named height parameter is given and non-zero.
   */
  readonly cacheable?: 'always' | string;
  readonly handler: (node: Node, p: Params) => Promise<unknown> | unknown;
}

/** Longest query accepted by subscribe and tx_search (CometBFT `maxQueryLength`). */
export const MAX_QUERY_LENGTH = 512;
const GENESIS_CHUNK_SIZE = 16 * 1024 * 1024;

const int = (name: string): ParamSpec => ({ name, type: 'int' });
const str = (name: string): ParamSpec => ({ name, type: 'string' });
const bytes = (name: string): ParamSpec => ({ name, type: 'bytes' });
const bool = (name: string): ParamSpec => ({ name, type: 'bool' });

/** Lowest stored height (CometBFT `BlockStore.Base`), read once per node. */
const baseHeights = new WeakMap<Node, Promise<number>>();
function baseHeight(node: Node): Promise<number> {
  let p = baseHeights.get(node);
  if (!p) {
    p = node.engine.blocks.baseHeight().then((h) => {
      if (h === 0) baseHeights.delete(node); // nothing stored yet: ask again next time
      return h;
    });
    baseHeights.set(node, p);
  }
  return p;
}

/** CometBFT `getHeight`: absent → latest; else 1 ≤ h ≤ latest and not below the base. */
async function resolveHeight(node: Node, h: Params[string]): Promise<number> {
  const latest = node.engine.latestHeight;
  if (h === undefined) return latest;
  const n = Number(h);
  if (n <= 0) throw RpcErrors.internal(`height must be greater than 0, but got ${n}`);
  if (n > latest) throw RpcErrors.internal(`height ${n} must be less than or equal to the current blockchain height ${latest}`);
  const base = await baseHeight(node);
  if (n < base) throw RpcErrors.internal(`height ${n} is not available, lowest height is ${base}`);
  return n;
}

async function storedBlock(node: Node, height: number): Promise<StoredBlock> {
  const b = await node.engine.blocks.block(height);
  if (!b) throw RpcErrors.internal(`height ${height} is not available`);
  return b;
}

/** Parses a query for subscribe / tx_search; `prefix` is CometBFT's wrapping of parser errors. */
export function parseRpcQuery(node: Node, text: string, prefix: string): Query {
  if (text.length > MAX_QUERY_LENGTH) throw RpcErrors.internal('maximum query length exceeded');
  try {
    return parseQuery(canonicalizeQuery(node.app, text));
  } catch (e) {
    if (e instanceof QueryParseError) throw RpcErrors.internal(`${prefix}${e.message}`);
    throw e;
  }
}

/** CometBFT `validatePerPage`: default 30, at most 100, < 1 → default. */
function perPageOf(v: Params[string]): number {
  if (v === undefined) return 30;
  const n = Number(v);
  if (n < 1) return 30;
  return Math.min(n, 100);
}

/** CometBFT `validatePage`. */
function pageOf(v: Params[string], perPage: number, total: number): number {
  if (v === undefined) return 1;
  const pages = Math.max(1, Math.floor((total - 1 + perPage) / perPage));
  const page = Number(v);
  if (page <= 0 || page > pages) throw RpcErrors.internal(`page should be within [1, ${pages}] range, given ${page}`);
  return page;
}

/** The query, order and paging arguments shared by `tx_search` and `block_search` (CometBFT's checks). */
function searchArgs(node: Node, p: Params): { q: Query; order: string; page: number; perPage: number } {
  const text = String(p.query ?? '');
  if (text.length > MAX_QUERY_LENGTH) throw RpcErrors.internal('maximum query length exceeded');
  const order = String(p.order_by ?? '');
  if (!['', 'asc', 'desc'].includes(order)) throw RpcErrors.internal('expected order_by to be either `asc` or `desc` or empty');
  const q = parseRpcQuery(node, text, '');
  const requested = p.page === undefined ? 1 : Number(p.page);
  return { q, order, page: Math.max(requested, 1), perPage: perPageOf(p.per_page) };
}

/** CheckTx through the engine (mempool admission); mempool rejections are RPC errors. */
async function checkTxToMempool(node: Node, tx: Uint8Array): Promise<Awaited<ReturnType<Node['engine']['checkTx']>>> {
  try {
    return await node.engine.checkTx(tx);
  } catch (e) {
    if (e instanceof MempoolError) throw RpcErrors.internal(e.message);
    throw e;
  }
}

interface NodeInfoJson {
  protocol_version: { p2p: string; block: string; app: string };
  id: string;
  listen_addr: string;
  network: string;
  version: string;
  channels: string;
  moniker: string;
  other: { tx_index: string; rpc_address: string };
}

/** The node info of `status`, from the same source as REST `node_info` (one node id everywhere). */
const nodeInfos = new WeakMap<Node, Promise<NodeInfoJson>>();
function nodeInfo(node: Node): Promise<NodeInfoJson> {
  let p = nodeInfos.get(node);
  if (!p) {
    p = node.app.runQuery('/chain.base.consensus.v1beta1.Service/GetNodeInfo', {}).then((r) => {
      const d = r.default_node_info as Record<string, unknown> & { protocol_version: Record<string, bigint>; other: Record<string, string>; channels: Uint8Array };
      return {
        protocol_version: { p2p: String(d.protocol_version.p2p), block: String(d.protocol_version.block), app: String(d.protocol_version.app) },
        id: String(d.default_node_id),
        listen_addr: String(d.listen_addr),
        network: String(d.network),
        version: String(d.version),
        channels: toHex(d.channels).toUpperCase(),
        moniker: String(d.moniker),
        other: { tx_index: d.other.tx_index ?? 'on', rpc_address: d.other.rpc_address ?? '' },
      };
    });
    p.catch(() => nodeInfos.delete(node));
    nodeInfos.set(node, p);
  }
  return p;
}

/** Earliest block meta (hash, app hash, time) for `status`, read once. */
const earliest = new WeakMap<Node, Promise<{ height: number; hash: string; appHash: string; time: string } | undefined>>();
function earliestBlock(node: Node): Promise<{ height: number; hash: string; appHash: string; time: string } | undefined> {
  let p = earliest.get(node);
  if (!p) {
    p = (async () => {
      const base = await baseHeight(node);
      const b = base > 0 ? await node.engine.blocks.block(base) : undefined;
      if (!b) return undefined;
      return { height: base, hash: hex(b.blockId.hash), appHash: hex(b.block.header.appHash), time: rfc3339Nano(b.block.header.time) };
    })();
    p.then((v) => { if (!v) earliest.delete(node); }, () => earliest.delete(node));
    earliest.set(node, p);
  }
  return p;
}

/**
 * `status`. Deviation kept on purpose: `latest_app_hash` is the app hash after executing the latest
 * block (what the next header will carry), where CometBFT reports the latest header's app hash;
 * e2e/test/crash-recovery.test.ts relies on this meaning.
 */
export async function statusJson(node: Node): Promise<unknown> {
  const e = node.engine;
  const latest = e.latestBlock;
  const [info, first] = await Promise.all([nodeInfo(node), earliestBlock(node)]);
  const genesisTime = normalizeTime(e.genesis.genesis_time);
  const own = e.validators.find((v) => toHex(v.address) === toHex(e.validatorAddr));
  return {
    node_info: info,
    sync_info: {
      latest_block_hash: latest ? hex(latest.blockId.hash) : '',
      latest_app_hash: hex(node.app.lastAppHash),
      latest_block_height: String(e.latestHeight),
      latest_block_time: latest ? rfc3339Nano(latest.block.header.time) : genesisTime,
      earliest_block_hash: first?.hash ?? '',
      earliest_app_hash: first?.appHash ?? '',
      earliest_block_height: String(first?.height ?? 0),
      earliest_block_time: first?.time ?? genesisTime,
      catching_up: false,
    },
    validator_info: { address: hex(e.validatorAddr), pub_key: pubKeyJson(e.validatorPubKey), voting_power: String(own?.votingPower ?? 0) },
  };
}

/** CometBFT `ResultTx`; with `prove`, `proof` is the block's `Txs.Proof(index)` (omitted otherwise: omitempty). */
async function txJson(node: Node, height: number, index: number, prove: boolean): Promise<unknown> {
  const [block, results] = await Promise.all([node.engine.blocks.block(height), node.engine.blocks.results(height)]);
  const raw = block?.block.data.txs[index];
  const r = results?.txResults[index];
  if (!raw || !r) throw RpcErrors.internal(`tx at ${height}/${index} not found`);
  const out: Record<string, unknown> = { hash: hex(sha256(raw)), height: String(height), index, tx_result: txResultJson(r), tx: toBase64(raw) };
  if (prove) out.proof = txProofJson(txProof(block.block.data.txs, index));
  return out;
}

/**
 * The embedded engine's round state: between heights it is always in step NewHeight of the next height, round 0
 * (it proposes, precommits and commits each block at once), as CometBFT's `updateToState` leaves it: start time =
 * the commit time (its own precommit's timestamp) + timeout_commit, the next set with itself as proposer.
 */
async function idleRoundState(node: Node): Promise<IdleRoundState> {
  const e = node.engine;
  const h = e.latestHeight;
  const commit = h > 0 ? (await e.blocks.seenCommit(h)) ?? null : null;
  const own = commit?.signatures.find((s) => s.blockIdFlag === 2);
  const genesisMs = Date.parse(e.genesis.genesis_time);
  const commitTime = own?.timestamp ?? { seconds: Math.floor(genesisMs / 1000), nanos: (genesisMs % 1000) * 1e6 };
  const lastVals = h > 0 ? (await e.validatorsAt(h)) ?? [] : [];
  return {
    height: h > 0 ? h + 1 : Number(e.genesis.initial_height || 1),
    validators: e.validators,
    proposer: e.validatorAddr,
    lastValidators: lastVals,
    lastProposer: (await e.blocks.block(h))?.block.header.proposerAddress ?? e.validatorAddr,
    lastCommit: commit,
    commitTime,
    timeoutCommitMs: e.timeoutCommit,
  };
}

function genesisText(node: Node): string {
  let t = genesisTexts.get(node);
  if (t === undefined) {
    t = JSON.stringify(genesisJson(node.engine.genesis, node.engine.params));
    genesisTexts.set(node, t);
  }
  return t;
}
const genesisTexts = new WeakMap<Node, string>();

export const METHODS: Record<string, MethodDef> = {
  health: { params: [], handler: () => ({}) },
  status: { params: [], handler: (node) => statusJson(node) },
  net_info: {
    params: [],
    // CometBFT lists its p2p.external_address (empty by default); the embedded engine has no p2p layer
    handler: () => ({ listening: true, listeners: ['Listener(@)'], n_peers: '0', peers: [] }),
  },
  abci_info: {
    params: [],
    cacheable: 'always',
    handler: (node) => {
      const i = node.app.infoSync();
      // ResponseInfo through libs/json: zero fields are omitted
      const r: Record<string, string> = {};
      if (i.data) r.data = i.data;
      if (i.version) r.version = i.version;
      if (i.appVersion) r.app_version = String(i.appVersion);
      if (i.lastBlockHeight) r.last_block_height = String(i.lastBlockHeight);
      if (i.lastBlockAppHash.length) r.last_block_app_hash = toBase64(i.lastBlockAppHash);
      return { response: r };
    },
  },
  abci_query: {
    params: [str('path'), { name: 'data', type: 'hexbytes' }, int('height'), bool('prove')],
    handler: async (node, p) => {
      const height = Number(p.height ?? 0);
      // CometBFT's ResponseQuery JSON: empty bytes are null, proofOps null without a proof
      const response = (r: QueryResponse) => ({
        response: {
          code: r.code, log: r.log, info: '', index: '0', key: r.key?.length ? toBase64(r.key) : null,
          value: r.value.length ? toBase64(r.value) : null,
          proofOps: r.proofOps ? { ops: r.proofOps.map((o) => ({ type: o.type, key: toBase64(o.key), data: toBase64(o.data) })) } : null,
          height: String(r.height), codespace: r.codespace,
        },
      });
      if (height < 0) {
        return response({ code: 26, codespace: 'sdk', log: 'cannot query with height < 0; please provide a valid height: invalid height', value: new Uint8Array(), height });
      }
      const r = await node.app.query({ path: String(p.path ?? ''), data: (p.data as Uint8Array | undefined) ?? new Uint8Array(), height, prove: p.prove === true });
      return response(r);
    },
  },
  broadcast_tx_async: {
    params: [bytes('tx')],
    handler: async (node, p) => {
      const tx = (p.tx as Uint8Array | undefined) ?? new Uint8Array();
      const rejected = await checkTxAsync(node.engine, tx);
      if (rejected) throw RpcErrors.internal(rejected.message);
      return { code: 0, data: '', log: '', codespace: '', hash: hex(sha256(tx)) };
    },
  },
  broadcast_tx_sync: {
    params: [bytes('tx')],
    handler: async (node, p) => {
      const tx = (p.tx as Uint8Array | undefined) ?? new Uint8Array();
      const res = await checkTxToMempool(node, tx);
      return { code: res.code, data: hex(res.data), log: res.log, codespace: res.codespace, hash: hex(res.hash) };
    },
  },
  broadcast_tx_commit: {
    params: [bytes('tx')],
    handler: async (node, p) => {
      const tx = (p.tx as Uint8Array | undefined) ?? new Uint8Array();
      const res = await checkTxToMempool(node, tx);
      const empty = { code: 0, data: null, log: '', info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' };
      if (res.code !== 0) return { check_tx: checkTxJson(res), tx_result: empty, hash: hex(res.hash), height: '0' };
      const inc = await node.engine.waitForTx(res.hash, parseDurationMs(node.config.timeout_broadcast_tx_commit));
      if (!inc) throw RpcErrors.internal('timed out waiting for tx to be included in a block');
      return { check_tx: checkTxJson(res), tx_result: txResultJson(inc.result), hash: hex(res.hash), height: String(inc.height) };
    },
  },
  check_tx: {
    params: [bytes('tx')],
    handler: async (node, p) => checkTxJson(await node.app.checkTx({ tx: (p.tx as Uint8Array | undefined) ?? new Uint8Array(), type: 'new' })),
  },
  tx: {
    params: [bytes('hash'), bool('prove')],
    cacheable: 'always',
    handler: async (node, p) => {
      const hash = (p.hash as Uint8Array | undefined) ?? new Uint8Array();
      const ref = hash.length === 32 ? await node.engine.indexer.byHash(hash) : undefined;
      if (!ref) throw RpcErrors.internal(`tx (${hex(hash)}) not found`);
      return txJson(node, ref.height, ref.index, p.prove === true);
    },
  },
  tx_search: {
    params: [str('query'), bool('prove'), int('page'), int('per_page'), str('order_by')],
    handler: async (node, p) => {
      const { q, order, page, perPage } = searchArgs(node, p);
      const res = await node.engine.indexer.search(q, { page, perPage, orderDesc: order === 'desc' });
      pageOf(p.page, perPage, res.total);
      const txs = [];
      for (const t of res.txs) txs.push(await txJson(node, t.height, t.index, p.prove === true));
      return { txs, total_count: String(res.total) };
    },
  },
  block_search: {
    params: [str('query'), int('page'), int('per_page'), str('order_by')],
    handler: async (node, p) => {
      const { q, order, page, perPage } = searchArgs(node, p);
      // CometBFT: newest first unless order_by is asc
      const res = await node.engine.indexer.searchBlocks(q, { page, perPage, orderDesc: order !== 'asc' });
      pageOf(p.page, perPage, res.total);
      const blocks = [];
      for (const h of res.heights) {
        const b = await storedBlock(node, h);
        blocks.push({ block_id: blockIdJson(b.blockId), block: blockJson(b.block) });
      }
      return { blocks, total_count: String(res.total) };
    },
  },
  block: {
    params: [int('height')],
    cacheable: 'height',
    handler: async (node, p) => {
      const b = await storedBlock(node, await resolveHeight(node, p.height));
      return { block_id: blockIdJson(b.blockId), block: blockJson(b.block) };
    },
  },
  block_by_hash: {
    params: [bytes('hash')],
    cacheable: 'always',
    handler: async (node, p) => {
      const hash = p.hash as Uint8Array | undefined;
      const h = hash && hash.length === 32 ? await node.engine.blocks.heightByHash(hash) : undefined;
      if (h === undefined) return { block_id: emptyBlockIdJson(), block: null };
      const b = await storedBlock(node, h);
      return { block_id: blockIdJson(b.blockId), block: blockJson(b.block) };
    },
  },
  header: {
    params: [int('height')],
    cacheable: 'height',
    handler: async (node, p) => ({ header: headerJson((await storedBlock(node, await resolveHeight(node, p.height))).block.header) }),
  },
  header_by_hash: {
    params: [{ name: 'hash', type: 'hexbytes' }],
    cacheable: 'always',
    handler: async (node, p) => {
      const hash = p.hash as Uint8Array | undefined;
      const h = hash && hash.length === 32 ? await node.engine.blocks.heightByHash(hash) : undefined;
      if (h === undefined) return { header: null };
      return { header: headerJson((await storedBlock(node, h)).block.header) };
    },
  },
  block_results: {
    params: [int('height')],
    cacheable: 'height',
    handler: async (node, p) => {
      const h = await resolveHeight(node, p.height);
      const r = await node.engine.blocks.results(h);
      if (!r) throw RpcErrors.internal(`could not find results for height #${h}`);
      return blockResultsJson(r);
    },
  },
  commit: {
    params: [int('height')],
    cacheable: 'height',
    handler: async (node, p) => {
      const h = await resolveHeight(node, p.height);
      const b = await storedBlock(node, h);
      const c = await node.engine.blocks.seenCommit(h);
      if (!c) throw RpcErrors.internal(`commit for height ${h} not found`);
      // the latest height is answered with the seen commit (non-canonical), earlier ones with the canonical one
      return { signed_header: { header: headerJson(b.block.header), commit: commitJson(c) }, canonical: h < node.engine.latestHeight };
    },
  },
  blockchain: {
    params: [int('minHeight'), int('maxHeight')],
    cacheable: 'always',
    handler: async (node, p) => {
      const latest = node.engine.latestHeight;
      let min = Number(p.minHeight ?? 0);
      let max = Number(p.maxHeight ?? 0);
      if (min < 0 || max < 0) throw RpcErrors.internal('heights must be non-negative');
      if (min === 0) min = 1;
      if (max === 0) max = latest;
      max = Math.min(latest, max);
      min = Math.max(await baseHeight(node), min);
      min = Math.max(min, max - 20 + 1);
      if (min > max) throw RpcErrors.internal(`min height ${min} can't be greater than max height ${max}`);
      const metas = [];
      for (let h = max; h >= min; h--) {
        const b = await storedBlock(node, h);
        metas.push({ block_id: blockIdJson(b.blockId), block_size: String(b.size), header: headerJson(b.block.header), num_txs: String(b.block.data.txs.length) });
      }
      return { last_height: String(latest), block_metas: metas };
    },
  },
  validators: {
    params: [int('height'), int('page'), int('per_page')],
    cacheable: 'height',
    handler: async (node, p) => {
      const h = await resolveHeight(node, p.height);
      const vals = (await node.engine.validatorsAt(h)) ?? node.engine.validators;
      const perPage = perPageOf(p.per_page);
      const page = pageOf(p.page, perPage, vals.length);
      const slice = vals.slice((page - 1) * perPage, page * perPage);
      return {
        block_height: String(h),
        validators: slice.map((v) => ({ address: hex(v.address), pub_key: pubKeyJson(v.pubKey), voting_power: String(v.votingPower), proposer_priority: String(v.proposerPriority) })),
        count: String(slice.length),
        total: String(vals.length),
      };
    },
  },
  consensus_state: { params: [], handler: async (node) => consensusStateJson(await idleRoundState(node)) },
  dump_consensus_state: { params: [], handler: async (node) => dumpConsensusStateJson(await idleRoundState(node)) },
  consensus_params: {
    params: [int('height')],
    cacheable: 'height',
    handler: async (node, p) => ({ block_height: String(await resolveHeight(node, p.height)), consensus_params: consensusParamsJson(node.engine.params) }),
  },
  genesis: {
    params: [],
    cacheable: 'always',
    handler: (node) => {
      const text = genesisText(node);
      if (Buffer.byteLength(text) > GENESIS_CHUNK_SIZE) throw RpcErrors.internal('genesis response is large, please use the genesis_chunked API instead');
      return { genesis: JSON.parse(text) as unknown };
    },
  },
  genesis_chunked: {
    params: [int('chunk')],
    cacheable: 'always',
    handler: (node, p) => {
      const all = Buffer.from(genesisText(node), 'utf8');
      const total = Math.max(1, Math.ceil(all.length / GENESIS_CHUNK_SIZE));
      const chunk = Number(p.chunk ?? 0);
      if (chunk < 0 || chunk > total - 1) throw RpcErrors.internal(`there are ${total - 1} chunks, ${chunk} is invalid`);
      return { chunk: String(chunk), total: String(total), data: all.subarray(chunk * GENESIS_CHUNK_SIZE, (chunk + 1) * GENESIS_CHUNK_SIZE).toString('base64') };
    },
  },
  unconfirmed_txs: {
    params: [int('limit')],
    handler: (node, p) => {
      const mp = node.engine.mempool;
      const limit = perPageOf(p.limit);
      const txs = mp.list(limit);
      return { n_txs: String(txs.length), total: String(mp.size), total_bytes: String(mp.bytes), txs: txs.map((t) => toBase64(t.raw)) };
    },
  },
  num_unconfirmed_txs: {
    params: [],
    handler: (node) => {
      const mp = node.engine.mempool;
      return { n_txs: String(mp.size), total: String(mp.size), total_bytes: String(mp.bytes), txs: null };
    },
  },
  subscribe: { params: [str('query')], wsOnly: true, handler: () => ({}) },
  unsubscribe: { params: [str('query')], wsOnly: true, handler: () => ({}) },
  unsubscribe_all: { params: [], wsOnly: true, handler: () => ({}) },
};

/** Whether a successful response to `def` called with `p` is cacheable (CometBFT `cacheableWithArgs`). */
export function isCacheable(def: MethodDef, p: Params): boolean {
  if (!def.cacheable) return false;
  if (def.cacheable === 'always') return true;
  const v = p[def.cacheable === 'height' ? 'height' : def.cacheable];
  return v !== undefined && Number(v) !== 0;
}

export { MempoolError };
