/** Events of the bank module: types, attribute keys, and one constructor per event. */
import type { Context } from '@chain/app';

export const EventType = {
  CoinSpent: 'coin_spent',
  CoinReceived: 'coin_received',
  Transfer: 'transfer',
  Message: 'message',
  Coinbase: 'coinbase',
  Burn: 'burn',
} as const;

export const AttributeKey = {
  Spender: 'spender',
  Receiver: 'receiver',
  Recipient: 'recipient',
  Sender: 'sender',
  Minter: 'minter',
  Burner: 'burner',
  /** coins as text (`10achain,5foo`) */
  Amount: 'amount',
} as const;

/** An event before it is emitted: its type and its attributes in order. */
export interface BankEvent {
  readonly type: string;
  readonly attributes: [string, string][];
}

export function emit(ctx: Context, e: BankEvent): void {
  ctx.events.emit(e.type, e.attributes);
}

export const coinSpentEvent = (spender: string, amount: string): BankEvent => ({
  type: EventType.CoinSpent,
  attributes: [[AttributeKey.Spender, spender], [AttributeKey.Amount, amount]],
});

export const coinReceivedEvent = (receiver: string, amount: string): BankEvent => ({
  type: EventType.CoinReceived,
  attributes: [[AttributeKey.Receiver, receiver], [AttributeKey.Amount, amount]],
});

export const transferEvent = (recipient: string, sender: string, amount: string): BankEvent => ({
  type: EventType.Transfer,
  attributes: [[AttributeKey.Recipient, recipient], [AttributeKey.Sender, sender], [AttributeKey.Amount, amount]],
});

/** The transfer event of one MsgMultiSend output: no sender (the input's `message{sender}` names it). */
export const outputTransferEvent = (recipient: string, amount: string): BankEvent => ({
  type: EventType.Transfer,
  attributes: [[AttributeKey.Recipient, recipient], [AttributeKey.Amount, amount]],
});

export const messageSenderEvent = (sender: string): BankEvent => ({
  type: EventType.Message,
  attributes: [[AttributeKey.Sender, sender]],
});

export const coinbaseEvent = (minter: string, amount: string): BankEvent => ({
  type: EventType.Coinbase,
  attributes: [[AttributeKey.Minter, minter], [AttributeKey.Amount, amount]],
});

export const burnEvent = (burner: string, amount: string): BankEvent => ({
  type: EventType.Burn,
  attributes: [[AttributeKey.Burner, burner], [AttributeKey.Amount, amount]],
});
