/** Compiled per-type plans (cached per protobufjs Type/Enum, shared by the encoder, decoder and query-params.ts). */
import protobuf from 'protobufjs';
import { CUSTOM_DEC, CUSTOM_INT, CUSTOM_NONE, DEC_ZERO } from './decimal.js';
import { CodecError } from './errors.js';
import { goCamelCase, goTypeOf } from './go-names.js';

/** Value kinds after folding wire variants (sint32 → int32, fixed64 → uint64, …). */
export type Kind = 'double' | 'float' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'bool' | 'string' | 'bytes' | 'enum' | 'message';

/** Well-known types with a special JSON form (`google.protobuf.<name>`). */
const WKTS = [
  'Any',
  'Timestamp',
  'Duration',
  'Struct',
  'Value',
  'ListValue',
  'Empty',
  'FieldMask',
  'DoubleValue',
  'FloatValue',
  'Int64Value',
  'UInt64Value',
  'Int32Value',
  'UInt32Value',
  'BoolValue',
  'StringValue',
  'BytesValue',
] as const;

/** Well-known types with a special JSON form. */
export type Wkt = (typeof WKTS)[number];

/** How one value (a singular field, a list element or a map value) is typed. */
export interface ValueSpec {
  kind: Kind;
  unsigned: boolean;
  enumPlan: EnumPlan | undefined;
  msgType: protobuf.Type | undefined;
  custom: number;
  /** JSON for an empty custom value: zero text, `null` (nullable customtype) or `""` (scalar-only Dec). */
  customEmpty: string | null;
  /** Empty text is accepted on input (scalar-only Dec, a plain Go string). */
  customEmptyOk: boolean;
}

export interface OneofPlan {
  isOneof: true;
  name: string;
  members: FieldPlan[];
}

export interface FieldPlan extends ValueSpec {
  isOneof: false;
  field: protobuf.Field;
  /** JS property on messages (protobufjs field name). */
  key: string;
  protoName: string;
  jsonName: string;
  /** Go struct field name (gateway error messages). */
  goName: string;
  repeated: boolean;
  map: boolean;
  keyKind: Kind;
  keyUnsigned: boolean;
  oneof: OneofPlan | undefined;
  /** proto3 `optional` (synthetic oneof). */
  optional: boolean;
  /** gogoproto `nullable=false` message field. */
  nonNullable: boolean;
  /** gogoproto `stdtime` + `nullable=false`: unset means Go's zero `time.Time` (0001-01-01). */
  zeroTime: boolean;
}

export interface TypePlan {
  type: protobuf.Type;
  /** Full proto name without the leading dot. */
  protoName: string;
  /** Go type as the gateway prints it (`types.Coin`). */
  goType: string;
  wkt: Wkt | undefined;
  fields: FieldPlan[];
  /** Emission order: fields and oneof groups (at their first member). */
  order: Array<FieldPlan | OneofPlan>;
  /** protoName → field and lowerCamel → field. */
  byProto: Map<string, FieldPlan>;
  byJson: Map<string, FieldPlan>;
}

export interface EnumPlan {
  protoName: string;
  goType: string;
  byNumber: Map<number, string>;
  byName: Map<string, number>;
  defaultNumber: number;
}

const SCALAR_KIND: Record<string, Kind> = {
  double: 'double',
  float: 'float',
  int32: 'int32',
  sint32: 'int32',
  sfixed32: 'int32',
  uint32: 'uint32',
  fixed32: 'uint32',
  int64: 'int64',
  sint64: 'int64',
  sfixed64: 'int64',
  uint64: 'uint64',
  fixed64: 'uint64',
  bool: 'bool',
  string: 'string',
  bytes: 'bytes',
};

const WKT_NAMES: Record<string, Wkt> = {};
for (const n of WKTS) WKT_NAMES['.google.protobuf.' + n] = n;

const typePlans = new WeakMap<protobuf.Type, TypePlan>();
const enumPlans = new WeakMap<protobuf.Enum, EnumPlan>();

/** The compiled plan of a message type (built once per Type). */
export function planOf(type: protobuf.Type): TypePlan {
  let p = typePlans.get(type);
  if (p === undefined) {
    p = buildTypePlan(type);
    typePlans.set(type, p);
  }
  return p;
}

/** The compiled plan of an enum type. */
function enumPlanOf(e: protobuf.Enum): EnumPlan {
  let p = enumPlans.get(e);
  if (p === undefined) {
    const byNumber = new Map<number, string>();
    const byName = new Map<string, number>();
    let first: number | undefined;
    for (const [name, num] of Object.entries(e.values)) {
      if (first === undefined) first = num;
      byName.set(name, num);
      if (!byNumber.has(num)) byNumber.set(num, name);
    }
    p = { protoName: e.fullName.replace(/^\./, ''), goType: goTypeOf(e), byNumber, byName, defaultNumber: first ?? 0 };
    enumPlans.set(e, p);
  }
  return p;
}

function buildTypePlan(type: protobuf.Type): TypePlan {
  const fields: FieldPlan[] = [];
  const order: Array<FieldPlan | OneofPlan> = [];
  const oneofs = new Map<protobuf.OneOf, OneofPlan>();
  for (const field of type.fieldsArray) {
    if (field.declaringField) continue; // proto2 extension sister fields
    field.resolve();
    const fp = buildFieldPlan(field);
    fields.push(fp);
    const oo = field.partOf;
    if (oo && !fp.optional) {
      let op = oneofs.get(oo);
      if (op === undefined) {
        op = { isOneof: true, name: oo.name, members: [] };
        oneofs.set(oo, op);
        order.push(op);
      }
      op.members.push(fp);
      fp.oneof = op;
    } else {
      order.push(fp);
    }
  }
  const byProto = new Map<string, FieldPlan>();
  const byJson = new Map<string, FieldPlan>();
  for (const f of fields) if (!byProto.has(f.protoName)) byProto.set(f.protoName, f);
  for (const f of fields) if (!byJson.has(f.jsonName)) byJson.set(f.jsonName, f);
  return {
    type,
    protoName: type.fullName.replace(/^\./, ''),
    goType: goTypeOf(type),
    wkt: WKT_NAMES[type.fullName],
    fields,
    order,
    byProto,
    byJson,
  };
}

function buildFieldPlan(field: protobuf.Field): FieldPlan {
  const opts = (field.options ?? {}) as Record<string, unknown>;
  const rt = field.resolvedType;
  let kind: Kind;
  let enumPlan: EnumPlan | undefined;
  let msgType: protobuf.Type | undefined;
  if (rt instanceof protobuf.Enum) {
    kind = 'enum';
    enumPlan = enumPlanOf(rt);
  } else if (rt instanceof protobuf.Type) {
    kind = 'message';
    msgType = rt;
  } else {
    const k = SCALAR_KIND[field.type];
    if (k === undefined) throw new CodecError(`unsupported field type ${field.type} in ${field.fullName}`, 13);
    kind = k;
  }
  let custom = CUSTOM_NONE;
  let customEmpty: string | null = null;
  let customEmptyOk = false;
  if (kind === 'string' || kind === 'bytes') {
    const ct = opts['(gogoproto.customtype)'];
    const nullable = opts['(gogoproto.nullable)'] === true;
    if (typeof ct === 'string' && ct.endsWith('Dec')) {
      custom = CUSTOM_DEC;
      customEmpty = nullable ? null : DEC_ZERO;
    } else if (typeof ct === 'string' && ct.endsWith('Int')) {
      custom = CUSTOM_INT;
      customEmpty = nullable ? null : '0';
    } else if (opts['(cosmos_proto.scalar)'] === 'cosmos.Dec') {
      custom = CUSTOM_DEC;
      customEmpty = kind === 'bytes' ? null : '';
      customEmptyOk = true;
    }
  }
  const isMap = field.map;
  const keyType = isMap ? (field as unknown as protobuf.MapField).keyType : '';
  const optional = field.partOf !== null && field.partOf !== undefined && opts['proto3_optional'] === true;
  const protoName = field.protoName ?? field.name;
  return {
    isOneof: false,
    field,
    key: field.name,
    protoName,
    jsonName: field.jsonName ?? protobuf.util.jsonName(protoName),
    goName: goCamelCase(protoName),
    kind,
    unsigned: field.type === 'uint64' || field.type === 'fixed64',
    enumPlan,
    msgType,
    custom,
    customEmpty,
    customEmptyOk,
    repeated: field.repeated && !isMap,
    map: isMap,
    keyKind: isMap ? (SCALAR_KIND[keyType] ?? 'string') : 'string',
    keyUnsigned: keyType === 'uint64' || keyType === 'fixed64',
    oneof: undefined,
    optional,
    nonNullable: kind === 'message' && opts['(gogoproto.nullable)'] === false,
    zeroTime: kind === 'message' && opts['(gogoproto.nullable)'] === false && opts['(gogoproto.stdtime)'] === true,
  };
}

/** A field of a (well-known) type by proto name; a missing one is a bad descriptor (code 13). */
export function fieldOf(p: TypePlan, protoName: string): FieldPlan {
  const f = p.byProto.get(protoName);
  if (f === undefined) throw new CodecError(`${p.protoName} has no field ${protoName}`, 13);
  return f;
}
