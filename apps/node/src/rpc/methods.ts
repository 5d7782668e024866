/** The CometBFT v0.38 RPC methods served by the embedded engine. */
import type { Node } from '../node.js';
import { MempoolError } from '@chain/consensus';
import type { StoredBlock } from '@chain/consensus';
import { parseQuery, QueryParseError } from '@chain/events';
import { toBase64, toHex, sha256 } from '@chain/crypto';
import { RpcErrors } from './errors.js';
import type { ParamSpec, Params } from './params.js';
import { blockIdJson, blockJson, blockResultsJson, commitJson, eventsJson, headerJson, hex, pubKeyJson, rfc3339Nano, txResultJson } from './format.js';
import { COMETBFT_VERSION } from '../services/consensus-service.js';
import { parseDurationMs } from '../config/config.js';
import { canonicalizeQuery } from '../services/tx-service.js';

export interface MethodDef {
  readonly params: readonly ParamSpec[];
  readonly wsOnly?: boolean;
  readonly handler: (node: Node, p: Params) => Promise<unknown> | unknown;
}

const MAX_QUERY_LENGTH = 512;
const int = (name: string): ParamSpec => ({ name, type: 'int' });
const str = (name: string): ParamSpec => ({ name, type: 'string' });

function resolveHeight(node: Node, h: Params[string]): number {
  const latest = node.engine.latestHeight;
  if (h === undefined) return latest;
  const n = Number(h);
  if (n <= 0) throw RpcErrors.internal(`height must be greater than 0, but got ${n}`);
  if (n > latest) throw RpcErrors.internal(`height ${n} must be less than or equal to the current blockchain height ${latest}`);
  return n;
}

async function storedBlock(node: Node, height: number): Promise<StoredBlock> {
  const b = await node.engine.blocks.block(height);
  if (!b) throw RpcErrors.internal(`height ${height} is not available`);
  return b;
}

function checkTxJson(r: { code: number; data?: Uint8Array; log: string; info?: string; gasWanted: number; gasUsed: number; events: { type: string; attributes: { key: string; value: string; index?: boolean }[] }[]; codespace: string }): unknown {
  return {
    code: r.code, data: r.data && r.data.length ? toBase64(r.data) : null, log: r.log, info: r.info ?? '',
    gas_wanted: String(r.gasWanted), gas_used: String(r.gasUsed), events: eventsJson(r.events), codespace: r.codespace,
  };
}

function parseSearchQuery(node: Node, q: Params[string]): ReturnType<typeof parseQuery> {
  const text = String(q ?? '');
  if (text.length > MAX_QUERY_LENGTH) throw RpcErrors.internal('maximum query length exceeded');
  try {
    return parseQuery(canonicalizeQuery(node.app, text));
  } catch (e) {
    if (e instanceof QueryParseError) throw RpcErrors.internal(`failed to parse query: ${e.message}`);
    throw e;
  }
}

function pageOf(p: Params, total: number, defPer = 30): { page: number; perPage: number } {
  let perPage = Number(p.per_page ?? defPer);
  if (perPage < 1) perPage = defPer;
  if (perPage > 100) perPage = 100;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const page = p.page === undefined ? 1 : Number(p.page);
  if (page < 1 || page > pages) throw RpcErrors.internal(`page should be within [1, ${pages}] range, given ${page}`);
  return { page, perPage };
}

async function broadcast(node: Node, p: Params): Promise<{ hash: Uint8Array; res: Awaited<ReturnType<Node['engine']['checkTx']>> }> {
  const tx = p.tx as Uint8Array | undefined;
  if (!tx || tx.length === 0) throw RpcErrors.internal('tx is empty');
  try {
    const res = await node.engine.checkTx(tx);
    return { hash: res.hash, res };
  } catch (e) {
    if (e instanceof MempoolError) throw RpcErrors.internal(e.message);
    throw e;
  }
}

export function statusJson(node: Node): unknown {
  const e = node.engine;
  const latest = e.latestBlock;
  const rpc = node.config.config.rpc.laddr;
  const idHex = toHex(sha256(e.validatorPubKey)).slice(0, 40);
  return {
    node_info: {
      protocol_version: { p2p: '8', block: '11', app: '0' },
      id: idHex,
      listen_addr: 'tcp://0.0.0.0:26656',
      network: e.chainId,
      version: COMETBFT_VERSION,
      channels: '40202122233038606100',
      moniker: node.config.config.moniker,
      other: { tx_index: 'on', rpc_address: rpc },
    },
    sync_info: {
      latest_block_hash: latest ? hex(latest.blockId.hash) : '',
      latest_app_hash: hex(node.app.lastAppHash),
      latest_block_height: String(e.latestHeight),
      latest_block_time: latest ? rfc3339Nano(latest.block.header.time) : new Date(e.genesis.genesis_time).toISOString(),
      earliest_block_hash: '',
      earliest_app_hash: '',
      earliest_block_height: e.latestHeight > 0 ? '1' : '0',
      earliest_block_time: new Date(e.genesis.genesis_time).toISOString(),
      catching_up: false,
    },
    validator_info: { address: hex(e.validatorAddr), pub_key: pubKeyJson(e.validatorPubKey), voting_power: String(e.validators.find((v) => hex(v.address) === hex(e.validatorAddr))?.votingPower ?? 0) },
  };
}

async function txJson(node: Node, height: number, index: number): Promise<unknown> {
  const block = await node.engine.blocks.block(height);
  const results = await node.engine.blocks.results(height);
  const raw = block?.block.data.txs[index];
  const r = results?.txResults[index];
  if (!raw || !r) throw RpcErrors.internal(`tx at ${height}/${index} not found`);
  return { hash: hex(sha256(raw)), height: String(height), index, tx_result: txResultJson(r), tx: toBase64(raw) };
}

export const METHODS: Record<string, MethodDef> = {
  health: { params: [], handler: () => ({}) },
  status: { params: [], handler: (node) => statusJson(node) },
  net_info: { params: [], handler: () => ({ listening: true, listeners: ['Listener(@)'], n_peers: '0', peers: [] }) },
  abci_info: {
    params: [],
    handler: (node) => {
      const i = node.app.info();
      return { response: { data: i.data, version: i.version, app_version: String(i.appVersion), last_block_height: String(i.lastBlockHeight), last_block_app_hash: toBase64(i.lastBlockAppHash) } };
    },
  },
  abci_query: {
    params: [str('path'), { name: 'data', type: 'hexbytes' }, int('height'), { name: 'prove', type: 'bool' }],
    handler: async (node, p) => {
      const height = p.height === undefined || p.height === 0 ? 0 : resolveHeight(node, p.height);
      const r = await node.app.query({ path: String(p.path ?? ''), data: (p.data as Uint8Array | undefined) ?? new Uint8Array(), height });
      return {
        response: {
          code: r.code, log: r.log, info: '', index: '0', key: null, value: r.value.length ? toBase64(r.value) : null,
          proofOps: null, height: String(r.height), codespace: r.codespace,
        },
      };
    },
  },
  broadcast_tx_async: {
    params: [{ name: 'tx', type: 'bytes' }],
    handler: async (node, p) => {
      const tx = p.tx as Uint8Array | undefined;
      if (!tx || tx.length === 0) throw RpcErrors.internal('tx is empty');
      const hash = sha256(tx);
      node.engine.checkTx(tx).catch(() => undefined);
      return { code: 0, data: '', log: '', codespace: '', hash: hex(hash) };
    },
  },
  broadcast_tx_sync: {
    params: [{ name: 'tx', type: 'bytes' }],
    handler: async (node, p) => {
      const { hash, res } = await broadcast(node, p);
      return { code: res.code, data: hex(res.data), log: res.log, codespace: res.codespace, hash: hex(hash) };
    },
  },
  broadcast_tx_commit: {
    params: [{ name: 'tx', type: 'bytes' }],
    handler: async (node, p) => {
      const { hash, res } = await broadcast(node, p);
      const empty = { code: 0, data: null, log: '', info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' };
      if (res.code !== 0) return { check_tx: checkTxJson(res), tx_result: empty, hash: hex(hash), height: '0' };
      const inc = await node.engine.waitForTx(hash, parseDurationMs(node.config.config.rpc.timeout_broadcast_tx_commit));
      if (!inc) throw RpcErrors.internal('timed out waiting for tx to be included in a block');
      return { check_tx: checkTxJson(res), tx_result: txResultJson(inc.result), hash: hex(hash), height: String(inc.height) };
    },
  },
  check_tx: {
    params: [{ name: 'tx', type: 'bytes' }],
    handler: async (node, p) => {
      const tx = p.tx as Uint8Array | undefined;
      if (!tx || tx.length === 0) throw RpcErrors.internal('tx is empty');
      return checkTxJson(await node.app.checkTx(tx));
    },
  },
  tx: {
    params: [{ name: 'hash', type: 'bytes' }, { name: 'prove', type: 'bool' }],
    handler: async (node, p) => {
      const hash = p.hash as Uint8Array | undefined;
      if (!hash) throw RpcErrors.internal('tx hash is required');
      const ref = await node.engine.indexer.byHash(hash);
      if (!ref) throw RpcErrors.internal(`tx (${hex(hash)}) not found`);
      return txJson(node, ref.height, ref.index);
    },
  },
  tx_search: {
    params: [str('query'), { name: 'prove', type: 'bool' }, int('page'), int('per_page'), str('order_by')],
    handler: async (node, p) => {
      const q = parseSearchQuery(node, p.query);
      const order = String(p.order_by ?? '');
      if (!['', 'asc', 'desc'].includes(order)) throw RpcErrors.internal('expected order_by to be either `asc` or `desc` or empty');
      let perPage = Number(p.per_page ?? 30);
      if (perPage < 1) perPage = 30;
      if (perPage > 100) perPage = 100;
      const page = p.page === undefined ? 1 : Number(p.page);
      const res = await node.engine.indexer.search(q, { page: Math.max(page, 1), perPage, orderDesc: order === 'desc' });
      pageOf({ page, per_page: perPage }, res.total);
      const txs = [];
      for (const t of res.txs) txs.push(await txJson(node, t.height, t.index));
      return { txs, total_count: String(res.total) };
    },
  },
  block: {
    params: [int('height')],
    handler: async (node, p) => {
      const b = await storedBlock(node, resolveHeight(node, p.height));
      return { block_id: blockIdJson(b.blockId), block: blockJson(b.block) };
    },
  },
  block_by_hash: {
    params: [{ name: 'hash', type: 'bytes' }],
    handler: async (node, p) => {
      const h = p.hash ? await node.engine.blocks.heightByHash(p.hash as Uint8Array) : undefined;
      if (h === undefined) return { block_id: { hash: '', parts: { total: 0, hash: '' } }, block: null };
      const b = await storedBlock(node, h);
      return { block_id: blockIdJson(b.blockId), block: blockJson(b.block) };
    },
  },
  header: {
    params: [int('height')],
    handler: async (node, p) => ({ header: headerJson((await storedBlock(node, resolveHeight(node, p.height))).block.header) }),
  },
  header_by_hash: {
    params: [{ name: 'hash', type: 'hexbytes' }],
    handler: async (node, p) => {
      const h = p.hash ? await node.engine.blocks.heightByHash(p.hash as Uint8Array) : undefined;
      if (h === undefined) return { header: null };
      return { header: headerJson((await storedBlock(node, h)).block.header) };
    },
  },
  block_results: {
    params: [int('height')],
    handler: async (node, p) => {
      const h = resolveHeight(node, p.height);
      const r = await node.engine.blocks.results(h);
      if (!r) throw RpcErrors.internal(`could not find results for height #${h}`);
      return blockResultsJson(r);
    },
  },
  commit: {
    params: [int('height')],
    handler: async (node, p) => {
      const h = resolveHeight(node, p.height);
      const b = await storedBlock(node, h);
      const c = await node.engine.blocks.seenCommit(h);
      if (!c) throw RpcErrors.internal(`commit for height ${h} not found`);
      return { signed_header: { header: headerJson(b.block.header), commit: commitJson(c) }, canonical: h < node.engine.latestHeight };
    },
  },
  blockchain: {
    params: [int('minHeight'), int('maxHeight')],
    handler: async (node, p) => {
      const latest = node.engine.latestHeight;
      let min = Number(p.minHeight ?? 0);
      let max = Number(p.maxHeight ?? 0);
      if (min < 0 || max < 0) throw RpcErrors.internal('heights must be non-negative');
      if (min === 0) min = 1;
      if (max === 0 || max > latest) max = latest;
      if (min > max) throw RpcErrors.internal(`min height ${min} can't be greater than max height ${max}`);
      min = Math.max(min, max - 19);
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
    handler: (node, p) => {
      const h = resolveHeight(node, p.height);
      const vals = node.engine.validators;
      const { page, perPage } = pageOf(p, vals.length);
      const slice = vals.slice((page - 1) * perPage, page * perPage);
      return {
        block_height: String(h),
        validators: slice.map((v) => ({ address: hex(v.address), pub_key: pubKeyJson(v.pubKey), voting_power: String(v.votingPower), proposer_priority: String(v.proposerPriority) })),
        count: String(slice.length),
        total: String(vals.length),
      };
    },
  },
  consensus_params: {
    params: [int('height')],
    handler: (node, p) => ({ block_height: String(resolveHeight(node, p.height)), consensus_params: node.engine.genesis.consensus_params }),
  },
  genesis: {
    params: [],
    handler: (node) => {
      const text = JSON.stringify(node.engine.genesis);
      if (text.length > 16 * 1024 * 1024) throw RpcErrors.internal('genesis response is large, please use the genesis_chunked API instead');
      return { genesis: node.engine.genesis };
    },
  },
  genesis_chunked: {
    params: [int('chunk')],
    handler: (node, p) => {
      const bytes = new TextEncoder().encode(JSON.stringify(node.engine.genesis));
      const size = 16 * 1024 * 1024;
      const total = Math.max(1, Math.ceil(bytes.length / size));
      const chunk = Number(p.chunk ?? 0);
      if (chunk < 0 || chunk >= total) throw RpcErrors.internal(`there are ${total} chunks, ${chunk} is invalid`);
      return { chunk: String(chunk), total: String(total), data: toBase64(bytes.subarray(chunk * size, (chunk + 1) * size)) };
    },
  },
  unconfirmed_txs: {
    params: [int('limit')],
    handler: (node, p) => {
      const mp = node.engine.mempool;
      let limit = Number(p.limit ?? 30);
      if (limit < 1) limit = 30;
      if (limit > 100) limit = 100;
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

export { MAX_QUERY_LENGTH };
