/**
 * File descriptors for gRPC server reflection, built from the registry's protobufjs root (the same
 * .proto files the registry loaded), plus a renamed copy of every `chain.*` file under its Cosmos
 * package (`cosmos.bank.v1beta1`, `cosmos.base.tendermint.v1beta1`, `ethermint.crypto.v1.ethsecp256k1`),
 * so `cosmos.*` services and the `/cosmos.*` type URLs of Cosmos-dialect responses resolve too.
 *
 * protobufjs' own `Root#toDescriptor` groups by namespace, leaves field type names relative and leaves
 * `dependency` empty, which strict clients (grpcurl, Go protodesc) reject. Here every file keeps its
 * source path (`chain/bank/v1beta1/query.proto`), every type reference is fully qualified
 * (`.chain.base.v1beta1.Coin`) and `dependency` lists the files that define the referenced types.
 */
import { createRequire } from 'node:module';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { existsSync } from 'node:fs';
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor.js';
import type { IDescriptorProto, IFieldDescriptorProto, IFileDescriptorProto } from 'protobufjs/ext/descriptor.js';
import type { PackageDefinition } from '@grpc/proto-loader';
import type { ProtoRegistry } from '@chain/codec';
import { cosmosPackage } from './names.js';

/** Files of the well-known types protobufjs bundles (they carry no file name of their own). */
const WELL_KNOWN_FILES: Record<string, string> = {
  Any: 'any', Timestamp: 'timestamp', Duration: 'duration', Empty: 'empty', FieldMask: 'field_mask',
  Struct: 'struct', Value: 'struct', ListValue: 'struct', NullValue: 'struct',
  DoubleValue: 'wrappers', FloatValue: 'wrappers', Int64Value: 'wrappers', UInt64Value: 'wrappers', Int32Value: 'wrappers',
  UInt32Value: 'wrappers', BoolValue: 'wrappers', StringValue: 'wrappers', BytesValue: 'wrappers',
};

type FileProto = Omit<IFileDescriptorProto, 'dependency'> & { name: string; package: string; dependency: string[] };

function fileNameOf(o: protobuf.ReflectionObject, pkg: string): string {
  const f = o.filename;
  if (f) {
    const norm = f.replace(/\\/g, '/');
    const i = norm.lastIndexOf('/proto/');
    if (i >= 0) return norm.slice(i + '/proto/'.length);
    if (!isAbsolute(norm)) return norm;
    return basename(norm);
  }
  if (pkg === 'google.protobuf' && WELL_KNOWN_FILES[o.name]) return `google/protobuf/${WELL_KNOWN_FILES[o.name]}.proto`;
  return (pkg ? pkg.replace(/\./g, '/') : 'root') + '.proto';
}

function editionOf(o: protobuf.ReflectionObject): 'proto2' | 'proto3' {
  return (o as unknown as { _edition?: string | null })._edition === 'proto2' ? 'proto2' : 'proto3';
}

/** protoc's map entry name: `foo_bar` → `FooBarEntry`. */
function mapEntryName(field: string): string {
  return field.split('_').filter((p) => p !== '').map((p) => p[0]!.toUpperCase() + p.slice(1)).join('') + 'Entry';
}

/** Groups the top-level types, enums, services and extensions of a root by source file. */
function collectFiles(root: protobuf.Root, into: Map<string, FileProto>): void {
  root.resolveAll();
  const walk = (ns: protobuf.NamespaceBase): void => {
    const pkg = ns === root ? '' : ns.fullName.slice(1);
    for (const o of ns.nestedArray) {
      const isDecl = o instanceof protobuf.Type || o instanceof protobuf.Enum || o instanceof protobuf.Service || o instanceof protobuf.Field;
      if (!isDecl) {
        if (o instanceof protobuf.Namespace) walk(o);
        continue;
      }
      const name = fileNameOf(o, pkg);
      let file = into.get(name);
      if (!file) {
        file = descriptor.FileDescriptorProto.create({ name, package: pkg, syntax: editionOf(o) }) as unknown as FileProto;
        file.dependency = [];
        into.set(name, file);
      }
      if (file.package !== pkg) throw new Error(`reflection: ${name} declares both ${file.package} and ${pkg}`);
      if (o instanceof protobuf.Type) file.messageType!.push(o.toDescriptor(editionOf(o)));
      else if (o instanceof protobuf.Enum) file.enumType!.push(o.toDescriptor());
      else if (o instanceof protobuf.Service) file.service!.push(o.toDescriptor());
      else file.extension!.push((o as protobuf.Field).toDescriptor(editionOf(o)));
    }
  };
  walk(root);
}

interface SymbolTable {
  /** full name (no leading dot) of every message and enum → its file */
  readonly fileOf: Map<string, string>;
}

function indexSymbols(files: Iterable<FileProto>): SymbolTable {
  const fileOf = new Map<string, string>();
  const addMsg = (m: IDescriptorProto, scope: string, file: string): void => {
    const full = scope ? `${scope}.${m.name}` : m.name!;
    fileOf.set(full, file);
    for (const n of m.nestedType ?? []) addMsg(n, full, file);
    for (const e of m.enumType ?? []) fileOf.set(`${full}.${e.name}`, file);
  };
  for (const f of files) {
    for (const m of f.messageType ?? []) addMsg(m, f.package, f.name);
    for (const e of f.enumType ?? []) fileOf.set(f.package ? `${f.package}.${e.name}` : e.name!, f.name);
  }
  return { fileOf };
}

/** Resolves a type reference the way protoc does: innermost scope outward. */
function resolveRef(syms: SymbolTable, scope: string, ref: string): string | undefined {
  if (ref.startsWith('.')) return syms.fileOf.has(ref.slice(1)) ? ref.slice(1) : undefined;
  let s = scope;
  for (;;) {
    const cand = s ? `${s}.${ref}` : ref;
    if (syms.fileOf.has(cand)) return cand;
    if (!s) return undefined;
    const i = s.lastIndexOf('.');
    s = i < 0 ? '' : s.slice(0, i);
  }
}

/** Names map entries like protoc, makes every reference fully qualified and fills `dependency`. */
function qualify(files: Map<string, FileProto>): void {
  for (const f of files.values()) {
    const fixEntries = (m: IDescriptorProto): void => {
      for (const n of m.nestedType ?? []) fixEntries(n);
      for (const entry of m.nestedType ?? []) {
        if (!entry.options?.mapEntry) continue;
        const field = (m.field ?? []).find((x) => x.typeName === entry.name && x.label === 3);
        if (!field) continue;
        entry.name = field.typeName = mapEntryName(field.name!);
      }
    };
    for (const m of f.messageType ?? []) fixEntries(m);
  }
  const syms = indexSymbols(files.values());
  for (const f of files.values()) {
    const deps = new Set<string>();
    const ref = (scope: string, r: string | undefined | null): string | undefined => {
      if (!r) return undefined;
      const full = resolveRef(syms, scope, r);
      if (full === undefined) throw new Error(`reflection: cannot resolve ${r} in ${scope || f.name}`);
      const file = syms.fileOf.get(full)!;
      if (file !== f.name) deps.add(file);
      return '.' + full;
    };
    const fixField = (x: IFieldDescriptorProto, scope: string): void => {
      if (x.typeName) x.typeName = ref(scope, x.typeName);
      if (x.extendee) x.extendee = ref(scope, x.extendee);
    };
    const fixMsg = (m: IDescriptorProto, scope: string): void => {
      const full = scope ? `${scope}.${m.name}` : m.name!;
      for (const x of m.field ?? []) fixField(x, full);
      for (const x of m.extension ?? []) fixField(x, full);
      for (const n of m.nestedType ?? []) fixMsg(n, full);
    };
    for (const m of f.messageType ?? []) fixMsg(m, f.package);
    for (const x of f.extension ?? []) fixField(x, f.package);
    for (const s of f.service ?? []) {
      for (const m of s.method ?? []) {
        m.inputType = ref(f.package, m.inputType);
        m.outputType = ref(f.package, m.outputType);
      }
    }
    f.dependency = [...deps].sort();
  }
}

/**
 * Copies of the files whose package has a Cosmos spelling, with packages, file names, type references
 * and dependencies renamed. Packages whose Cosmos spelling already exists are left alone.
 */
function cosmosCopies(registry: ProtoRegistry, files: Map<string, FileProto>): FileProto[] {
  const existing = new Set([...files.values()].map((f) => f.package));
  const byPkg = new Map<string, string[]>();
  for (const f of files.values()) byPkg.set(f.package, [...(byPkg.get(f.package) ?? []), ...(f.messageType ?? []).map((m) => m.name!), ...(f.enumType ?? []).map((e) => e.name!)]);
  const pkgRename = new Map<string, string>();
  for (const [pkg, names] of byPkg) {
    const to = cosmosPackage(registry, pkg, names);
    if (to !== undefined && to !== pkg && !existing.has(to)) pkgRename.set(pkg, to);
  }
  const fileRename = new Map<string, string>();
  const taken = new Set(files.keys());
  for (const f of files.values()) {
    const to = pkgRename.get(f.package);
    if (to === undefined) continue;
    const fromDir = f.package.replace(/\./g, '/') + '/';
    const toDir = to.replace(/\./g, '/') + '/';
    const name = f.name.startsWith(fromDir) ? toDir + f.name.slice(fromDir.length) : toDir + basename(f.name);
    if (taken.has(name)) continue;
    taken.add(name);
    fileRename.set(f.name, name);
  }
  const syms = indexSymbols(files.values());
  const pkgOfFile = new Map([...files.values()].map((f) => [f.name, f.package]));
  const renameRef = (r: string | undefined | null): string | undefined => {
    if (!r) return r ?? undefined;
    const full = r.slice(1);
    const pkg = pkgOfFile.get(syms.fileOf.get(full) ?? '');
    const to = pkg === undefined ? undefined : pkgRename.get(pkg);
    if (pkg === undefined || to === undefined || !fileRename.has(syms.fileOf.get(full)!)) return r;
    return '.' + to + full.slice(pkg.length);
  };
  const renameField = (x: IFieldDescriptorProto): void => {
    if (x.typeName) x.typeName = renameRef(x.typeName);
    if (x.extendee) x.extendee = renameRef(x.extendee);
  };
  const renameMsg = (m: IDescriptorProto): void => {
    for (const x of m.field ?? []) renameField(x);
    for (const x of m.extension ?? []) renameField(x);
    for (const n of m.nestedType ?? []) renameMsg(n);
  };
  const out: FileProto[] = [];
  for (const f of files.values()) {
    const name = fileRename.get(f.name);
    if (name === undefined) continue;
    const c = descriptor.FileDescriptorProto.decode(descriptor.FileDescriptorProto.encode(f).finish()) as unknown as FileProto;
    c.name = name;
    c.package = pkgRename.get(f.package)!;
    c.dependency = f.dependency.map((d) => fileRename.get(d) ?? d);
    for (const m of c.messageType ?? []) renameMsg(m);
    for (const x of c.extension ?? []) renameField(x);
    for (const s of c.service ?? []) {
      for (const m of s.method ?? []) {
        m.inputType = renameRef(m.inputType);
        m.outputType = renameRef(m.outputType);
      }
    }
    out.push(c);
  }
  return out;
}

/** The reflection protos shipped with @grpc/reflection (so the reflection services describe themselves). */
function reflectionProtoRoot(): protobuf.Root | undefined {
  try {
    const main = createRequire(import.meta.url).resolve('@grpc/reflection');
    const dir = join(dirname(main), '..', 'proto');
    const paths = ['grpc/reflection/v1/reflection.proto', 'grpc/reflection/v1alpha/reflection.proto'].map((p) => join(dir, p));
    if (!paths.every((p) => existsSync(p))) return undefined;
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => (isAbsolute(target) ? target : join(dir, target));
    root.loadSync(paths, { keepCase: true });
    return root;
  } catch {
    return undefined;
  }
}

export interface ReflectionFiles {
  /** every file: canonical, Cosmos copies, reflection protos */
  readonly files: readonly FileProto[];
  /** the package definition @grpc/reflection indexes (it reads only `fileDescriptorProtos`) */
  readonly packageDefinition: PackageDefinition;
}

/** Builds the descriptors of the registry's protos (both spellings) and of the reflection protos. */
export function buildReflectionFiles(registry: ProtoRegistry): ReflectionFiles {
  const files = new Map<string, FileProto>();
  collectFiles(registry.root, files);
  qualify(files);
  const all = [...files.values(), ...cosmosCopies(registry, files)];
  const refl = reflectionProtoRoot();
  if (refl) {
    const rf = new Map<string, FileProto>();
    collectFiles(refl, rf);
    qualify(rf);
    for (const f of rf.values()) if (!files.has(f.name)) all.push(f);
  }
  const fileDescriptorProtos = all.map((f) => Buffer.from(descriptor.FileDescriptorProto.encode(f).finish()));
  // @grpc/reflection only reads `fileDescriptorProtos` of each entry; one entry carries every file.
  const packageDefinition = {
    'chain.reflection.files': { format: 'Protocol Buffer 3 FileDescriptorProto', type: {}, fileDescriptorProtos },
  } as unknown as PackageDefinition;
  return { files: all, packageDefinition };
}
