/** OpenAPI v2 document generated from the same route definitions the gateway serves. */
import type protobuf from 'protobufjs';
import type { ProtoRegistry } from '@chain/codec';
import type { RestRoute } from './routes.js';

function schemaOfType(t: protobuf.Type, defs: Record<string, unknown>, seen: Set<string>): { $ref: string } {
  const name = t.fullName.slice(1);
  if (!seen.has(name)) {
    seen.add(name);
    const props: Record<string, unknown> = {};
    for (const f of t.fieldsArray) {
      f.resolve();
      let s: unknown;
      if (f.resolvedType && 'fieldsArray' in f.resolvedType) {
        s = f.resolvedType.fullName === '.google.protobuf.Any' ? { type: 'object', properties: { '@type': { type: 'string' } }, additionalProperties: {} } : schemaOfType(f.resolvedType as protobuf.Type, defs, seen);
      } else if (f.resolvedType) {
        s = { type: 'string', enum: Object.keys((f.resolvedType as protobuf.Enum).values) };
      } else if (['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64'].includes(f.type)) {
        s = { type: 'string', format: f.type };
      } else if (f.type === 'bytes') {
        s = { type: 'string', format: 'byte' };
      } else if (f.type === 'bool') {
        s = { type: 'boolean' };
      } else if (f.type === 'string') {
        s = { type: 'string' };
      } else {
        s = { type: 'integer', format: f.type };
      }
      props[f.name] = f.repeated ? { type: 'array', items: s } : s;
    }
    defs[name] = { type: 'object', properties: props };
  }
  return { $ref: `#/definitions/${name}` };
}

export function swaggerDocument(routes: readonly RestRoute[], registry: ProtoRegistry): unknown {
  const paths: Record<string, Record<string, unknown>> = {};
  const defs: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const r of routes) {
    const path = r.template;
    const op: Record<string, unknown> = {
      operationId: `${r.dialect}_${r.query.path.slice(1).replace(/[./]/g, '_')}`,
      tags: [r.query.service.fullName.slice(1)],
      summary: r.query.method.comment ?? `${r.query.method.name}`,
      parameters: [
        ...r.params.map((p) => ({ name: p, in: 'path', required: true, type: 'string' })),
        ...(r.method === 'POST' ? [{ name: 'body', in: 'body', required: true, schema: schemaOfType(registry.type(r.query.requestType), defs, seen) }] : []),
      ],
      responses: {
        200: { description: 'A successful response.', schema: schemaOfType(registry.type(r.query.responseType), defs, seen) },
        default: { description: 'An error response.', schema: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' }, details: { type: 'array', items: { type: 'object' } } } } },
      },
    };
    (paths[path] ??= {})[r.method.toLowerCase()] = op;
  }
  return { swagger: '2.0', info: { title: 'chain REST API', version: 'v1beta1', description: 'Generated from the proto service definitions.' }, consumes: ['application/json'], produces: ['application/json'], paths, definitions: defs };
}
