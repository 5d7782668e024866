/** Events of the mint module (x/mint/types/events.go of SDK v0.45): types, attribute keys, constructors. */
import type { Context } from '@chain/app';

export const EventType = {
  /** `EventTypeMint = ModuleName` */
  Mint: 'mint',
} as const;

export const AttributeKey = {
  BondedRatio: 'bonded_ratio',
  Inflation: 'inflation',
  AnnualProvisions: 'annual_provisions',
  /** `sdk.AttributeKeyAmount` */
  Amount: 'amount',
} as const;

/** An event before it is emitted: its type and its attributes in order. */
export interface MintEvent {
  readonly type: string;
  readonly attributes: [string, string][];
}

export function emit(ctx: Context, e: MintEvent): void {
  ctx.events.emit(e.type, e.attributes);
}

/** `mint{bonded_ratio, inflation, annual_provisions, amount}`: Decs as 18-decimal text, amount an integer. */
export const mintEvent = (bondedRatio: string, inflation: string, annualProvisions: string, amount: string): MintEvent => ({
  type: EventType.Mint,
  attributes: [
    [AttributeKey.BondedRatio, bondedRatio],
    [AttributeKey.Inflation, inflation],
    [AttributeKey.AnnualProvisions, annualProvisions],
    [AttributeKey.Amount, amount],
  ],
});
