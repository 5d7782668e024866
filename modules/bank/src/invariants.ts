/**
 * The invariants of bank (x/bank/keeper/invariants.go of SDK v0.45), as functions a crisis module (or a
 * simulation) runs under `bank/<route>`: `nonnegative-outstanding` (no negative balance) and
 * `total-supply` (the sum of every balance equals the stored supply, denom by denom). Neither writes state.
 */
import type { Context } from '@chain/app';
import type { BankKeeper } from './keeper.js';
import { MODULE_NAME } from './keys.js';

export interface InvariantResult {
  readonly broken: boolean;
  readonly message: string;
}

export type Invariant = (ctx: Context) => InvariantResult;

/** `sdk.FormatInvariant`: `<module>: <name> invariant\n<msg>\n`. */
const format = (name: string, msg: string): string => `${MODULE_NAME}: ${name} invariant\n${msg}\n`;

/** `Coins.String()` of a denom → amount map, sorted by denom, zero amounts left out. */
function coinsText(m: ReadonlyMap<string, bigint>): string {
  return [...m.entries()].filter(([, v]) => v !== 0n).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([d, v]) => `${v}${d}`).join(',');
}

/** `nonnegative-outstanding`: no account holds a negative amount of any denom. */
export function nonNegativeBalanceInvariant(k: BankKeeper): Invariant {
  return (ctx) => {
    let count = 0;
    let msg = '';
    for (const { key: [addr, denom], value } of k.state.Balances.iterate(ctx)) {
      if (value < 0n) {
        count++;
        msg += `\t${k.ak.addressCodec.encode(addr)} has a negative balance of ${value}${denom}\n`;
      }
    }
    return { broken: count !== 0, message: format('nonnegative-outstanding', `amount of negative balances found ${count}\n${msg}`) };
  };
}

/** `total-supply`: Σ balances == supply (the SDK's `expectedTotal.IsEqual(supply)`). */
export function totalSupplyInvariant(k: BankKeeper): Invariant {
  return (ctx) => {
    const sum = new Map<string, bigint>();
    for (const { key: [, denom], value } of k.state.Balances.iterate(ctx)) sum.set(denom, (sum.get(denom) ?? 0n) + value);
    const supply = new Map<string, bigint>();
    for (const { key, value } of k.state.Supply.iterate(ctx)) supply.set(key, value);
    const expected = coinsText(sum);
    const total = coinsText(supply);
    return {
      broken: expected !== total,
      message: format('total supply', `\tsum of accounts coins: ${expected}\n\tsupply.Total:          ${total}\n`),
    };
  };
}

/** The two routes, as `RegisterInvariants` registers them. */
export function bankInvariants(k: BankKeeper): Record<string, Invariant> {
  return { 'nonnegative-outstanding': nonNegativeBalanceInvariant(k), 'total-supply': totalSupplyInvariant(k) };
}
