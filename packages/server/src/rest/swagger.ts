/**
 * OpenAPI v2 document generated from the same route definitions the gateway serves (one operation per
 * served method + path, both spellings), in the style of protoc-gen-swagger: path parameters, the
 * request message's other fields as (dotted) query parameters for GET, the request message as the body
 * for POST, gateway JSON types (64-bit integers and bytes as strings, enums by name) and the
 * `{code, message, details}` error body.
 */
import protobuf from 'protobufjs';
import type { ProtoRegistry } from '@chain/codec';
import type { RestRoute } from './routes.js';

type Schema = Record<string, unknown>;

const ERROR_SCHEMA: Schema = {
  type: 'object',
  properties: {
    code: { type: 'integer', format: 'int32' },
    message: { type: 'string' },
    details: { type: 'array', items: { $ref: '#/definitions/google.protobuf.Any' } },
  },
};

/** Gateway JSON type of a scalar proto type. */
function scalarSchema(type: string): Schema {
  switch (type) {
    case 'int64': case 'sint64': case 'sfixed64': return { type: 'string', format: 'int64' };
    case 'uint64': case 'fixed64': return { type: 'string', format: 'uint64' };
    case 'int32': case 'sint32': case 'sfixed32': return { type: 'integer', format: 'int32' };
    case 'uint32': case 'fixed32': return { type: 'integer', format: 'int64' };
    case 'double': return { type: 'number', format: 'double' };
    case 'float': return { type: 'number', format: 'float' };
    case 'bool': return { type: 'boolean' };
    case 'bytes': return { type: 'string', format: 'byte' };
    default: return { type: 'string' };
  }
}

/** A `(gogoproto.customtype)` Dec / Int or `(cosmos_proto.scalar)` field: its JSON is decimal text. */
function isDecimalCustomType(f: protobuf.Field): boolean {
  const ct = f.options?.['(gogoproto.customtype)'];
  return (typeof ct === 'string' && (ct.endsWith('Dec') || ct.endsWith('Int'))) || typeof f.options?.['(cosmos_proto.scalar)'] === 'string';
}

const WKT_SCHEMAS: Record<string, Schema> = {
  '.google.protobuf.Timestamp': { type: 'string', format: 'date-time' },
  '.google.protobuf.Duration': { type: 'string' },
  '.google.protobuf.Struct': { type: 'object' },
  '.google.protobuf.Value': {},
  '.google.protobuf.ListValue': { type: 'array', items: {} },
  '.google.protobuf.Empty': { type: 'object' },
  '.google.protobuf.FieldMask': { type: 'string' },
  '.google.protobuf.StringValue': { type: 'string' },
  '.google.protobuf.BytesValue': { type: 'string', format: 'byte' },
  '.google.protobuf.BoolValue': { type: 'boolean' },
  '.google.protobuf.Int64Value': { type: 'string', format: 'int64' },
  '.google.protobuf.UInt64Value': { type: 'string', format: 'uint64' },
  '.google.protobuf.Int32Value': { type: 'integer', format: 'int32' },
  '.google.protobuf.UInt32Value': { type: 'integer', format: 'int64' },
  '.google.protobuf.DoubleValue': { type: 'number', format: 'double' },
  '.google.protobuf.FloatValue': { type: 'number', format: 'float' },
};

class SchemaBuilder {
  readonly definitions: Record<string, Schema> = {
    'google.protobuf.Any': {
      type: 'object',
      properties: { '@type': { type: 'string', description: 'type URL of the packed message' } },
      additionalProperties: {},
      description: 'A message of any type: "@type" names it, its fields follow inline.',
    },
  };

  /** Schema of one value of field `f` (without `repeated`). */
  valueSchema(f: protobuf.Field): Schema {
    f.resolve();
    const rt = f.resolvedType;
    if (rt instanceof protobuf.Type) return this.messageRef(rt);
    if (rt instanceof protobuf.Enum) return { type: 'string', enum: Object.keys(rt.values), default: Object.keys(rt.values)[0] };
    // bytes carrying a Dec / Int custom type are written as decimal text, not base64 (mint's annual_provisions)
    if (f.type === 'bytes' && isDecimalCustomType(f)) return { type: 'string' };
    return scalarSchema(f.type);
  }

  fieldSchema(f: protobuf.Field): Schema {
    if (f instanceof protobuf.MapField) return { type: 'object', additionalProperties: this.valueSchema(f) };
    const s = this.valueSchema(f);
    return f.repeated ? { type: 'array', items: s } : s;
  }

  messageRef(t: protobuf.Type): Schema {
    const wkt = WKT_SCHEMAS[t.fullName];
    if (wkt) return wkt;
    if (t.fullName === '.google.protobuf.Any') return { $ref: '#/definitions/google.protobuf.Any' };
    const name = t.fullName.slice(1);
    if (!(name in this.definitions)) {
      const props: Record<string, Schema> = {};
      this.definitions[name] = { type: 'object', properties: props };
      for (const f of t.fieldsArray) props[f.name] = this.fieldSchema(f);
      if (t.comment) this.definitions[name]!.description = t.comment;
      // oneofs (not proto3 `optional`): only the member that is set appears in the JSON
      const oneofs: Record<string, string[]> = {};
      for (const o of t.oneofsArray) {
        const synthetic = o.fieldsArray.length === 1 && o.fieldsArray[0]!.options?.proto3_optional === true;
        if (!synthetic) oneofs[o.name] = o.fieldsArray.map((f) => f.name);
      }
      if (Object.keys(oneofs).length) this.definitions[name]!['x-oneofs'] = oneofs;
    }
    return { $ref: `#/definitions/${name}` };
  }
}

/** Query parameters of a GET route: the request fields not bound by the path, dotted into sub-messages. */
function queryParameters(t: protobuf.Type, pathParams: readonly string[]): Schema[] {
  const out: Schema[] = [];
  const visit = (type: protobuf.Type, prefix: string, seen: Set<string>): void => {
    for (const f of type.fieldsArray) {
      const name = prefix + f.name;
      if (pathParams.includes(name) || f instanceof protobuf.MapField) continue;
      f.resolve();
      const rt = f.resolvedType;
      if (rt instanceof protobuf.Type) {
        if (f.repeated || rt.fullName === '.google.protobuf.Any' || seen.has(rt.fullName)) continue;
        const wkt = WKT_SCHEMAS[rt.fullName];
        if (wkt) {
          if (wkt.type !== 'object' && wkt.type !== 'array' && wkt.type !== undefined) out.push({ name, in: 'query', required: false, ...wkt });
          continue;
        }
        visit(rt, name + '.', new Set([...seen, rt.fullName]));
        continue;
      }
      const s = rt instanceof protobuf.Enum ? { type: 'string', enum: Object.keys(rt.values), default: Object.keys(rt.values)[0] } : scalarSchema(f.type);
      const p: Schema = f.repeated
        ? { name, in: 'query', required: false, type: 'array', items: s, collectionFormat: 'multi' }
        : { name, in: 'query', required: false, ...s };
      if (f.comment) p.description = f.comment;
      out.push(p);
    }
  };
  visit(t, '', new Set([t.fullName]));
  return out;
}

function pathParameter(t: protobuf.Type, name: string): Schema {
  let type: protobuf.Type | undefined = t;
  let field: protobuf.Field | undefined;
  for (const part of name.split('.')) {
    field = type?.fields[part];
    field?.resolve();
    type = field?.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
  }
  const s = field && !(field.resolvedType instanceof protobuf.Type)
    ? (field.resolvedType instanceof protobuf.Enum ? { type: 'string', enum: Object.keys(field.resolvedType.values) } : scalarSchema(field.type))
    : { type: 'string' };
  return { name, in: 'path', required: true, ...s };
}

/** The OpenAPI v2 document of `routes` (every method + path the gateway serves). */
export function swaggerDocument(routes: readonly RestRoute[], registry: ProtoRegistry): unknown {
  const b = new SchemaBuilder();
  const paths: Record<string, Record<string, unknown>> = {};
  const opIds = new Map<string, number>();
  const sorted = [...routes].sort((x, y) => x.template.localeCompare(y.template) || x.method.localeCompare(y.method));
  for (const r of sorted) {
    const reqType = registry.type(r.query.requestType);
    const baseId = `${r.dialect === 'cosmos' ? 'Cosmos' : 'Chain'}_${r.query.service.fullName.slice(1).replace(/\./g, '_')}_${r.query.method.name}`;
    const n = opIds.get(baseId) ?? 0;
    opIds.set(baseId, n + 1);
    const parameters: Schema[] = r.params.map((p) => pathParameter(reqType, p));
    if (r.method === 'POST') parameters.push({ name: 'body', in: 'body', required: true, schema: b.messageRef(reqType) });
    else parameters.push(...queryParameters(reqType, r.params));
    const op: Record<string, unknown> = {
      summary: (r.query.method.comment ?? r.query.method.name).split('\n')[0],
      operationId: n === 0 ? baseId : `${baseId}${n + 1}`,
      tags: [r.query.service.fullName.slice(1)],
      parameters,
      responses: {
        200: { description: 'A successful response.', schema: b.messageRef(registry.type(r.query.responseType)) },
        default: { description: 'An unexpected error response.', schema: { $ref: '#/definitions/google.rpc.Status' } },
      },
    };
    if (r.query.method.comment) op.description = r.query.method.comment;
    (paths[r.template] ??= {})[r.method.toLowerCase()] = op;
  }
  b.definitions['google.rpc.Status'] = ERROR_SCHEMA;
  return {
    swagger: '2.0',
    info: { title: 'chain REST API', version: 'v1beta1', description: 'Generated from the proto service definitions the node serves (canonical /chain/... and Cosmos /cosmos/... spellings).' },
    consumes: ['application/json'],
    produces: ['application/json'],
    paths,
    definitions: b.definitions,
  };
}
