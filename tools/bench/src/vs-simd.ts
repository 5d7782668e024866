/**
 * `npm run bench -- --only vs-simd`: chaind side by side with the Go reference node, `simd` of ibc-go v8.5.2's
 * testing/simapp (Cosmos SDK v0.50, CometBFT v0.38 in process; built once from the Go module proxy by
 * `ensureSimd()`, see simd.ts). Same machine, same genesis accounts, same pre-signed load, one node at a time.
 *
 * Load mode (default): for each node a fresh single-validator home with `--accounts` funded accounts and 1 s
 * blocks; `--txs` bank sends pre-signed (SIGN_MODE_DIRECT) from those accounts; `--workers` forked generator
 * processes submit them over `--connections` connections with `broadcast_tx_sync` (websockets with requests
 * pipelined, so the generator is not what limits the node; `--transport http`: one request per tx); then 50 concurrent
 * REST balance queries. Prints figure | chaind | simd | ratio.
 *
 * Scale mode (`--scale N`): for each node a genesis with N more funded accounts (written as a stream), then
 * start to first block, peak RSS during start, restart to next block, RSS after restart, disk size of the home.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toBase64 } from '@cosmjs/encoding';
import { makeAuthInfoBytes, makeSignBytes, makeSignDoc } from '@cosmjs/proto-signing';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { secp256k1Address, secp256k1PublicKey, sha256, signSecp256k1Digest, toBech32 } from '@chain/crypto';
import { freePort } from '@chain/e2e';
import { initHome } from '@chain/node';
import { ensureSimd, REPO_ROOT, simdBuildInfo, SIMD_PACKAGE, SIMD_VERSION } from './simd.js';
import type { BroadcastResult, QueryResult } from './load-worker.js';
import { procCpuMs, procMemory, runWorkers } from './proc.js';

export interface VsSimdOptions {
  /** bank sends to submit (default 20000) */
  readonly txs: number;
  /** funded sender accounts in both genesis files (default 1000) */
  readonly accounts: number;
  /** generator processes (default 2) */
  readonly workers: number;
  /** concurrent broadcast connections in all (default 64) */
  readonly connections: number;
  /** how the generator submits: pipelined over websockets (default) or one HTTP request per tx */
  readonly transport: 'ws' | 'http';
  /** ws: requests in flight per connection (default 256) */
  readonly window: number;
  /** REST balance queries (default 20000, after 20 untimed ones per client) and concurrent clients (default 50) */
  readonly queries: number;
  readonly clients: number;
  /** scale mode: funded accounts in the genesis (no load) */
  readonly scale?: number;
  /** which nodes (default both) */
  readonly nodes: readonly ('chaind' | 'simd')[];
  /** keep the homes (printed) instead of removing them */
  readonly keep: boolean;
  /** how long a start may take before the bench gives up (default 30 min) */
  readonly startTimeoutMs: number;
  /**
   * load mode: how many times each node runs the load (default 1), alternating which one goes first; the table then
   * shows each figure's median over the rounds, and a line per round gives its sends/s and their ratio (this shared
   * machine's speed drifts by 10-20% within minutes, so one pair of runs is one sample)
   */
  readonly rounds?: number;
}

const TIMEOUT_COMMIT_MS = 1000;
/** how long the node idles after the load before its RSS is read again */
const IDLE_MS = 30_000;
/** the `chaind` command as npm installs it (a shell wrapper that sets MALLOC_ARENA_MAX, then bin/chaind.mjs) */
const CHAIND_CMD = join(REPO_ROOT, 'apps', 'node', 'bin', 'chaind');
const CHAIND_BIN = join(REPO_ROOT, 'apps', 'node', 'bin', 'chaind.mjs');
const SIMD_CHAIN_ID = 'simd-bench-1';
const SIMD_DENOM = 'stake';
const SIMD_GAS_PRICE = 0.001; // minimum-gas-prices = 0.001stake
const CHAIND_DENOM = 'achain';
const CHAIND_GAS_PRICE = 1_000_000_000n; // chaind dev's 1000000000achain
const GAS_LIMIT = 200_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (l: string): void => { process.stderr.write(l + '\n'); };

function duBytes(path: string): number {
  const r = spawnSync('du', ['-sb', path], { encoding: 'utf8' });
  return Number(r.stdout.split(/\s/)[0]);
}

// ---------------------------------------------------------------------------------------------------------
// small TOML edits of generated config files (a key inside a [section]; '' is the top level)

export function setToml(text: string, section: string, key: string, value: string): string {
  const lines = text.split('\n');
  let cur = '';
  for (let i = 0; i < lines.length; i++) {
    const h = /^\s*\[([^\]]+)\]\s*$/.exec(lines[i]!);
    if (h) { cur = h[1]!.trim(); continue; }
    if (cur === section && new RegExp(`^\\s*${key.replace(/[.-]/g, (c) => `\\${c}`)}\\s*=`).test(lines[i]!)) {
      lines[i] = `${key} = ${value}`;
      return lines.join('\n');
    }
  }
  throw new Error(`setToml: no key ${key} in [${section}]`);
}

export function editToml(file: string, edits: [section: string, key: string, value: string][]): void {
  let t = readFileSync(file, 'utf8');
  for (const [s, k, v] of edits) t = setToml(t, s, k, v);
  writeFileSync(file, t);
}

// ---------------------------------------------------------------------------------------------------------
// genesis written as a stream: the base document with the accounts and balances arrays spliced in by chunks

interface GenesisAccounts {
  readonly count: number;
  /** the 20-byte address of account i */
  address(i: number): Uint8Array;
}

function writeGenesisWithAccounts(file: string, o: {
  prefix: string; accountType: string; denom: string; balance: string; extra: GenesisAccounts; label: string;
}): { bytes: number; firstAccountNumber: number; ms: number } {
  const t0 = Date.now();
  const genesis = JSON.parse(readFileSync(file, 'utf8'));
  const auth = genesis.app_state.auth;
  const bank = genesis.app_state.bank;
  const existingAccounts: unknown[] = auth.accounts;
  const existingBalances: unknown[] = bank.balances;
  const firstAccountNumber = existingAccounts.reduce<number>((m, a: any) => Math.max(m, Number(a.account_number ?? a.base_account?.account_number ?? 0) + 1), 0);
  auth.accounts = '@@ACCOUNTS@@';
  bank.balances = '@@BALANCES@@';
  bank.supply = []; // empty: InitGenesis takes the sum of the balances (a non-empty one must match it exactly)
  const text = JSON.stringify(genesis);
  const [head, mid, tail] = ((): [string, string, string] => {
    const a = text.indexOf('"@@ACCOUNTS@@"');
    const b = text.indexOf('"@@BALANCES@@"');
    if (a < 0 || b < 0 || b < a) throw new Error('genesis layout: auth must come before bank in app_state');
    return [text.slice(0, a), text.slice(a + '"@@ACCOUNTS@@"'.length, b), text.slice(b + '"@@BALANCES@@"'.length)];
  })();
  const fd = openSync(file + '.tmp', 'w');
  let bytes = 0;
  const w = (s: string): void => { bytes += writeSync(fd, s); };
  const addrs: string[] = new Array(o.extra.count);
  const CHUNK = 10_000;
  const progress = (what: string, i: number): void => {
    if (o.extra.count >= 100_000 && i % 100_000 === 0 && i > 0) log(`  ${o.label}: genesis ${what} ${i}/${o.extra.count} (${((Date.now() - t0) / 1000).toFixed(0)}s)`);
  };
  w(head);
  w('[');
  w(existingAccounts.map((a) => JSON.stringify(a)).join(','));
  for (let i = 0; i < o.extra.count; i += CHUNK) {
    const parts: string[] = [];
    for (let j = i; j < Math.min(o.extra.count, i + CHUNK); j++) {
      const addr = toBech32(o.prefix, o.extra.address(j));
      addrs[j] = addr;
      parts.push(`{"@type":"${o.accountType}","address":"${addr}","pub_key":null,"account_number":"${firstAccountNumber + j}","sequence":"0"}`);
    }
    w((existingAccounts.length > 0 || i > 0 ? ',' : '') + parts.join(','));
    progress('accounts', i + CHUNK);
  }
  w(']');
  w(mid);
  w('[');
  w(existingBalances.map((b) => JSON.stringify(b)).join(','));
  for (let i = 0; i < o.extra.count; i += CHUNK) {
    const parts: string[] = [];
    for (let j = i; j < Math.min(o.extra.count, i + CHUNK); j++) parts.push(`{"address":"${addrs[j]}","coins":[{"denom":"${o.denom}","amount":"${o.balance}"}]}`);
    w((existingBalances.length > 0 || i > 0 ? ',' : '') + parts.join(','));
    progress('balances', i + CHUNK);
  }
  w(']');
  w(tail);
  closeSync(fd);
  renameSync(file + '.tmp', file);
  return { bytes, firstAccountNumber, ms: Date.now() - t0 };
}

// ---------------------------------------------------------------------------------------------------------
// the two nodes

interface LogLine { t: number; line: string }

interface BenchNode {
  readonly name: 'chaind' | 'simd';
  readonly home: string;
  readonly rpcUrl: string;
  readonly restUrl: string;
  readonly denom: string;
  readonly prefix: string;
  /** fee of one send with GAS_LIMIT */
  readonly fee: string;
  /** account number of the first bench account (as written in the genesis) */
  firstAccountNumber: number;
  proc?: ChildProcess;
  /** lines the bench keeps (block timing lines), with their arrival time */
  lines: LogLine[];
  tail: string[];
  spawnNode(): void;
  stop(): Promise<void>;
}

function captureOutput(node: BenchNode, keep: RegExp): void {
  let partial = '';
  const on = (d: Buffer): void => {
    const t = Date.now();
    partial += d.toString(); if (process.env.BENCH_NODE_LOG) appendFileSync(process.env.BENCH_NODE_LOG, d);
    const ls = partial.split('\n');
    partial = ls.pop()!;
    for (const line of ls) {
      if (keep.test(line)) node.lines.push({ t, line });
      node.tail.push(line);
      if (node.tail.length > 80) node.tail.shift();
    }
  };
  node.proc!.stdout!.on('data', on);
  node.proc!.stderr!.on('data', on);
}

function stopProc(p: ChildProcess | undefined): Promise<void> {
  if (!p || p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
    setTimeout(() => { if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL'); }, 20_000).unref();
  });
}

async function rpc(url: string, method: string, params: Record<string, unknown> = {}): Promise<any> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const j = (await r.json()) as any;
  if (j.error) throw new Error(`${method}: ${JSON.stringify(j.error)}`);
  return j.result;
}

async function height(node: BenchNode): Promise<number> {
  try {
    const r = await fetch(`${node.rpcUrl}/status`, { signal: AbortSignal.timeout(2000) });
    if (!r.ok) return -1;
    const j = (await r.json()) as { result: { sync_info: { latest_block_height: string } } };
    return Number(j.result.sync_info.latest_block_height);
  } catch {
    return -1;
  }
}

/**
 * The height the app has committed (`abci_info`'s `last_block_height`): CometBFT's `status` shows a block as soon as
 * it is stored, before the app has executed and committed it (simd's first block after a large genesis takes
 * minutes to commit), the embedded engine's only once committed.
 */
/** The latest height, asking again (for up to 30 s) while the node does not answer (a busy node's RPC may time out). */
async function knownHeight(node: BenchNode): Promise<number> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const h = await height(node);
    if (h >= 0) return h;
    if (Date.now() > deadline) throw new Error(`${node.name}: no answer to status for 30 s:\n${node.tail.join('\n')}`);
    await sleep(200);
  }
}

async function committedHeight(node: BenchNode): Promise<number> {
  try {
    const r = await fetch(`${node.rpcUrl}/abci_info`, { signal: AbortSignal.timeout(2000) });
    if (!r.ok) return -1;
    const j = (await r.json()) as { result: { response: { last_block_height?: string } } };
    return Number(j.result.response.last_block_height ?? 0);
  } catch {
    return -1;
  }
}

/** Waits until the node's latest height (`committed`: its app's committed height) is >= min. */
async function waitHeight(node: BenchNode, min: number, timeoutMs: number, committed = false): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const p = node.proc!;
    if (p.exitCode !== null || p.signalCode !== null) throw new Error(`${node.name} exited (${p.exitCode ?? p.signalCode}):\n${node.tail.join('\n')}`);
    const h = committed ? await committedHeight(node) : await height(node);
    if (h >= min) return h;
    if (Date.now() > deadline) throw new Error(`${node.name} did not reach height ${min} in ${timeoutMs / 1000}s:\n${node.tail.join('\n')}`);
    await sleep(50);
  }
}

/** A chaind dev home (`initHome({ dev: true })`, as `chaind dev` and e2e's startNode) with the extra accounts. */
async function prepareChaind(extra: GenesisAccounts, mempoolSize: number, label: string): Promise<BenchNode & { genesisBytes: number; genesisMs: number }> {
  const home = mkdtempSync(join(tmpdir(), 'chain-bench-vs-chaind-'));
  initHome({ home, dev: true });
  const ports = { rpc: await freePort(), api: await freePort(), grpc: await freePort(), eth: await freePort(), ethWs: await freePort() };
  editToml(join(home, 'config', 'config.toml'), [['mempool', 'size', String(mempoolSize)]]);
  const g = writeGenesisWithAccounts(join(home, 'config', 'genesis.json'), {
    prefix: 'chain', accountType: '/chain.auth.v1beta1.BaseAccount', denom: CHAIND_DENOM, balance: '1000000000000000000000000', extra, label,
  });
  // the flags of e2e's startNode: `chaind dev` (compiled by ensureChaindBuild) with 1 s blocks, on free local ports
  // BENCH_CHAIND_NODE_ARGS: Node.js flags for chaind, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" for a profile
  const nodeArgs = (process.env.BENCH_CHAIND_NODE_ARGS ?? '').split(' ').filter((x) => x !== '');
  const args = [
    'dev', '--home', home,
    '--rpc.laddr', `tcp://127.0.0.1:${ports.rpc}`,
    '--api.address', `tcp://127.0.0.1:${ports.api}`,
    '--consensus.timeout_commit', `${TIMEOUT_COMMIT_MS}ms`,
    '--grpc.address', `127.0.0.1:${ports.grpc}`,
    '--json-rpc.address', `127.0.0.1:${ports.eth}`,
    '--json-rpc.ws-address', `127.0.0.1:${ports.ethWs}`,
    // BENCH_CHAIND_ARGS: more chaind flags, e.g. "--tx_index.worker_thread false"
    ...(process.env.BENCH_CHAIND_ARGS ?? '').split(' ').filter((x) => x !== ''),
  ];
  const node: BenchNode & { genesisBytes: number; genesisMs: number } = {
    name: 'chaind', home, rpcUrl: `http://127.0.0.1:${ports.rpc}`, restUrl: `http://127.0.0.1:${ports.api}`,
    denom: CHAIND_DENOM, prefix: 'chain', fee: String(BigInt(GAS_LIMIT) * CHAIND_GAS_PRICE), firstAccountNumber: g.firstAccountNumber,
    lines: [], tail: [], genesisBytes: g.bytes, genesisMs: g.ms,
    spawnNode() {
      // as a user runs it (`chaind`), unless Node.js flags were asked for
      node.proc = nodeArgs.length > 0
        ? spawn(process.execPath, [...nodeArgs, CHAIND_BIN, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn(CHAIND_CMD, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      captureOutput(node, /committed block/);
    },
    stop: () => stopProc(node.proc),
  };
  return node;
}

function simdCli(bin: string, args: string[]): string {
  const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`simd ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout + r.stderr;
}

/**
 * A simd home as its docs make one: `simd init`, a test-keyring key, `genesis add-genesis-account`, `genesis gentx`,
 * `genesis collect-gentxs`; then the extra accounts, 1 s blocks, the REST API on, minimum gas prices.
 */
async function prepareSimd(bin: string, extra: GenesisAccounts, mempoolSize: number, label: string): Promise<BenchNode & { genesisBytes: number; genesisMs: number }> {
  const home = mkdtempSync(join(tmpdir(), 'chain-bench-vs-simd-'));
  const h = ['--home', home];
  simdCli(bin, ['init', 'bench', '--chain-id', SIMD_CHAIN_ID, ...h]);
  simdCli(bin, ['keys', 'add', 'val', '--keyring-backend', 'test', ...h]);
  simdCli(bin, ['genesis', 'add-genesis-account', 'val', `1000000000000000${SIMD_DENOM}`, '--keyring-backend', 'test', ...h]);
  simdCli(bin, ['genesis', 'gentx', 'val', `1000000000${SIMD_DENOM}`, '--chain-id', SIMD_CHAIN_ID, '--keyring-backend', 'test', ...h]);
  simdCli(bin, ['genesis', 'collect-gentxs', ...h]);
  const ports = { rpc: await freePort(), p2p: await freePort(), api: await freePort(), grpc: await freePort(), app: await freePort() };
  editToml(join(home, 'config', 'config.toml'), [
    ['', 'proxy_app', `"tcp://127.0.0.1:${ports.app}"`],
    ['rpc', 'laddr', `"tcp://127.0.0.1:${ports.rpc}"`],
    ['rpc', 'pprof_laddr', '""'],
    ['p2p', 'laddr', `"tcp://127.0.0.1:${ports.p2p}"`],
    ['mempool', 'size', String(mempoolSize)],
    ['consensus', 'timeout_commit', `"${TIMEOUT_COMMIT_MS}ms"`],
  ]);
  editToml(join(home, 'config', 'app.toml'), [
    ['', 'minimum-gas-prices', `"${SIMD_GAS_PRICE}${SIMD_DENOM}"`],
    ['api', 'enable', 'true'],
    ['api', 'address', `"tcp://127.0.0.1:${ports.api}"`],
    ['grpc', 'address', `"127.0.0.1:${ports.grpc}"`],
  ]);
  const g = writeGenesisWithAccounts(join(home, 'config', 'genesis.json'), {
    prefix: 'cosmos', accountType: '/cosmos.auth.v1beta1.BaseAccount', denom: SIMD_DENOM, balance: '1000000000000', extra, label,
  });
  const node: BenchNode & { genesisBytes: number; genesisMs: number } = {
    name: 'simd', home, rpcUrl: `http://127.0.0.1:${ports.rpc}`, restUrl: `http://127.0.0.1:${ports.api}`,
    denom: SIMD_DENOM, prefix: 'cosmos', fee: String(Math.ceil(GAS_LIMIT * SIMD_GAS_PRICE)), firstAccountNumber: g.firstAccountNumber,
    lines: [], tail: [], genesisBytes: g.bytes, genesisMs: g.ms,
    spawnNode() {
      node.proc = spawn(bin, ['start', ...h, '--log_level', 'info', '--log_no_color'], { stdio: ['ignore', 'pipe', 'pipe'] });
      captureOutput(node, /finalizing commit of block|finalized block|committed state/);
    },
    stop: () => stopProc(node.proc),
  };
  return node;
}

// ---------------------------------------------------------------------------------------------------------
// load

interface BenchKey { priv: Uint8Array; pub: Uint8Array; addr: Uint8Array }

function benchKeys(n: number): BenchKey[] {
  const out: BenchKey[] = [];
  for (let i = 0; i < n; i++) {
    const priv = sha256(new TextEncoder().encode(`chain vs-simd bench account ${i}`));
    const pub = secp256k1PublicKey(priv);
    out.push({ priv, pub, addr: secp256k1Address(pub) });
  }
  return out;
}

/** The recipient of every send: an address in no genesis (created by the first send). */
const RECIPIENT = new Uint8Array(20).fill(7);

async function accountNumbers(node: BenchNode, keys: BenchKey[]): Promise<number[]> {
  const get = async (i: number): Promise<number> => {
    const r = await fetch(`${node.restUrl}/cosmos/auth/v1beta1/accounts/${toBech32(node.prefix, keys[i]!.addr)}`);
    const j = (await r.json()) as any;
    const n = j.account?.account_number ?? j.account?.base_account?.account_number;
    if (n === undefined) throw new Error(`${node.name}: account ${i} not found: ${JSON.stringify(j).slice(0, 300)}`);
    return Number(n);
  };
  const expected = keys.map((_, i) => node.firstAccountNumber + i);
  const last = keys.length - 1;
  if ((await get(0)) === expected[0] && (await get(last)) === expected[last]) return expected;
  log(`  ${node.name}: account numbers differ from the genesis order; querying all ${keys.length}`);
  const out: number[] = new Array(keys.length);
  let next = 0;
  await Promise.all(Array.from({ length: 16 }, async () => { while (next < keys.length) { const i = next++; out[i] = await get(i); } }));
  return out;
}

function signSends(node: BenchNode, keys: BenchKey[], numbers: number[], chainId: string, txs: number): Uint8Array[][] {
  // tx k: account k % A, sequence floor(k / A); returned per account, in sequence order
  const perAccount: Uint8Array[][] = keys.map(() => []);
  const to = toBech32(node.prefix, RECIPIENT);
  for (let k = 0; k < txs; k++) {
    const a = k % keys.length;
    const seq = BigInt(Math.floor(k / keys.length));
    const key = keys[a]!;
    const from = toBech32(node.prefix, key.addr);
    const bodyBytes = TxBody.encode(TxBody.fromPartial({
      messages: [{ typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: MsgSend.encode({ fromAddress: from, toAddress: to, amount: [{ denom: node.denom, amount: '1' }] }).finish() }],
    })).finish();
    const authInfoBytes = makeAuthInfoBytes(
      [{ pubkey: { typeUrl: '/cosmos.crypto.secp256k1.PubKey', value: PubKey.encode({ key: key.pub }).finish() }, sequence: seq }],
      [{ denom: node.denom, amount: node.fee }], GAS_LIMIT, undefined, undefined, SignMode.SIGN_MODE_DIRECT,
    );
    const sig = signSecp256k1Digest(key.priv, sha256(makeSignBytes(makeSignDoc(bodyBytes, authInfoBytes, chainId, BigInt(numbers[a]!)))));
    perAccount[a]!.push(TxRaw.encode(TxRaw.fromPartial({ bodyBytes, authInfoBytes, signatures: [sig] })).finish());
  }
  return perAccount;
}

interface BlockInfo { height: number; txs: number; ok: number; time: number }

async function readBlocks(node: BenchNode, from: number, to: number): Promise<BlockInfo[]> {
  const out: BlockInfo[] = [];
  for (let h = from; h <= to; h++) {
    const b = await rpc(node.rpcUrl, 'block', { height: String(h) });
    const txs = (b.block.data.txs ?? []).length;
    let ok = txs;
    if (txs > 0) {
      try {
        const r = await rpc(node.rpcUrl, 'block_results', { height: String(h) });
        ok = (r.txs_results ?? []).filter((x: any) => (x.code ?? 0) === 0).length;
      } catch { /* no block_results: count every tx */ }
    }
    out.push({ height: h, txs, ok, time: Date.parse(b.block.header.time) });
  }
  return out;
}

/** the ISO timestamp at the start of a chaind log line, in ms */
function chaindLineTime(line: string): number {
  const m = /^(\d{4}-\d\d-\d\dT[\d:.]+Z)/.exec(line);
  return m ? Date.parse(m[1]!) : NaN;
}

/**
 * FinalizeBlock + Commit of block h as observable from outside:
 * - simd: arrival of CometBFT's "committed state" line of h minus that of its "finalizing commit of block" line
 *   (both logged at info by the consensus/state code around ApplyBlock: FinalizeBlock, then Commit);
 * - chaind (embedded engine): the timestamp of its "committed block" log line of h (written after FinalizeBlock,
 *   the block-store/index write, Commit and the mempool re-check) minus the time of block h+1's header, which
 *   the engine takes (its precommit time for h) just before it calls FinalizeBlock for h.
 */
function finalizeCommitMs(node: BenchNode, h: number, blocks: BlockInfo[]): number | undefined {
  if (node.name === 'simd') {
    const find = (re: RegExp): number | undefined => node.lines.find((l) => re.test(l.line) && new RegExp(`height=${h}(\\s|$)`).test(l.line))?.t;
    const a = find(/finalizing commit of block/);
    const b = find(/committed state/);
    return a !== undefined && b !== undefined ? b - a : undefined;
  }
  const next = blocks.find((b) => b.height === h + 1);
  const line = node.lines.find((l) => new RegExp(`height=${h}(\\s|$)`).test(l.line));
  if (!next || !line) return undefined;
  const t = chaindLineTime(line.line);
  return Number.isFinite(t) ? t - next.time : undefined;
}

interface LoadFigures {
  committed: number;
  sent: number;
  rejected: number;
  rejections: string[];
  blocks: number;
  maxBlockTxs: number;
  tps: number;
  e2eTps: number;
  finalizeCommitMs?: number;
  meanIntervalMs: number;
  blockIntervalsMs: number[];
  nodeCpuPct: number;
  /** node CPU time (all threads) from the first broadcast to the empty mempool, per committed send */
  nodeCpuUsPerTx: number;
  genCpuPct: number;
  broadcastMs: number;
  rssAfter: number;
  hwmAfter: number;
  rssIdle: number;
  restP50: number;
  restP99: number;
  restRps: number;
  restFailed: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function loadRun(node: BenchNode, keys: BenchKey[], o: VsSimdOptions): Promise<LoadFigures> {
  node.spawnNode();
  await waitHeight(node, 2, o.startTimeoutMs);
  const pid = node.proc!.pid!;
  const chainId = (await rpc(node.rpcUrl, 'status')).node_info.network as string;
  const numbers = await accountNumbers(node, keys);
  const t0 = Date.now();
  const perAccount = signSends(node, keys, numbers, chainId, o.txs);
  log(`  ${node.name}: pre-signed ${o.txs} sends from ${keys.length} accounts in ${Date.now() - t0} ms`);
  // lanes: account a goes to lane a % connections; a lane interleaves its accounts, each in sequence order
  const lanes: string[][] = Array.from({ length: Math.min(o.connections, keys.length) }, () => []);
  const maxSeq = Math.max(...perAccount.map((l) => l.length));
  for (let s = 0; s < maxSeq; s++) {
    for (let a = 0; a < perAccount.length; a++) {
      const tx = perAccount[a]![s];
      if (tx) lanes[a % lanes.length]!.push(toBase64(tx));
    }
  }
  const jobs = Array.from({ length: o.workers }, (_, w) => ({ kind: 'broadcast', rpcUrl: node.rpcUrl, transport: o.transport, window: o.window, lanes: lanes.filter((_, i) => i % o.workers === w) }));
  const startHeight = await knownHeight(node);
  const cpu0 = procCpuMs(pid);
  const { results, startedAt } = await runWorkers<BroadcastResult>(jobs);
  const broadcastMs = Date.now() - startedAt;
  // until the mempool is empty, then one more block (its header time closes the last loaded block's interval)
  let seen = { n: -1, h: -1, at: Date.now() };
  for (;;) {
    const n = Number((await rpc(node.rpcUrl, 'num_unconfirmed_txs')).n_txs);
    if (n === 0) break;
    const h = await committedHeight(node);
    if (n !== seen.n || h !== seen.h) seen = { n, h, at: Date.now() };
    else if (Date.now() - seen.at > 60_000) throw new Error(`${node.name}: ${n} txs stay in the mempool, no block for 60 s (height ${h}):\n${node.tail.join('\n')}`);
    await sleep(50);
  }
  const drainedAt = Date.now();
  const cpu1 = procCpuMs(pid);
  const hDrained = await knownHeight(node);
  await waitHeight(node, hDrained + 2, 30_000);
  const mem = procMemory(pid)!;
  if (process.env.BENCH_NODE_LOG) appendFileSync(process.env.BENCH_NODE_LOG, `BENCH rss-after read at ${new Date().toISOString()} drained at ${new Date(drainedAt).toISOString()}\n`);
  // and once the node has idled a while (Go's and V8's collectors both return memory lazily)
  await sleep(IDLE_MS);
  const rssIdle = procMemory(pid)!.rss;
  const endHeight = await knownHeight(node);
  const blocks = await readBlocks(node, startHeight, endHeight);
  const loaded = blocks.filter((b) => b.txs > 0);
  const first = loaded[0]!;
  const last = loaded[loaded.length - 1]!;
  const committed = loaded.reduce((n, b) => n + b.ok, 0);
  const byHeight = new Map(blocks.map((b) => [b.height, b]));
  const afterLast = byHeight.get(last.height + 1)!;
  const biggest = loaded.reduce((m, b) => (b.txs > m.txs ? b : m), first);
  const intervals: number[] = [];
  for (let h = first.height; h <= last.height; h++) intervals.push(byHeight.get(h + 1)!.time - byHeight.get(h)!.time);
  const sent = results.reduce((n, r) => n + r.sent, 0);
  const rejected = results.reduce((n, r) => n + r.rejected, 0);
  const genCpu = results.reduce((n, r) => n + r.cpuMs, 0);

  // REST balance queries of a funded bench account
  const url = `${node.restUrl}/cosmos/bank/v1beta1/balances/${toBech32(node.prefix, keys[0]!.addr)}`;
  const probe = await fetch(url);
  if (!probe.ok) throw new Error(`${node.name}: ${url} answered ${probe.status}: ${(await probe.text()).slice(0, 300)}`);
  await probe.arrayBuffer();
  const perWorker = Math.ceil(o.queries / o.workers);
  const clientsPerWorker = Math.max(1, Math.round(o.clients / o.workers));
  const q = await runWorkers<QueryResult>(Array.from({ length: o.workers }, () => ({ kind: 'query', url, count: perWorker, clients: clientsPerWorker })));
  const qWall = Math.max(...q.results.map((r) => r.wallMs));
  const lat = q.results.flatMap((r) => r.latencies).sort((a, b) => a - b);

  return {
    committed, sent, rejected, rejections: results.flatMap((r) => r.errors).slice(0, 3),
    blocks: loaded.length, maxBlockTxs: biggest.txs,
    tps: committed / ((afterLast.time - first.time) / 1000),
    e2eTps: committed / ((drainedAt - startedAt) / 1000),
    finalizeCommitMs: finalizeCommitMs(node, biggest.height, blocks),
    meanIntervalMs: intervals.reduce((a, b) => a + b, 0) / intervals.length,
    blockIntervalsMs: intervals,
    nodeCpuPct: ((cpu1 - cpu0) / (drainedAt - startedAt)) * 100,
    nodeCpuUsPerTx: ((cpu1 - cpu0) * 1000) / Math.max(committed, 1),
    genCpuPct: (genCpu / Math.max(broadcastMs, 1)) * 100,
    broadcastMs,
    rssAfter: mem.rss, hwmAfter: mem.hwm, rssIdle,
    restP50: percentile(lat, 50), restP99: percentile(lat, 99), restRps: lat.length / (qWall / 1000),
    restFailed: q.results.reduce((n, r) => n + r.failed, 0),
  };
}

// ---------------------------------------------------------------------------------------------------------
// scale

interface ScaleFigures {
  genesisMs: number;
  genesisBytes: number;
  startToFirstBlockMs: number;
  startPeakRss: number;
  restartToNextBlockMs: number;
  restartRss: number;
  restartPeakRss: number;
  diskBytes: number;
}

async function scaleRun(node: BenchNode & { genesisBytes: number; genesisMs: number }, o: VsSimdOptions): Promise<ScaleFigures> {
  let t = Date.now();
  node.spawnNode();
  const ticker = setInterval(() => {
    const m = procMemory(node.proc!.pid!);
    log(`  ${node.name}: starting, ${((Date.now() - t) / 1000).toFixed(0)}s, RSS ${m ? mb(m.rss) : '?'}`);
  }, 15_000);
  let h: number;
  let startPeak: number;
  try {
    // the first block committed by the app (with the whole genesis state)
    h = await waitHeight(node, 1, o.startTimeoutMs, true);
    startPeak = procMemory(node.proc!.pid!)!.hwm;
  } finally {
    clearInterval(ticker);
  }
  const startMs = Date.now() - t;
  log(`  ${node.name}: first block committed after ${(startMs / 1000).toFixed(1)}s; letting it run 3 blocks, then restarting`);
  h = await waitHeight(node, h + 3, o.startTimeoutMs, true);
  await node.stop();
  const diskBytes = duBytes(node.home);
  t = Date.now();
  node.spawnNode();
  await waitHeight(node, h + 1, o.startTimeoutMs, true);
  const restartMs = Date.now() - t;
  const m = procMemory(node.proc!.pid!)!;
  await node.stop();
  return {
    genesisMs: node.genesisMs, genesisBytes: node.genesisBytes, startToFirstBlockMs: startMs, startPeakRss: startPeak,
    restartToNextBlockMs: restartMs, restartRss: m.rss, restartPeakRss: m.hwm, diskBytes,
  };
}

/**
 * Each numeric figure's median over the rounds (the lower middle one of an even count); the block intervals and the
 * rejection samples of the round whose committed sends/s is that median. undefined when the node did not run.
 */
function medianFigures(list: LoadFigures[]): LoadFigures | undefined {
  if (list.length <= 1) return list[0];
  const mid = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const byTps = [...list].sort((a, b) => a.tps - b.tps)[Math.floor((list.length - 1) / 2)]!;
  const out: Record<string, unknown> = { ...byTps };
  for (const [k, v] of Object.entries(byTps)) {
    if (typeof v === 'number') out[k] = mid(list.map((f) => (f as unknown as Record<string, unknown>)[k]).filter((x): x is number => typeof x === 'number'));
  }
  return out as unknown as LoadFigures;
}

// ---------------------------------------------------------------------------------------------------------
// output

const mb = (b: number): string => `${(b / 2 ** 20).toFixed(b < 10 * 2 ** 20 ? 1 : 0)} MB`;
const fmt = (n: number | undefined, d = 0): string => (n === undefined || !Number.isFinite(n) ? 'n/a' : n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }));

interface Row { figure: string; chaind?: number; simd?: number; show: (n: number | undefined) => string; note?: string }

function printTable(title: string, rows: Row[]): void {
  const cells = rows.map((r) => {
    const ratio = r.chaind !== undefined && r.simd !== undefined && r.simd !== 0 && Number.isFinite(r.chaind) && Number.isFinite(r.simd) ? `${(r.chaind / r.simd).toFixed(2)}x` : 'n/a';
    return [r.figure, r.show(r.chaind), r.show(r.simd), ratio];
  });
  const head = ['figure', 'chaind', 'simd', 'ratio chaind/simd'];
  const w = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]): string => `| ${c.map((x, i) => (i === 0 ? x.padEnd(w[i]!) : x.padStart(w[i]!))).join(' | ')} |`;
  console.log(`\n${title}\n`);
  console.log(line(head));
  console.log(`|${w.map((n, i) => (i === 0 ? '-'.repeat(n + 2) : `${'-'.repeat(n + 1)}:`)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}

// ---------------------------------------------------------------------------------------------------------

/**
 * `npm run build` (tsc -b, incremental, then the bundle): chaind then runs bundled, as a production node does
 * (bin/chaind.mjs falls back to the compiled files or the TS sources through tsx when they are newer than the
 * bundle), as simd runs its Go binary.
 */
export function ensureChaindBuild(): void {
  const t = Date.now();
  const r = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run build failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  log(`chaind: npm run build (compiled dist/ and its bundle) in ${((Date.now() - t) / 1000).toFixed(1)}s`);
}

export async function vsSimdBench(o: VsSimdOptions): Promise<void> {
  const t0 = Date.now();
  let simdBin: string | undefined;
  let nodes = o.nodes;
  if (nodes.includes('chaind')) ensureChaindBuild();
  if (nodes.includes('simd')) {
    try {
      simdBin = await ensureSimd({ log });
      const info = simdBuildInfo();
      log(`simd: ${simdBin}${info ? ` (${SIMD_PACKAGE}@${SIMD_VERSION}; its first build took ${info.seconds}s with ${info.go}, ${info.at})` : ''}`);
    } catch (e) {
      // the chaind half still runs; the simd column says n/a
      log(`simd is not available, measuring chaind only: ${e instanceof Error ? e.message : String(e)}`);
      nodes = nodes.filter((n) => n !== 'simd');
    }
  }
  const scale = o.scale;
  const mempoolSize = Math.max(5000, o.txs + 1000);
  const homes: string[] = [];
  if (scale !== undefined) {
    const extra: GenesisAccounts = { count: scale, address: (i) => sha256(new TextEncoder().encode(`scale ${i}`)).subarray(0, 20) };
    const figs: Partial<Record<'chaind' | 'simd', ScaleFigures>> = {};
    for (const name of nodes) {
      log(`${name}: writing a genesis with ${scale} funded accounts...`);
      const node = name === 'chaind' ? await prepareChaind(extra, mempoolSize, name) : await prepareSimd(simdBin!, extra, mempoolSize, name);
      homes.push(node.home);
      log(`${name}: genesis ${mb(node.genesisBytes)} written in ${(node.genesisMs / 1000).toFixed(1)}s; starting (${node.home})`);
      try {
        figs[name] = await scaleRun(node, o);
      } finally {
        await node.stop();
        if (!o.keep) rmSync(node.home, { recursive: true, force: true });
      }
    }
    const c = figs.chaind;
    const s = figs.simd;
    const sec = (n: number | undefined): string => (n === undefined ? 'n/a' : `${(n / 1000).toFixed(1)} s`);
    const m = (n: number | undefined): string => (n === undefined ? 'n/a' : mb(n));
    printTable(`genesis with ${scale.toLocaleString('en-US')} funded accounts (single node, 1 s blocks; shared 2-core machine)`, [
      { figure: 'genesis.json size', chaind: c?.genesisBytes, simd: s?.genesisBytes, show: m },
      { figure: 'start to first block committed (abci_info)', chaind: c?.startToFirstBlockMs, simd: s?.startToFirstBlockMs, show: sec },
      { figure: 'peak RSS during start (VmHWM at first block)', chaind: c?.startPeakRss, simd: s?.startPeakRss, show: m },
      { figure: 'restart to next block committed', chaind: c?.restartToNextBlockMs, simd: s?.restartToNextBlockMs, show: sec },
      { figure: 'RSS after restart (at next block)', chaind: c?.restartRss, simd: s?.restartRss, show: m },
      { figure: 'peak RSS during restart', chaind: c?.restartPeakRss, simd: s?.restartPeakRss, show: m },
      { figure: 'disk size of the home (after 3+ blocks)', chaind: c?.diskBytes, simd: s?.diskBytes, show: m },
    ]);
    console.log(`\n(the bench wrote each genesis in ${sec(c?.genesisMs)} / ${sec(s?.genesisMs)}; total run ${((Date.now() - t0) / 1000).toFixed(0)} s${o.keep ? `; homes kept: ${homes.join(' ')}` : ''})`);
    return;
  }

  const keys = benchKeys(o.accounts);
  const extra: GenesisAccounts = { count: keys.length, address: (i) => keys[i]!.addr };
  const rounds = o.rounds ?? 1;
  const runs: Record<'chaind' | 'simd', LoadFigures[]> = { chaind: [], simd: [] };
  for (let round = 0; round < rounds; round++) {
    // alternating which node goes first, so a drift of the machine's speed does not favour one
    for (const name of round % 2 === 0 ? nodes : [...nodes].reverse()) {
      log(`${name}: preparing a home with ${o.accounts} funded accounts${rounds > 1 ? ` (round ${round + 1} of ${rounds})` : ''}...`);
      const node = name === 'chaind' ? await prepareChaind(extra, mempoolSize, name) : await prepareSimd(simdBin!, extra, mempoolSize, name);
      homes.push(node.home);
      try {
        const f = await loadRun(node, keys, o);
        runs[name].push(f);
        log(`  ${name}: ${f.committed}/${f.sent} committed (${f.rejected} rejected${f.rejections.length ? `: ${f.rejections.join(' | ')}` : ''}) in ${f.blocks} blocks (max ${f.maxBlockTxs} txs); ` +
          `broadcast ${f.broadcastMs} ms; block intervals ${f.blockIntervalsMs.join(', ')} ms; node CPU ${f.nodeCpuPct.toFixed(0)}% of a core, generator ${f.genCpuPct.toFixed(0)}%; ${fmt(f.tps)} sends/s`);
      } finally {
        await node.stop();
        if (!o.keep) rmSync(node.home, { recursive: true, force: true });
      }
    }
  }
  const c = medianFigures(runs.chaind);
  const s = medianFigures(runs.simd);
  const ms = (d: number) => (n: number | undefined): string => (n === undefined ? 'n/a' : `${fmt(n, d)} ms`);
  const num = (n: number | undefined): string => fmt(n);
  const us = (n: number | undefined): string => (n === undefined ? 'n/a' : `${fmt(n)} µs`);
  const pct = (n: number | undefined): string => (n === undefined ? 'n/a' : `${fmt(n)}%`);
  printTable(`${o.txs} bank sends from ${o.accounts} accounts, ${o.workers} generator processes x ${o.connections} connections in all (single node, 1 s blocks; shared 2-core machine)${rounds > 1 ? `; the median of ${rounds} rounds` : ''}`, [
    { figure: 'committed bank sends/s (first to last loaded block)', chaind: c?.tps, simd: s?.tps, show: num },
    { figure: 'committed sends/s, first broadcast to empty mempool', chaind: c?.e2eTps, simd: s?.e2eTps, show: num },
    { figure: 'sends committed with code 0', chaind: c?.committed, simd: s?.committed, show: num },
    { figure: 'sends rejected at broadcast (CheckTx / mempool)', chaind: c?.rejected, simd: s?.rejected, show: num },
    { figure: 'blocks with sends', chaind: c?.blocks, simd: s?.blocks, show: num },
    { figure: 'txs in the biggest block', chaind: c?.maxBlockTxs, simd: s?.maxBlockTxs, show: num },
    { figure: 'FinalizeBlock + Commit of the biggest block', chaind: c?.finalizeCommitMs, simd: s?.finalizeCommitMs, show: ms(0) },
    { figure: 'mean block interval of the loaded blocks', chaind: c?.meanIntervalMs, simd: s?.meanIntervalMs, show: ms(0) },
    { figure: 'node CPU during the load (% of one core)', chaind: c?.nodeCpuPct, simd: s?.nodeCpuPct, show: pct },
    { figure: 'node CPU time per committed send (all threads)', chaind: c?.nodeCpuUsPerTx, simd: s?.nodeCpuUsPerTx, show: us },
    { figure: 'generator CPU during broadcast (% of one core)', chaind: c?.genCpuPct, simd: s?.genCpuPct, show: pct },
    { figure: `REST balance p50, ${o.clients} clients`, chaind: c?.restP50, simd: s?.restP50, show: ms(1) },
    { figure: `REST balance p99, ${o.clients} clients`, chaind: c?.restP99, simd: s?.restP99, show: ms(1) },
    { figure: `REST balance req/s, ${o.clients} clients`, chaind: c?.restRps, simd: s?.restRps, show: num },
    { figure: `RSS after ${o.txs} sends (VmRSS)`, chaind: c?.rssAfter, simd: s?.rssAfter, show: (n) => (n === undefined ? 'n/a' : mb(n)) },
    { figure: 'peak RSS so far (VmHWM)', chaind: c?.hwmAfter, simd: s?.hwmAfter, show: (n) => (n === undefined ? 'n/a' : mb(n)) },
    { figure: `RSS after ${IDLE_MS / 1000} s more without load`, chaind: c?.rssIdle, simd: s?.rssIdle, show: (n) => (n === undefined ? 'n/a' : mb(n)) },
  ]);
  const detail = (n: 'chaind' | 'simd', f: LoadFigures | undefined): string =>
    f ? `${n}: ${f.blocks} loaded blocks, intervals ${f.blockIntervalsMs.join('/')} ms, ${f.rejected} rejected, ${f.restFailed} failed queries` : `${n}: not run`;
  if (rounds > 1) {
    console.log('');
    for (let r = 0; r < rounds; r++) {
      const a = runs.chaind[r]?.tps;
      const b = runs.simd[r]?.tps;
      console.log(`round ${r + 1}: committed sends/s chaind ${fmt(a)}, simd ${fmt(b)}${a !== undefined && b !== undefined ? `, ratio ${(a / b).toFixed(2)}` : ''}`);
    }
  }
  console.log(`\n${detail('chaind', c)}\n${detail('simd', s)}\n(total run ${((Date.now() - t0) / 1000).toFixed(0)} s${o.keep ? `; homes kept: ${homes.join(' ')}` : ''})`);
}
