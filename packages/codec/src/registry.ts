/**
 * One protobuf registry for the whole node: every package contributes a `proto/` folder, the registry
 * loads them into a single protobufjs Root (keepCase: proto field names), resolves `Any` type URLs
 * (canonical `/chain.*` names plus the Cosmos/Ethermint spellings and whole alias packages, e.g. the original
 * chain's `/plugchain.prc10.*`) and encodes/decodes.
 *
 * Plain-object model: decoded messages are plain objects with snake_case keys, 64-bit integers as
 * `bigint`, bytes as `Uint8Array`, enums as numbers.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import type { AnyResolver } from './json.js';
import { toGatewayJSON, fromGatewayJSON } from './json.js';

export interface AnyMsg {
  type_url: string;
  value: Uint8Array;
}

/** A package declared as an alias of another (`ProtoRegistry.registerPackageAlias`). */
export interface PackageAlias {
  /** e.g. `plugchain.prc10` */
  readonly alias: string;
  /** e.g. `chain.prc10` */
  readonly canonical: string;
  /** the alias is the spelling of Cosmos-dialect answers */
  readonly cosmos: boolean;
}

/** The biggest buffer the registry's shared writer keeps between messages. */
const MAX_KEPT_WRITER_BYTES = 64 * 1024;

const PACKAGE_RE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** Objects as protobufjs `toObject` produces them with our conversion options. */
export type ProtoObject = Record<string, unknown>;

const TO_OBJECT: protobuf.IConversionOptions = { longs: BigInt as unknown as typeof String, enums: Number, arrays: true, defaults: true, oneofs: true };

// `toObject` with `defaults` starts every bytes field of every message it converts with a new empty Buffer
// (`util.newBuffer([])`, i.e. `Buffer.from([])`: ~1.3% of a loaded node's main thread), which the message's own
// value then replaces when it has one. An empty Buffer has no bytes to change: one shared instance serves them all.
const pbUtil = protobuf.util as unknown as { newBuffer(sizeOrArray: number | number[]): Uint8Array };
const newBuffer = pbUtil.newBuffer;
const EMPTY_BYTES = newBuffer(0);
pbUtil.newBuffer = (sizeOrArray) => ((typeof sizeOrArray === 'number' ? sizeOrArray : sizeOrArray.length) === 0 ? EMPTY_BYTES : newBuffer(sizeOrArray));

const ANY_TYPE = 'google.protobuf.Any';

/** Whether `s` is ASCII only (its UTF-8 bytes are its char codes). */
function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

function varintSize(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

function putVarint(buf: Uint8Array, pos: number, n: number): number {
  while (n > 0x7f) {
    buf[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[pos++] = n;
  return pos;
}

/**
 * `google.protobuf.Any` `{ type_url, value }` as protobufjs encodes it (`fromObject` then `encode`: fields in
 * number order, an empty `type_url` or `value` left out), without building a message and a writer; undefined
 * for anything else (an `@type` object, non-ASCII type URL, value not bytes), which takes the general path.
 */
function encodeAnyFast(obj: ProtoObject): Uint8Array | undefined {
  if (obj === null || typeof obj !== 'object' || obj['@type']) return undefined;
  // a plain object (a protobufjs message would be encoded as it is, unknown fields included)
  const proto = Object.getPrototypeOf(obj);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const url = obj['type_url'];
  const value = obj['value'];
  if (typeof url !== 'string' || !(value instanceof Uint8Array) || !isAscii(url)) return undefined;
  const ul = url.length;
  const vl = value.length;
  const size = (ul > 0 ? 1 + varintSize(ul) + ul : 0) + (vl > 0 ? 1 + varintSize(vl) + vl : 0);
  // a Buffer, as protobufjs' writer gives one in Node
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  if (ul > 0) {
    out[pos++] = 0x0a;
    pos = putVarint(out, pos, ul);
    for (let i = 0; i < ul; i++) out[pos++] = url.charCodeAt(i);
  }
  if (vl > 0) {
    out[pos++] = 0x12;
    pos = putVarint(out, pos, vl);
    out.set(value, pos);
  }
  return out;
}

/** Lists the .proto files below a folder. */
export function protoFilesIn(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.proto')) out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** The codec package's own protos (base types, pagination, abci results, crypto keys, sign modes). */
export const CODEC_PROTO_DIR = new URL('../proto', import.meta.url).pathname;

export class ProtoRegistry implements AnyResolver {
  readonly root = new protobuf.Root();
  private readonly includeDirs: string[] = [];
  private readonly loaded = new Set<string>();
  /** type URL (alias or canonical) → canonical full type name */
  private readonly urlToName = new Map<string, string>();
  /** canonical type URL → Cosmos-dialect type URL */
  private readonly cosmosUrl = new Map<string, string>();
  /** alias packages (`registerPackageAlias`), in registration order */
  private readonly pkgAliases: PackageAlias[] = [];
  private readonly typeCache = new Map<string, protobuf.Type>();
  /**
   * The writer every `encode` fills, then copies out with `finish()`: a fresh protobufjs writer per message takes a
   * 128-byte start buffer from Node's Buffer pool besides the result (and more as it grows), so a loaded node made a
   * new 8 KiB pool every ~30 messages. This one keeps the biggest buffer it needed. Encoding never re-enters (no
   * user code runs inside `Type.encode`); a throw mid-message leaves fork states behind, so it is replaced then.
   */
  private writer: protobuf.Writer = protobuf.Writer.create();

  constructor() {
    this.root.resolvePath = (origin: string, target: string): string => {
      if (target.startsWith('google/protobuf/')) return target;
      for (const dir of this.includeDirs) {
        const p = join(dir, target);
        if (existsSync(p)) return p;
      }
      return protobuf.util.path.resolve(origin, target);
    };
    this.addProtoDir(CODEC_PROTO_DIR);
  }

  /** Loads every .proto below `dir` (idempotent) and makes the folder an import root. */
  addProtoDir(dir: string): void {
    if (this.includeDirs.includes(dir)) return;
    this.includeDirs.push(dir);
    for (const f of protoFilesIn(dir)) {
      if (this.loaded.has(f)) continue;
      this.loaded.add(f);
      this.root.loadSync(f, { keepCase: true });
    }
    this.root.resolveAll();
    this.typeCache.clear();
  }

  /** A message type by full name (`chain.bank.v1beta1.MsgSend`; a leading dot is accepted). */
  type(name: string): protobuf.Type {
    const n = name.startsWith('.') ? name.slice(1) : name;
    let t = this.typeCache.get(n);
    if (!t) {
      t = this.root.lookupType(n);
      this.typeCache.set(n, t);
    }
    return t;
  }

  hasType(name: string): boolean {
    try {
      this.type(name);
      return true;
    } catch {
      return false;
    }
  }

  service(name: string): protobuf.Service {
    return this.root.lookupService(name);
  }

  /** Every service in the registry (for the transports: REST, gRPC, abci_query, Swagger). */
  services(): protobuf.Service[] {
    const out: protobuf.Service[] = [];
    const walk = (ns: protobuf.NamespaceBase): void => {
      for (const o of ns.nestedArray) {
        if (o instanceof protobuf.Service) out.push(o);
        else if (o instanceof protobuf.Namespace || o instanceof protobuf.Type) walk(o as protobuf.NamespaceBase);
      }
    };
    walk(this.root);
    return out;
  }

  /**
   * Declares an alias type URL (e.g. `/ethermint.crypto.v1.ethsecp256k1.PubKey`) for a canonical type
   * name; `cosmos` marks it as the spelling served to Cosmos-dialect requests.
   */
  registerAlias(aliasUrl: string, canonicalName: string, opts: { cosmos?: boolean } = {}): void {
    this.type(canonicalName);
    this.urlToName.set(aliasUrl, canonicalName);
    if (opts.cosmos) this.cosmosUrl.set('/' + canonicalName, aliasUrl);
  }

  /**
   * Declares a whole package as an alias of a canonical one (e.g. the original chain's `plugchain.prc10` for
   * `chain.prc10`): the type URL `/<alias>.X` resolves to `<canonical>.X` (subpackages included), the query
   * paths `/<alias>.Query/M` reach the routes of `/<canonical>.Query/M` (the app router) and the gRPC server
   * serves `<alias>.Query`. With `cosmos`, `/<alias>.X` is also the spelling served to Cosmos-dialect requests
   * (the original chain's clients), in place of `/cosmos.…`. Refuses a second, different alias target.
   */
  registerPackageAlias(aliasPackage: string, canonicalPackage: string, opts: { cosmos?: boolean } = {}): void {
    for (const p of [aliasPackage, canonicalPackage]) {
      if (!PACKAGE_RE.test(p)) throw new Error(`invalid proto package name ${JSON.stringify(p)}`);
    }
    if (aliasPackage === canonicalPackage) throw new Error(`package ${aliasPackage} cannot alias itself`);
    const prior = this.pkgAliases.find((a) => a.alias === aliasPackage);
    if (prior) {
      if (prior.canonical === canonicalPackage && prior.cosmos === (opts.cosmos ?? false)) return;
      throw new Error(`package alias ${aliasPackage} is already declared for ${prior.canonical}`);
    }
    this.pkgAliases.push({ alias: aliasPackage, canonical: canonicalPackage, cosmos: opts.cosmos ?? false });
  }

  /** The alias packages declared with `registerPackageAlias`. */
  packageAliases(): readonly PackageAlias[] {
    return this.pkgAliases;
  }

  /** Canonical full type name of a type URL; `/cosmos.x.y.Z` maps to `chain.x.y.Z` when that exists. */
  nameOfTypeUrl(typeUrl: string): string | undefined {
    const known = this.urlToName.get(typeUrl);
    if (known) return known;
    if (!typeUrl.startsWith('/')) return undefined;
    let name = typeUrl.slice(1);
    const pkg = this.pkgAliases.find((a) => name.startsWith(a.alias + '.'));
    if (pkg) name = pkg.canonical + name.slice(pkg.alias.length);
    else if (name.startsWith('cosmos.')) name = 'chain.' + name.slice('cosmos.'.length);
    if (!(pkg || name.startsWith('chain.')) || !this.hasType(name)) return undefined;
    this.urlToName.set(typeUrl, name);
    return name;
  }

  canonicalTypeUrl(typeUrl: string): string | undefined {
    const n = this.nameOfTypeUrl(typeUrl);
    return n === undefined ? undefined : '/' + n;
  }

  /** The Cosmos spelling of a canonical type URL (`/chain.bank...` → `/cosmos.bank...`). */
  cosmosTypeUrl(canonicalUrl: string): string {
    const explicit = this.cosmosUrl.get(canonicalUrl);
    if (explicit) return explicit;
    const pkg = this.pkgAliases.find((a) => a.cosmos && canonicalUrl.startsWith('/' + a.canonical + '.'));
    if (pkg) return '/' + pkg.alias + canonicalUrl.slice(1 + pkg.canonical.length);
    return canonicalUrl.startsWith('/chain.') ? '/cosmos.' + canonicalUrl.slice('/chain.'.length) : canonicalUrl;
  }

  resolveAny(typeUrl: string): protobuf.Type | undefined {
    const n = this.nameOfTypeUrl(typeUrl);
    return n === undefined ? undefined : this.type(n);
  }

  encode(typeName: string, obj: ProtoObject): Uint8Array {
    if (typeName === ANY_TYPE) {
      const fast = encodeAnyFast(obj);
      if (fast !== undefined) return fast;
    }
    const t = this.type(typeName);
    return this.encodeMessage(t, t.fromObject(obj));
  }

  /** A protobufjs message's bytes, encoded through the registry's one writer. */
  private encodeMessage(t: protobuf.Type, message: protobuf.Message): Uint8Array {
    const w = this.writer;
    w.reset();
    try {
      t.encode(message, w);
    } catch (e) {
      this.writer = protobuf.Writer.create();
      throw e;
    }
    const out = w.finish();
    // a rare big message (a genesis, contract code) does not keep its buffer
    if ((w as unknown as { buf: Uint8Array }).buf.length > MAX_KEPT_WRITER_BYTES) this.writer = protobuf.Writer.create();
    return out;
  }

  /** Decodes bytes into a plain object; throws on malformed input. */
  decode<T = ProtoObject>(typeName: string, bytes: Uint8Array): T {
    const t = this.type(typeName);
    return t.toObject(t.decode(bytes), TO_OBJECT) as T;
  }

  /** Gateway JSON (Cosmos REST conventions) of a plain object, in a type-URL dialect. */
  toJSON(typeName: string, obj: ProtoObject, dialect: 'chain' | 'cosmos' = 'chain'): unknown {
    const t = this.type(typeName);
    return toGatewayJSON(t, this.toDialect(t, obj, dialect), this);
  }

  /** Parses gateway JSON into a plain object; throws CodecError on bad input. */
  fromJSON(typeName: string, json: unknown): ProtoObject {
    const t = this.type(typeName);
    return t.toObject(fromGatewayJSON(t, json, this), TO_OBJECT);
  }

  /** Converts a protobufjs message instance to the plain-object model. */
  toPlain(typeName: string, message: protobuf.Message): ProtoObject {
    return this.type(typeName).toObject(message, TO_OBJECT);
  }

  packAny(typeName: string, obj: ProtoObject, typeUrl = '/' + typeName): AnyMsg {
    return { type_url: typeUrl, value: this.encode(typeName, obj) };
  }

  /** Decodes an Any through its (possibly alias) type URL. */
  unpackAny<T = ProtoObject>(any: AnyMsg): { name: string; message: T } {
    const name = this.nameOfTypeUrl(any.type_url);
    if (name === undefined) throw new Error(`unable to resolve type URL ${any.type_url}`);
    return { name, message: this.decode<T>(name, any.value) };
  }

  /**
   * Rewrites every Any inside `obj` (recursively, also inside Any values) to the type URLs of a dialect:
   * `chain` uses canonical URLs, `cosmos` the Cosmos/Ethermint spellings. Returns a new object.
   */
  toDialect(type: protobuf.Type, obj: ProtoObject, dialect: 'chain' | 'cosmos'): ProtoObject {
    const out: ProtoObject = {};
    for (const [k, v] of Object.entries(obj)) {
      const field = type.fields[k];
      if (!field || !field.resolvedType || !(field.resolvedType instanceof protobuf.Type) || v === null || v === undefined) {
        out[k] = v;
        continue;
      }
      const ft = field.resolvedType;
      const conv = (x: unknown): unknown => (ft.fullName === '.google.protobuf.Any' ? this.anyToDialect(x as AnyMsg, dialect) : this.toDialect(ft, x as ProtoObject, dialect));
      out[k] = field.repeated && Array.isArray(v) ? v.map(conv) : field.map ? v : conv(v);
    }
    return out;
  }

  private anyToDialect(any: AnyMsg, dialect: 'chain' | 'cosmos'): AnyMsg {
    const name = this.nameOfTypeUrl(any.type_url);
    if (name === undefined) return any;
    const t = this.type(name);
    const inner = this.toDialect(t, t.toObject(t.decode(any.value), TO_OBJECT), dialect);
    const canonical = '/' + name;
    return { type_url: dialect === 'chain' ? canonical : this.cosmosTypeUrl(canonical), value: this.encodeMessage(t, t.fromObject(inner)) };
  }
}
