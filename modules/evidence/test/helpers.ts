/**
 * A test chain of auth + bank + slashing + evidence (@chain/testing's TestChain, composed from the public
 * APIs as createChainApp composes the node's app) over a small fake of staking: validators in memory,
 * `slash` burning from the `bonded_tokens_pool` through bank, `jail`/`unjail` flags. The fake implements
 * slashing's `SlashingStakingKeeper` and so evidence's `EvidenceStakingKeeper`; the slashing keeper is the
 * real one (it implements `EvidenceSlashingKeeper`).
 */
import { Context, EventManager, InfiniteGasMeter } from '@chain/app';
import type { Misbehavior } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule } from '@chain/auth';
import { BankKeeper, BankModule } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import { sha256, toBech32 } from '@chain/crypto';
import type { Event } from '@chain/events';
import { Dec } from '@chain/math';
import { SlashingKeeper, SlashingModule } from '@chain/slashing';
import type { SlashingStakingKeeper } from '@chain/slashing';
import type { chain_staking_v1beta1 } from '@chain/staking';
import type { CacheKVStore } from '@chain/store';
import { GENESIS_TIME, TestChain, testAppConfig } from '@chain/testing';
import { EvidenceKeeper, EvidenceModule } from '../src/index.js';
import type { EvidenceAgeParams, EvidenceSlashingKeeper, EvidenceStakingKeeper } from '../src/index.js';

type Validator = chain_staking_v1beta1.Validator;
type Delegation = chain_staking_v1beta1.Delegation;

export const CHAIN_ID = 'evidence-test-1';
export const PREFIX = 'chain';
export const BOND_DENOM = 'stake';
export const BONDED_POOL = 'bonded_tokens_pool';
/** the SDK's v0.45 power reduction (10^6), so the SDK tests' amounts port verbatim */
export const POWER_REDUCTION = 10n ** 6n;
export const BONDED = 3;
export const UNBONDED = 1;

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

export interface FakeValidator {
  readonly valAddr: Uint8Array;
  readonly consAddr: Uint8Array;
  readonly operator: string;
  readonly consAddress: string;
}

export class FakeStaking implements SlashingStakingKeeper {
  readonly powerReduction = POWER_REDUCTION;
  readonly validators = new Map<string, Validator>();
  readonly delegations = new Map<string, Delegation>();
  readonly slashes: { consAddr: Uint8Array; infractionHeight: bigint; power: bigint; fraction: Dec }[] = [];
  bank: BankKeeper | undefined;

  constructor(private readonly registry: ProtoRegistry) {}

  addValidator(seed: number, power: bigint, status = BONDED): FakeValidator {
    const consKey = sha256(new TextEncoder().encode(`consensus key ${seed}`));
    const valAddr = sha256(new TextEncoder().encode(`operator ${seed}`)).subarray(0, 20);
    const tokens = power * POWER_REDUCTION;
    const operator = toBech32(PREFIX + 'valoper', valAddr);
    this.validators.set(hex(valAddr), {
      operator_address: operator,
      consensus_pubkey: this.registry.packAny('chain.crypto.ed25519.PubKey', { key: consKey }),
      jailed: false, status, tokens: tokens.toString(), delegator_shares: Dec.fromInt(tokens).atomics(), description: null,
      unbonding_height: 0n, unbonding_time: null, commission: null, min_self_delegation: '1',
    });
    this.delegations.set(hex(valAddr) + hex(valAddr), { delegator_address: toBech32(PREFIX, valAddr), validator_address: operator, shares: Dec.fromInt(tokens).atomics() });
    const consAddr = sha256(consKey).subarray(0, 20);
    return { valAddr, consAddr, operator, consAddress: toBech32(PREFIX + 'valcons', consAddr) };
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
}

export interface TestSetup {
  readonly chain: TestChain;
  readonly registry: ProtoRegistry;
  readonly bk: BankKeeper;
  readonly slashing: SlashingKeeper;
  readonly keeper: EvidenceKeeper;
  readonly staking: FakeStaking;
  readonly bondedPool: Uint8Array;
}

export async function openChain(evidenceParams?: EvidenceAgeParams): Promise<TestSetup> {
  const registry = new ProtoRegistry();
  const ak = new AccountKeeper({ registry, addressCodec: new AddressCodec(PREFIX), moduleAccounts: { [BONDED_POOL]: ['burner', 'staking'] } });
  const bk = new BankKeeper({ registry, accountKeeper: ak });
  const staking = new FakeStaking(registry);
  staking.bank = bk;
  const slashing = new SlashingKeeper({ registry, stakingKeeper: staking, bech32Prefix: PREFIX });
  // the real slashing keeper and the staking fake satisfy evidence's expected keepers as they are
  const slashingKeeper: EvidenceSlashingKeeper = slashing;
  const stakingKeeper: EvidenceStakingKeeper = staking;
  const keeper = new EvidenceKeeper({ registry, stakingKeeper, slashingKeeper, bech32Prefix: PREFIX, evidenceParams });
  const modules = [new AuthModule(ak), new BankModule(bk), new SlashingModule(slashing), new EvidenceModule(keeper)];
  const chain = await TestChain.open({ registry, chainId: CHAIN_ID, modules, config: testAppConfig(modules) });
  return { chain, registry, bk, slashing, keeper, staking, bondedPool: ak.getModuleAddress(BONDED_POOL) };
}

/** Genesis app_state: the bonded pool holding `bonded`, slashing signing infos for `infos`, and the evidence genesis. */
export function genesis(s: TestSetup, bonded: bigint, infos: FakeValidator[], evidence?: Record<string, unknown>): Record<string, unknown> {
  return {
    bank: {
      params: { send_enabled: [], default_send_enabled: true },
      balances: bonded > 0n ? [{ address: toBech32(PREFIX, s.bondedPool), coins: [{ denom: BOND_DENOM, amount: bonded.toString() }] }] : [],
      supply: [], denom_metadata: [], send_enabled: [],
    },
    slashing: {
      params: {
        signed_blocks_window: '100', min_signed_per_window: '0.500000000000000000', downtime_jail_duration: '600s',
        slash_fraction_double_sign: '0.050000000000000000', slash_fraction_downtime: '0.010000000000000000',
      },
      signing_infos: infos.map((v) => ({
        address: v.consAddress,
        validator_signing_info: { address: v.consAddress, start_height: '0', index_offset: '0', jailed_until: '1970-01-01T00:00:00Z', tombstoned: false, missed_blocks_counter: '0' },
      })),
      missed_blocks: [],
    },
    ...(evidence ? { evidence } : {}),
  };
}

export function blockCtx(state: CacheKVStore, height: number, time: Date = GENESIS_TIME, events = new EventManager()): Context {
  return new Context(state, { height, time, chainId: CHAIN_ID, proposer: new Uint8Array(20) }, 'block', new InfiniteGasMeter(), events);
}

export function duplicateVote(f: FakeValidator, power: bigint, height: number, time: Date, type: 1 | 2 = 1): Misbehavior {
  return { type, validator: { address: f.consAddr, power }, height, time, totalVotingPower: power };
}

export function attrsOfAll(events: readonly Event[], type: string): Record<string, string>[] {
  return events.filter((x) => x.type === type).map((e) => Object.fromEntries(e.attributes.filter((a) => a.key !== 'mode').map((a) => [a.key, a.value])));
}
