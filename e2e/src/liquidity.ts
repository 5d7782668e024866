/**
 * A cosmjs registry for the liquidity module's messages and the token module's issue message, written from
 * the original definitions as a client of the original chain declares them (tendermint/liquidity v1.4.5
 * `tendermint.liquidity.v1beta1`, the original chain's `plugchain.prc10`, their field numbers); each type is
 * registered under the canonical (`/chain.*`) and the original type URL. `order_price` is an `sdk.Dec` on the
 * wire: its 18-decimal atomics as a decimal string (`decAtomics`).
 */
import protobuf from 'protobufjs';
import { Registry } from '@cosmjs/proto-signing';
import type { GeneratedType } from '@cosmjs/proto-signing';
import { defaultRegistryTypes } from '@cosmjs/stargate';

const PROTO = `
syntax = "proto3";
package tendermint.liquidity.v1beta1;
message Coin { string denom = 1; string amount = 2; }
message MsgCreatePool { string pool_creator_address = 1; uint32 pool_type_id = 2; repeated Coin deposit_coins = 4; }
message MsgDepositWithinBatch { string depositor_address = 1; uint64 pool_id = 2; repeated Coin deposit_coins = 3; }
message MsgWithdrawWithinBatch { string withdrawer_address = 1; uint64 pool_id = 2; Coin pool_coin = 3; }
message MsgSwapWithinBatch {
  string swap_requester_address = 1; uint64 pool_id = 2; uint32 swap_type_id = 3; Coin offer_coin = 4;
  string demand_coin_denom = 5; Coin offer_coin_fee = 6; string order_price = 7;
}
`;
const TOKEN_PROTO = `
syntax = "proto3";
package plugchain.prc10;
message MsgIssueToken { string symbol = 1; string name = 2; uint32 scale = 3; string min_unit = 4; uint64 initial_supply = 5; uint64 max_supply = 6; bool mintable = 7; string owner = 8; }
`;
const root = protobuf.parse(PROTO, { keepCase: true }).root;
protobuf.parse(TOKEN_PROTO, root, { keepCase: true });

export const LIQUIDITY_MSGS = ['MsgCreatePool', 'MsgDepositWithinBatch', 'MsgWithdrawWithinBatch', 'MsgSwapWithinBatch'] as const;
export type LiquidityMsgName = (typeof LIQUIDITY_MSGS)[number];

/** A cosmjs GeneratedType over a protobufjs type (`fromPartial` converts decimal strings of uint64 fields). */
function generated(fullName: string): GeneratedType {
  const t = root.lookupType(fullName);
  return {
    encode: (m: object, w?: protobuf.Writer) => t.encode(m as protobuf.Message, w),
    decode: (b: Uint8Array) => t.decode(b),
    fromPartial: (o: Record<string, unknown>) => t.fromObject(o),
  } as unknown as GeneratedType;
}

/** The type URL of a liquidity message in the canonical (`/chain.liquidity.v1beta1.`) or original (`/tendermint.liquidity.v1beta1.`) spelling. */
export const liquidityTypeUrl = (name: LiquidityMsgName, original = false): string => `/${original ? 'tendermint' : 'chain'}.liquidity.v1beta1.${name}`;

/** The default cosmjs types plus the liquidity messages (both spellings) and `MsgIssueToken` (both spellings). */
export function liquidityRegistry(): Registry {
  const registry = new Registry(defaultRegistryTypes);
  for (const name of LIQUIDITY_MSGS) {
    const g = generated(`tendermint.liquidity.v1beta1.${name}`);
    registry.register(liquidityTypeUrl(name), g);
    registry.register(liquidityTypeUrl(name, true), g);
  }
  const issue = generated('plugchain.prc10.MsgIssueToken');
  registry.register('/chain.prc10.MsgIssueToken', issue);
  registry.register('/plugchain.prc10.MsgIssueToken', issue);
  return registry;
}

/** The wire form of an `sdk.Dec` given as decimal text (`"1.5"` → `"1500000000000000000"`). */
export function decAtomics(text: string): string {
  const m = /^(\d+)(?:\.(\d{1,18}))?$/.exec(text);
  if (!m) throw new Error(`not a decimal: ${text}`);
  return (BigInt(m[1]!) * 10n ** 18n + BigInt((m[2] ?? '').padEnd(18, '0'))).toString();
}
