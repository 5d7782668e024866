/**
 * AutoCLI: `query <module> <method>` and `tx <module> <msg>` commands derived at runtime from the proto services
 * of a registry (as the Cosmos SDK's AutoCLI does), one generic definition for every method:
 *
 * - the command name is the method name in kebab case (`AllBalances` → `all-balances`; the method name itself is
 *   accepted too);
 * - positional arguments: for a query, the path parameters of its `google.api.http` annotation first (in proto
 *   field order), then the request's other top-level scalar fields in proto order; for a message, its top-level scalar and coin fields in
 *   proto order, the signer field left out (it comes from `--from`); a query needs its path parameters;
 * - every field is also a flag, `--field-name` (snake case in kebab case; the proto name is accepted too);
 * - values: scalars as text (64-bit integers, Dec and Int as decimal text), bools `true|false`, enums by name or
 *   the name's last part (`yes` for `VOTE_OPTION_YES`) or number, bytes as base64 or 0x-hex, `Coin` as `10achain`,
 *   repeated `Coin` as `10achain,5ukitty`, repeated scalars comma-separated or a JSON array, any other message
 *   (an `Any` with its `@type`) as gateway JSON, `@FILE` reading it from a file; a query's `pagination` also takes
 *   the SDK's `--limit --offset --page-key --count-total --reverse`.
 *
 * The result is the request in gateway JSON, which the registry turns into the message (Dec, Duration, Timestamp,
 * Any and 64-bit rules included). Nothing here knows a module.
 */
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import type { ProtoRegistry, ProtoObject } from '@chain/codec';
import { signerFieldOf } from '@chain/tx';

export type CommandKind = 'query' | 'msg';

/** A service the CLI exposes: which module it belongs to and whether it is a query or a Msg service. */
export interface CliServiceRef {
  readonly module: string;
  readonly service: string;
  readonly kind: CommandKind;
}

type FieldKind = 'string' | 'int' | 'int32' | 'float' | 'bool' | 'bytes' | 'enum' | 'coin' | 'coins' | 'strings' | 'scalars' | 'json';

export interface FieldSpec {
  /** proto field name */
  readonly name: string;
  /** `--flag` name */
  readonly flag: string;
  readonly kind: FieldKind;
  /** the proto type for help (`string`, `uint64`, `chain.base.v1beta1.Coin`, `repeated string`, ...) */
  readonly typeName: string;
  readonly field: protobuf.Field;
}

export interface MethodSpec {
  readonly module: string;
  readonly kind: CommandKind;
  /** kebab-case command name */
  readonly command: string;
  /** `chain.bank.v1beta1.Query` */
  readonly service: string;
  readonly method: string;
  /** `/chain.bank.v1beta1.Query/Balance` */
  readonly path: string;
  readonly requestType: string;
  readonly responseType: string;
  /** the positional argument fields, in order */
  readonly positional: readonly FieldSpec[];
  /** how many positional arguments are required */
  readonly required: number;
  /** every field as a flag */
  readonly fields: readonly FieldSpec[];
  /** Msg: the signer field, filled from `--from` */
  readonly signer?: string;
  /** query: the REST route of the annotation */
  readonly http?: string;
  readonly comment?: string;
}

export const PAGINATION_FLAGS = ['limit', 'offset', 'page-key', 'count-total', 'reverse'] as const;

/** `AllBalances` → `all-balances`, `AccountAddressByID` → `account-address-by-id`. */
export function kebab(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

const stripDot = (n: string): string => (n.startsWith('.') ? n.slice(1) : n);
const COIN_TYPES = /\.(Coin|DecCoin)$/;

function fieldKind(f: protobuf.Field): FieldKind {
  f.resolve();
  const rt = f.resolvedType;
  if (f.map) return 'json';
  if (rt instanceof protobuf.Type) {
    if (COIN_TYPES.test(rt.fullName)) return f.repeated ? 'coins' : 'coin';
    return 'json';
  }
  if (f.repeated) return f.type === 'string' ? 'strings' : rt instanceof protobuf.Enum ? 'json' : 'scalars';
  if (rt instanceof protobuf.Enum) return 'enum';
  switch (f.type) {
    case 'string': return 'string';
    case 'bool': return 'bool';
    case 'bytes': return 'bytes';
    case 'int64': case 'uint64': case 'sint64': case 'fixed64': case 'sfixed64': return 'int';
    case 'int32': case 'uint32': case 'sint32': case 'fixed32': case 'sfixed32': return 'int32';
    case 'double': case 'float': return 'float';
    default: return 'string';
  }
}

function fieldSpec(f: protobuf.Field): FieldSpec {
  const kind = fieldKind(f);
  const base = f.resolvedType ? stripDot(f.resolvedType.fullName) : f.type;
  return { name: f.name, flag: kebab(f.name), kind, typeName: `${f.map ? 'map' : f.repeated ? 'repeated ' : ''}${base}`, field: f };
}

/** Path parameters of a method's `(google.api.http)` annotation (the first binding), top-level names only. */
function httpOf(method: protobuf.Method): { template?: string; params: string[] } {
  for (const opt of method.parsedOptions ?? []) {
    const rule = (opt as Record<string, unknown>)['(google.api.http)'] as Record<string, unknown> | undefined;
    if (!rule) continue;
    const template = typeof rule.get === 'string' ? rule.get : typeof rule.post === 'string' ? rule.post : undefined;
    if (!template) continue;
    const params: string[] = [];
    for (const m of template.matchAll(/\{([a-zA-Z0-9_.]+)(=[^}]*)?\}/g)) {
      const top = m[1]!.split('.')[0]!;
      if (!params.includes(top)) params.push(top);
    }
    return { template, params };
  }
  return { params: [] };
}

const POSITIONAL_KINDS = new Set<FieldKind>(['string', 'int', 'int32', 'float', 'bool', 'bytes', 'enum', 'coin', 'coins']);

function methodSpec(registry: ProtoRegistry, ref: CliServiceRef, method: protobuf.Method): MethodSpec {
  method.resolve();
  const req = method.resolvedRequestType!;
  const fields = req.fieldsArray.map(fieldSpec);
  const requestType = stripDot(req.fullName);
  let positional: FieldSpec[];
  let required: number;
  let signer: string | undefined;
  let http: string | undefined;
  if (ref.kind === 'query') {
    const h = httpOf(method);
    http = h.template;
    // the path parameters (required), in proto field order (`delegation <delegator_addr> <validator_addr>`, as the SDK's)
    const pathFields = fields.filter((f) => h.params.includes(f.name));
    const rest = fields.filter((f) => !pathFields.includes(f) && f.name !== 'pagination' && POSITIONAL_KINDS.has(f.kind));
    positional = [...pathFields, ...rest];
    required = pathFields.length;
  } else {
    signer = signerFieldOf(registry.type(requestType));
    positional = fields.filter((f) => f.name !== signer && POSITIONAL_KINDS.has(f.kind));
    required = 0;
  }
  return {
    module: ref.module, kind: ref.kind, command: kebab(method.name), service: ref.service, method: method.name,
    path: `/${ref.service}/${method.name}`, requestType, responseType: stripDot(method.resolvedResponseType!.fullName),
    positional, required, fields, signer, http, comment: method.comment ?? undefined,
  };
}

/** The command table: module → command → method, for queries or for messages. */
export class CommandTable {
  private readonly byModule = new Map<string, Map<string, MethodSpec>>();

  constructor(readonly registry: ProtoRegistry, refs: readonly CliServiceRef[], readonly kind: CommandKind) {
    for (const ref of refs.filter((r) => r.kind === kind)) {
      const svc = registry.service(ref.service);
      let m = this.byModule.get(ref.module);
      if (!m) this.byModule.set(ref.module, (m = new Map()));
      for (const method of svc.methodsArray) {
        const spec = methodSpec(registry, ref, method);
        if (!m.has(spec.command)) m.set(spec.command, spec);
      }
    }
  }

  modules(): string[] {
    return [...this.byModule.keys()].sort();
  }

  methods(module: string): MethodSpec[] {
    return [...(this.byModule.get(module)?.values() ?? [])];
  }

  all(): MethodSpec[] {
    return this.modules().flatMap((m) => this.methods(m));
  }

  /** A method by module and command (kebab or the proto method name, any case); a helpful error otherwise. */
  find(module: string | undefined, command: string | undefined): MethodSpec {
    const word = this.kind === 'query' ? 'query' : 'tx';
    if (!module) throw new Error(`chaind ${word}: name a module: ${this.modules().join(', ')}`);
    const m = this.byModule.get(module);
    if (!m) throw new Error(`unknown module ${JSON.stringify(module)} for chaind ${word}; modules: ${this.modules().join(', ')}`);
    const list = [...m.keys()].join(', ');
    if (!command) throw new Error(`chaind ${word} ${module}: name a ${this.kind === 'query' ? 'query method' : 'message'}: ${list}`);
    const hit = m.get(command) ?? m.get(kebab(command)) ?? [...m.values()].find((s) => s.method.toLowerCase() === command.toLowerCase());
    if (!hit) throw new Error(`unknown ${this.kind === 'query' ? 'query method' : 'message'} ${JSON.stringify(command)} of module ${module}; valid: ${list}`);
    return hit;
  }
}

/**
 * The value of a message's signer field for an address: the address for a string field; for a list of messages
 * with an `address` (bank's MultiSend `inputs`) one entry with it. Undefined when the field is of another shape.
 */
export function signerValue(spec: MethodSpec, address: string): unknown {
  const f = spec.fields.find((x) => x.name === spec.signer);
  if (!f) return undefined;
  if (f.kind === 'string') return address;
  const t = f.field.resolvedType;
  if (f.field.repeated && t instanceof protobuf.Type && t.fields.address) return [{ address }];
  return undefined;
}

/** Bool flags of a method (so the parser does not take the next argument as their value). */
export function boolFlagsOf(spec: MethodSpec): string[] {
  return spec.fields.filter((f) => f.kind === 'bool').flatMap((f) => [f.flag, f.name]);
}

// ---- values ----

/** Parses Cosmos coin text: `10achain`, `10achain,5ukitty` (Dec amounts for DecCoin: `1.5achain`). */
export function parseCoins(text: string, dec = false): { denom: string; amount: string }[] {
  const t = text.trim();
  if (t === '') return [];
  return t.split(',').map((part) => {
    const m = (dec ? /^(\d+(?:\.\d+)?)\s*([a-zA-Z][a-zA-Z0-9/:._-]{1,127})$/ : /^(\d+)\s*([a-zA-Z][a-zA-Z0-9/:._-]{1,127})$/).exec(part.trim());
    if (!m) throw new Error(`invalid coin ${JSON.stringify(part.trim())}: expected an amount and a denom, e.g. 10achain${dec ? ' or 1.5achain' : ''}`);
    return { amount: m[1]!, denom: m[2]! };
  });
}

function readValue(v: string): string {
  return v.startsWith('@') ? readFileSync(v.slice(1), 'utf8') : v;
}

function parseJson(f: FieldSpec, v: string): unknown {
  try {
    return JSON.parse(readValue(v)) as unknown;
  } catch (e) {
    throw new Error(`--${f.flag}: expected JSON for ${f.typeName} (or @FILE): ${(e as Error).message}`);
  }
}

function enumValue(f: FieldSpec, v: string): string | number {
  const en = f.field.resolvedType as protobuf.Enum;
  if (/^\d+$/.test(v)) return Number(v);
  const names = Object.keys(en.values);
  const exact = names.find((n) => n === v) ?? names.find((n) => n.toLowerCase() === v.toLowerCase());
  if (exact) return exact;
  const norm = v.toLowerCase().replace(/-/g, '_');
  const suffix = names.filter((n) => n.toLowerCase().endsWith('_' + norm));
  if (suffix.length === 1) return suffix[0]!;
  throw new Error(`--${f.flag}: invalid ${stripDot(en.fullName)} ${JSON.stringify(v)}; valid: ${names.join(', ')}`);
}

/** The gateway-JSON value of a field from its command-line text. */
export function fieldValue(f: FieldSpec, raw: string | boolean): unknown {
  if (typeof raw === 'boolean') {
    if (f.kind !== 'bool') throw new Error(`flag needs an argument: --${f.flag}`);
    return raw;
  }
  const v = raw;
  switch (f.kind) {
    case 'string': return v;
    case 'int': if (!/^-?\d+$/.test(v)) throw new Error(`--${f.flag}: invalid integer ${JSON.stringify(v)}`); return v;
    case 'int32': if (!/^-?\d+$/.test(v)) throw new Error(`--${f.flag}: invalid integer ${JSON.stringify(v)}`); return Number(v);
    case 'float': return Number(v);
    case 'bool':
      if (v !== 'true' && v !== 'false') throw new Error(`--${f.flag}: expected true or false, got ${JSON.stringify(v)}`);
      return v === 'true';
    case 'bytes': return /^0x[0-9a-fA-F]*$/.test(v) ? Buffer.from(v.slice(2), 'hex').toString('base64') : v;
    case 'enum': return enumValue(f, v);
    case 'coin': {
      if (v.trim().startsWith('{')) return parseJson(f, v);
      const c = parseCoins(v, /DecCoin$/.test(f.typeName));
      if (c.length !== 1) throw new Error(`--${f.flag}: expected one coin, e.g. 10achain`);
      return c[0];
    }
    case 'coins': return v.trim().startsWith('[') ? parseJson(f, v) : parseCoins(v, /DecCoin$/.test(f.typeName));
    case 'strings': return v.trim().startsWith('[') ? parseJson(f, v) : v === '' ? [] : v.split(',');
    case 'scalars': return v.trim().startsWith('[') ? parseJson(f, v) : v === '' ? [] : v.split(',');
    case 'json': return parseJson(f, v);
  }
}

/**
 * The request (gateway JSON) of a method from positional arguments and flags. Flags that are not fields of the
 * request are ignored here (they are the command's own); `extra` fills fields such as the signer.
 */
export function buildRequestJson(spec: MethodSpec, positional: readonly string[], flags: Record<string, string | boolean>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const set = new Set<string>();
  for (const f of spec.fields) {
    const v = flags[f.flag] ?? (f.flag !== f.name ? flags[f.name] : undefined);
    if (v === undefined) continue;
    out[f.name] = fieldValue(f, v);
    set.add(f.name);
  }
  const slots = spec.positional.filter((f) => !set.has(f.name));
  if (positional.length > slots.length) {
    throw new Error(`too many arguments for ${spec.kind === 'query' ? 'query' : 'tx'} ${spec.module} ${spec.command}: got ${positional.length}, it takes ${slots.length} (${slots.map((f) => f.name).join(', ') || 'none'}); see --help`);
  }
  positional.forEach((v, i) => { out[slots[i]!.name] = fieldValue(slots[i]!, v); set.add(slots[i]!.name); });
  const missing = spec.positional.slice(0, spec.required).filter((f) => !set.has(f.name));
  if (missing.length > 0) {
    throw new Error(`missing argument${missing.length > 1 ? 's' : ''} ${missing.map((f) => `<${f.name}>`).join(' ')} for query ${spec.module} ${spec.command}; usage: ${usageLine(spec)}`);
  }
  if (spec.fields.some((f) => f.name === 'pagination') && out.pagination === undefined) {
    const p: Record<string, unknown> = {};
    if (flags.limit !== undefined) p.limit = String(flags.limit);
    if (flags.offset !== undefined) p.offset = String(flags.offset);
    if (typeof flags['page-key'] === 'string') p.key = flags['page-key'];
    if (flags['count-total'] === true || flags['count-total'] === 'true') p.count_total = true;
    if (flags.reverse === true || flags.reverse === 'true') p.reverse = true;
    if (Object.keys(p).length > 0) out.pagination = p;
  }
  for (const [k, v] of Object.entries(extra)) if (out[k] === undefined || out[k] === '') out[k] = v;
  return out;
}

/** The request message (plain object) of a method from arguments: gateway JSON through the registry. */
export function buildRequest(registry: ProtoRegistry, spec: MethodSpec, positional: readonly string[], flags: Record<string, string | boolean>, extra: Record<string, unknown> = {}): ProtoObject {
  const json = buildRequestJson(spec, positional, flags, extra);
  try {
    return registry.fromJSON(spec.requestType, json);
  } catch (e) {
    throw new Error(`invalid ${spec.requestType}: ${(e as Error).message}`);
  }
}

// ---- help ----

export function usageLine(spec: MethodSpec, bin = 'chaind'): string {
  const args = spec.positional.map((f, i) => (i < spec.required ? `<${f.name}>` : `[${f.name}]`)).join(' ');
  return `${bin} ${spec.kind === 'query' ? 'query' : 'tx'} ${spec.module} ${spec.command}${args ? ' ' + args : ''} [flags]`;
}

/** An enum's value names without their common prefix, lower case (`yes`, `no-with-veto`). */
function enumShortNames(f: FieldSpec): string[] {
  const names = Object.keys((f.field.resolvedType as protobuf.Enum).values);
  let prefix = names[0] ?? '';
  for (const n of names) while (!n.startsWith(prefix)) prefix = prefix.slice(0, -1);
  prefix = prefix.slice(0, prefix.lastIndexOf('_') + 1);
  return names.map((n) => n.slice(prefix.length).toLowerCase().replace(/_/g, '-'));
}

/** A sample value of a field for the example line. */
function sample(f: FieldSpec, prefix: string): string {
  const n = f.name.toLowerCase();
  switch (f.kind) {
    case 'coin': return '1000achain';
    case 'coins': return '1000achain';
    case 'bool': return 'true';
    case 'int': case 'int32': case 'float': return n.includes('height') ? '100' : '1';
    case 'enum': {
      const names = Object.keys((f.field.resolvedType as protobuf.Enum).values);
      const pick = names[1] ?? names[0]!;
      return pick.split('_').pop()!.toLowerCase();
    }
    case 'bytes': return '0x00';
    default:
      if (n.includes('validator') || n.includes('valoper')) return `${prefix}valoper1...`;
      if (n.includes('cons')) return `${prefix}valcons1...`;
      if (n.includes('address') || ['owner', 'to', 'voter', 'depositor', 'delegator', 'sender', 'recipient', 'proposer', 'granter', 'grantee', 'authority'].includes(n)) return `${prefix}1...`;
      if (n.includes('denom')) return 'achain';
      if (n === 'symbol') return 'kitty';
      if (n.endsWith('id') || n.endsWith('_index')) return '1';
      return `<${f.name}>`;
  }
}

export function methodHelp(spec: MethodSpec, prefix: string, bin = 'chaind'): string {
  const kindWord = spec.kind === 'query' ? 'query' : 'tx';
  const lines: string[] = [];
  lines.push(spec.comment?.trim() ? spec.comment.trim() : `${spec.method}: ${spec.kind === 'query' ? 'the query' : 'the message'} ${spec.requestType}${spec.kind === 'query' ? ` → ${spec.responseType}` : ''}`);
  lines.push('', 'Usage:', `  ${usageLine(spec, bin)}`, '');
  lines.push(spec.kind === 'query'
    ? `Calls ${spec.path}${spec.http ? ` (REST GET ${spec.http})` : ''} through the node's abci_query.`
    : `Signs and broadcasts a tx with one ${spec.requestType}${spec.signer ? ` (${spec.signer} is the --from key's address)` : ''}.`);
  lines.push('', 'Fields (positional in the order of the usage line, or as flags):');
  const w = Math.max(...spec.fields.map((f) => f.flag.length), 8) + 4;
  for (const f of spec.fields) {
    const note = f.name === spec.signer ? ' (default: the --from address)' : f.kind === 'coins' ? ' (e.g. 10achain,5ukitty)' : f.kind === 'coin' ? ' (e.g. 10achain)'
      : f.kind === 'json' ? ' (JSON or @FILE)' : f.kind === 'enum' ? ` (${enumShortNames(f).join(', ')})` : '';
    lines.push(`  --${f.flag.padEnd(w)}${f.typeName}${note}`);
  }
  if (spec.fields.length === 0) lines.push('  (none)');
  if (spec.fields.some((f) => f.name === 'pagination')) lines.push(`  --limit --offset --page-key --count-total --reverse   pagination`);
  const shown = spec.kind === 'msg' || spec.positional.length <= 2 ? spec.positional.length : spec.required;
  const example = spec.positional.slice(0, shown).map((f) => sample(f, prefix));
  const exFlags = spec.kind === 'msg' ? ' --from mykey --fees 200000000000000achain --chain-id chain_1337-1' : '';
  const jsonFields = spec.kind === 'msg' ? spec.fields.filter((f) => f.kind === 'json' && f.name !== spec.signer).map((f) => ` --${f.flag} '{...}'`).join('') : '';
  lines.push('', 'Example:', `  ${bin} ${kindWord} ${spec.module} ${spec.command}${example.length ? ' ' + example.join(' ') : ''}${jsonFields}${exFlags}`);
  return lines.join('\n') + '\n';
}

export function moduleHelp(table: CommandTable, module: string, bin = 'chaind'): string {
  const kindWord = table.kind === 'query' ? 'query' : 'tx';
  const specs = table.methods(module);
  const w = Math.max(...specs.map((s) => s.command.length), 8) + 2;
  return [
    `Usage: ${bin} ${kindWord} ${module} <${table.kind === 'query' ? 'method' : 'message'}> [args] [flags]`, '',
    ...specs.map((s) => {
      const args = s.positional.map((f, i) => (i < s.required ? `<${f.name}>` : `[${f.name}]`)).join(' ');
      return `  ${s.command.padEnd(w)}${s.kind === 'query' ? s.path : s.requestType}${args ? '  ' + args : ''}`;
    }), '',
    `Example: ${bin} ${kindWord} ${module} ${specs[0]?.command ?? ''} --help`,
  ].join('\n') + '\n';
}
