/**
 * A test chain of auth + bank + staking + gov (@chain/testing's TestChain, composed from the public APIs
 * as createChainApp composes the node's app, with the real staking keeper behind gov's tally), plus
 * keeper-level block contexts (the SDK tests' `ctx`) and txs. The chain has no ante handler: signatures
 * are not checked, the signer fields decide.
 */
import { Context, EventManager, InfiniteGasMeter } from '@chain/app';
import type { AppModule, Coin, ExecTxResult } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule } from '@chain/auth';
import { BankKeeper, BankModule } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import { Errors } from '@chain/errors';
import type { AnyMsg } from '@chain/codec';
import { sha256, toBase64, toBech32 } from '@chain/crypto';
import type { Event } from '@chain/events';
import { StakingKeeper, StakingModule, chain_staking_v1beta1 } from '@chain/staking';
import { branch } from '@chain/store';
import type { CacheKVStore } from '@chain/store';
import { GENESIS_TIME, TestChain, buildTx, devKey as sharedDevKey, testAppConfig } from '@chain/testing';
import type { DevKey } from '@chain/testing';
import { GovKeeper, GovModule } from '../src/index.js';
import type { ProposalContentRoute } from '../src/index.js';

export const CHAIN_ID = 'gov-test-1';
export const PREFIX = 'chain';
/** the bond denom (staking's default) */
export const DENOM = 'stake';
/** 10^18: the chain's power reduction (one unit of consensus power) */
export const E18 = 10n ** 18n;
export const GOV = 'gov';
export const BONDED_POOL = 'bonded_tokens_pool';
export const NOT_BONDED_POOL = 'not_bonded_tokens_pool';

export const devKey = (i: number): DevKey => sharedDevKey(i, PREFIX);
export const KEYS: DevKey[] = Array.from({ length: 8 }, (_, i) => devKey(i));
export const codec = new AddressCodec(PREFIX);
export const valoper = (i: number): string => toBech32(`${PREFIX}valoper`, KEYS[i]!.addr);
/** the ed25519 consensus key of validator `i` (nothing verifies signatures here) */
export const consKey = (i: number): Uint8Array => sha256(new TextEncoder().encode(`gov validator ${i}`));
export const consAddr = (i: number): Uint8Array => sha256(consKey(i)).subarray(0, 20);
export const coins = (amount: bigint, denom = DENOM): Coin[] => [{ denom, amount: amount.toString() }];

export interface TestSetup {
  readonly chain: TestChain;
  readonly registry: ProtoRegistry;
  readonly ak: AccountKeeper;
  readonly bank: BankKeeper;
  readonly staking: StakingKeeper;
  readonly keeper: GovKeeper;
  /** bech32 of the gov module account */
  readonly govAddress: string;
}

/** A fresh auth + bank + staking + gov chain (`close()` it), not initialized yet; `routes` are extra content routes. */
export async function openChain(o: { routes?: ProposalContentRoute[]; blockSeconds?: number } = {}): Promise<TestSetup> {
  const registry = new ProtoRegistry();
  registry.addProtoDir(TEST_PROTO_DIR);
  const ak = new AccountKeeper({
    registry,
    addressCodec: codec,
    moduleAccounts: { fee_collector: [], [BONDED_POOL]: ['burner', 'staking'], [NOT_BONDED_POOL]: ['burner', 'staking'], [GOV]: ['burner'] },
  });
  const blocked = new Set([BONDED_POOL, NOT_BONDED_POOL, GOV, 'fee_collector'].map((n) => codec.encode(ak.getModuleAddress(n))));
  const bank = new BankKeeper({ registry, accountKeeper: ak, blockedAddresses: blocked });
  const staking = new StakingKeeper({ registry, accountKeeper: ak, bankKeeper: bank });
  staking.hooks.set();
  const keeper = new GovKeeper({ registry, accountKeeper: ak, bankKeeper: bank, stakingKeeper: staking, contentRoutes: o.routes });
  const modules: AppModule[] = [new AuthModule(ak), new BankModule(bank), new StakingModule(staking), new GovModule(keeper)];
  // EndBlock: gov before staking, as the SDK's simapp (and the original chain) order them
  const config = testAppConfig(modules, { order: { endBlock: ['gov', 'staking'] } });
  const chain = await TestChain.open({ registry, chainId: CHAIN_ID, modules, config, blockSeconds: o.blockSeconds });
  return { chain, registry, ak, bank, staking, keeper, govAddress: codec.encode(ak.getModuleAddress(GOV)) };
}

/** Gov genesis JSON with short periods (seconds) and a min deposit (of `DENOM`). */
export function govGenesis(o: { minDeposit?: bigint; depositPeriod?: number; votingPeriod?: number; quorum?: string; threshold?: string; veto?: string } = {}) {
  return {
    starting_proposal_id: '1',
    deposits: [],
    votes: [],
    proposals: [],
    deposit_params: { min_deposit: [{ denom: DENOM, amount: (o.minDeposit ?? 10n * E18).toString() }], max_deposit_period: `${o.depositPeriod ?? 10}s` },
    voting_params: { voting_period: `${o.votingPeriod ?? 10}s` },
    tally_params: { quorum: o.quorum ?? '0.334000000000000000', threshold: o.threshold ?? '0.500000000000000000', veto_threshold: o.veto ?? '0.334000000000000000' },
  };
}

const dec = (n: bigint): string => `${n}.000000000000000000`;

/** A bonded genesis validator `i` with `tokens` whole tokens self-delegated (1:1 shares). */
function validatorJson(i: number, tokens: bigint): Record<string, unknown> {
  return {
    operator_address: valoper(i),
    consensus_pubkey: { '@type': '/cosmos.crypto.ed25519.PubKey', key: toBase64(consKey(i)) },
    jailed: false,
    status: 'BOND_STATUS_BONDED',
    tokens: (tokens * E18).toString(),
    delegator_shares: dec(tokens * E18),
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

/**
 * The app_state of a chain with bonded validators `powers` (dev keys 0.., self-delegated, power = whole
 * tokens), every dev key holding `liquid` whole tokens, and `gov` (default: `govGenesis()`).
 */
export function appGenesis(o: { powers?: bigint[]; liquid?: bigint; gov?: Record<string, unknown> } = {}): Record<string, unknown> {
  const powers = o.powers ?? [60n, 40n];
  const liquid = o.liquid ?? 1000n;
  const bonded = powers.reduce((a, b) => a + b, 0n) * E18;
  const bondedAddr = codec.encode(sha256(new TextEncoder().encode(BONDED_POOL)).subarray(0, 20));
  return {
    bank: {
      params: { send_enabled: [], default_send_enabled: true },
      balances: [
        ...KEYS.map((k) => ({ address: k.address, coins: coins(liquid * E18) })),
        { address: bondedAddr, coins: coins(bonded) },
      ],
      supply: [],
      denom_metadata: [],
      send_enabled: [],
    },
    staking: {
      params: { unbonding_time: '1814400s', max_validators: 100, max_entries: 7, historical_entries: 0, bond_denom: DENOM },
      last_total_power: '0',
      last_validator_powers: [],
      validators: powers.map((p, i) => validatorJson(i, p)),
      delegations: powers.map((p, i) => ({ delegator_address: KEYS[i]!.address, validator_address: valoper(i), shares: dec(p * E18) })),
      unbonding_delegations: [],
      redelegations: [],
      exported: false,
    },
    gov: o.gov ?? govGenesis(),
  };
}

/**
 * A writable block context over one branch of the committed state (the SDK keeper tests' `ctx`): keeper-
 * level tests drive everything through it and never commit.
 */
export class BlockCtx {
  readonly state: CacheKVStore;
  readonly events = new EventManager();
  constructor(chain: TestChain, public time: Date = GENESIS_TIME, public height = chain.app.lastHeight + 1) {
    this.state = branch(chain.store.state);
  }
  ctx(): Context {
    return new Context(this.state, { height: this.height, time: this.time, chainId: CHAIN_ID, proposer: new Uint8Array(20) }, 'deliver', new InfiniteGasMeter(), this.events);
  }
}

/** `createValidators` of the SDK's gov keeper tests: 5 funded accounts; validators of accounts 0..2 self-delegating `powers`; the set updated. */
export function createValidators(s: TestSetup, ctx: Context, powers: readonly bigint[]): Uint8Array[] {
  const addrs = KEYS.slice(0, 5).map((k) => k.addr);
  for (const a of addrs) s.bank.initBalance(ctx, a, coins(300n * E18));
  powers.forEach((power, i) => {
    const v: chain_staking_v1beta1.Validator = {
      operator_address: valoper(i),
      consensus_pubkey: s.registry.packAny('chain.crypto.ed25519.PubKey', { key: consKey(i) }),
      jailed: false,
      status: chain_staking_v1beta1.BondStatus.BOND_STATUS_UNBONDED,
      tokens: '0',
      delegator_shares: '0',
      description: { moniker: `val${i}`, identity: '', website: '', security_contact: '', details: '' },
      unbonding_height: 0n,
      unbonding_time: { seconds: 0n, nanos: 0 },
      commission: { commission_rates: { rate: '0', max_rate: '0', max_change_rate: '0' }, update_time: { seconds: 0n, nanos: 0 } },
      min_self_delegation: '1',
    };
    s.staking.setValidator(ctx, v);
    s.staking.setValidatorByConsAddr(ctx, v);
    s.staking.setValidatorByPowerIndex(ctx, v);
    s.staking.delegate(ctx, addrs[i]!, power * E18, chain_staking_v1beta1.BondStatus.BOND_STATUS_UNBONDED, v, true);
  });
  s.staking.applyAndReturnValidatorSetUpdates(ctx);
  return addrs;
}

/** `Delegate(ctx, del, tokens, Unbonded, validator i, true)` of the SDK tests. */
export function delegate(s: TestSetup, ctx: Context, del: Uint8Array, val: number, tokens: bigint): void {
  const v = s.staking.getValidator(ctx, KEYS[val]!.addr)!;
  s.staking.delegate(ctx, del, tokens * E18, chain_staking_v1beta1.BondStatus.BOND_STATUS_UNBONDED, v, true);
}

// ---- txs ----

export function msg(registry: ProtoRegistry, type: string, value: Record<string, unknown>, typeUrl?: string): AnyMsg {
  return registry.packAny(`chain.gov.v1beta1.${type}`, value, typeUrl);
}

/** A TextProposal as an Any. */
export function textContent(registry: ProtoRegistry, title = 'Test', description = 'description', typeUrl?: string): AnyMsg {
  return registry.packAny('chain.gov.v1beta1.TextProposal', { title, description }, typeUrl);
}

export function submitMsg(registry: ProtoRegistry, proposer: number, content: AnyMsg | null, deposit: Coin[]): AnyMsg {
  return msg(registry, 'MsgSubmitProposal', { content, initial_deposit: deposit, proposer: KEYS[proposer]!.address });
}
export function depositMsg(registry: ProtoRegistry, depositor: number, id: bigint, amount: Coin[]): AnyMsg {
  return msg(registry, 'MsgDeposit', { proposal_id: id, depositor: KEYS[depositor]!.address, amount });
}
export function voteMsg(registry: ProtoRegistry, voter: number, id: bigint, option: number): AnyMsg {
  return msg(registry, 'MsgVote', { proposal_id: id, voter: KEYS[voter]!.address, option });
}
export function weightedMsg(registry: ProtoRegistry, voter: number, id: bigint, options: [number, string][]): AnyMsg {
  return msg(registry, 'MsgVoteWeighted', { proposal_id: id, voter: KEYS[voter]!.address, options: options.map(([option, w]) => ({ option, weight: w })) });
}

/** A tx carrying `msgs` "signed" by dev key `signer`. */
export function tx(registry: ProtoRegistry, signer: number, msgs: AnyMsg[]): Uint8Array {
  return buildTx(registry, [{ key: KEYS[signer]!, accountNumber: 0n, sequence: 0n }], msgs, { chainId: CHAIN_ID, fee: [] });
}

/** Delivers a tx in its own block; asserts nothing. */
export async function deliver(s: TestSetup, signer: number, ...msgs: AnyMsg[]): Promise<ExecTxResult> {
  return s.chain.deliver(tx(s.registry, signer, msgs));
}

/** Events as `[type, {key: value}]` pairs, in order (the block's `mode` attribute dropped). */
export function eventList(events: readonly Event[]): [string, Record<string, string>][] {
  return events.map((e) => [e.type, Object.fromEntries(e.attributes.filter((a) => a.key !== 'mode').map((a) => [a.key, a.value]))]);
}

/** Dec atomics of a decimal weight (`'0.5'` → 5×10^17). */
export function w(text: string): string {
  const [int, frac = ''] = text.split('.');
  return (BigInt(int!) * E18 + BigInt(frac.padEnd(18, '0'))).toString();
}

/** A digest of the state under `gov/` and `bank/`: a failed message leaves both exactly as they were. */
export function stateDigest(s: TestSetup): string {
  const out: string[] = [];
  for (const [k, v] of s.chain.store.state.iterator(undefined, undefined, false)) {
    const key = Buffer.from(k);
    if (key.toString('latin1').startsWith('gov/') || key.toString('latin1').startsWith('bank/')) out.push(key.toString('hex') + '=' + Buffer.from(v).toString('hex'));
  }
  return Buffer.from(sha256(new TextEncoder().encode(out.join('\n')))).toString('hex');
}

// ---- a content type of the tests' own, with a handler that writes state and can be made to fail ----

/** the test protos (`chain.govtest.v1.SetValueProposal`) */
export const TEST_PROTO_DIR = new URL('./proto', import.meta.url).pathname;
export const TEST_STORE = 'govtest';

export interface SetValueContent {
  title: string;
  description: string;
  key: string;
  value: string;
}

/**
 * A content route of a test module: validate refuses an empty key (`gov` 5 is gov's; this is a plain
 * registered-looking failure: sdk 18); execute writes `value` under `key` in the store `govtest`, emits
 * `govtest_executed{key}`, then throws when `failExecution` is set (after its writes, which gov must
 * discard).
 */
export function setValueRoute(): ProposalContentRoute<SetValueContent> & { failExecution: boolean; executions: number } {
  const r = {
    typeName: 'chain.govtest.v1.SetValueProposal',
    route: 'govtest',
    proposalType: 'SetValue',
    failExecution: false,
    executions: 0,
    validate(_ctx: Context, c: SetValueContent): void {
      if (!c.key) throw Errors.InvalidRequest.wrap('empty key');
    },
    execute(ctx: Context, c: SetValueContent): void {
      r.executions++;
      ctx.kv(TEST_STORE).set(new TextEncoder().encode(c.key), new TextEncoder().encode(c.value));
      ctx.events.emit('govtest_executed', [['key', c.key]]);
      if (r.failExecution) throw new Error(`refusing to set ${c.key}`);
    },
  };
  return r;
}

export function setValueContent(registry: ProtoRegistry, c: Partial<SetValueContent> = {}): AnyMsg {
  return registry.packAny('chain.govtest.v1.SetValueProposal', { title: 'set', description: 'sets a value', key: 'k', value: 'v', ...c });
}

/** The committed value under `key` of the store `govtest`. */
export function storedValue(s: TestSetup, key: string): string | undefined {
  const v = s.chain.ctx().kv(TEST_STORE).get(new TextEncoder().encode(key));
  return v === undefined ? undefined : new TextDecoder().decode(v);
}
