/**
 * The invariant of gov (x/gov/keeper/invariants.go of SDK v0.45), as a function a crisis module (or the
 * simulation) registers under `gov/module-account`: the gov module account holds exactly the sum of all
 * deposits. Returns the SDK's `FormatInvariant` message and whether it is broken; writes nothing.
 */
import type { Coin, Context } from '@chain/app';
import { addCoins, coinsToString } from '@chain/app';
import type { GovKeeper } from './keeper.js';
import { MODULE_NAME } from './keys.js';

export interface InvariantResult {
  readonly message: string;
  readonly broken: boolean;
}

export type Invariant = (ctx: Context) => InvariantResult;

/** `module-account`: gov module balance == Σ deposit amounts. */
export function moduleAccountInvariant(k: GovKeeper): Invariant {
  return (ctx) => {
    let expected: Coin[] = [];
    for (const d of k.state.Deposits.values(ctx)) expected = addCoins(expected, d.amount);
    const balances = k.bk.getAllBalances(ctx, k.moduleAddress());
    const broken = coinsToString(balances) !== coinsToString(expected);
    return {
      message: `${MODULE_NAME}: deposits invariant\n\tgov ModuleAccount coins: ${coinsToString(balances)}\n\tsum of deposit amounts:  ${coinsToString(expected)}\n\n`,
      broken,
    };
  };
}

/** The routes, as `RegisterInvariants` registers them. */
export function govInvariants(k: GovKeeper): Record<string, Invariant> {
  return { 'module-account': moduleAccountInvariant(k) };
}
