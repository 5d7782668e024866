/**
 * A test chain of auth + bank + staking (@chain/testing's TestChain, composed from the public APIs as
 * createChainApp composes the node's app), plus a genesis with three validators (two bonded, one unbonded
 * outside `max_validators`), delegations, an unbonding delegation and a redelegation.
 */
import { Context as AppContext, EventManager, InfiniteGasMeter } from '@chain/app';
import type { ExecTxResult } from '@chain/app';
import { buildTx } from '@chain/testing';
import { branch } from '@chain/store';
import { STAKING_HOOK_NAMES, allStakingInvariants } from '../src/index.js';
import type { AppModule, Context } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule } from '@chain/auth';
import { BankKeeper, BankModule } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import { sha256, toBase64, toBech32 } from '@chain/crypto';
import { TestChain, devKey as sharedDevKey, testAppConfig } from '@chain/testing';
import type { DevKey } from '@chain/testing';
import { BONDED_POOL_NAME, NOT_BONDED_POOL_NAME, StakingKeeper, StakingModule } from '../src/index.js';
import type { StakingHooks } from '../src/index.js';

export const CHAIN_ID = 'staking-test-1';
export const PREFIX = 'chain';
export const DENOM = 'achain';
/** 10^18: one unit of power */
export const E18 = 10n ** 18n;

export const devKey = (i: number): DevKey => sharedDevKey(i, PREFIX);
export const codec = new AddressCodec(PREFIX);
export const valoper = (i: number): string => toBech32(`${PREFIX}valoper`, codec.decode(devKey(i).address));
/** the ed25519 consensus key of validator `i` (any 32 bytes will do: nothing verifies signatures here) */
export const consKey = (i: number): Uint8Array => sha256(new TextEncoder().encode(`validator ${i}`));

export interface TestSetup {
  readonly chain: TestChain;
  readonly keeper: StakingKeeper;
  readonly bank: BankKeeper;
  readonly ak: AccountKeeper;
  readonly registry: ProtoRegistry;
}

/**
 * A test module writing the HistoricalInfo of height 2 in its BeginBlock (what staking's BeginBlock will
 * do with the next slice), so that Query/HistoricalInfo has committed state to read.
 */
class HistTestModule implements AppModule {
  readonly name = 'histtest';
  readonly consensusVersion = 1;
  constructor(private readonly k: StakingKeeper) {}
  beginBlock(ctx: Context): void {
    if (ctx.block.height !== 2) return;
    const valset = [...this.k.validatorsByPower(ctx)].map((op) => this.k.getValidator(ctx, op)!)
      .filter((v) => this.k.getLastValidatorPower(ctx, this.k.valCodec.decode(v.operator_address)) > 0n);
    this.k.setHistoricalInfo(ctx, 2n, {
      header: { chain_id: ctx.block.chainId, height: 2n, time: { seconds: BigInt(Math.floor(ctx.block.time.getTime() / 1000)), nanos: 0 } },
      valset,
    });
  }
}

/** A fresh auth + bank + staking chain (`close()` it); not initialized yet. */
export async function openChain(opts: { withHistory?: boolean; hooks?: Partial<StakingHooks>[] } = {}): Promise<TestSetup> {
  const registry = new ProtoRegistry();
  const ak = new AccountKeeper({
    registry,
    addressCodec: codec,
    moduleAccounts: { fee_collector: [], [BONDED_POOL_NAME]: ['burner', 'staking'], [NOT_BONDED_POOL_NAME]: ['burner', 'staking'] },
  });
  const bank = new BankKeeper({ registry, accountKeeper: ak });
  const keeper = new StakingKeeper({ registry, accountKeeper: ak, bankKeeper: bank });
  keeper.hooks.set(...(opts.hooks ?? []));
  const modules: AppModule[] = [new AuthModule(ak), new BankModule(bank), new StakingModule(keeper)];
  if (opts.withHistory) modules.push(new HistTestModule(keeper));
  const chain = await TestChain.open({ registry, chainId: CHAIN_ID, modules, config: testAppConfig(modules) });
  return { chain, keeper, bank, ak, registry };
}

/** `n` whole tokens as a Dec's JSON text */
export const dec = (n: bigint): string => `${n}.000000000000000000`;

export function validatorJson(i: number, o: { status: string; tokens: bigint; shares: string; jailed?: boolean }): Record<string, unknown> {
  return {
    operator_address: valoper(i),
    consensus_pubkey: { '@type': '/cosmos.crypto.ed25519.PubKey', key: toBase64(consKey(i)) },
    jailed: o.jailed ?? false,
    status: o.status,
    tokens: o.tokens.toString(),
    delegator_shares: o.shares,
    description: { moniker: `node${i}`, identity: '', website: '', security_contact: '', details: '' },
    unbonding_height: '0',
    unbonding_time: '1970-01-01T00:00:00Z',
    commission: {
      commission_rates: { rate: '0.100000000000000000', max_rate: '0.200000000000000000', max_change_rate: '0.010000000000000000' },
      update_time: '2024-01-01T00:00:00Z',
    },
    min_self_delegation: '1',
  };
}

export const BONDED = 150n * E18 + 900n * E18;
export const NOT_BONDED = 5n * E18 + 10n * E18;

/**
 * The staking genesis (exported: false): validator 0 bonded (150 tokens, 150 shares), validator 1 bonded
 * (900 tokens for 1000 shares: 0.9 token per share), validator 2 unbonded (5); `max_validators` 2.
 * Delegations: 0→v0 100, 3→v0 50, 1→v1 600, 3→v1 400, 2→v2 5 shares. Account 3 unbonds 10 tokens from v0
 * and redelegates 50 shares' worth from v0 to v1.
 */
export function stakingGenesis(): Record<string, unknown> {
  return {
    params: { unbonding_time: '1814400s', max_validators: 2, max_entries: 7, historical_entries: 10000, bond_denom: DENOM },
    last_total_power: '0',
    last_validator_powers: [],
    validators: [
      validatorJson(0, { status: 'BOND_STATUS_BONDED', tokens: 150n * E18, shares: dec(150n) }),
      validatorJson(1, { status: 'BOND_STATUS_BONDED', tokens: 900n * E18, shares: dec(1000n) }),
      validatorJson(2, { status: 'BOND_STATUS_UNBONDED', tokens: 5n * E18, shares: dec(5n) }),
    ],
    delegations: [
      { delegator_address: devKey(0).address, validator_address: valoper(0), shares: dec(100n) },
      { delegator_address: devKey(3).address, validator_address: valoper(0), shares: dec(50n) },
      { delegator_address: devKey(1).address, validator_address: valoper(1), shares: dec(600n) },
      { delegator_address: devKey(3).address, validator_address: valoper(1), shares: dec(400n) },
      { delegator_address: devKey(2).address, validator_address: valoper(2), shares: dec(5n) },
    ],
    unbonding_delegations: [{
      delegator_address: devKey(3).address,
      validator_address: valoper(0),
      entries: [{ creation_height: '0', completion_time: '2024-01-22T00:00:00Z', initial_balance: (10n * E18).toString(), balance: (10n * E18).toString() }],
    }],
    redelegations: [{
      delegator_address: devKey(3).address,
      validator_src_address: valoper(0),
      validator_dst_address: valoper(1),
      entries: [{ creation_height: '0', completion_time: '2024-01-22T00:00:00Z', initial_balance: (50n * E18).toString(), shares_dst: dec(50n) }],
    }],
    exported: false,
  };
}

/** bank genesis: the pool balances matching `stakingGenesis` (overridable) and some liquid coins. */
export function bankGenesis(pools: { bonded?: bigint; notBonded?: bigint } = {}): Record<string, unknown> {
  const bondedAddr = codec.encode(sharedModuleAddress(BONDED_POOL_NAME));
  const notBondedAddr = codec.encode(sharedModuleAddress(NOT_BONDED_POOL_NAME));
  const coins = (n: bigint) => (n === 0n ? [] : [{ denom: DENOM, amount: n.toString() }]);
  return {
    params: { send_enabled: [], default_send_enabled: true },
    balances: [
      { address: bondedAddr, coins: coins(pools.bonded ?? BONDED) },
      { address: notBondedAddr, coins: coins(pools.notBonded ?? NOT_BONDED) },
      { address: devKey(0).address, coins: coins(1000n * E18) },
    ].filter((b) => b.coins.length > 0),
    supply: [],
    denom_metadata: [],
    send_enabled: [],
  };
}

/** Module account address: the first 20 bytes of sha256(name). */
export function sharedModuleAddress(name: string): Uint8Array {
  return sha256(new TextEncoder().encode(name)).subarray(0, 20);
}

export function appGenesis(staking: Record<string, unknown> = stakingGenesis(), bank: Record<string, unknown> = bankGenesis()): Record<string, unknown> {
  return { bank, staking };
}

// ---- messages, blocks and contexts for the state-transition tests ----


/** A tx carrying `msgs` (`[type name, message]`), "signed" by dev key `signer` (the test chain has no ante handler). */
export function msgTx(s: TestSetup, signer: number, msgs: [string, Record<string, unknown>][]): Uint8Array {
  const anys = msgs.map(([name, m]) => s.registry.packAny(`chain.staking.v1beta1.${name}`, m));
  return buildTx(s.registry, [{ key: devKey(signer), accountNumber: 0n, sequence: 0n }], anys, { chainId: CHAIN_ID, fee: [] });
}

/** The consensus key `i` as the Any of a MsgCreateValidator. */
export function consAny(s: TestSetup, i: number) {
  return s.registry.packAny('chain.crypto.ed25519.PubKey', { key: consKey(i) }, '/cosmos.crypto.ed25519.PubKey');
}

/** A MsgCreateValidator of dev key `i` with `amount` tokens (rates 0.1 / 0.2 / 0.01, min self delegation 1). */
export function createValidatorMsg(s: TestSetup, i: number, amount: bigint, o: Partial<Record<string, unknown>> = {}): [string, Record<string, unknown>] {
  return ['MsgCreateValidator', {
    description: { moniker: `node${i}`, identity: '', website: '', security_contact: '', details: '' },
    commission: { rate: (10n ** 17n).toString(), max_rate: (2n * 10n ** 17n).toString(), max_change_rate: (10n ** 16n).toString() },
    min_self_delegation: '1',
    delegator_address: devKey(i).address,
    validator_address: valoper(i),
    pubkey: consAny(s, i),
    value: { denom: DENOM, amount: amount.toString() },
    ...o,
  }];
}

/** Events as `[type, {key: value}]` pairs, in order. */
export function eventList(r: { events: readonly { type: string; attributes: readonly { key: string; value: string }[] }[] }): [string, Record<string, string>][] {
  return r.events.map((e) => [e.type, Object.fromEntries(e.attributes.filter((a) => a.key !== 'mode').map((a) => [a.key, a.value]))]);
}

/** The failure of a tx: [codespace, code, log]. */
export const failure = (r: ExecTxResult): [string, number, string] => [r.codespace, r.code, r.log];

/** A genesis with no validators: dev keys 0–4 hold 1000 tokens each; the pools are empty. */
export function emptyGenesis(params: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    staking: {
      params: { unbonding_time: '1814400s', max_validators: 100, max_entries: 7, historical_entries: 5, bond_denom: DENOM, ...params },
      last_total_power: '0', last_validator_powers: [], validators: [], delegations: [], unbonding_delegations: [], redelegations: [], exported: false,
    },
    bank: {
      params: { send_enabled: [], default_send_enabled: true },
      balances: [0, 1, 2, 3, 4].map((i) => ({ address: devKey(i).address, coins: [{ denom: DENOM, amount: (1000n * E18).toString() }] })),
      supply: [], denom_metadata: [], send_enabled: [],
    },
  };
}

/** A hooks listener recording every call as `name(args…)` with addresses in bech32. */
export function hookRecorder(): { calls: string[]; hooks: Partial<StakingHooks> } {
  const calls: string[] = [];
  const text = (a: unknown): string => (a instanceof Uint8Array ? Buffer.from(a).toString('hex').slice(0, 8) : String(a));
  const hooks: Record<string, (...a: unknown[]) => void> = {};
  for (const n of STAKING_HOOK_NAMES) hooks[n] = (_ctx: unknown, ...args: unknown[]) => { calls.push(`${n}(${args.map(text).join(',')})`); };
  return { calls, hooks: hooks as unknown as Partial<StakingHooks> };
}

/** A writable context over a branch of the committed state, at a chosen height and time (nothing is committed). */
export function writable(s: TestSetup, height: number, time: Date): { ctx: AppContext; at: (height: number, time?: Date) => AppContext } {
  const state = branch(s.chain.store.state);
  const at = (h: number, t: Date = time) => new AppContext(state, { height: h, time: t, chainId: CHAIN_ID, proposer: new Uint8Array() }, 'block', new InfiniteGasMeter(), new EventManager());
  return { ctx: at(height, time), at };
}

/** Fails when an invariant is broken. */
export function assertInvariants(s: TestSetup, ctx: AppContext = s.chain.ctx()): void {
  const r = allStakingInvariants(s.keeper, ctx);
  if (r.broken) throw new Error(r.message);
}

export const bal = (s: TestSetup, addr: string): bigint => s.bank.getBalance(s.chain.ctx(), codec.decode(addr), DENOM);
export const bondedPool = (s: TestSetup): bigint => s.bank.getBalance(s.chain.ctx(), sharedModuleAddress(BONDED_POOL_NAME), DENOM);
export const notBondedPool = (s: TestSetup): bigint => s.bank.getBalance(s.chain.ctx(), sharedModuleAddress(NOT_BONDED_POOL_NAME), DENOM);
export { GENESIS_TIME as GENESIS_DATE } from '@chain/testing';
