/**
 * Transaction decoding and the checks that need no state (the SDK's TxDecoder + ValidateBasic):
 * ADR-027 raw encoding, unknown-field rejection, message resolution through the registry.
 */
import protobuf from 'protobufjs';
import { Errors } from '@chain/errors';
import { sha256 } from '@chain/crypto';
import type { AnyMsg, ProtoRegistry, ProtoObject } from '@chain/codec';

export const TX_PROTO_DIR = new URL('../proto', import.meta.url).pathname;

export interface Coin { denom: string; amount: string }

export interface SignerInfo {
  public_key: AnyMsg | null;
  mode_info: { single?: { mode: number }; multi?: unknown } | null;
  sequence: bigint;
}

export interface Fee { amount: Coin[]; gas_limit: bigint; payer: string; granter: string }

export interface TxBody {
  messages: AnyMsg[];
  memo: string;
  timeout_height: bigint;
  extension_options: AnyMsg[];
  non_critical_extension_options: AnyMsg[];
}

export interface AuthInfo { signer_infos: SignerInfo[]; fee: Fee | null; tip: unknown }

/** A message of a tx, resolved: canonical type name and decoded fields. */
export interface TxMsg {
  /** canonical full name, e.g. `chain.bank.v1beta1.MsgSend` */
  readonly name: string;
  /** canonical type URL, e.g. `/chain.bank.v1beta1.MsgSend` */
  readonly typeUrl: string;
  readonly message: ProtoObject;
}

export interface DecodedTx {
  readonly raw: Uint8Array;
  /** sha256 of the raw bytes (the CometBFT tx hash) */
  readonly hash: Uint8Array;
  readonly bodyBytes: Uint8Array;
  readonly authInfoBytes: Uint8Array;
  readonly signatures: Uint8Array[];
  readonly body: TxBody;
  readonly authInfo: AuthInfo;
  readonly msgs: TxMsg[];
}

/** Reads a protobuf varint tag stream and checks that every field number is known to `type`. */
function rejectUnknownFields(type: protobuf.Type, bytes: Uint8Array, allowNonCritical: boolean, what: string): void {
  const r = protobuf.Reader.create(bytes);
  while (r.pos < r.len) {
    const tag = r.uint32();
    const id = tag >>> 3;
    const wt = tag & 7;
    if (!type.fieldsById[id]) {
      const nonCritical = (id & 0x400) !== 0;
      if (!(allowNonCritical && nonCritical)) {
        throw Errors.TxDecode.wrap(`errUnknownField "${type.fullName.slice(1)}": {TagNum: ${id}, WireType:"${wt}"}`);
      }
    }
    r.skipType(wt);
  }
}

/** ADR-027: TxRaw holds only its three bytes fields, in ascending order. */
function checkTxRaw(bytes: Uint8Array): void {
  const r = protobuf.Reader.create(bytes);
  let last = 0;
  while (r.pos < r.len) {
    const tag = r.uint32();
    const id = tag >>> 3;
    const wt = tag & 7;
    if (id < 1 || id > 3) throw Errors.TxDecode.wrap(`errUnknownField "chain.tx.v1beta1.TxRaw": {TagNum: ${id}, WireType:"${wt}"}`);
    if (wt !== 2) throw Errors.TxDecode.wrap(`expected 2 wire type, got ${wt}`);
    if (id < last) throw Errors.TxDecode.wrap('txRaw must follow ADR-027: fields must be in ascending order');
    last = id;
    r.skipType(wt);
  }
}

/** Decodes and structurally validates a tx; every failure is `tx parse error` (sdk code 2). */
export function decodeTx(registry: ProtoRegistry, raw: Uint8Array): DecodedTx {
  if (raw.length === 0) throw Errors.TxDecode.wrap('tx bytes are empty');
  try {
    checkTxRaw(raw);
    const txRaw = registry.decode<{ body_bytes: Uint8Array; auth_info_bytes: Uint8Array; signatures: Uint8Array[] }>('chain.tx.v1beta1.TxRaw', raw);
    rejectUnknownFields(registry.type('chain.tx.v1beta1.TxBody'), txRaw.body_bytes, true, 'body');
    rejectUnknownFields(registry.type('chain.tx.v1beta1.AuthInfo'), txRaw.auth_info_bytes, false, 'auth_info');
    const body = registry.decode<TxBody>('chain.tx.v1beta1.TxBody', txRaw.body_bytes);
    const authInfo = registry.decode<AuthInfo>('chain.tx.v1beta1.AuthInfo', txRaw.auth_info_bytes);
    const msgs = body.messages.map((any): TxMsg => {
      const name = registry.nameOfTypeUrl(any.type_url);
      if (name === undefined) throw Errors.TxDecode.wrap(`unable to resolve type URL ${any.type_url}`);
      return { name, typeUrl: '/' + name, message: registry.decode(name, any.value) };
    });
    return {
      raw,
      hash: sha256(raw),
      bodyBytes: txRaw.body_bytes,
      authInfoBytes: txRaw.auth_info_bytes,
      signatures: txRaw.signatures,
      body,
      authInfo,
      msgs,
    };
  } catch (e) {
    if (Errors.TxDecode.is(e)) throw e;
    throw Errors.TxDecode.wrap((e as Error).message);
  }
}

/** SIGN_MODE_DIRECT sign bytes: the SignDoc over the exact body and auth-info bytes of the tx. */
export function directSignBytes(registry: ProtoRegistry, tx: DecodedTx, chainId: string, accountNumber: bigint): Uint8Array {
  return registry.encode('chain.tx.v1beta1.SignDoc', {
    body_bytes: tx.bodyBytes,
    auth_info_bytes: tx.authInfoBytes,
    chain_id: chainId,
    account_number: accountNumber,
  });
}

/** The signer field name of a message type, from its `(chain.msg.v1.signer)` option. */
export function signerFieldOf(type: protobuf.Type): string | undefined {
  const v = type.options?.['(chain.msg.v1.signer)'];
  return typeof v === 'string' ? v : undefined;
}

/** Bech32 signer addresses of a message, read through its signer option (nested `address` for lists). */
export function msgSigners(registry: ProtoRegistry, msg: TxMsg): string[] {
  const type = registry.type(msg.name);
  const field = signerFieldOf(type);
  if (!field) throw Errors.InvalidType.wrap(`message ${msg.typeUrl} declares no signer`);
  const v = msg.message[field];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.map((x) => String((x as { address?: unknown }).address ?? ''));
  throw Errors.InvalidType.wrap(`message ${msg.typeUrl} has no signer in ${field}`);
}

/** Unique signers of all messages, in order of first appearance (the SDK's GetSigners). */
export function txSigners(registry: ProtoRegistry, tx: DecodedTx): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const m of tx.msgs) for (const s of msgSigners(registry, m)) if (!seen.has(s)) { seen.add(s); out.push(s); }
  return out;
}
