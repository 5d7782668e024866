/**
 * `chaind localnet`: an N-validator network on this machine, each validator a `chaind start --consensus cometbft`
 * process (the app over ABCI) with its own spawned CometBFT, all on loopback.
 *
 * `start` writes N homes under DIR (`DIR/node<i>`, each like `chaind init --dev`: its own consensus key, plus an
 * operator account key in `config/operator_key.json`), ONE genesis shared by all (the dev accounts of the dev
 * mnemonic funded as in `chaind dev`, each operator funded, N validators gentx-style: unbonded with their
 * self-delegation in the not-bonded pool, bonded by InitGenesis), CometBFT homes whose config.toml has every
 * other node as a persistent peer and localnet timeouts, then starts the N nodes detached (logs in each home:
 * `chaind.log`, `cometbft/cometbft.log`), waits until each has committed a block and writes `DIR/localnet.json`.
 * `stop` stops every process listed there (SIGTERM, then SIGKILL); `status` prints heights and peers;
 * `restart-node` starts one node again with the same ports; `add-node` adds a full node that is not a validator.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCometbft } from '@chain/cometbft';
import { loadConfig } from './config/config.js';
import {
  buildGenesis, devAccounts, initHome, newOperatorAccount, readValidatorKey, DEV_BALANCE, DEV_CHAIN_ID,
} from './config/init.js';
import { cometHome, prepareCometHome } from './comet-node.js';

const CHAIND_BIN = fileURLToPath(new URL('../bin/chaind.mjs', import.meta.url));

export interface LocalnetNode {
  readonly moniker: string;
  readonly home: string;
  readonly rest: string;
  readonly rpc: string;
  readonly grpc: string;
  readonly eth: string;
  readonly ethWs: string;
  readonly p2p: string;
  readonly abci: string;
  /** CometBFT's node id (from its node_key.json) */
  readonly nodeId: string;
  /** [CometBFT pid, chaind pid] of the running processes */
  pids: number[];
  /** the `chaind` arguments it is started with (`restart-node` reuses them) */
  readonly args: string[];
}

export interface LocalnetFile {
  readonly chainId: string;
  readonly nodes: LocalnetNode[];
}

export interface LocalnetStartOptions {
  readonly home: string;
  readonly validators?: number;
  /** consecutive ports from here (10 per node); free ports otherwise */
  readonly basePort?: number;
  readonly timeoutCommit?: string;
  /** more `chaind start` arguments for every node (after the localnet's own, so they override them) */
  readonly extraArgs?: readonly string[];
  /** changes the shared genesis document before it is written (e.g. longer governance periods in a test) */
  readonly patchGenesis?: (genesis: any) => void;
  readonly readyTimeoutMs?: number;
  readonly log?: (line: string) => void;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function freePort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((res, rej) => {
      const s = createServer();
      s.once('error', rej);
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => res(p));
      });
    });
    if (!taken.has(port)) { taken.add(port); return port; }
  }
}

/** Sets `key = value` in the [section] of a CometBFT config.toml ('' = the top level). */
function setToml(toml: string, section: string, key: string, value: string): string {
  const head = section ? toml.indexOf(`\n[${section}]`) : 0;
  if (head < 0) throw new Error(`cometbft config.toml has no [${section}]`);
  const tail = toml.slice(head);
  const m = new RegExp(`^${key} = .*$`, 'm').exec(tail);
  if (!m) throw new Error(`cometbft config.toml has no ${key} in [${section}]`);
  return toml.slice(0, head) + tail.slice(0, m.index) + `${key} = ${value}` + tail.slice(m.index + m[0].length);
}

export function localnetFilePath(home: string): string {
  return join(home, 'localnet.json');
}

export function readLocalnet(home: string): LocalnetFile {
  const p = localnetFilePath(home);
  if (!existsSync(p)) throw new Error(`${p} not found: no localnet in ${home} (chaind localnet start --home ${home})`);
  return JSON.parse(readFileSync(p, 'utf8')) as LocalnetFile;
}

function writeLocalnet(home: string, f: LocalnetFile): void {
  writeFileSync(localnetFilePath(home), JSON.stringify(f, null, 2) + '\n');
}

/** Whether pid is alive and one of ours (a chaind or a cometbft process), not a reused pid. */
function isOurs(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false; // exited, not yet reaped
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmd.includes('cometbft') || cmd.includes('chaind');
  } catch {
    return true; // no /proc: trust the pid
  }
}

async function rpcJson(url: string): Promise<any> {
  const r = await fetch(url, { signal: AbortSignal.timeout(3000) });
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return ((await r.json()) as { result: unknown }).result;
}

function tail(file: string, chars = 3000): string {
  try { return readFileSync(file, 'utf8').slice(-chars); } catch { return '(no log)'; }
}

/** Spawns one node detached (its own process group), output appended to HOME/chaind.log; waits for CometBFT's pid. */
async function launch(node: LocalnetNode): Promise<number[]> {
  const logFile = join(node.home, 'chaind.log');
  const before = existsSync(logFile) ? readFileSync(logFile, 'utf8').length : 0;
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [CHAIND_BIN, ...node.args], { cwd: node.home, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  child.unref();
  const appPid = child.pid!;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const m = /CometBFT \S+ started \(pid (\d+)/.exec(readFileSync(logFile, 'utf8').slice(before));
    if (m) return [Number(m[1]), appPid];
    if (!isOurs(appPid)) throw new Error(`${node.moniker}: chaind exited; ${logFile}:\n${tail(logFile)}`);
    if (Date.now() > deadline) throw new Error(`${node.moniker}: CometBFT did not start; ${logFile}:\n${tail(logFile)}`);
    await sleep(100);
  }
}

async function waitHeight(node: LocalnetNode, min: number, deadline: number): Promise<number> {
  for (;;) {
    try {
      const h = Number((await rpcJson(`${node.rpc}/status`)).sync_info.latest_block_height);
      if (h >= min) return h;
    } catch { /* not up yet */ }
    if (!node.pids.some(isOurs)) throw new Error(`${node.moniker} exited; ${join(node.home, 'chaind.log')}:\n${tail(join(node.home, 'chaind.log'))}`);
    if (Date.now() > deadline) {
      throw new Error(`${node.moniker} did not reach height ${min}; ${join(cometHome(node.home), 'cometbft.log')}:\n${tail(join(cometHome(node.home), 'cometbft.log'))}`);
    }
    await sleep(200);
  }
}

/** The CometBFT home of a node (node key, config.toml from chaind's), its endpoints and `chaind start` arguments. */
async function prepareNode(bin: string, home: string, moniker: string, port: (k: number) => Promise<number>, timeoutCommit?: string, extraArgs: readonly string[] = []): Promise<LocalnetNode> {
  const cfg = loadConfig(home);
  const dir = prepareCometHome(bin, cfg);
  const r = spawnSync(bin, ['show-node-id', '--home', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cometbft show-node-id --home ${dir} failed: ${r.stderr}`);
  const [rpcP, p2pP, abciP, restP, grpcP, ethP, ethWsP] = [await port(0), await port(1), await port(2), await port(3), await port(4), await port(5), await port(6)];
  const args = [
    'start', '--home', home, '--consensus', 'cometbft',
    '--rpc.laddr', `tcp://127.0.0.1:${rpcP}`,
    '--p2p.laddr', `tcp://127.0.0.1:${p2pP}`,
    '--abci.laddr', `tcp://127.0.0.1:${abciP}`,
    '--api.address', `tcp://127.0.0.1:${restP}`,
    '--grpc.address', `127.0.0.1:${grpcP}`,
    '--json-rpc.address', `127.0.0.1:${ethP}`,
    '--json-rpc.ws-address', `127.0.0.1:${ethWsP}`,
    '--consensus.timeout_commit', timeoutCommit ?? '1s',
    ...extraArgs,
  ];
  return {
    moniker, home,
    rest: `http://127.0.0.1:${restP}`, rpc: `http://127.0.0.1:${rpcP}`, grpc: `127.0.0.1:${grpcP}`,
    eth: `http://127.0.0.1:${ethP}`, ethWs: `ws://127.0.0.1:${ethWsP}`,
    p2p: `tcp://127.0.0.1:${p2pP}`, abci: `tcp://127.0.0.1:${abciP}`,
    nodeId: r.stdout.trim(), pids: [], args,
  };
}

/** Peers and localnet settings in a node's CometBFT config.toml (chaind start keeps them: it sets only its own keys). */
function writePeers(node: LocalnetNode, peers: readonly LocalnetNode[]): void {
  const tomlPath = join(cometHome(node.home), 'config', 'config.toml');
  let toml = readFileSync(tomlPath, 'utf8');
  toml = setToml(toml, 'p2p', 'persistent_peers', JSON.stringify(peers.map((p) => `${p.nodeId}@${p.p2p.replace('tcp://', '')}`).join(',')));
  toml = setToml(toml, 'p2p', 'addr_book_strict', 'false');
  toml = setToml(toml, 'p2p', 'allow_duplicate_ip', 'true');
  toml = setToml(toml, 'consensus', 'timeout_propose', '"2s"');
  toml = setToml(toml, 'consensus', 'timeout_propose_delta', '"200ms"');
  toml = setToml(toml, 'consensus', 'timeout_prevote', '"500ms"');
  toml = setToml(toml, 'consensus', 'timeout_prevote_delta', '"200ms"');
  toml = setToml(toml, 'consensus', 'timeout_precommit', '"500ms"');
  toml = setToml(toml, 'consensus', 'timeout_precommit_delta', '"200ms"');
  writeFileSync(tomlPath, toml);
}

export async function localnetStart(o: LocalnetStartOptions): Promise<LocalnetFile> {
  const log = o.log ?? ((l: string) => process.stdout.write(l + '\n'));
  const home = resolve(o.home);
  const n = o.validators ?? 4;
  if (!Number.isInteger(n) || n < 1 || n > 50) throw new Error(`--validators expects 1..50, got ${n}`);
  if (existsSync(localnetFilePath(home)) || existsSync(join(home, 'node0'))) throw new Error(`${home} already holds a localnet; stop it and use another --home`);
  mkdirSync(home, { recursive: true });
  const bin = await ensureCometbft({ log });
  const taken = new Set<number>();
  const port = async (i: number, k: number): Promise<number> => (o.basePort !== undefined ? o.basePort + i * 10 + k : freePort(taken));

  // homes: config files, consensus key, operator key
  const homes: { home: string; moniker: string; operator: string }[] = [];
  for (let i = 0; i < n; i++) {
    const h = join(home, `node${i}`);
    const moniker = `node${i}`;
    initHome({ home: h, dev: true, moniker, chainId: DEV_CHAIN_ID });
    homes.push({ home: h, moniker, operator: newOperatorAccount(join(h, 'config')) });
  }
  // one genesis for all
  const genesis = buildGenesis({
    chainId: DEV_CHAIN_ID,
    dev: true,
    genesisTime: new Date().toISOString(),
    accounts: [
      ...devAccounts().map((a) => ({ address: a.address, balance: DEV_BALANCE })),
      ...homes.map((h) => ({ address: h.operator, balance: DEV_BALANCE })),
    ],
    validators: homes.map((h) => ({ operator: h.operator, key: readValidatorKey(h.home), moniker: h.moniker })),
  });
  o.patchGenesis?.(genesis);
  const genesisText = JSON.stringify(genesis, null, 2);
  for (const h of homes) writeFileSync(join(h.home, 'config', 'genesis.json'), genesisText);

  // CometBFT homes (node keys), endpoints, peers and localnet settings
  const nodes: LocalnetNode[] = [];
  for (let i = 0; i < n; i++) nodes.push(await prepareNode(bin, homes[i]!.home, homes[i]!.moniker, (k) => port(i, k), o.timeoutCommit, o.extraArgs));
  for (const node of nodes) writePeers(node, nodes.filter((p) => p !== node));

  const file: LocalnetFile = { chainId: genesis.chain_id, nodes };
  try {
    for (const node of nodes) {
      node.pids = await launch(node);
      writeLocalnet(home, file); // so `localnet stop` finds what runs even if the start fails
    }
    const deadline = Date.now() + (o.readyTimeoutMs ?? 180_000);
    for (const node of nodes) await waitHeight(node, 1, deadline);
  } catch (e) {
    await stopNodes(nodes, () => undefined);
    writeLocalnet(home, file);
    throw e;
  }
  writeLocalnet(home, file);
  log(describe(file, home));
  return file;
}

function describe(f: LocalnetFile, home: string): string {
  const lines = [`localnet ${f.chainId}: ${f.nodes.length} validators running (${localnetFilePath(home)})`];
  for (const n of f.nodes) {
    lines.push(`  ${n.moniker}: rpc ${n.rpc}  rest ${n.rest}  grpc ${n.grpc}  eth ${n.eth}  ethWs ${n.ethWs}  p2p ${n.p2p}  pids ${n.pids.join(',')}  home ${n.home}`);
  }
  lines.push('  dev accounts funded (the dev mnemonic, as `chaind dev`); logs: <home>/chaind.log, <home>/cometbft/cometbft.log');
  return lines.join('\n');
}

async function stopNodes(nodes: readonly LocalnetNode[], log: (l: string) => void, timeoutMs = 15_000): Promise<void> {
  const pids = nodes.flatMap((n) => n.pids).filter(isOurs);
  // chaind first: it stops its CometBFT, then itself; then CometBFT directly in case its chaind is gone
  for (const n of nodes) {
    const [comet, app] = n.pids;
    for (const p of [app, comet]) if (p !== undefined && isOurs(p)) { try { process.kill(p, 'SIGTERM'); } catch { /* gone */ } }
  }
  const deadline = Date.now() + timeoutMs;
  while (pids.some(isOurs) && Date.now() < deadline) await sleep(100);
  for (const p of pids.filter(isOurs)) {
    log(`pid ${p} still running after ${timeoutMs} ms: SIGKILL`);
    try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
  }
  while (pids.some(isOurs)) await sleep(50);
}

export async function localnetStop(home: string, log: (l: string) => void = (l) => process.stdout.write(l + '\n')): Promise<void> {
  const f = readLocalnet(resolve(home));
  await stopNodes(f.nodes, log);
  log(`localnet in ${resolve(home)} stopped`);
}

export interface NodeStatus { readonly moniker: string; readonly height: number | null; readonly peers: number | null; readonly running: boolean; readonly appHash?: string }

export async function localnetStatus(home: string): Promise<NodeStatus[]> {
  const f = readLocalnet(resolve(home));
  return Promise.all(f.nodes.map(async (n) => {
    try {
      const [st, net] = await Promise.all([rpcJson(`${n.rpc}/status`), rpcJson(`${n.rpc}/net_info`)]);
      return { moniker: n.moniker, height: Number(st.sync_info.latest_block_height), peers: Number(net.n_peers), running: true, appHash: st.sync_info.latest_app_hash };
    } catch {
      return { moniker: n.moniker, height: null, peers: null, running: n.pids.some(isOurs) };
    }
  }));
}

/** Starts node i again (after it was stopped or killed) with its ports and home; waits until it has caught up. */
export async function localnetRestartNode(home: string, index: number, log: (l: string) => void = (l) => process.stdout.write(l + '\n')): Promise<LocalnetNode> {
  const dir = resolve(home);
  const f = readLocalnet(dir);
  const node = f.nodes[index];
  if (!node) throw new Error(`no node ${index} in ${localnetFilePath(dir)} (0..${f.nodes.length - 1})`);
  if (node.pids.some(isOurs)) await stopNodes([node], log);
  node.pids = await launch(node);
  writeLocalnet(dir, f);
  // caught up: at least the height another running node reports
  let target = 1;
  for (const other of f.nodes) {
    if (other === node) continue;
    try { target = Math.max(target, Number((await rpcJson(`${other.rpc}/status`)).sync_info.latest_block_height)); } catch { /* down */ }
  }
  await waitHeight(node, target, Date.now() + 120_000);
  log(`${node.moniker} restarted (pids ${node.pids.join(',')}), at height >= ${target}`);
  return node;
}

/**
 * Adds a full node that is not a validator: a new home DIR/node<N> (its own consensus key, the localnet's genesis),
 * CometBFT peered with every node of the localnet, started like the others and recorded in localnet.json; waits
 * until it has synced to the others' height. A MsgCreateValidator with its consensus key (config/
 * priv_validator_key.json) makes it a validator. With `validatorKeyOf: I` it gets a copy of node I's consensus key
 * (and a fresh priv_validator_state): a second signer of one validator, which double-signs (tests of evidence).
 */
export async function localnetAddNode(home: string, o: { timeoutCommit?: string; validatorKeyOf?: number; log?: (l: string) => void } = {}): Promise<LocalnetNode> {
  const log = o.log ?? ((l: string) => process.stdout.write(l + '\n'));
  const dir = resolve(home);
  const f = readLocalnet(dir);
  const first = f.nodes[0];
  if (!first) throw new Error(`${localnetFilePath(dir)} lists no node`);
  const bin = await ensureCometbft({ log });
  const moniker = `node${f.nodes.length}`;
  const h = join(dir, moniker);
  if (existsSync(h)) throw new Error(`${h} already exists`);
  initHome({ home: h, dev: true, moniker, chainId: f.chainId });
  copyFileSync(join(first.home, 'config', 'genesis.json'), join(h, 'config', 'genesis.json'));
  if (o.validatorKeyOf !== undefined) {
    const src = f.nodes[o.validatorKeyOf];
    if (!src) throw new Error(`no node ${o.validatorKeyOf} in ${localnetFilePath(dir)} (0..${f.nodes.length - 1})`);
    copyFileSync(join(src.home, 'config', 'priv_validator_key.json'), join(h, 'config', 'priv_validator_key.json'));
  }
  const taken = new Set<number>();
  const tc = o.timeoutCommit ?? first.args[first.args.indexOf('--consensus.timeout_commit') + 1];
  const extra = first.args.slice(first.args.indexOf('--consensus.timeout_commit') + 2);
  const node = await prepareNode(bin, h, moniker, () => freePort(taken), tc, extra);
  writePeers(node, f.nodes);
  f.nodes.push(node);
  node.pids = await launch(node);
  writeLocalnet(dir, f);
  let target = 1;
  for (const other of f.nodes) {
    if (other === node) continue;
    try { target = Math.max(target, Number((await rpcJson(`${other.rpc}/status`)).sync_info.latest_block_height)); } catch { /* down */ }
  }
  await waitHeight(node, target, Date.now() + 180_000);
  const role = o.validatorKeyOf !== undefined ? `a DUPLICATE signer of node${o.validatorKeyOf}'s validator key` : 'not a validator';
  log(`${moniker} added (${role}; consensus key ${join(h, 'config', 'priv_validator_key.json')}), pids ${node.pids.join(',')}, at height >= ${target}`);
  log(`  ${moniker}: rpc ${node.rpc}  rest ${node.rest}  grpc ${node.grpc}  eth ${node.eth}  ethWs ${node.ethWs}  p2p ${node.p2p}  home ${node.home}`);
  return node;
}

import { LOCALNET_USAGE } from './localnet-usage.js';
export { LOCALNET_USAGE };

/**
 * Merges `patch` into `target` in place: objects key by key (recursively, missing ones created), any other
 * value (arrays included) replaces the target's. A patch object where the target holds a non-object is refused.
 */
export function deepMerge(target: Record<string, unknown>, patch: unknown, path: string): void {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) throw new Error(`--genesis-patch: ${path} must be a JSON object`);
  for (const [k, v] of Object.entries(patch)) {
    const here = `${path}.${k}`;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      if (target[k] === undefined) target[k] = {};
      const t = target[k];
      if (t === null || typeof t !== 'object' || Array.isArray(t)) throw new Error(`--genesis-patch: ${here} is not an object in the genesis`);
      deepMerge(t as Record<string, unknown>, v, here);
    } else {
      target[k] = v;
    }
  }
}

export async function runLocalnet(sub: string | undefined, flags: Record<string, string | boolean>, extraArgs: readonly string[] = []): Promise<void> {
  const home = flags.home;
  if (typeof home !== 'string') throw new Error(`localnet needs --home DIR\n${LOCALNET_USAGE}`);
  const int = (name: string): number | undefined => {
    const v = flags[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !/^\d+$/.test(v)) throw new Error(`--${name} expects a number`);
    return Number(v);
  };
  switch (sub) {
    case 'start': {
      const tc = flags['timeout-commit'];
      const gp = flags['genesis-patch'];
      if (gp !== undefined && typeof gp !== 'string') throw new Error('--genesis-patch expects a JSON file');
      const patch = gp === undefined ? undefined : JSON.parse(readFileSync(gp, 'utf8')) as unknown;
      await localnetStart({ home, validators: int('validators'), basePort: int('base-port'), timeoutCommit: typeof tc === 'string' ? tc : undefined, extraArgs,
        patchGenesis: patch === undefined ? undefined : (g) => deepMerge(g, patch, 'genesis') });
      return;
    }
    case 'stop':
      await localnetStop(home);
      return;
    case 'status':
      for (const s of await localnetStatus(home)) {
        process.stdout.write(`${s.moniker}: ${s.height === null ? (s.running ? 'running, RPC not answering' : 'not running') : `height ${s.height}, peers ${s.peers}`}\n`);
      }
      return;
    case 'restart-node': {
      const i = int('node');
      if (i === undefined) throw new Error('restart-node needs --node I');
      await localnetRestartNode(home, i);
      return;
    }
    case 'add-node': {
      const tc = flags['timeout-commit'];
      await localnetAddNode(home, { timeoutCommit: typeof tc === 'string' ? tc : undefined, validatorKeyOf: int('validator-key-of') });
      return;
    }
    default:
      throw new Error(`unknown localnet command ${sub ?? ''}\n${LOCALNET_USAGE}`);
  }
}
