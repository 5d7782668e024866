/**
 * A test chain of auth + bank + distribution (@chain/testing's TestChain) with a fake of distribution's
 * expected staking keeper: validators and delegations live in memory under the test's control, and the
 * fake calls the distribution hooks in the order x/staking v0.45 calls them (CreateValidator, Delegate,
 * Slash), moving the delegated coins into the bonded pool through bank.
 */
import { Context, EventManager, InfiniteGasMeter } from '@chain/app';
import type { CommitInfo } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule } from '@chain/auth';
import { BankKeeper, BankModule } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import type { AnyMsg } from '@chain/codec';
import type { Event } from '@chain/events';
import { Dec, DecCoins, tokensFromConsensusPower } from '@chain/math';
import type { StakingHooks } from '@chain/staking';
import { branch } from '@chain/store';
import type { CacheKVStore } from '@chain/store';
import { TestChain, buildTx, devKey, testAppConfig } from '@chain/testing';
import type { DevKey } from '@chain/testing';
import { DistributionBech32Codec, DistributionKeeper, DistributionModule, defaultDistributionGenesis } from '../src/index.js';
import type { DistributionDelegation, DistributionStakingKeeper, DistributionValidator } from '../src/index.js';

export const CHAIN_ID = 'distribution-test-1';
export const PREFIX = 'chain';
export const DENOM = 'stake';
export const FEE_COLLECTOR = 'fee_collector';
export const DISTRIBUTION = 'distribution';
export const BONDED_POOL = 'bonded_tokens_pool';
export const POWER_REDUCTION = 10n ** 6n;
export const MODULE_ACCOUNTS: Record<string, string[]> = {
  [FEE_COLLECTOR]: [],
  [DISTRIBUTION]: [],
  [BONDED_POOL]: ['burner', 'staking'],
};

export const valCodec = new DistributionBech32Codec(PREFIX + 'valoper');
export const consCodec = new DistributionBech32Codec(PREFIX + 'valcons');
export const KEYS: DevKey[] = [0, 1, 2, 3].map((i) => devKey(i, PREFIX));
/** operator address bytes = the account bytes of KEYS[i] (the SDK's ConvertAddrsToValAddrs) */
export const valAddr = (i: number): Uint8Array => KEYS[i]!.addr;
export const valoper = (i: number): string => valCodec.encode(valAddr(i));
/** a fake consensus address per validator index */
export const consAddr = (i: number): Uint8Array => new Uint8Array(20).fill(0xc0 + i);

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const clone = <T>(x: T): T => structuredClone(x);

/** The expected staking keeper over in-memory validators and delegations (returns copies, as Go returns values). */
export class FakeStakingKeeper implements DistributionStakingKeeper {
  readonly powerReduction = POWER_REDUCTION;
  readonly validators = new Map<string, DistributionValidator>();
  readonly cons = new Map<string, string>();
  readonly consOf = new Map<string, Uint8Array>();
  readonly delegations = new Map<string, DistributionDelegation>();
  hooks: Partial<StakingHooks> = {};

  constructor(
    readonly accCodec: AddressCodec,
    readonly bank?: BankKeeper,
  ) {}

  getValidator(_ctx: Context, v: Uint8Array): DistributionValidator | undefined {
    const x = this.validators.get(hex(v));
    return x && clone(x);
  }
  getValidatorByConsAddr(ctx: Context, c: Uint8Array): DistributionValidator | undefined {
    const op = this.cons.get(hex(c));
    return op === undefined ? undefined : this.getValidator(ctx, Buffer.from(op, 'hex'));
  }
  *iterateValidators(): Iterable<DistributionValidator> {
    for (const k of [...this.validators.keys()].sort()) yield clone(this.validators.get(k)!);
  }
  getDelegation(_ctx: Context, d: Uint8Array, v: Uint8Array): DistributionDelegation | undefined {
    const x = this.delegations.get(hex(d) + '/' + hex(v));
    return x && clone(x);
  }
  *iterateDelegatorDelegations(_ctx: Context, d: Uint8Array): Iterable<DistributionDelegation> {
    for (const k of [...this.delegations.keys()].sort()) if (k.startsWith(hex(d) + '/')) yield clone(this.delegations.get(k)!);
  }
  getAllDelegations(): Iterable<DistributionDelegation> {
    return [...this.delegations.keys()].sort().map((k) => clone(this.delegations.get(k)!));
  }
  getValidatorDelegations(_ctx: Context, v: Uint8Array): Iterable<DistributionDelegation> {
    const op = valCodec.encode(v);
    return [...this.delegations.keys()].sort().map((k) => this.delegations.get(k)!).filter((d) => d.validator_address === op).map(clone);
  }
  consAddress(v: DistributionValidator): Uint8Array {
    return this.consOf.get(v.operator_address)!;
  }

  tokensFromConsensusPower(power: bigint | number): bigint {
    return tokensFromConsensusPower(power, POWER_REDUCTION);
  }

  /** A bonded validator with its self-delegation of `tokens` (1:1 shares), without hooks (state from genesis). */
  addRaw(i: number, tokens: bigint, commissionRate: Dec = Dec.withPrec(5, 1)): void {
    this.setValidator(i, commissionRate);
    const v = this.validators.get(hex(valAddr(i)))!;
    v.tokens = tokens.toString();
    v.delegator_shares = Dec.fromInt(tokens).atomics();
    this.delegations.set(hex(valAddr(i)) + '/' + hex(valAddr(i)), { delegator_address: this.accCodec.encode(valAddr(i)), validator_address: v.operator_address, shares: v.delegator_shares });
  }

  /** `MsgCreateValidator`: the validator (bonded), AfterValidatorCreated, then the self-delegation. */
  createValidator(ctx: Context, i: number, tokens: bigint, commissionRate: Dec = Dec.withPrec(5, 1)): void {
    this.setValidator(i, commissionRate);
    this.hooks.afterValidatorCreated?.(ctx, valAddr(i));
    this.delegate(ctx, valAddr(i), valAddr(i), tokens);
  }

  private setValidator(i: number, commissionRate: Dec): void {
    const op = valoper(i);
    const v: DistributionValidator = {
      operator_address: op, consensus_pubkey: null, jailed: false, status: 3, tokens: '0', delegator_shares: '0', description: null,
      unbonding_height: 0n, unbonding_time: null,
      commission: { commission_rates: { rate: commissionRate.atomics(), max_rate: commissionRate.atomics(), max_change_rate: '0' }, update_time: null },
      min_self_delegation: '1',
    };
    this.validators.set(hex(valAddr(i)), v);
    this.cons.set(hex(consAddr(i)), hex(valAddr(i)));
    this.consOf.set(op, consAddr(i));
  }

  /** `Delegate` (x/staking/keeper/delegation.go v0.45): hooks before, coins, shares, hook after. */
  delegate(ctx: Context, del: Uint8Array, val: Uint8Array, amount: bigint): void {
    const key = hex(del) + '/' + hex(val);
    const existing = this.delegations.get(key);
    if (existing) this.hooks.beforeDelegationSharesModified?.(ctx, del, val);
    else this.hooks.beforeDelegationCreated?.(ctx, del, val);
    this.bank?.sendCoinsFromAccountToModule(ctx, del, BONDED_POOL, [{ denom: DENOM, amount: amount.toString() }]);
    const v = this.validators.get(hex(val))!;
    const tokens = BigInt(v.tokens);
    const shares = Dec.fromAtomics(v.delegator_shares || '0');
    // AddTokensFromDel: first delegation 1:1, else shares.MulInt(amount).QuoInt(tokens)
    const issued = shares.isZero() ? Dec.fromInt(amount) : shares.mulInt(amount).quoInt(tokens);
    v.tokens = (tokens + amount).toString();
    v.delegator_shares = shares.add(issued).atomics();
    const prev = existing ? Dec.fromAtomics(existing.shares) : Dec.zero();
    this.delegations.set(key, { delegator_address: this.accCodec.encode(del), validator_address: v.operator_address, shares: prev.add(issued).atomics() });
    this.hooks.afterDelegationModified?.(ctx, del, val);
  }

  /** `Slash` at the current height (no unbonding/redelegation entries): BeforeValidatorSlashed(effective fraction), tokens burnt. */
  slash(ctx: Context, c: Uint8Array, power: bigint, slashFactor: Dec): void {
    const amount = this.tokensFromConsensusPower(power);
    const slashAmount = Dec.fromInt(amount).mul(slashFactor).truncateInt();
    const v = this.getValidatorByConsAddr(ctx, c)!;
    const op = valCodec.decode(v.operator_address);
    const tokens = BigInt(v.tokens);
    let toBurn = slashAmount < tokens ? slashAmount : tokens;
    if (toBurn < 0n) toBurn = 0n;
    let effective = Dec.fromInt(toBurn).quoRoundUp(Dec.fromInt(tokens));
    if (effective.gt(Dec.one())) effective = Dec.one();
    this.hooks.beforeValidatorSlashed?.(ctx, op, effective);
    this.validators.get(hex(op))!.tokens = (tokens - toBurn).toString();
  }

  /** The validator removed (after a full unbonding): AfterValidatorRemoved, then gone. */
  removeValidator(ctx: Context, i: number): void {
    this.hooks.afterValidatorRemoved?.(ctx, consAddr(i), valAddr(i));
    this.validators.delete(hex(valAddr(i)));
    this.cons.delete(hex(consAddr(i)));
  }
}

export interface TestSetup {
  readonly chain: TestChain;
  readonly registry: ProtoRegistry;
  readonly codec: AddressCodec;
  readonly ak: AccountKeeper;
  readonly bk: BankKeeper;
  readonly keeper: DistributionKeeper;
  readonly staking: FakeStakingKeeper;
  /** bech32 addresses of the module accounts */
  readonly addr: Record<string, string>;
}

/** A fresh auth + bank + distribution chain (`close()` it); not initialized yet. */
export async function openChain(o: { proposer?: Uint8Array } = {}): Promise<TestSetup> {
  const registry = new ProtoRegistry();
  const codec = new AddressCodec(PREFIX);
  const ak = new AccountKeeper({ registry, addressCodec: codec, moduleAccounts: MODULE_ACCOUNTS });
  const blocked = new Set([FEE_COLLECTOR, BONDED_POOL].map((n) => codec.encode(ak.getModuleAddress(n))));
  const bk = new BankKeeper({ registry, accountKeeper: ak, blockedAddresses: blocked });
  const staking = new FakeStakingKeeper(codec, bk);
  const keeper = new DistributionKeeper({ registry, accountKeeper: ak, bankKeeper: bk, stakingKeeper: staking });
  staking.hooks = keeper.stakingHooks;
  const modules = [new AuthModule(ak), new BankModule(bk), new DistributionModule(keeper)];
  const chain = await TestChain.open({ registry, chainId: CHAIN_ID, modules, config: testAppConfig(modules), proposer: o.proposer });
  const addr: Record<string, string> = {};
  for (const name of Object.keys(MODULE_ACCOUNTS)) addr[name] = codec.encode(ak.getModuleAddress(name));
  return { chain, registry, codec, ak, bk, keeper, staking, addr };
}

/** Genesis app_state: bank balances (bech32 → amount of `stake`) and the distribution genesis JSON. */
export function genesis(balances: Record<string, bigint>, distribution?: Record<string, unknown>): Record<string, unknown> {
  const state: Record<string, unknown> = {
    bank: {
      params: { send_enabled: [], default_send_enabled: true },
      balances: Object.entries(balances).filter(([, a]) => a > 0n).map(([address, amount]) => ({ address, coins: [{ denom: DENOM, amount: amount.toString() }] })),
      supply: [],
      denom_metadata: [],
      send_enabled: [],
    },
  };
  if (distribution) state['distribution'] = distribution;
  return state;
}

/** The default distribution genesis in gateway JSON. */
export function defaultGenesisJson(): Record<string, unknown> {
  const g = defaultDistributionGenesis();
  return {
    ...g,
    params: { community_tax: '0.020000000000000000', base_proposer_reward: '0.010000000000000000', bonus_proposer_reward: '0.040000000000000000', withdraw_addr_enabled: true },
  };
}

/**
 * A writable block context at `height` over one branch of the committed state (the SDK tests'
 * `ctx.WithBlockHeight`): keeper-level tests drive everything through it.
 */
export class BlockCtx {
  readonly state: CacheKVStore;
  height: number;
  readonly events = new EventManager();
  constructor(chain: TestChain, height = chain.app.lastHeight + 1) {
    this.state = branch(chain.store.state);
    this.height = height;
  }
  ctx(o: { proposer?: Uint8Array; lastCommit?: CommitInfo } = {}): Context {
    const comet = { lastCommit: o.lastCommit ?? { round: 0, votes: [] }, misbehavior: [], nextValidatorsHash: new Uint8Array(), proposerAddress: o.proposer ?? new Uint8Array() };
    return new Context(this.state, { height: this.height, time: new Date('2024-01-01T00:00:00Z'), chainId: CHAIN_ID, proposer: o.proposer ?? new Uint8Array(20), comet }, 'deliver', new InfiniteGasMeter(), this.events);
  }
}

/** `sdk.DecCoins{{stake, d}}` */
export const stakeDec = (d: Dec | bigint | number): DecCoins => DecCoins.fromProto([{ denom: DENOM, amount: (d instanceof Dec ? d : Dec.fromInt(d)).atomics() }]);
/** the text of `sdk.DecCoins{{stake, d}}` */
export const decStr = (d: Dec | bigint | number): string => stakeDec(d).toString();

/** Σ reference counts of every historical rewards record (`GetValidatorHistoricalReferenceCount`). */
export function historicalReferenceCount(k: DistributionKeeper, ctx: Context): number {
  let n = 0;
  for (const h of k.state.HistoricalRewards.values(ctx)) n += h.reference_count;
  return n;
}

/** Events as [type, {key: value}] (the block's `mode` attribute dropped). */
export function flatEvents(events: readonly Event[]): [string, Record<string, string>][] {
  return events.map((e) => [e.type, Object.fromEntries(e.attributes.filter((a) => a.key !== 'mode').map((a) => [a.key, a.value]))]);
}

/**
 * The distribution genesis records of validators `ids` created at height 0 with a self-delegation each (what
 * the hooks leave): historical period 0 referenced twice, current period 1, empty commission/outstanding,
 * the delegation's starting info at period 0 with its stake.
 */
export function validatorRecords(ids: readonly [number, bigint][]): Record<string, unknown> {
  return {
    outstanding_rewards: ids.map(([i]) => ({ validator_address: valoper(i), outstanding_rewards: [] })),
    validator_accumulated_commissions: ids.map(([i]) => ({ validator_address: valoper(i), accumulated: { commission: [] } })),
    validator_historical_rewards: ids.map(([i]) => ({ validator_address: valoper(i), period: '0', rewards: { cumulative_reward_ratio: [], reference_count: 2 } })),
    validator_current_rewards: ids.map(([i]) => ({ validator_address: valoper(i), rewards: { rewards: [], period: '1' } })),
    delegator_starting_infos: ids.map(([i, tokens]) => ({
      delegator_address: KEYS[i]!.address, validator_address: valoper(i), starting_info: { previous_period: '0', stake: `${tokens}.000000000000000000`, height: '0' },
    })),
  };
}

/** An ABCI vote of validator `i` (Commit unless `flag`). */
export const vote = (i: number, power: bigint, flag: 1 | 2 | 3 = 2) => ({ validator: { address: consAddr(i), power }, blockIdFlag: flag });

/** A signed tx carrying `msgs` (the test chain has no ante handler: the signer fields decide). */
export function signedTx(registry: ProtoRegistry, key: DevKey, msgs: AnyMsg[]): Uint8Array {
  return buildTx(registry, [{ key, accountNumber: 0n, sequence: 0n }], msgs, { chainId: CHAIN_ID });
}

export function msg(registry: ProtoRegistry, type: string, value: Record<string, unknown>): AnyMsg {
  return registry.packAny(`chain.distribution.v1beta1.${type}`, value);
}

/**
 * The standard chain for message and query tests: validators 0 (50% commission) and 1 (0%) with 100 tokens
 * each from genesis, 100stake in the fee collector, proposer of every block validator 1; after `init` and
 * one block with both votes: val0 outstanding 46.5 (commission 23.25), val1 51.5, community pool 2.
 */
export async function rewardedChain(distribution: Record<string, unknown> = {}): Promise<TestSetup> {
  const s = await openChain({ proposer: consAddr(1) });
  s.staking.addRaw(0, 100n, Dec.withPrec(5, 1));
  s.staking.addRaw(1, 100n, Dec.zero());
  await s.chain.init(
    genesis(
      { [s.addr[FEE_COLLECTOR]!]: 100n, [KEYS[0]!.address]: 1000n, [KEYS[2]!.address]: 1000n },
      { ...defaultGenesisJson(), ...validatorRecords([[0, 100n], [1, 100n]]), ...distribution },
    ),
  );
  await s.chain.block([], { lastCommit: { round: 0, votes: [vote(0, 100n), vote(1, 100n)] } });
  return s;
}
