/**
 * Events of the token module, as the original's code emits them (x/prc10/keeper/msg_server.go; the
 * spec's table differs): after the message's work, `message{module=token}` then one event of the message's
 * type. Bank emits its own (coin_spent, coin_received, transfer, message{sender}, coinbase, burn) on the way.
 */
import type { Context } from '@chain/app';

export const EventType = {
  Message: 'message',
  IssueToken: 'issue_token',
  MintToken: 'mint_token',
  EditToken: 'edit_token',
  BurnToken: 'burn_token',
  TransferOwnerToken: 'change_owner_token',
} as const;

export const AttributeKey = {
  Module: 'module',
  Symbol: 'symbol',
  Owner: 'owner',
  Scale: 'scale',
  /** whole tokens and the symbol: `100kitty` */
  Amount: 'amount',
  To: 'to',
  InitialSupply: 'initial_supply',
  Sender: 'sender',
} as const;

/** An event before it is emitted: its type and its attributes in order. */
export interface Prc10Event {
  readonly type: string;
  readonly attributes: [string, string][];
}

export function emit(ctx: Context, ...events: Prc10Event[]): void {
  for (const e of events) ctx.events.emit(e.type, e.attributes);
}

/** `message{module=token}` */
export const messageEvent = (module: string): Prc10Event => ({ type: EventType.Message, attributes: [[AttributeKey.Module, module]] });

export const issueTokenEvent = (symbol: string, scale: number, initialSupply: bigint, owner: string): Prc10Event => ({
  type: EventType.IssueToken,
  attributes: [[AttributeKey.Symbol, symbol], [AttributeKey.Scale, String(scale)], [AttributeKey.InitialSupply, initialSupply.toString()], [AttributeKey.Owner, owner]],
});

export const mintTokenEvent = (amount: bigint, symbol: string, owner: string): Prc10Event => ({
  type: EventType.MintToken,
  attributes: [[AttributeKey.Amount, `${amount}${symbol}`], [AttributeKey.Owner, owner]],
});

export const editTokenEvent = (owner: string, symbol: string): Prc10Event => ({
  type: EventType.EditToken,
  attributes: [[AttributeKey.Owner, owner], [AttributeKey.Symbol, symbol]],
});

export const burnTokenEvent = (sender: string, amount: bigint, symbol: string): Prc10Event => ({
  type: EventType.BurnToken,
  attributes: [[AttributeKey.Sender, sender], [AttributeKey.Amount, `${amount}${symbol}`]],
});

export const transferOwnerTokenEvent = (symbol: string, owner: string, to: string): Prc10Event => ({
  type: EventType.TransferOwnerToken,
  attributes: [[AttributeKey.Symbol, symbol], [AttributeKey.Owner, owner], [AttributeKey.To, to]],
});
