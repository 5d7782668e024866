/**
 * Proof-of-stake benchmarks, in process, on the node's own app (`createChainApp` over a CommitStore on disk),
 * driven through the ABCI interface as the engine drives it (FinalizeBlock with the last commit, Commit):
 *  - the cost per block of staking's EndBlock and of distribution's and slashing's BeginBlock, with 100 and
 *    300 bonded validators and 50k delegations (all validators sign every last commit, so distribution
 *    allocates to each and slashing updates each signing info), in quiet blocks and in blocks where 100
 *    delegations change validator powers (EndBlock then re-sorts the set and returns updates);
 *  - committed bank sends per second with the chain's full module set against the same run's figure with a
 *    config without the proof-of-stake modules (auth, bank, evm only): blocks of signed MsgSend txs through
 *    the real ante handler (signatures, fees, sequences).
 * Module hook times are taken by wrapping each module's hook (`app.module(name)`), nothing else is changed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig, AppModule, CommitInfo, Context } from '@chain/app';
import { ed25519PublicKey, sha256, toBase64, toBech32 } from '@chain/crypto';
import { CommitStore } from '@chain/store';
import { buildTx, devKey } from '@chain/testing';
import type { DevKey } from '@chain/testing';
import { CHAIN_APP_CONFIG, createChainApp } from '@chain/node';

export interface PosBenchOptions {
  readonly validators: readonly number[];
  readonly delegations: number;
  /** blocks measured per scenario */
  readonly blocks: number;
  /** bank sends per block in the send comparison */
  readonly sendsPerBlock: number;
  readonly sendBlocks: number;
  readonly log?: (line: string) => void;
}

const CHAIN_ID = 'bench-1';
const DENOM = 'achain';
const E18 = 10n ** 18n;
const PREFIX = 'chain';
const GENESIS_TIME = new Date('2026-01-01T00:00:00Z');
/** accounts that sign txs in the measured blocks (funded at genesis) */
const SENDERS = 100;

type Timings = Map<string, number[]>;

function moduleAddress(name: string): string {
  return toBech32(PREFIX, sha256(new TextEncoder().encode(name)).subarray(0, 20));
}

function dec(n: bigint): string {
  return `${n}.000000000000000000`;
}

/** Wraps `hook` of module `name` to record its duration per call. */
function timeHook(mod: AppModule | undefined, hook: 'beginBlock' | 'endBlock', label: string, t: Timings): void {
  if (!mod || !mod[hook]) return;
  const orig = mod[hook]!.bind(mod) as (ctx: Context) => unknown;
  t.set(label, []);
  (mod as any)[hook] = async (ctx: Context) => {
    const s = performance.now();
    const r = await orig(ctx);
    t.get(label)!.push(performance.now() - s);
    return r;
  };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

interface Bench {
  readonly app: ReturnType<typeof createChainApp>;
  readonly store: CommitStore;
  readonly dir: string;
  readonly consAddrs: Uint8Array[];
  readonly senders: DevKey[];
  readonly seq: bigint[];
  height: number;
}

/** A chain app with `nVals` genesis validators (bonded by InitGenesis) and `nDels` delegations spread over them. */
async function openPosChain(nVals: number, nDels: number, config?: AppConfig): Promise<Bench> {
  const dir = mkdtempSync(join(tmpdir(), 'chain-bench-pos-'));
  const store = await CommitStore.open(dir);
  const app = createChainApp({ store, chainId: CHAIN_ID, minGasPrices: '0achain', config });
  const genesis = app.app.defaultGenesis() as Record<string, any>;
  const senders = Array.from({ length: SENDERS }, (_, i) => devKey(i, PREFIX));
  const accounts: any[] = senders.map((k, i) => ({ '@type': '/chain.auth.v1beta1.BaseAccount', address: k.address, pub_key: null, account_number: String(i), sequence: '0' }));
  const balances: any[] = senders.map((k) => ({ address: k.address, coins: [{ denom: DENOM, amount: String(10n ** 30n) }] }));
  const consAddrs: Uint8Array[] = [];
  if (config === undefined || config.modules.includes('staking')) {
    const validators: any[] = [];
    const delegations: any[] = [];
    const tokens: bigint[] = [];
    for (let v = 0; v < nVals; v++) {
      const operator = sha256(new TextEncoder().encode(`operator ${v}`)).subarray(0, 20);
      const pub = ed25519PublicKey(sha256(new TextEncoder().encode(`consensus ${v}`)));
      consAddrs.push(sha256(pub).subarray(0, 20));
      const self = BigInt(1000 + v) * E18;
      tokens.push(self);
      validators.push({
        operator_address: toBech32(`${PREFIX}valoper`, operator),
        consensus_pubkey: { '@type': '/chain.crypto.ed25519.PubKey', key: toBase64(pub) },
        jailed: false, status: 'BOND_STATUS_UNBONDED', tokens: '0', delegator_shares: '0',
        description: { moniker: `v${v}`, identity: '', website: '', security_contact: '', details: '' },
        unbonding_height: '0', unbonding_time: '1970-01-01T00:00:00Z',
        commission: { commission_rates: { rate: '0.100000000000000000', max_rate: '0.200000000000000000', max_change_rate: '0.010000000000000000' }, update_time: GENESIS_TIME.toISOString() },
        min_self_delegation: '1',
      });
      delegations.push({ delegator_address: toBech32(PREFIX, operator), validator_address: toBech32(`${PREFIX}valoper`, operator), shares: dec(self) });
    }
    for (let d = 0; d < nDels; d++) {
      const v = d % nVals;
      const amount = BigInt(1 + (d % 7)) * E18;
      tokens[v]! += amount;
      const delegator = toBech32(PREFIX, sha256(new TextEncoder().encode(`delegator ${d}`)).subarray(0, 20));
      delegations.push({ delegator_address: delegator, validator_address: validators[v].operator_address, shares: dec(amount) });
    }
    let total = 0n;
    for (let v = 0; v < nVals; v++) {
      validators[v].tokens = String(tokens[v]);
      validators[v].delegator_shares = dec(tokens[v]!);
      total += tokens[v]!;
    }
    balances.push({ address: moduleAddress('not_bonded_tokens_pool'), coins: [{ denom: DENOM, amount: String(total) }] });
    genesis.staking = {
      ...genesis.staking,
      params: { ...genesis.staking.params, max_validators: nVals, bond_denom: DENOM, unbonding_time: '1814400s' },
      validators, delegations, exported: false,
    };
    genesis.slashing = { ...genesis.slashing, params: { ...genesis.slashing.params, signed_blocks_window: '100' } };
    genesis.mint = { ...genesis.mint, params: { ...genesis.mint.params, mint_denom: DENOM } };
  }
  genesis.auth = { ...genesis.auth, accounts };
  genesis.bank = { ...genesis.bank, balances, supply: [] };
  app.app.initChainSync({ time: GENESIS_TIME, chainId: CHAIN_ID, validators: [], appState: genesis, initialHeight: 1 });
  return { app, store, dir, consAddrs, senders, seq: senders.map(() => 0n), height: 0 };
}

async function closeChain(b: Bench): Promise<void> {
  await b.store.close();
  rmSync(b.dir, { recursive: true, force: true });
}

/** Finalizes and commits the next block; every validator signed the last commit. */
async function block(b: Bench, txs: Uint8Array[]): Promise<{ ms: number; failed: number }> {
  b.height++;
  const lastCommit: CommitInfo = {
    round: 0,
    votes: b.height === 1 ? [] : b.consAddrs.map((address, i) => ({ validator: { address, power: BigInt(1000 + i) }, blockIdFlag: 2 as const })),
  };
  const hash = sha256(new TextEncoder().encode(`block ${b.height}`));
  const s = performance.now();
  const res = await b.app.app.finalizeBlock({
    txs, decidedLastCommit: lastCommit, misbehavior: [], hash, height: b.height,
    time: new Date(GENESIS_TIME.getTime() + b.height * 1000), nextValidatorsHash: new Uint8Array(32),
    proposerAddress: b.consAddrs[b.height % Math.max(1, b.consAddrs.length)] ?? new Uint8Array(20),
  });
  await b.app.app.commit();
  const ms = performance.now() - s;
  return { ms, failed: res.txResults.filter((r) => r.code !== 0).length };
}

function sendTx(b: Bench, i: number, to: string): Uint8Array {
  const k = b.senders[i]!;
  const tx = buildTx(b.app.registry, [{ key: k, accountNumber: BigInt(i), sequence: b.seq[i]! }], [{
    type_url: '/cosmos.bank.v1beta1.MsgSend',
    value: b.app.registry.encode('chain.bank.v1beta1.MsgSend', { from_address: k.address, to_address: to, amount: [{ denom: DENOM, amount: '1' }] }),
  }], { chainId: CHAIN_ID, gas: 200_000n, fee: [{ denom: DENOM, amount: '200000' }] });
  b.seq[i]!++;
  return tx;
}

function delegateTx(b: Bench, i: number, valoper: string): Uint8Array {
  const k = b.senders[i]!;
  const tx = buildTx(b.app.registry, [{ key: k, accountNumber: BigInt(i), sequence: b.seq[i]! }], [{
    type_url: '/cosmos.staking.v1beta1.MsgDelegate',
    value: b.app.registry.encode('chain.staking.v1beta1.MsgDelegate', { delegator_address: k.address, validator_address: valoper, amount: { denom: DENOM, amount: String(BigInt(1 + (i % 50)) * E18) } }),
  }], { chainId: CHAIN_ID, gas: 400_000n, fee: [{ denom: DENOM, amount: '400000' }] });
  b.seq[i]!++;
  return tx;
}

/** EndBlock and BeginBlock costs with `nVals` validators and `nDels` delegations. */
async function blockHookBench(nVals: number, o: PosBenchOptions, log: (s: string) => void): Promise<void> {
  const t0 = performance.now();
  const b = await openPosChain(nVals, o.delegations);
  log(`pos: ${nVals} validators, ${o.delegations} delegations: genesis in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  try {
    await block(b, []); // height 1: no last commit yet
    const t: Timings = new Map();
    timeHook(b.app.app.module('staking'), 'endBlock', 'staking EndBlock', t);
    timeHook(b.app.app.module('distribution'), 'beginBlock', 'distribution BeginBlock', t);
    timeHook(b.app.app.module('slashing'), 'beginBlock', 'slashing BeginBlock', t);
    timeHook(b.app.app.module('mint'), 'beginBlock', 'mint BeginBlock', t);
    timeHook(b.app.app.module('staking'), 'beginBlock', 'staking BeginBlock', t);
    const report = (scenario: string, blockMs: number[]): void => {
      const parts = [...t].map(([k, v]) => `${k} ${median(v).toFixed(2)}`).join(', ');
      log(`pos: ${nVals} validators, ${scenario}: block ${median(blockMs).toFixed(1)} ms (median of ${blockMs.length}); ${parts} ms`);
      for (const v of t.values()) v.length = 0;
    };
    const quiet: number[] = [];
    for (let i = 0; i < o.blocks; i++) quiet.push((await block(b, [])).ms);
    report('empty blocks', quiet);
    const valopers = Array.from({ length: nVals }, (_, v) => toBech32(`${PREFIX}valoper`, sha256(new TextEncoder().encode(`operator ${v}`)).subarray(0, 20)));
    const busy: number[] = [];
    let failed = 0;
    for (let i = 0; i < o.blocks; i++) {
      const txs = b.senders.map((_, s) => delegateTx(b, s, valopers[(i * SENDERS + s * 7) % nVals]!));
      const r = await block(b, txs);
      busy.push(r.ms);
      failed += r.failed;
    }
    if (failed > 0) throw new Error(`${failed} delegations failed`);
    report(`${SENDERS} delegations per block (powers change)`, busy);
  } finally {
    await closeChain(b);
  }
}

/** Committed bank sends per second on a chain of `config` (in process: signing excluded, ante included). */
async function sendRate(config: AppConfig | undefined, o: PosBenchOptions): Promise<number> {
  const b = await openPosChain(config === undefined ? 4 : 0, 0, config);
  try {
    await block(b, []);
    const recipient = toBech32(PREFIX, new Uint8Array(20).fill(7));
    let ms = 0;
    let n = 0;
    for (let i = 0; i < o.sendBlocks; i++) {
      const txs: Uint8Array[] = [];
      for (let j = 0; j < o.sendsPerBlock; j++) txs.push(sendTx(b, j % SENDERS, recipient));
      const r = await block(b, txs);
      if (r.failed > 0) throw new Error(`${r.failed} sends failed`);
      ms += r.ms;
      n += txs.length;
    }
    return n / (ms / 1000);
  } finally {
    await closeChain(b);
  }
}

export async function posBench(o: PosBenchOptions): Promise<void> {
  const log = o.log ?? ((s: string) => console.log(s));
  for (const n of o.validators) await blockHookBench(n, o, log);
  const withoutPos: AppConfig = {
    ...CHAIN_APP_CONFIG,
    modules: CHAIN_APP_CONFIG.modules.filter((m) => ['auth', 'bank', 'evm'].includes(m)),
    order: Object.fromEntries(Object.entries(CHAIN_APP_CONFIG.order).map(([k, v]) => [k, (v as string[]).filter((m) => ['auth', 'bank', 'evm'].includes(m))])) as unknown as AppConfig['order'],
  };
  // alternate the two configs so drift of the machine hits both
  const full: number[] = [];
  const bare: number[] = [];
  for (let r = 0; r < 2; r++) {
    bare.push(await sendRate(withoutPos, o));
    full.push(await sendRate(undefined, o));
  }
  const f = Math.max(...full);
  const w = Math.max(...bare);
  log(`pos: bank sends in process (${o.sendsPerBlock} per block, ${o.sendBlocks} blocks, best of 2): with staking/distribution/slashing/evidence/mint ${f.toFixed(0)} tx/s, without ${w.toFixed(0)} tx/s (${((f / w - 1) * 100).toFixed(1)}%)`);
}
