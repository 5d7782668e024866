/** Small helpers over message values: records, 64-bit integers, bytes, oneofs and zero values. */
import protobuf from 'protobufjs';
import { CodecError } from './errors.js';
import type { FieldPlan, OneofPlan, ValueSpec } from './plan.js';

/** A message or JSON object as a plain record. */
export type Rec = Record<string, unknown>;
/** A shared empty (frozen) record. */
export const EMPTY: Rec = Object.freeze({}) as Rec;
/** Own-property test. */
export const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

interface LongLike {
  low: number;
  high: number;
  unsigned?: boolean;
}
interface LongCtor {
  fromBits(low: number, high: number, unsigned?: boolean): LongLike;
}
const LongImpl = (protobuf.util as unknown as { Long?: LongCtor }).Long;
const U32 = 0xffffffffn;

/** A 64-bit value in the form protobufjs decodes to (Long when available). */
export function makeLong(v: bigint, unsigned: boolean): unknown {
  const u = BigInt.asUintN(64, v);
  if (LongImpl) return LongImpl.fromBits(Number(u & U32) | 0, Number(u >> 32n) | 0, unsigned);
  return Number(unsigned ? u : BigInt.asIntN(64, u));
}

/** A protobufjs Long (or anything with numeric `low` / `high`). */
export function isLongLike(v: unknown): v is LongLike {
  return typeof v === 'object' && v !== null && typeof (v as LongLike).low === 'number' && typeof (v as LongLike).high === 'number';
}

/** Any 64-bit representation (Long, number, bigint, decimal string) as a bigint. */
export function toBigInt64(v: unknown, unsigned: boolean): bigint {
  let b: bigint;
  if (typeof v === 'bigint') b = v;
  else if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new CodecError(`invalid 64-bit integer ${v}`, 2);
    b = BigInt(Math.trunc(v));
  } else if (typeof v === 'string') {
    const t = v.trim();
    if (!/^[+-]?\d+$/.test(t)) throw new CodecError(`invalid 64-bit integer ${JSON.stringify(v)}`, 2);
    b = BigInt(t);
  } else if (isLongLike(v)) {
    b = (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0);
  } else if (v === null || v === undefined) {
    return 0n;
  } else {
    throw new CodecError(`invalid 64-bit integer of type ${typeof v}`, 2);
  }
  return unsigned ? BigInt.asUintN(64, b) : BigInt.asIntN(64, b);
}

/** Any numeric representation (number, bigint, Long, numeric string) as a JS number; null → 0. */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v === null || v === undefined) return 0;
  if (typeof v === 'bigint') return Number(v);
  if (isLongLike(v)) return Number(toBigInt64(v, v.unsigned === true));
  if (typeof v === 'string') return Number(v);
  return Number(v);
}

/** Bytes from Uint8Array, Buffer, number[] or (already encoded) base64 string. */
export function toBytes(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (Array.isArray(v)) return Uint8Array.from(v as number[]);
  if (v === null || v === undefined) return EMPTY_BYTES;
  if (typeof v === 'string') return Buffer.from(v, 'base64');
  throw new CodecError(`invalid bytes value of type ${typeof v}`, 2);
}
const EMPTY_BYTES = new Uint8Array(0);

/** Sets `out[k]` (an own, enumerable property even for `__proto__`). */
export function put(out: Rec, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  else out[k] = v;
}

/** A fresh message instance of a type. */
export function newMessage(t: protobuf.Type): Rec {
  return t.create() as unknown as Rec;
}

/** A JSON object (not null, not an array). */
export function isObject(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The set member of a oneof (own, non-null property), if any. */
export function setMember(o: OneofPlan, msg: Rec): FieldPlan | undefined {
  let found: FieldPlan | undefined;
  for (const f of o.members) {
    const v = msg[f.key];
    if (v !== undefined && v !== null && hasOwn(msg, f.key)) {
      if (found === undefined) found = f;
      else if (msg[o.name] === f.key) found = f; // several set: trust the virtual oneof property
    }
  }
  return found;
}

/** Sets a field, clearing the other members of its oneof. */
export function setField(msg: Rec, f: FieldPlan, v: unknown): void {
  if (f.oneof !== undefined) for (const o of f.oneof.members) if (o !== f) delete msg[o.key];
  msg[f.key] = v;
}

/** The zero value of a value spec in protobufjs form (a fresh message for message types). */
export function zeroValue(spec: ValueSpec): unknown {
  switch (spec.kind) {
    case 'message':
      return spec.msgType ? newMessage(spec.msgType) : null;
    case 'enum':
      return spec.enumPlan!.defaultNumber;
    case 'int64':
    case 'uint64':
      return makeLong(0n, spec.unsigned);
    case 'string':
      return '';
    case 'bytes':
      return new Uint8Array(0);
    case 'bool':
      return false;
    default:
      return 0;
  }
}

