/**
 * A test chain of auth + bank + slashing (@chain/testing's TestChain, composed from the public APIs as
 * createChainApp composes the node's app), with a small fake of slashing's expected staking keeper
 * (`SlashingStakingKeeper`): validators and delegations in memory, `slash` burning from the
 * `bonded_tokens_pool` through bank, `jail`/`unjail` flags, and `endBlock()` standing for staking's
 * EndBlock (a jailed bonded validator becomes unbonding, an unjailed one bonded again, firing
 * AfterValidatorBonded). The real staking keeper implements the same interface (integration: next session).
 */
import { BlockIdFlags, Context, EventManager, InfiniteGasMeter } from '@chain/app';
import type { VoteInfo } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule } from '@chain/auth';
import { BankKeeper, BankModule } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import type { AnyMsg } from '@chain/codec';
import { sha256, toBech32 } from '@chain/crypto';
import type { Event } from '@chain/events';
import { Dec } from '@chain/math';
import type { StakingHooks, chain_staking_v1beta1 } from '@chain/staking';
import { branch } from '@chain/store';
import type { CacheKVStore } from '@chain/store';
import { GENESIS_TIME, TestChain, buildTx, devKey, testAppConfig } from '@chain/testing';
import { SlashingKeeper, SlashingModule } from '../src/index.js';
import type { SlashingStakingKeeper } from '../src/index.js';

type Validator = chain_staking_v1beta1.Validator;
type Delegation = chain_staking_v1beta1.Delegation;

export const CHAIN_ID = 'slashing-test-1';
export const PREFIX = 'chain';
export const BOND_DENOM = 'stake';
export const BONDED_POOL = 'bonded_tokens_pool';
/** the SDK's v0.45 `sdk.DefaultPowerReduction` (10^6), so the SDK tests' amounts port verbatim */
export const POWER_REDUCTION = 10n ** 6n;
export const MODULE_ACCOUNTS: Record<string, string[]> = { [BONDED_POOL]: ['burner', 'staking'] };

export const BONDED = 3;
export const UNBONDING = 2;

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

export interface SlashCall {
  consAddr: Uint8Array;
  infractionHeight: bigint;
  power: bigint;
  fraction: Dec;
}

export interface FakeValidator {
  readonly valAddr: Uint8Array;
  readonly consAddr: Uint8Array;
  readonly consKey: Uint8Array;
  readonly operator: string;
  readonly consAddress: string;
}

export class FakeStaking implements SlashingStakingKeeper {
  readonly powerReduction = POWER_REDUCTION;
  readonly validators = new Map<string, Validator>();
  readonly delegations = new Map<string, Delegation>();
  readonly slashes: SlashCall[] = [];
  hooks: Partial<StakingHooks> = {};
  bank: BankKeeper | undefined;
  bondedPool: Uint8Array | undefined;

  constructor(private readonly registry: ProtoRegistry) {}

  /** A bonded validator `seed` with `power` × 10^6 tokens, all self-delegated (shares = tokens). */
  addValidator(seed: number, power: bigint, o: { minSelfDelegation?: bigint; selfShares?: bigint | null; status?: number } = {}): FakeValidator {
    const consKey = sha256(new TextEncoder().encode(`consensus key ${seed}`));
    const valAddr = sha256(new TextEncoder().encode(`operator ${seed}`)).subarray(0, 20);
    const tokens = power * POWER_REDUCTION;
    const operator = toBech32(PREFIX + 'valoper', valAddr);
    const v: Validator = {
      operator_address: operator,
      consensus_pubkey: this.registry.packAny('chain.crypto.ed25519.PubKey', { key: consKey }),
      jailed: false,
      status: o.status ?? BONDED,
      tokens: tokens.toString(),
      delegator_shares: Dec.fromInt(tokens).atomics(),
      description: null,
      unbonding_height: 0n,
      unbonding_time: null,
      commission: null,
      min_self_delegation: (o.minSelfDelegation ?? 1n).toString(),
    };
    this.validators.set(hex(valAddr), v);
    const selfShares = o.selfShares === undefined ? tokens : o.selfShares;
    if (selfShares !== null) {
      this.delegations.set(hex(valAddr) + hex(valAddr), {
        delegator_address: toBech32(PREFIX, valAddr), validator_address: operator, shares: Dec.fromInt(selfShares).atomics(),
      });
    }
    const consAddr = sha256(consKey).subarray(0, 20);
    return { valAddr, consAddr, consKey, operator, consAddress: toBech32(PREFIX + 'valcons', consAddr) };
  }

  validator(f: FakeValidator): Validator {
    return this.validators.get(hex(f.valAddr))!;
  }

  getValidator(_ctx: Context, valAddr: Uint8Array): Validator | undefined {
    return this.validators.get(hex(valAddr));
  }
  getValidatorByConsAddr(_ctx: Context, consAddr: Uint8Array): Validator | undefined {
    for (const v of this.validators.values()) if (hex(this.consAddress(v)) === hex(consAddr)) return v;
    return undefined;
  }
  *iterateValidators(): Iterable<Validator> {
    yield* [...this.validators.values()];
  }
  getDelegation(_ctx: Context, del: Uint8Array, val: Uint8Array): Delegation | undefined {
    return this.delegations.get(hex(del) + hex(val));
  }
  /** as x/staking's Slash for a bonded validator without unbonding entries: burns `fraction × power × 10^6`, truncated */
  slash(ctx: Context, consAddr: Uint8Array, infractionHeight: bigint, power: bigint, fraction: Dec): void {
    this.slashes.push({ consAddr, infractionHeight, power, fraction });
    const v = this.getValidatorByConsAddr(ctx, consAddr);
    if (!v) return;
    const amount = Dec.fromInt(power * POWER_REDUCTION).mul(fraction).truncateInt();
    const tokens = BigInt(v.tokens);
    const burn = amount < tokens ? amount : tokens;
    v.tokens = (tokens - burn).toString();
    if (this.bank && burn > 0n) this.bank.burnCoins(ctx, BONDED_POOL, [{ denom: BOND_DENOM, amount: burn.toString() }]);
  }
  jail(ctx: Context, consAddr: Uint8Array): void {
    this.getValidatorByConsAddr(ctx, consAddr)!.jailed = true;
  }
  unjail(ctx: Context, consAddr: Uint8Array): void {
    this.getValidatorByConsAddr(ctx, consAddr)!.jailed = false;
  }
  maxValidators(): number {
    return 100;
  }
  consPubKey(v: Validator): Uint8Array {
    return this.registry.unpackAny<{ key: Uint8Array }>(v.consensus_pubkey!).message.key;
  }
  consAddress(v: Validator): Uint8Array {
    return sha256(this.consPubKey(v)).subarray(0, 20);
  }
  consensusPower(v: Validator): bigint {
    return v.status === BONDED ? BigInt(v.tokens) / POWER_REDUCTION : 0n;
  }

  /** staking's EndBlock, as far as these tests need it: jailed bonded → unbonding; unjailed unbonding → bonded (+ AfterValidatorBonded) */
  endBlock(ctx: Context): void {
    for (const v of this.validators.values()) {
      if (v.jailed && v.status === BONDED) v.status = UNBONDING;
      else if (!v.jailed && v.status === UNBONDING) {
        v.status = BONDED;
        this.hooks.afterValidatorBonded?.(ctx, this.consAddress(v), new Uint8Array());
      }
    }
  }
}

export interface TestSetup {
  readonly chain: TestChain;
  readonly registry: ProtoRegistry;
  readonly ak: AccountKeeper;
  readonly bk: BankKeeper;
  readonly keeper: SlashingKeeper;
  readonly staking: FakeStaking;
  readonly bondedPool: Uint8Array;
}

/** A fresh auth + bank + slashing chain over a staking fake (`close()` it); not initialized yet. */
export async function openChain(): Promise<TestSetup> {
  const registry = new ProtoRegistry();
  const codec = new AddressCodec(PREFIX);
  const ak = new AccountKeeper({ registry, addressCodec: codec, moduleAccounts: MODULE_ACCOUNTS });
  const bk = new BankKeeper({ registry, accountKeeper: ak });
  const staking = new FakeStaking(registry);
  const keeper = new SlashingKeeper({ registry, stakingKeeper: staking, bech32Prefix: PREFIX });
  staking.hooks = keeper.stakingHooks;
  staking.bank = bk;
  const modules = [new AuthModule(ak), new BankModule(bk), new SlashingModule(keeper)];
  const chain = await TestChain.open({ registry, chainId: CHAIN_ID, modules, config: testAppConfig(modules) });
  return { chain, registry, ak, bk, keeper, staking, bondedPool: ak.getModuleAddress(BONDED_POOL) };
}

/** Genesis app_state: the bonded pool holding `bonded` tokens, and the slashing genesis JSON. */
export function genesis(s: TestSetup, bonded: bigint, slashing?: Record<string, unknown>): Record<string, unknown> {
  const state: Record<string, unknown> = {
    bank: {
      params: { send_enabled: [], default_send_enabled: true },
      balances: bonded > 0n ? [{ address: toBech32(PREFIX, s.bondedPool), coins: [{ denom: BOND_DENOM, amount: bonded.toString() }] }] : [],
      supply: [],
      denom_metadata: [],
      send_enabled: [],
    },
  };
  if (slashing) state['slashing'] = slashing;
  return state;
}

/** A fresh signing info in genesis JSON (start height, index 0, jailed until the Unix epoch). */
export function signingInfoJson(consAddress: string, startHeight = 0n): Record<string, unknown> {
  return {
    address: consAddress,
    validator_signing_info: {
      address: consAddress, start_height: startHeight.toString(), index_offset: '0', jailed_until: '1970-01-01T00:00:00Z',
      tombstoned: false, missed_blocks_counter: '0',
    },
  };
}

/** The default params in genesis JSON, with overrides. */
export function paramsJson(o: Record<string, string> = {}): Record<string, string> {
  return {
    signed_blocks_window: '100', min_signed_per_window: '0.500000000000000000', downtime_jail_duration: '600s',
    slash_fraction_double_sign: '0.050000000000000000', slash_fraction_downtime: '0.010000000000000000', ...o,
  };
}

/** `testslashing.TestParams()`: window 1000, jail 1h, the rest default. */
export const TEST_PARAMS_JSON = paramsJson({ signed_blocks_window: '1000', downtime_jail_duration: '3600s' });

/**
 * A block context at `height` and `time` over `state` (a branch of the committed state the test keeps), as
 * the SDK keeper tests' `ctx.WithBlockHeight`; writes stay in the branch.
 */
export function blockCtx(state: CacheKVStore, height: number, time: Date = GENESIS_TIME, events = new EventManager()): Context {
  return new Context(state, { height, time, chainId: CHAIN_ID, proposer: new Uint8Array(20) }, 'block', new InfiniteGasMeter(), events);
}

export function branchOf(s: TestSetup): CacheKVStore {
  return branch(s.chain.store.state);
}

export function vote(f: FakeValidator, power: bigint, signed: boolean): VoteInfo {
  return { validator: { address: f.consAddr, power }, blockIdFlag: signed ? BlockIdFlags.Commit : BlockIdFlags.Absent };
}

export function msgUnjail(registry: ProtoRegistry, validatorAddr: string): AnyMsg {
  return registry.packAny('chain.slashing.v1beta1.MsgUnjail', { validator_addr: validatorAddr });
}

/** A tx carrying `msgs` (the test chain has no ante handler: the signature is not checked). */
export function signedTx(registry: ProtoRegistry, msgs: AnyMsg[]): Uint8Array {
  return buildTx(registry, [{ key: devKey(0, PREFIX), accountNumber: 0n, sequence: 0n }], msgs, { chainId: CHAIN_ID });
}

/** The attributes of the events of `type`, as objects (the block's `mode` attribute dropped). */
export function attrsOfAll(events: readonly Event[], type: string): Record<string, string>[] {
  return events.filter((x) => x.type === type).map((e) => Object.fromEntries(e.attributes.filter((a) => a.key !== 'mode').map((a) => [a.key, a.value])));
}
