/** distribution genesis (x/distribution/genesis.go, types/genesis.go of SDK v0.45): default, validate, init, export. */
import type { Context } from '@chain/app';
import { DecCoins } from '@chain/math';
import type {
  DelegatorStartingInfo, FeePool, GenesisState, Params, ValidatorAccumulatedCommission, ValidatorCurrentRewards,
  ValidatorHistoricalRewards, ValidatorOutstandingRewards, ValidatorSlashEvent,
} from './gen/chain/distribution/v1beta1.js';
import type { DistributionKeeper } from './keeper.js';
import { MODULE_NAME } from './keys.js';
import { defaultParams, validateParams } from './params.js';

export type { GenesisState };

/** `DefaultGenesisState()`: default params, an empty fee pool and no records. */
export function defaultGenesis(): GenesisState {
  return {
    params: defaultParams(),
    fee_pool: { community_pool: [] },
    delegator_withdraw_infos: [],
    previous_proposer: '',
    outstanding_rewards: [],
    validator_accumulated_commissions: [],
    validator_historical_rewards: [],
    validator_current_rewards: [],
    delegator_starting_infos: [],
    validator_slash_events: [],
  };
}

const zeroParams = (): Params => ({ community_tax: '0', base_proposer_reward: '0', bonus_proposer_reward: '0', withdraw_addr_enabled: false });

/**
 * `ValidateGenesis`: `Params.ValidateBasic` (its messages), then the fee pool
 * (`negative CommunityPool in distribution fee pool, is <coins>`).
 */
export function validateGenesis(gen: GenesisState): void {
  validateParams(gen.params ?? zeroParams());
  const pool = DecCoins.fromProto(gen.fee_pool?.community_pool ?? []);
  if (pool.isAnyNegative()) throw new Error(`negative CommunityPool in distribution fee pool, is ${pool.toString()}`);
}

/**
 * `InitGenesis`: every record stored; then the distribution module account's balance must equal
 * `TruncateDecimal(Σ outstanding + community pool)`, else `distribution module balance does not match the
 * module holdings: <balance> <-> <holdings>`.
 */
export function initGenesis(ctx: Context, k: DistributionKeeper, gen: GenesisState): void {
  const s = k.state;
  const acc = (a: string) => k.accCodec.decode(a);
  const val = (a: string) => k.valCodec.decode(a);
  let holdings = DecCoins.empty();
  const pool = DecCoins.fromProto(gen.fee_pool?.community_pool ?? []);
  k.setFeePoolCommunityCoins(ctx, pool);
  k.setParams(ctx, gen.params ?? zeroParams());
  for (const w of gen.delegator_withdraw_infos) k.setDelegatorWithdrawAddr(ctx, acc(w.delegator_address), acc(w.withdraw_address));
  k.setPreviousProposerConsAddr(ctx, gen.previous_proposer ? k.consCodec.decode(gen.previous_proposer) : new Uint8Array());
  for (const r of gen.outstanding_rewards) {
    const rewards = DecCoins.fromProto(r.outstanding_rewards);
    k.setOutstandingRewards(ctx, val(r.validator_address), rewards);
    holdings = holdings.add(rewards);
  }
  for (const r of gen.validator_accumulated_commissions) {
    s.AccumulatedCommission.set(ctx, val(r.validator_address), r.accumulated ?? { commission: [] });
  }
  for (const r of gen.validator_historical_rewards) {
    s.HistoricalRewards.set(ctx, [val(r.validator_address), r.period], r.rewards ?? { cumulative_reward_ratio: [], reference_count: 0 });
  }
  for (const r of gen.validator_current_rewards) s.CurrentRewards.set(ctx, val(r.validator_address), r.rewards ?? { rewards: [], period: 0n });
  for (const r of gen.delegator_starting_infos) {
    s.StartingInfos.set(ctx, [val(r.validator_address), acc(r.delegator_address)], r.starting_info ?? { previous_period: 0n, stake: '', height: 0n });
  }
  for (const r of gen.validator_slash_events) {
    s.SlashEvents.set(ctx, [val(r.validator_address), r.height, r.period], r.validator_slash_event ?? { validator_period: 0n, fraction: '' });
  }
  holdings = holdings.add(pool);
  const [holdingsInt] = holdings.truncateDecimal();
  const moduleAddr = k.ak.ensureModuleAccount(ctx, MODULE_NAME);
  const balances = k.bk.getAllBalances(ctx, moduleAddr);
  const str = (cs: readonly { denom: string; amount: string }[]) => cs.map((c) => `${c.amount}${c.denom}`).join(',');
  if (str(balances) !== str(holdingsInt)) {
    throw new Error(`distribution module balance does not match the module holdings: ${str(balances)} <-> ${str(holdingsInt)}`);
  }
}

type Rows<K, V> = readonly (readonly [K, V])[] | undefined;

/**
 * Walks the schema (`schema.exportAll`), each collection mapped to its GenesisState field: a collection
 * added to src/keys.ts without a field here makes the export throw.
 */
export function exportGenesis(ctx: Context, k: DistributionKeeper): GenesisState {
  const {
    fee_pool, previous_proposer, outstanding_rewards, delegator_withdraw_infos, delegator_starting_infos, validator_historical_rewards,
    validator_current_rewards, validator_accumulated_commissions, validator_slash_events, params, ...unmapped
  } = k.state.schema.exportAll(ctx);
  const left = Object.keys(unmapped);
  if (left.length > 0) throw new Error(`distribution genesis: no GenesisState field for the collection(s) ${left.join(', ')}`);
  const acc = (b: Uint8Array) => k.accCodec.encode(b);
  const val = (b: Uint8Array) => k.valCodec.encode(b);
  const storedPool = (fee_pool as Rows<null, FeePool>)?.[0]?.[1];
  const storedParams = (params as Rows<null, Params>)?.[0]?.[1];
  const proposer = (previous_proposer as Rows<null, Uint8Array>)?.[0]?.[1];
  return {
    params: storedParams ?? defaultParams(),
    fee_pool: storedPool ?? { community_pool: [] },
    delegator_withdraw_infos: ((delegator_withdraw_infos as Rows<Uint8Array, Uint8Array>) ?? []).map(([d, w]) => ({ delegator_address: acc(d), withdraw_address: acc(w) })),
    previous_proposer: proposer && proposer.length > 0 ? k.consCodec.encode(proposer) : '',
    outstanding_rewards: ((outstanding_rewards as Rows<Uint8Array, ValidatorOutstandingRewards>) ?? []).map(([v, r]) => ({ validator_address: val(v), outstanding_rewards: r.rewards })),
    validator_accumulated_commissions: ((validator_accumulated_commissions as Rows<Uint8Array, ValidatorAccumulatedCommission>) ?? []).map(([v, c]) => ({ validator_address: val(v), accumulated: c })),
    validator_historical_rewards: ((validator_historical_rewards as Rows<[Uint8Array, bigint], ValidatorHistoricalRewards>) ?? []).map(([[v, period], rewards]) => ({ validator_address: val(v), period, rewards })),
    validator_current_rewards: ((validator_current_rewards as Rows<Uint8Array, ValidatorCurrentRewards>) ?? []).map(([v, rewards]) => ({ validator_address: val(v), rewards })),
    delegator_starting_infos: ((delegator_starting_infos as Rows<[Uint8Array, Uint8Array], DelegatorStartingInfo>) ?? []).map(([[v, d], info]) => ({ delegator_address: acc(d), validator_address: val(v), starting_info: info })),
    validator_slash_events: ((validator_slash_events as Rows<[Uint8Array, bigint, bigint], ValidatorSlashEvent>) ?? []).map(([[v, height, period], ev]) => ({ validator_address: val(v), height, period, validator_slash_event: ev })),
  };
}
