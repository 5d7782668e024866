/** MintKeeper (x/mint/keeper of SDK v0.45): the minter and params, through the schema of src/keys.ts. */
import type { Coin, Context } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import type { Dec } from '@chain/math';
import type { MintAccountKeeper, MintBankKeeper, MintStakingKeeper } from './expected-keepers.js';
import { MODULE_NAME, mintSchema } from './keys.js';
import type { MintState } from './keys.js';
import { defaultInitialMinter, minterFromProto, minterToProto } from './minter.js';
import type { MinterValues } from './minter.js';
import { defaultParams, paramsFromProto, paramsToProto, validateParamsValues } from './params.js';
import type { MintParams, MintParamsValues } from './params.js';

/** `authtypes.FeeCollectorName` */
export const FEE_COLLECTOR_NAME = 'fee_collector';

export interface MintKeeperOptions {
  readonly registry: ProtoRegistry;
  readonly bankKeeper: MintBankKeeper;
  readonly stakingKeeper: MintStakingKeeper;
  /** creates the `mint` module account at InitGenesis, as the SDK's `ak.GetModuleAccount` (optional) */
  readonly accountKeeper?: MintAccountKeeper;
  /** the module account minted coins go to (default `fee_collector`) */
  readonly feeCollectorName?: string;
}

export class MintKeeper {
  readonly registry: ProtoRegistry;
  readonly bankKeeper: MintBankKeeper;
  readonly stakingKeeper: MintStakingKeeper;
  readonly accountKeeper: MintAccountKeeper | undefined;
  readonly feeCollectorName: string;
  /** The module's state: the collections of `mintSchema` (src/keys.ts). */
  readonly state: MintState;

  constructor(opts: MintKeeperOptions) {
    this.registry = opts.registry;
    this.bankKeeper = opts.bankKeeper;
    this.stakingKeeper = opts.stakingKeeper;
    this.accountKeeper = opts.accountKeeper;
    this.feeCollectorName = opts.feeCollectorName ?? FEE_COLLECTOR_NAME;
    this.state = mintSchema(opts.registry);
  }

  /** The stored minter (`GetMinter`); the default initial minter before genesis. */
  getMinter(ctx: Context): MinterValues {
    const m = this.state.Minter.get(ctx);
    return m === undefined ? defaultInitialMinter() : minterFromProto(m);
  }

  setMinter(ctx: Context, m: MinterValues): void {
    this.state.Minter.set(ctx, minterToProto(m));
  }

  /** The stored params in the proto shape (Dec fields as atomics); the defaults before genesis. */
  getParamsProto(ctx: Context): MintParams {
    return this.state.Params.getOr(ctx, defaultParams());
  }

  /** The stored params with `Dec` values. */
  getParams(ctx: Context): MintParamsValues {
    return paramsFromProto(this.getParamsProto(ctx));
  }

  /** Validates (the SDK's messages) and stores the params. */
  setParams(ctx: Context, p: MintParamsValues): void {
    validateParamsValues(p);
    this.state.Params.set(ctx, paramsToProto(p));
  }

  /** `StakingTokenSupply`: the staking keeper's total supply of the bond denom. */
  stakingTokenSupply(ctx: Context): bigint {
    return this.stakingKeeper.stakingTokenSupply(ctx);
  }

  /** `BondedRatio`: the staking keeper's bonded ratio. */
  bondedRatio(ctx: Context): Dec {
    return this.stakingKeeper.bondedRatio(ctx);
  }

  /** `MintCoins`: mints to the mint module account; an empty set is a no-op (as the SDK). */
  mintCoins(ctx: Context, coins: Coin[]): void {
    if (coins.length === 0) return;
    this.bankKeeper.mintCoins(ctx, MODULE_NAME, coins);
  }

  /** `AddCollectedFees`: sends from the mint module account to the fee collector. */
  addCollectedFees(ctx: Context, fees: Coin[]): void {
    this.bankKeeper.sendCoinsFromModuleToModule(ctx, MODULE_NAME, this.feeCollectorName, fees);
  }
}
