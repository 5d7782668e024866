/** Events of the auth ante handler: type, attribute keys, and one constructor per event. */
import type { Context } from '@chain/app';

export const EventType = {
  Tx: 'tx',
} as const;

export const AttributeKey = {
  /** the fee as coins text (`10achain`) */
  Fee: 'fee',
  FeePayer: 'fee_payer',
  /** `<signer>/<sequence>` */
  AccountSequence: 'acc_seq',
  /** base64 signature */
  Signature: 'signature',
} as const;

/** An event before it is emitted: its type and its attributes in order. */
export interface AuthEvent {
  readonly type: string;
  readonly attributes: [string, string][];
}

export function emit(ctx: Context, e: AuthEvent): void {
  ctx.events.emit(e.type, e.attributes);
}

export const feeEvent = (fee: string, feePayer: string): AuthEvent => ({
  type: EventType.Tx,
  attributes: [[AttributeKey.Fee, fee], [AttributeKey.FeePayer, feePayer]],
});

export const accountSequenceEvent = (signer: string, sequence: bigint): AuthEvent => ({
  type: EventType.Tx,
  attributes: [[AttributeKey.AccountSequence, `${signer}/${sequence.toString()}`]],
});

export const signatureEvent = (signature: string): AuthEvent => ({
  type: EventType.Tx,
  attributes: [[AttributeKey.Signature, signature]],
});
