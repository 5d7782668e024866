/**
 * staking genesis (Cosmos SDK v0.45 x/staking/genesis.go): the default state, `ValidateGenesis`,
 * `InitGenesis` (state, indexes, queues, pool balance checks, the initial validator updates) and
 * `ExportGenesis`.
 */
import type { Coin, Context, ValidatorUpdate } from '@chain/app';
import { coinsToString } from '@chain/app';
import type { GenesisState, LastValidatorPower, Validator } from './gen/chain/staking/v1beta1.js';
import { BondStatus } from './gen/chain/staking/v1beta1.js';
import type { StakingKeeper } from './keeper.js';
import { BONDED_POOL_NAME, NOT_BONDED_POOL_NAME } from './keys.js';
import { decAtomics } from './math.js';
import { defaultParams, validateParams } from './params.js';

export type { GenesisState };

const te = new TextEncoder();
const td = new TextDecoder();

/** `last_total_power` is `bytes` with the Int custom type (decimal text): read it as a bigint. */
export function lastTotalPowerOf(gen: GenesisState): bigint {
  const text = gen.last_total_power && gen.last_total_power.length > 0 ? td.decode(gen.last_total_power) : '0';
  if (!/^-?\d+$/.test(text)) throw new Error(`invalid last_total_power ${JSON.stringify(text)}`);
  return BigInt(text);
}

export function defaultGenesis(): GenesisState {
  return {
    params: defaultParams(),
    last_total_power: te.encode('0'),
    last_validator_powers: [],
    validators: [],
    delegations: [],
    unbonding_delegations: [],
    redelegations: [],
    exported: false,
  };
}

/**
 * The SDK's `ValidateGenesis`: per validator (in order) a consensus key, no duplicate consensus key, not
 * jailed while bonded, no zero delegator shares unless unbonding; then the params.
 */
export function validateGenesis(gen: GenesisState, k: StakingKeeper): void {
  const seen = new Set<string>();
  for (const v of gen.validators) {
    const pk = Buffer.from(k.consPubKey(v)).toString('hex');
    const moniker = v.description?.moniker ?? '';
    const consAddr = () => k.consCodec.encode(k.consAddress(v));
    if (seen.has(pk)) throw new Error(`duplicate validator in genesis state: moniker ${moniker}, address ${consAddr()}`);
    if (v.jailed && v.status === BondStatus.BOND_STATUS_BONDED) {
      throw new Error(`validator is bonded and jailed in genesis state: moniker ${moniker}, address ${consAddr()}`);
    }
    if (decAtomics(v.delegator_shares) === 0n && v.status !== BondStatus.BOND_STATUS_UNBONDING) {
      // the SDK prints the whole validator (%v); the operator address names it here
      throw new Error(`bonded/unbonded genesis validator cannot have zero delegator shares, validator: ${v.operator_address}`);
    }
    seen.add(pk);
  }
  validateParams(gen.params ?? defaultParams());
}

/** `sdk.NewCoins(sdk.NewCoin(denom, amount))`: no entry for a zero amount. */
const coinsOf = (denom: string, amount: bigint): Coin[] => (amount === 0n ? [] : [{ denom, amount: amount.toString() }]);

/**
 * The SDK's `InitGenesis`, which runs at height 0 (`1 - ValidatorUpdateDelay`): stores the params, the last
 * total power, every validator with its consensus-address and power index entries (unbonding ones also in
 * the validator queue), the delegations, the unbonding delegations and redelegations with their queue
 * entries; checks that the bonded and not-bonded pool balances equal the bonded tokens and the not-bonded
 * tokens (plus unbonding entry balances); returns the initial validator updates.
 *
 * `exported: false` calls the hooks AfterValidatorCreated (per validator) and BeforeDelegationCreated /
 * AfterDelegationModified (per delegation), as the SDK, and computes the initial set with
 * `ApplyAndReturnValidatorSetUpdates` (bonding / unbonding validators with their pool moves).
 * `exported: true` (a genesis written by export): no hooks; the last validator powers are stored and
 * returned as the updates, in the genesis order.
 */
export function initGenesis(ctx: Context, k: StakingKeeper, gen: GenesisState): ValidatorUpdate[] {
  const params = gen.params ?? defaultParams();
  k.setParams(ctx, params);
  k.setLastTotalPower(ctx, lastTotalPowerOf(gen));

  let bonded = 0n;
  let notBonded = 0n;
  for (const v of gen.validators) {
    k.setValidator(ctx, v);
    k.setValidatorByConsAddr(ctx, v);
    k.setValidatorByPowerIndex(ctx, v);
    if (!gen.exported) k.hooks.call.afterValidatorCreated(ctx, k.valCodec.decode(v.operator_address));
    if (v.status === BondStatus.BOND_STATUS_UNBONDING) k.insertUnbondingValidatorQueue(ctx, v);
    const tokens = BigInt(v.tokens || '0');
    switch (v.status) {
      case BondStatus.BOND_STATUS_BONDED:
        bonded += tokens;
        break;
      case BondStatus.BOND_STATUS_UNBONDING:
      case BondStatus.BOND_STATUS_UNBONDED:
        notBonded += tokens;
        break;
      default:
        throw new Error('invalid validator status');
    }
  }
  for (const d of gen.delegations) {
    const del = k.accCodec.decode(d.delegator_address);
    const val = k.valCodec.decode(d.validator_address);
    if (!gen.exported) k.hooks.call.beforeDelegationCreated(ctx, del, val);
    k.setDelegation(ctx, d);
    if (!gen.exported) k.hooks.call.afterDelegationModified(ctx, del, val);
  }
  for (const ubd of gen.unbonding_delegations) {
    k.setUnbondingDelegation(ctx, ubd);
    for (const e of ubd.entries) {
      k.insertUBDQueue(ctx, ubd, e.completion_time);
      notBonded += BigInt(e.balance || '0');
    }
  }
  for (const red of gen.redelegations) {
    k.setRedelegation(ctx, red);
    for (const e of red.entries) k.insertRedelegationQueue(ctx, red, e.completion_time);
  }

  // the pools: the module accounts must exist (created if missing, as `GetModuleAccount`), and their
  // balances must be exactly the bonded / not-bonded coins of the bond denom
  const denom = params.bond_denom;
  checkPool(ctx, k, BONDED_POOL_NAME, coinsOf(denom, bonded), 'bonded pool balance is different from bonded coins');
  checkPool(ctx, k, NOT_BONDED_POOL_NAME, coinsOf(denom, notBonded), 'not bonded pool balance is different from not bonded coins');

  if (gen.exported) {
    const updates: ValidatorUpdate[] = [];
    for (const lv of gen.last_validator_powers) {
      const op = k.valCodec.decode(lv.address);
      k.setLastValidatorPower(ctx, op, lv.power);
      const v = k.getValidator(ctx, op);
      if (!v) throw new Error(`validator ${lv.address} not found`);
      updates.push(k.validatorUpdate(v, lv.power));
    }
    return updates;
  }
  return k.applyAndReturnValidatorSetUpdates(ctx);
}

function checkPool(ctx: Context, k: StakingKeeper, name: string, expected: Coin[], message: string): void {
  let addr: Uint8Array;
  try {
    addr = k.ak.ensureModuleAccount(ctx, name);
  } catch {
    throw new Error(`${name} module account has not been set`);
  }
  const balance = k.bk.getAllBalances(ctx, addr);
  if (coinsToString(balance) !== coinsToString(expected)) {
    throw new Error(`${message}: ${coinsToString(balance)} <-> ${coinsToString(expected)}`);
  }
}

/**
 * The SDK's `ExportGenesis`: params, last total power, last validator powers, validators, delegations,
 * unbonding delegations and redelegations (each in store order), `exported: true`. Walks the schema: a
 * collection that is neither a GenesisState field nor rebuilt by `initGenesis` from one makes the export
 * throw, so the genesis cannot silently leave state out. Historical info is not exported (as the SDK).
 */
export function exportGenesis(ctx: Context, k: StakingKeeper): GenesisState {
  const FIELDS = new Set(['params', 'last_total_power', 'last_validator_power', 'validators', 'delegations', 'unbonding_delegations', 'redelegations']);
  /** rebuilt by initGenesis from the fields above, or (historical info) not part of the SDK's genesis */
  const DERIVED = new Set([
    'validators_by_cons_addr', 'validators_by_power', 'unbonding_delegations_by_validator', 'redelegations_by_src', 'redelegations_by_dst',
    'unbonding_queue', 'redelegation_queue', 'validator_queue', 'historical_info',
  ]);
  const left = k.state.schema.collections().map((c) => c.name).filter((n) => !FIELDS.has(n) && !DERIVED.has(n));
  if (left.length > 0) throw new Error(`staking genesis: no GenesisState field for the collection(s) ${left.join(', ')}`);
  const s = k.state;
  const lastValidatorPowers: LastValidatorPower[] = [];
  for (const { key, value } of s.LastValidatorPower.iterate(ctx)) lastValidatorPowers.push({ address: k.valCodec.encode(key), power: value });
  const validators: Validator[] = s.Validators.values(ctx).toArray();
  return {
    params: k.getParams(ctx),
    last_total_power: te.encode(k.getLastTotalPower(ctx).toString()),
    last_validator_powers: lastValidatorPowers,
    validators,
    delegations: s.Delegations.values(ctx).toArray(),
    unbonding_delegations: s.UnbondingDelegations.values(ctx).toArray(),
    redelegations: s.Redelegations.values(ctx).toArray(),
    exported: true,
  };
}
