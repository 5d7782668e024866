/**
 * Micro benchmark of a large genesis import (auth accounts + bank balances), in process, without a node:
 *
 *   node --expose-gc --conditions=source --import tsx tools/bench/src/genesis-import.ts [N] [--no-file] [--no-digest]
 *
 * 1. decode + InitGenesis: N BaseAccounts and N balances (one coin `achain` 10^24 each), shaped as
 *    `writeGenesisWithAccounts` (vs-simd.ts) writes them, given to the auth and bank modules' `initGenesisStream`
 *    in chunks of 1000 entries, each entry decoded with `registry.fromJSON` first (as `ModuleManager.fieldChunks`
 *    does), writing into a `branch()` of a `MemKVStore`. Prints µs per account and per balance (decode and
 *    InitGenesis apart), GC time and heap growth, and a digest of the state written (to check that an
 *    optimisation leaves the state bytes as they were).
 * 2. the genesis reader: the same entries written to a genesis file, read back chunk by chunk through
 *    `openGenesisFile` → `appStateSource()` → `sectionParts` / `chunks` (scan + JSON.parse), µs per entry.
 *
 * `--expose-gc` makes the heap figures exact;
 * add `--cpu-prof` (before `--import`) for a profile. The state digest must not change with an optimisation.
 */
import { mkdtempSync, rmSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { Context, EventManager, InfiniteGasMeter, openGenesisFile, repeatedMessageType } from '@chain/app';
import type { BlockInfo, GenesisStream } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule, FEE_COLLECTOR } from '@chain/auth';
import { BankKeeper, BankModule } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import type { ProtoObject } from '@chain/codec';
import { toBech32 } from '@chain/crypto';
import { MemKVStore, branch } from '@chain/store';

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 200_000);
const withFile = !args.includes('--no-file');
const withDigest = !args.includes('--no-digest');
const CHUNK = 1000;
const PREFIX = 'chain';
const DENOM = 'achain';
const AMOUNT = (10n ** 24n).toString();
const BASE_ACCOUNT_URL = '/chain.auth.v1beta1.BaseAccount';

// ---- GC accounting ----
let gcMs = 0;
let gcCount = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcMs += e.duration;
    gcCount++;
  }
}).observe({ entryTypes: ['gc'] });

function heapMB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** The 20-byte address of account i (deterministic, spread over the key space like real addresses). */
function address(i: number): Uint8Array {
  const h = createHash('sha256').update(`genesis-import-${i}`).digest();
  return new Uint8Array(h.buffer, h.byteOffset, 20).slice();
}

function accountText(addr: string, n: number): string {
  return `{"@type":"${BASE_ACCOUNT_URL}","address":"${addr}","pub_key":null,"account_number":"${n}","sequence":"0"}`;
}
function balanceText(addr: string): string {
  return `{"address":"${addr}","coins":[{"denom":"${DENOM}","amount":"${AMOUNT}"}]}`;
}

// ---- the chain: auth + bank keepers as apps/node composes them ----
const registry = new ProtoRegistry();
const addressCodec = new AddressCodec(PREFIX);
const ak = new AccountKeeper({ registry, addressCodec, moduleAccounts: { [FEE_COLLECTOR]: [], mint: ['minter'], bonded_tokens_pool: ['burner', 'staking'] } });
const bk = new BankKeeper({ registry, accountKeeper: ak, blockedAddresses: new Set() });
const authModule = new AuthModule(ak);
const bankModule = new BankModule(bk);
for (const m of [authModule, bankModule]) for (const d of m.protoDirs) registry.addProtoDir(d);
authModule.registerTypes(registry);

const mem = new MemKVStore();
const state = branch(mem);
const block: BlockInfo = { height: 1, time: new Date('2026-01-01T00:00:00Z'), chainId: 'bench-1', proposer: new Uint8Array() };
const ctx = new Context(state, block, 'genesis', new InfiniteGasMeter(), new EventManager());

// ---- the entries, as the genesis reader hands them over: one JSON.parse per chunk ----
console.log(`genesis-import: N=${N} (node ${process.version})`);
let t = performance.now();
const addrs: string[] = new Array(N);
for (let i = 0; i < N; i++) addrs[i] = toBech32(PREFIX, address(i));
const accountChunksText: string[] = [];
const balanceChunksText: string[] = [];
for (let i = 0; i < N; i += CHUNK) {
  const a: string[] = [];
  const b: string[] = [];
  for (let j = i; j < Math.min(N, i + CHUNK); j++) {
    a.push(accountText(addrs[j]!, j + 1));
    b.push(balanceText(addrs[j]!));
  }
  accountChunksText.push('[' + a.join(',') + ']');
  balanceChunksText.push('[' + b.join(',') + ']');
}
console.log(`  setup (addresses, texts): ${(performance.now() - t).toFixed(0)} ms`);

interface Phase {
  parseMs: number;
  decodeMs: number;
  initMs: number;
}

function run(stream: GenesisStream, field: string, elem: string, texts: string[]): Phase {
  const p: Phase = { parseMs: 0, decodeMs: 0, initMs: 0 };
  for (const text of texts) {
    let t0 = performance.now();
    const raw = JSON.parse(text) as unknown[];
    let t1 = performance.now();
    p.parseMs += t1 - t0;
    const chunk = raw.map((x) => registry.fromJSON(elem, x));
    t0 = performance.now();
    p.decodeMs += t0 - t1;
    stream.add(field, chunk as ProtoObject[]);
    t1 = performance.now();
    p.initMs += t1 - t0;
  }
  return p;
}

function report(what: string, p: Phase, gc: { ms: number; n: number }, heap: number): void {
  const us = (ms: number): string => ((ms * 1000) / N).toFixed(2).padStart(6);
  const total = p.parseMs + p.decodeMs + p.initMs;
  console.log(
    `  ${what.padEnd(9)} ${us(total)} µs/entry  (JSON.parse ${us(p.parseMs)}, fromJSON ${us(p.decodeMs)}, initGenesis ${us(p.initMs)}) ` +
      `gc ${gc.ms.toFixed(0)} ms/${gc.n}  heap +${heap.toFixed(0)} MB`,
  );
}

const heap0 = heapMB();
const gcStart = (): { ms: number; n: number } => ({ ms: gcMs, n: gcCount });
const gcSince = (s: { ms: number; n: number }): { ms: number; n: number } => ({ ms: gcMs - s.ms, n: gcCount - s.n });

// auth
const authElem = repeatedMessageType(registry, authModule.genesisType, 'accounts');
const bankElem = repeatedMessageType(registry, bankModule.genesisType, 'balances');
let g = gcStart();
const authStream = authModule.initGenesisStream(ctx, registry.fromJSON(authModule.genesisType, { params: null, accounts: [] }) as never);
const pa = run(authStream, 'accounts', authElem, accountChunksText);
authStream.end();
// let pending GC entries arrive
await new Promise((r) => setTimeout(r, 10));
const heap1 = heapMB();
report('accounts', pa, gcSince(g), heap1 - heap0);

// bank
g = gcStart();
const bankGen = registry.fromJSON(bankModule.genesisType, { params: null, supply: [], balances: [] }) as never;
const bankStream = bankModule.initGenesisStream(ctx, bankGen);
const pb = run(bankStream, 'balances', bankElem, balanceChunksText);
bankStream.end();
await new Promise((r) => setTimeout(r, 10));
const heap2 = heapMB();
report('balances', pb, gcSince(g), heap2 - heap1);
const totalMs = pa.parseMs + pa.decodeMs + pa.initMs + pb.parseMs + pb.decodeMs + pb.initMs;
console.log(`  total     ${((totalMs * 1000) / N).toFixed(2)} µs per (account + balance), ${(totalMs / 1000).toFixed(2)} s`);

if (bk.getSupply(ctx, DENOM) !== BigInt(AMOUNT) * BigInt(N)) throw new Error(`supply ${bk.getSupply(ctx, DENOM)}`);

// ---- digest of the state written ----
if (withDigest) {
  t = performance.now();
  state.write();
  const h = createHash('sha256');
  let n = 0;
  for (const [k, v] of mem.iterator()) {
    h.update(Buffer.from([k.length >> 8, k.length & 0xff]));
    h.update(k);
    h.update(Buffer.from([v.length >> 8, v.length & 0xff]));
    h.update(v);
    n++;
  }
  console.log(`  state: ${n} entries, sha256 ${h.digest('hex')} (${(performance.now() - t).toFixed(0)} ms)`);
}

// ---- the genesis reader on a file ----
if (withFile) {
  const dir = mkdtempSync(join(tmpdir(), 'genesis-import-'));
  try {
    const file = join(dir, 'genesis.json');
    const doc = {
      genesis_time: '2026-01-01T00:00:00Z',
      chain_id: 'bench-1',
      initial_height: '1',
      app_state: { auth: { params: {}, accounts: '@@A@@' }, bank: { params: {}, balances: '@@B@@', supply: [], denom_metadata: [], send_enabled: [] } },
    };
    const text = JSON.stringify(doc);
    const a = text.indexOf('"@@A@@"');
    const b = text.indexOf('"@@B@@"');
    const fd = openSync(file, 'w');
    let bytes = 0;
    const w = (s: string): void => {
      bytes += writeSync(fd, s);
    };
    w(text.slice(0, a));
    w('[' + accountChunksText.map((s) => s.slice(1, -1)).join(',') + ']');
    w(text.slice(a + 7, b));
    w('[' + balanceChunksText.map((s) => s.slice(1, -1)).join(',') + ']');
    w(text.slice(b + 7));
    closeSync(fd);
    accountChunksText.length = 0;
    balanceChunksText.length = 0;
    t = performance.now();
    g = gcStart();
    const f = openGenesisFile(file);
    const src = f.appStateSource();
    const tOpen = performance.now() - t;
    let t0 = performance.now();
    src.sectionParts('auth', ['accounts']);
    src.sectionParts('bank', ['balances']);
    const tLocate = performance.now() - t0;
    t0 = performance.now();
    let count = 0;
    for (const [m, field] of [['auth', 'accounts'], ['bank', 'balances']] as const) for (const c of src.chunks(m, field)) count += c.length;
    const tChunks = performance.now() - t0;
    f.close();
    const us = (ms: number): string => ((ms * 1000) / count).toFixed(2);
    console.log(
      `  reader    ${(bytes / 2 ** 20).toFixed(0)} MB file: open ${tOpen.toFixed(0)} ms, sections+count ${tLocate.toFixed(0)} ms (${us(tLocate)} µs/entry), ` +
        `chunks ${tChunks.toFixed(0)} ms (${us(tChunks)} µs/entry, ${count} entries) gc ${gcSince(g).ms.toFixed(0)} ms`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
