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

const WIRE_TYPE_NAMES = ['varint', 'fixed64', 'bytes', 'start_group', 'end_group', 'fixed32'];
/** Unknown fields with this bit of the field number set are non-critical (ADR-020 / ADR-027). */
const NON_CRITICAL_BIT = 0x400;

/** The SDK's errUnknownField text (wire types by name, like its WireTypeToString). */
function unknownField(typeName: string, id: number, wt: number): Error {
  return Errors.TxDecode.wrap(`errUnknownField "${typeName}": {TagNum: ${id}, WireType:"${WIRE_TYPE_NAMES[wt] ?? `unknown type: ${wt}`}"}`);
}

/** Types known to be (or not to be) google.protobuf.Any: protobufjs' `fullName` joins the type's path at every call. */
const anyTypes = new WeakMap<protobuf.Type, boolean>();
function isAny(type: protobuf.Type): boolean {
  let v = anyTypes.get(type);
  if (v === undefined) anyTypes.set(type, (v = type.fullName === '.google.protobuf.Any'));
  return v;
}

/**
 * Rejects fields unknown to `type` (the SDK's RejectUnknownFields): recursively into nested messages and
 * into Any values (resolved through the registry). With `allowNonCritical`, unknown fields whose number
 * has the non-critical bit set pass.
 */
function rejectUnknownFields(registry: ProtoRegistry, type: protobuf.Type, bytes: Uint8Array, allowNonCritical: boolean): void {
  const r = protobuf.Reader.create(bytes);
  while (r.pos < r.len) {
    const tag = r.uint32();
    const id = tag >>> 3;
    const wt = tag & 7;
    const field = type.fieldsById[id];
    if (!field) {
      if (!(allowNonCritical && (id & NON_CRITICAL_BIT) !== 0)) throw unknownField(type.fullName.slice(1), id, wt);
      r.skipType(wt);
      continue;
    }
    const nested = field.resolvedType;
    if (wt !== 2 || field.map || !(nested instanceof protobuf.Type)) {
      r.skipType(wt);
      continue;
    }
    const sub = r.bytes();
    if (isAny(nested)) {
      rejectUnknownFields(registry, nested, sub, allowNonCritical);
      const any = nested.decode(sub) as unknown as AnyMsg;
      const name = registry.nameOfTypeUrl(any.type_url);
      if (name === undefined) throw Errors.TxDecode.wrap(`unable to resolve type URL ${any.type_url}`);
      rejectUnknownFields(registry, registry.type(name), any.value, allowNonCritical);
    } else {
      rejectUnknownFields(registry, nested, sub, allowNonCritical);
    }
  }
}

function varintLength(n: number): number {
  let len = 1;
  while (n >= 0x80) { n = Math.floor(n / 0x80); len++; }
  return len;
}

/**
 * ADR-027 for TxRaw (the SDK's rejectNonADR027TxRaw, then its unknown-field check): only bytes fields, in
 * ascending order, with minimal length prefixes (so the tx hash cannot be changed without changing the
 * signed content), and no fields besides 1-3.
 */
function checkTxRaw(bytes: Uint8Array): void {
  const r = protobuf.Reader.create(bytes);
  let last = 0;
  let unknown: number | undefined;
  while (r.pos < r.len) {
    const tag = r.uint32();
    const id = tag >>> 3;
    const wt = tag & 7;
    if (wt !== 2) throw Errors.TxDecode.wrap(`expected 2 wire type, got ${wt}`);
    if (id < last) throw Errors.TxDecode.wrap(`txRaw must follow ADR-027, got tagNum ${id} after tagNum ${last}`);
    last = id;
    const start = r.pos;
    const len = r.uint32();
    const read = r.pos - start;
    const need = varintLength(len);
    if (read !== need) throw Errors.TxDecode.wrap(`length prefix varint for tagNum ${id} is not as short as possible, read ${read}, only need ${need}`);
    r.skip(len);
    if ((id < 1 || id > 3) && unknown === undefined) unknown = id;
  }
  if (unknown !== undefined) throw unknownField('chain.tx.v1beta1.TxRaw', unknown, 2);
}

/** Decodes and structurally validates a tx; every failure is `tx parse error` (sdk code 2). */
export function decodeTx(registry: ProtoRegistry, raw: Uint8Array): DecodedTx {
  if (raw.length === 0) throw Errors.TxDecode.wrap('tx bytes are empty');
  try {
    checkTxRaw(raw);
    const txRaw = registry.decode<{ body_bytes: Uint8Array; auth_info_bytes: Uint8Array; signatures: Uint8Array[] }>('chain.tx.v1beta1.TxRaw', raw);
    rejectUnknownFields(registry, registry.type('chain.tx.v1beta1.TxBody'), txRaw.body_bytes, true);
    rejectUnknownFields(registry, registry.type('chain.tx.v1beta1.AuthInfo'), txRaw.auth_info_bytes, false);
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

/**
 * Unique signers of all messages, in order of first appearance, then the fee payer if it is set and not
 * one of them (the SDK's GetSigners: whoever pays the fee must sign).
 */
export function txSigners(registry: ProtoRegistry, tx: DecodedTx): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const m of tx.msgs) for (const s of msgSigners(registry, m)) if (!seen.has(s)) { seen.add(s); out.push(s); }
  const payer = tx.authInfo.fee?.payer;
  if (payer && !seen.has(payer)) out.push(payer);
  return out;
}
