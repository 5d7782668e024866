/** BeginBlock of mint (x/mint/abci.go of SDK v0.45). */
import type { Coin, Context } from '@chain/app';
import { emit, mintEvent } from './events.js';
import type { MintKeeper } from './keeper.js';
import { blockProvision, nextAnnualProvisions, nextInflationRate } from './minter.js';

/**
 * 1. the bond-denom supply and the bonded ratio from staking; 2. the next inflation (clamped) and annual
 * provisions, stored; 3. the block provision `annual_provisions.QuoInt(blocks_per_year).TruncateInt()` of the
 * mint denom, minted to the `mint` module account (skipped when zero) and sent to the fee collector;
 * 4. `mint{bonded_ratio, inflation, annual_provisions, amount}`.
 */
export function beginBlocker(ctx: Context, k: MintKeeper): void {
  const minter = k.getMinter(ctx);
  const params = k.getParams(ctx);

  const totalStakingSupply = k.stakingTokenSupply(ctx);
  const bondedRatio = k.bondedRatio(ctx);
  const inflation = nextInflationRate(minter, params, bondedRatio);
  const annualProvisions = nextAnnualProvisions({ ...minter, inflation }, params, totalStakingSupply);
  const next = { inflation, annualProvisions };
  k.setMinter(ctx, next);

  const minted = blockProvision(next, params);
  // sdk.NewCoins drops a zero coin
  const mintedCoins: Coin[] = minted.amount === '0' ? [] : [{ denom: minted.denom, amount: minted.amount }];
  k.mintCoins(ctx, mintedCoins);
  k.addCollectedFees(ctx, mintedCoins);

  emit(ctx, mintEvent(bondedRatio.toString(), inflation.toString(), annualProvisions.toString(), minted.amount));
}
