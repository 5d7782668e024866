/**
 * EVM benchmarks over the Ethereum JSON-RPC, on a dev chaind and on the reference dev node (hardhat 2,
 * `@chain/e2e/hardhat`), with the same script on both:
 *  - committed ERC-20 transfers per second at saturation: the ERC-20 of `@chain/e2e/solidity` is deployed and
 *    spread over `senders` coin-type-60 dev accounts; each sender's transfers are pre-signed (ethers, EIP-1559)
 *    and sent with eth_sendRawTransaction in nonce order, one lane per sender. Generator `ws` (default): each lane
 *    is one websocket to the node's Ethereum JSON-RPC websocket with up to `window` requests in flight, written by
 *    `workers` forked processes (load-worker.ts), so the node, not the generator, is what limits (the node's and
 *    the generator's CPU are printed); `http`: one client per sender, each waiting for its answer before the next
 *    request (the generator of earlier runs: it measures the round trip as much as the node). The clock stops when
 *    every sender's committed nonce has advanced past its last transfer; the recipient's token balance is then
 *    checked against the number of transfers (every one succeeded);
 *  - eth_call latency (`balanceOf`) p50 / p99 and throughput under `clients` concurrent clients.
 * Hardhat mines one block per transaction as it arrives (automine); chaind commits a block every
 * `timeout_commit` (1 s, the dev default).
 */
import { Interface, Wallet, getCreateAddress } from 'ethers';
import { DEV_MNEMONIC, derivePrivateKey, hdPath } from '@chain/crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNode } from '@chain/e2e';
import { initHome } from '@chain/node';
import { startHardhat } from '@chain/e2e/hardhat';
import { compileToken } from '@chain/e2e/solidity';
import type { BroadcastResult } from './load-worker.js';
import { procCpuMs, runWorkers } from './proc.js';
import { editToml, ensureChaindBuild } from './vs-simd.js';

export interface EvmBenchOptions {
  /** transfers signed per sender */
  readonly transfersPerSender: number;
  /** coin-type-60 dev accounts sending at once (at most 10, the funded ones) */
  readonly senders: number;
  /** eth_call requests in the latency run */
  readonly calls: number;
  /** concurrent eth_call clients */
  readonly clients: number;
  /** how transfers are submitted: pipelined over websockets by forked processes (default) or one HTTP client per sender */
  readonly generator: 'ws' | 'http';
  /** ws: generator processes (default 2) and requests in flight per sender (default 256) */
  readonly workers: number;
  readonly window: number;
  /** Ethereum JSON-RPC URL (and websocket URL, for the ws generator) of a running node to measure instead of starting a dev chaind */
  readonly ethUrl?: string;
  readonly ethWsUrl?: string;
  /** also measure hardhat (default true) */
  readonly reference: boolean;
  readonly log?: (line: string) => void;
}

export interface EvmFigures {
  readonly node: string;
  readonly transfers: number;
  readonly transfersPerSec: number;
  /** over the loaded blocks only (chaind; hardhat: the same as transfersPerSec), see loadedBlockRate */
  readonly loadedPerSec: number;
  readonly blocks: number;
  /** ws generator: requests in flight per sender */
  readonly window: number;
  /** the node's and the generator's CPU during the load, % of one core (NaN when unknown) */
  readonly nodeCpu: number;
  readonly generatorCpu: number;
  readonly callP50: number;
  readonly callP99: number;
  readonly callsPerSec: number;
}

const RECIPIENT = '0x' + '42'.repeat(20);
/** high enough for any base fee the load can cause; the effective price is base fee + tip */
const MAX_FEE = 100_000_000_000n;
const TIP = 1_000_000_000n;
const GAS = 80_000n;

async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const j = (await r.json()) as { result?: unknown; error?: { message: string } };
  if (j.error) throw new Error(`${method}: ${j.error.message}`);
  return j.result;
}

async function receipt(url: string, hash: string): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const rc = await rpc(url, 'eth_getTransactionReceipt', [hash]);
    if (rc) return rc;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no receipt for ${hash}`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs the ERC-20 transfer and eth_call measurements against one node. */
interface Target {
  readonly name: string;
  readonly url: string;
  /** the CometBFT RPC of a chaind (block header times for the loaded-block rate) */
  readonly rpcUrl?: string;
  readonly wsUrl?: string;
  readonly pid?: number;
  /** requests in flight per sender the node can take in nonce order (hardhat: 1, see evmBench) */
  readonly maxWindow?: number;
  /** the node mines each tx as it arrives (hardhat): its loaded blocks span the whole run */
  readonly automine?: boolean;
}

/**
 * Transfers per second over the loaded blocks of a chaind, as vs-simd counts bank sends: the txs of the blocks from
 * the first to the last that has any, over the time from the first one's header time to the header time of the block
 * after the last (a header's time is the moment the block before it was decided). NaN when unknown.
 */
async function loadedBlockRate(rpcUrl: string, from: number): Promise<number> {
  const header = async (h: number): Promise<{ txs: number; time: number }> => {
    const r = await fetch(`${rpcUrl}/block?height=${h}`);
    const b = ((await r.json()) as { result: { block: { header: { time: string }; data: { txs?: string[] | null } } } }).result.block;
    return { txs: (b.data.txs ?? []).length, time: Date.parse(b.header.time) };
  };
  const latest = Number(((await (await fetch(`${rpcUrl}/status`)).json()) as { result: { sync_info: { latest_block_height: string } } }).result.sync_info.latest_block_height);
  const blocks = [];
  for (let h = from; h <= latest; h++) blocks.push({ h, ...(await header(h)) });
  const loaded = blocks.filter((b) => b.txs > 0);
  if (loaded.length === 0) return NaN;
  const first = loaded[0]!;
  const last = loaded[loaded.length - 1]!;
  const after = last.h + 1 <= latest ? blocks.find((b) => b.h === last.h + 1)! : await header(last.h + 1).catch(() => undefined);
  if (!after) return NaN;
  const txs = loaded.reduce((n, b) => n + b.txs, 0);
  return txs / ((after.time - first.time) / 1000);
}

async function measure({ name, url, rpcUrl, wsUrl, pid, maxWindow, automine }: Target, o: EvmBenchOptions, log: (s: string) => void): Promise<EvmFigures> {
  const chainId = BigInt(await rpc(url, 'eth_chainId'));
  const wallets = Array.from({ length: o.senders }, (_, i) => new Wallet('0x' + Buffer.from(derivePrivateKey(DEV_MNEMONIC, hdPath(60, i))).toString('hex')));
  const nonces = await Promise.all(wallets.map(async (w) => Number(await rpc(url, 'eth_getTransactionCount', [w.address, 'latest']))));
  const iface = new Interface(compileToken().abi);
  const sign = (i: number, tx: object): Promise<string> =>
    wallets[i]!.signTransaction({ chainId, type: 2, maxFeePerGas: MAX_FEE, maxPriorityFeePerGas: TIP, gasLimit: GAS, ...tx, nonce: nonces[i]!++ });
  const send = async (raw: string): Promise<string> => rpc(url, 'eth_sendRawTransaction', [raw]);

  // deploy, then give every other sender its share of the supply
  const token = getCreateAddress({ from: wallets[0]!.address, nonce: nonces[0]! });
  const supply = 10n ** 30n;
  const deploy = await sign(0, { gasLimit: 1_000_000n, data: compileToken().bytecode + iface.encodeDeploy([supply]).slice(2) });
  if ((await receipt(url, await send(deploy))).status !== '0x1') throw new Error(`${name}: token deployment failed`);
  const shares = [];
  for (let i = 1; i < wallets.length; i++) shares.push(await send(await sign(0, { to: token, data: iface.encodeFunctionData('transfer', [wallets[i]!.address, supply / 100n]) })));
  for (const h of shares) if ((await receipt(url, h)).status !== '0x1') throw new Error(`${name}: token distribution failed`);

  // pre-sign, then send at saturation: one lane per sender, in nonce order
  const t0 = Date.now();
  const transfer = iface.encodeFunctionData('transfer', [RECIPIENT, 1n]);
  const signed: string[][] = [];
  for (let i = 0; i < wallets.length; i++) {
    const list: string[] = [];
    for (let k = 0; k < o.transfersPerSender; k++) list.push(await sign(i, { to: token, data: transfer }));
    signed.push(list);
  }
  const total = o.transfersPerSender * wallets.length;
  log(`${name}: pre-signed ${total} ERC-20 transfers in ${Date.now() - t0} ms`);
  const balanceOf = iface.encodeFunctionData('balanceOf', [RECIPIENT]);
  const tokenBalance = async (): Promise<bigint> => BigInt(await rpc(url, 'eth_call', [{ to: token, data: balanceOf }, 'latest']));
  const before = await tokenBalance();
  const startBlock = Number(await rpc(url, 'eth_blockNumber'));
  const ws = o.generator === 'ws';
  if (ws && wsUrl === undefined) throw new Error(`${name}: no websocket URL for the ws generator (--evm-generator http)`);
  const window = ws ? Math.min(o.window, maxWindow ?? Infinity) : 1;
  const cpu0 = pid === undefined ? NaN : procCpuMs(pid);
  let generatorCpuMs = NaN;
  let start = performance.now();
  if (ws) {
    // each worker gets whole senders (lanes); the clock starts when they all begin
    const jobs = Array.from({ length: Math.min(o.workers, signed.length) }, (_, w) => ({
      kind: 'eth', wsUrl, window, lanes: signed.filter((_, i) => i % o.workers === w),
    }));
    const { results, startedAt } = await runWorkers<BroadcastResult>(jobs);
    // (forking the workers is not counted: the clock starts when they are told to go)
    start = performance.now() - (Date.now() - startedAt);
    const rejected = results.reduce((n, r) => n + r.rejected, 0);
    if (rejected > 0) throw new Error(`${name}: ${rejected} transfers rejected: ${results.flatMap((r) => r.errors).slice(0, 3).join('; ')}`);
    generatorCpuMs = results.reduce((n, r) => n + r.cpuMs, 0);
  } else {
    await Promise.all(signed.map(async (list) => { for (const raw of list) await send(raw); }));
  }
  const sentSecs = (performance.now() - start) / 1000;
  // committed when each sender's nonce has passed its last transfer
  await Promise.all(wallets.map(async (w, i) => {
    while (Number(await rpc(url, 'eth_getTransactionCount', [w.address, 'latest'])) < nonces[i]!) await new Promise((r) => setTimeout(r, 20));
  }));
  const secs = (performance.now() - start) / 1000;
  const nodeCpu = pid === undefined ? NaN : (100 * (procCpuMs(pid) - cpu0)) / 1000 / secs;
  const generatorCpu = ws ? (100 * generatorCpuMs) / 1000 / secs : NaN;
  // one more block, whose header time closes the last loaded block's interval
  const endBlock = Number(await rpc(url, 'eth_blockNumber'));
  while (rpcUrl !== undefined && Number(await rpc(url, 'eth_blockNumber')) <= endBlock) await new Promise((r) => setTimeout(r, 50));
  const blocks = endBlock - startBlock;
  const loadedPerSec = automine ? total / secs : rpcUrl !== undefined ? await loadedBlockRate(rpcUrl, startBlock + 1) : NaN;
  const moved = (await tokenBalance()) - before;
  if (moved !== BigInt(total)) throw new Error(`${name}: ${moved} of ${total} transfers succeeded`);
  log(`${name}: ${total} transfers accepted by eth_sendRawTransaction in ${sentSecs.toFixed(2)} s, committed in ${secs.toFixed(2)} s over ${blocks} blocks`);

  // eth_call latency under concurrent clients
  const lat: number[] = [];
  let issued = 0;
  const qStart = performance.now();
  await Promise.all(Array.from({ length: o.clients }, async () => {
    while (issued < o.calls) {
      issued++;
      const s = performance.now();
      await rpc(url, 'eth_call', [{ to: token, data: balanceOf }, 'latest']);
      lat.push(performance.now() - s);
    }
  }));
  const qSecs = (performance.now() - qStart) / 1000;
  lat.sort((a, b) => a - b);
  return {
    node: name, transfers: total, transfersPerSec: total / secs, loadedPerSec, blocks, nodeCpu, generatorCpu, window,
    callP50: percentile(lat, 50), callP99: percentile(lat, 99), callsPerSec: o.calls / qSecs,
  };
}

const pct = (x: number): string => (Number.isFinite(x) ? x.toFixed(0) + '%' : '-');

function table(rows: EvmFigures[], o: EvmBenchOptions): string[] {
  const line = (label: string, f: (r: EvmFigures) => string): string => label.padEnd(44) + rows.map((r) => f(r).padStart(12)).join('');
  return [
    line('EVM (ERC-20 over the Ethereum JSON-RPC)', (r) => r.node),
    line(`ERC-20 transfers committed (${o.senders} senders, ${o.generator})`, (r) => String(r.transfers)),
    ...(o.generator === 'ws' ? [line('  in flight per sender', (r) => String(r.window))] : []),
    line('  blocks', (r) => String(r.blocks)),
    line('  transfers/s, first send to last commit', (r) => r.transfersPerSec.toFixed(0)),
    line('  transfers/s, first to last loaded block', (r) => (Number.isFinite(r.loadedPerSec) ? r.loadedPerSec.toFixed(0) : '-')),
    line('  node CPU / generator CPU (% of a core)', (r) => `${pct(r.nodeCpu)} / ${pct(r.generatorCpu)}`),
    line(`eth_call balanceOf, ${o.clients} clients: p50 ms`, (r) => r.callP50.toFixed(2)),
    line('  p99 ms', (r) => r.callP99.toFixed(2)),
    line('  calls/s', (r) => r.callsPerSec.toFixed(0)),
  ];
}

/** Runs the EVM measurements on chaind (a dev node, or `ethUrl`) and on hardhat; prints a table. */
export async function evmBench(o: EvmBenchOptions): Promise<EvmFigures[]> {
  const log = o.log ?? ((s: string) => console.log(s));
  if (o.senders < 1 || o.senders > 10) throw new Error('--evm-senders must be between 1 and 10 (the funded dev accounts)');
  const rows: EvmFigures[] = [];
  // BENCH_CHAIND_NODE_ARGS: Node.js flags for chaind, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"; BENCH_CHAIND_ARGS: more
  // chaind flags (as vs-simd)
  const words = (v: string | undefined): string[] => (v ?? '').split(' ').filter((x) => x !== '');
  let home: string | undefined;
  if (!o.ethUrl) {
    // a dev home whose mempool takes every transfer at once (as vs-simd's): the generator outpaces the blocks, and the
    // default bound (CometBFT's 5,000 txs) would refuse some
    home = mkdtempSync(join(tmpdir(), 'chain-bench-evm-'));
    initHome({ home, dev: true });
    editToml(join(home, 'config', 'config.toml'), [['mempool', 'size', String(Math.max(5000, o.senders * o.transfersPerSender + 1000))]]);
  }
  // compiled, as a user runs `chaind` and as vs-simd measures it
  if (home !== undefined) ensureChaindBuild();
  const node = home === undefined ? undefined : await startNode({ home, timeoutCommit: '1s', compiled: true, nodeArgs: words(process.env.BENCH_CHAIND_NODE_ARGS), extraArgs: words(process.env.BENCH_CHAIND_ARGS) });
  try {
    rows.push(await measure(node ? { name: 'chaind', url: node.ethUrl, rpcUrl: node.rpcUrl, wsUrl: node.ethWsUrl, pid: node.proc.pid } : { name: 'chaind', url: o.ethUrl!, wsUrl: o.ethWsUrl }, o, log));
  } finally {
    await node?.stop();
    node?.cleanup();
  }
  if (o.reference) {
    const hh = await startHardhat();
    try {
      // hardhat answers a websocket's requests concurrently and, automining, refuses a nonce above the next one
      // ("transactions can't be queued when automining"): one request in flight per sender keeps the order
      rows.push(await measure({ name: 'hardhat', url: hh.url, wsUrl: hh.wsUrl, pid: hh.proc.pid, maxWindow: 1, automine: true }, o, log));
    } finally {
      await hh.stop();
    }
  }
  for (const l of table(rows, o)) log(l);
  return rows;
}
