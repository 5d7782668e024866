/**
 * The module manager (the SDK's `module.Manager`): runs the modules' genesis, block hooks and migrations in
 * the orders of an `AppConfig`, and refuses at construction an app that could misbehave silently:
 * - a module in the config but not given (or given but not in the config), two modules of one name;
 * - an order that names an unknown module or one module twice, or that forgets a module having that hook
 *   (the SDK's `assertNoForgottenModules`): ordering across mint → distribution → slashing → evidence →
 *   staking is consensus, so it is never left to list order;
 * - two modules that return validator updates (the SDK panics at EndBlock; here it is known up front);
 * - a hook slot of a module that the composition never wired.
 * At run time, validator updates from a module not declared to return them fail the block.
 */
import type { ProtoObject, ProtoRegistry } from '@chain/codec';
import type { AppConfig } from './app-config.js';
import type { Context } from './context.js';
import type { AppModule, MigrationHandler, MigrationRegistrar, ValidatorUpdate } from './module.js';
import { LazyArray, LazyObject } from './json-writer.js';
import { objectAppState } from './genesis-reader.js';
import type { AppStateSource } from './genesis-reader.js';
import { SILENT_PROGRESS } from './progress.js';
import type { ProgressFactory } from './progress.js';
import type { Router } from './router.js';

/** Consensus version of every module by name (the SDK's `VersionMap`, kept by the upgrade module). */
export type VersionMap = Record<string, number>;

type HookName = 'preBlock' | 'beginBlock' | 'endBlock' | 'initGenesis' | 'exportGenesis';

export class ModuleManager {
  readonly modules: readonly AppModule[];
  private readonly byName = new Map<string, AppModule>();
  private readonly orders: Record<HookName | 'migrations', readonly AppModule[]>;
  private readonly migrations = new Map<string, Map<number, MigrationHandler>>();
  /** the module that returns validator updates, if any */
  readonly validatorUpdatesModule: string | undefined;

  constructor(readonly config: AppConfig, modules: readonly AppModule[]) {
    for (const m of modules) {
      if (this.byName.has(m.name)) throw new Error(`app config: two modules named ${m.name}`);
      if (!Number.isSafeInteger(m.consensusVersion) || m.consensusVersion < 1) throw new Error(`app config: module ${m.name} has no valid consensus version`);
      this.byName.set(m.name, m);
    }
    const seen = new Set<string>();
    for (const n of config.modules) {
      if (seen.has(n)) throw new Error(`app config: module ${n} listed twice`);
      seen.add(n);
      if (!this.byName.has(n)) throw new Error(`app config: module ${n} is in the config but was not given`);
    }
    for (const m of modules) if (!seen.has(m.name)) throw new Error(`app config: module ${m.name} was given but is not in the config`);
    this.modules = config.modules.map((n) => this.byName.get(n)!);

    const o = config.order;
    const has = {
      preBlock: (m: AppModule) => !!m.preBlock,
      beginBlock: (m: AppModule) => !!m.beginBlock,
      endBlock: (m: AppModule) => !!m.endBlock,
      initGenesis: (m: AppModule) => !!(m.genesisType && m.initGenesis),
      exportGenesis: (m: AppModule) => !!(m.genesisType && m.exportGenesis),
    } satisfies Record<HookName, (m: AppModule) => boolean>;
    const order = (hook: HookName | 'migrations', names: readonly string[], needs?: (m: AppModule) => boolean): AppModule[] => {
      const listed = new Set<string>();
      const out: AppModule[] = [];
      for (const n of names) {
        const m = this.byName.get(n);
        if (!m) throw new Error(`app config: order ${hook} names unknown module ${n}`);
        if (listed.has(n)) throw new Error(`app config: order ${hook} names module ${n} twice`);
        listed.add(n);
        out.push(m);
      }
      if (needs) {
        const forgotten = this.modules.filter((m) => needs(m) && !listed.has(m.name)).map((m) => m.name);
        if (forgotten.length > 0) throw new Error(`app config: order ${hook} forgets module(s) ${forgotten.join(', ')}`);
      }
      return out;
    };
    this.orders = {
      preBlock: order('preBlock', o.preBlock, has.preBlock),
      beginBlock: order('beginBlock', o.beginBlock, has.beginBlock),
      endBlock: order('endBlock', o.endBlock, has.endBlock),
      // listing a module without genesis is allowed (as in the SDK); it is skipped
      initGenesis: order('initGenesis', o.initGenesis, has.initGenesis).filter(has.initGenesis),
      exportGenesis: order('exportGenesis', o.exportGenesis ?? o.initGenesis, has.exportGenesis).filter(has.exportGenesis),
      migrations: order('migrations', o.migrations ?? defaultMigrationsOrder(config.modules), () => true),
    };

    const vu = this.modules.filter((m) => m.returnsValidatorUpdates).map((m) => m.name);
    if (vu.length > 1) throw new Error(`app config: validator updates can come from one module only, not ${vu.join(' and ')}`);
    this.validatorUpdatesModule = vu[0];

    for (const m of this.modules) {
      for (const slot of m.hookSlots ?? []) {
        if (!slot.isSet) throw new Error(`app config: hooks ${slot.name} of module ${m.name} are not wired (set them, or set() them empty)`);
      }
    }
    const registrar: MigrationRegistrar = {
      register: (module, fromVersion, handler) => {
        if (!this.byName.has(module)) throw new Error(`migration for unknown module ${module}`);
        const map = this.migrations.get(module) ?? new Map<number, MigrationHandler>();
        if (map.has(fromVersion)) throw new Error(`migration of module ${module} from version ${fromVersion} registered twice`);
        map.set(fromVersion, handler);
        this.migrations.set(module, map);
      },
    };
    for (const m of this.modules) m.registerMigrations?.(registrar);
  }

  module(name: string): AppModule | undefined {
    return this.byName.get(name);
  }

  /** Loads the modules' protos and registers their types and services (a duplicate path is refused). */
  registerServices(registry: ProtoRegistry, router: Router): void {
    for (const m of this.modules) for (const d of m.protoDirs ?? []) registry.addProtoDir(d);
    for (const m of this.modules) m.registerTypes?.(registry);
    for (const m of this.modules) m.registerServices?.(router.forModule(m.name, m.eventModuleName ?? m.name));
  }

  // ---- genesis ----

  /** Default genesis app_state: module name → gateway JSON of its GenesisState. */
  defaultGenesis(registry: ProtoRegistry): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const m of this.modules) {
      if (m.genesisType && m.defaultGenesis) out[m.name] = registry.toJSON(m.genesisType, m.defaultGenesis());
    }
    return out;
  }

  /** Decodes and validates each module's part of `appState` (a missing part is the module's default). */
  decodeGenesis(registry: ProtoRegistry, appState: Record<string, unknown>): Map<string, ProtoObject> {
    const known = new Set(this.modules.map((m) => m.name));
    for (const k of Object.keys(appState)) if (!known.has(k)) throw new Error(`genesis app_state has a section for unknown module ${k}`);
    const out = new Map<string, ProtoObject>();
    for (const m of this.orders.initGenesis) {
      const json = appState[m.name];
      const gen = json === undefined ? (m.defaultGenesis?.() ?? {}) : registry.fromJSON(m.genesisType!, json);
      m.validateGenesis?.(gen);
      out.set(m.name, gen);
    }
    return out;
  }

  /** InitGenesis of every module in order; returns the initial validator updates (one module at most). */
  initGenesis(ctx: Context, registry: ProtoRegistry, appState: Record<string, unknown>): ValidatorUpdate[] {
    return this.initGenesisFrom(ctx, registry, objectAppState(appState));
  }

  /**
   * InitGenesis of every module in order from an app_state read section by section (e.g. a genesis file,
   * `openGenesisFile`); returns the initial validator updates (one module at most). Every module's genesis is
   * decoded and validated first, as `decodeGenesis` does, but the large fields of modules with
   * `initGenesisStream`: those are decoded chunk by chunk while that module's InitGenesis runs (each entry is
   * checked there, with the same errors), with a progress display per field from `progress`.
   */
  initGenesisFrom(ctx: Context, registry: ProtoRegistry, source: AppStateSource, progress: ProgressFactory = SILENT_PROGRESS): ValidatorUpdate[] {
    const steps = this.initGenesisSteps(ctx, registry, source, progress);
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
    }
  }

  /**
   * `initGenesisFrom` in steps: the generator pauses after each chunk of a streamed field (where the caller may
   * move the state written so far out of memory, see `App.initChain`) and returns the validator updates.
   */
  *initGenesisSteps(ctx: Context, registry: ProtoRegistry, source: AppStateSource, progress: ProgressFactory = SILENT_PROGRESS): Generator<void, ValidatorUpdate[]> {
    const known = new Set(this.modules.map((m) => m.name));
    for (const k of source.modules) if (!known.has(k)) throw new Error(`genesis app_state has a section for unknown module ${k}`);
    const decoded = new Map<string, ProtoObject>();
    for (const m of this.orders.initGenesis) {
      const streams = m.initGenesisStream && m.genesisStreamFields;
      const json = streams ? source.sectionParts(m.name, streams)?.head : source.section(m.name);
      const gen = json === undefined ? (m.defaultGenesis?.() ?? {}) : registry.fromJSON(m.genesisType!, json);
      m.validateGenesis?.(gen);
      decoded.set(m.name, gen);
    }
    let updates: ValidatorUpdate[] = [];
    for (const m of this.orders.initGenesis) {
      const gen = decoded.get(m.name)!;
      decoded.delete(m.name);
      let u: readonly ValidatorUpdate[] | void;
      if (m.initGenesisStream && m.genesisStreamFields) {
        const stream = m.initGenesisStream(ctx, gen);
        for (const field of m.genesisStreamFields) {
          for (const chunk of this.fieldChunks(m, field, gen, registry, source, progress)) {
            stream.add(field, chunk);
            yield;
          }
        }
        u = stream.end();
      } else {
        u = m.initGenesis!(ctx, gen);
      }
      if (u && u.length > 0) updates = this.takeUpdates(m, updates, u);
    }
    return updates;
  }

  /** The chunks of one of a module's large genesis fields: decoded entry by entry, counted on a progress display. */
  private *fieldChunks(m: AppModule, field: string, gen: ProtoObject, registry: ProtoRegistry, source: AppStateSource, progress: ProgressFactory): Generator<ProtoObject[]> {
    // a field the section did not give as an array was decoded with the rest (normally empty)
    const inline = (gen as Record<string, unknown>)[field];
    if (Array.isArray(inline) && inline.length > 0) yield inline as ProtoObject[];
    const elem = repeatedMessageType(registry, m.genesisType!, field);
    const p = progress(`genesis ${m.name}.${field}`, source.count(m.name, field));
    const fast = m.genesisEntryFromJSON?.bind(m);
    let shown = false;
    for (const chunk of source.chunks(m.name, field)) {
      shown = true;
      // (an entry written null decodes to the empty message, as in a whole GenesisState)
      yield fast ? chunk.map((x) => fast(field, x) ?? registry.fromJSON(elem, x)) : chunk.map((x) => registry.fromJSON(elem, x));
      p.tick(chunk.length);
    }
    if (shown) p.done();
  }

  exportGenesis(ctx: Context, registry: ProtoRegistry): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const m of this.orders.exportGenesis) out[m.name] = moduleGenesisJSON(m, ctx, registry);
    return out;
  }

  /** The genesis JSON of one module (its ExportGenesis, whole). */
  exportModuleGenesis(ctx: Context, registry: ProtoRegistry, name: string): unknown {
    const m = this.orders.exportGenesis.find((x) => x.name === name);
    if (!m) throw new Error(`module ${name} has no genesis export`);
    return moduleGenesisJSON(m, ctx, registry);
  }

  /**
   * The export's app_state as a lazy value for `JsonStreamWriter`: each module's section is produced when the
   * writer reaches it, and the large fields of a module with `exportGenesisParts` entry by entry, so neither
   * the whole state nor a whole large module is ever in memory. Its text equals that of `exportGenesis`.
   * `ready` gives sections the caller already has (e.g. staking's, read first for the document's validators).
   */
  exportGenesisLazy(ctx: Context, registry: ProtoRegistry, ready: ReadonlyMap<string, unknown> = new Map()): LazyObject {
    const modules = this.orders.exportGenesis;
    function* sections(): Generator<[string, unknown]> {
      for (const m of modules) {
        if (ready.has(m.name)) {
          yield [m.name, ready.get(m.name)];
          continue;
        }
        if (!m.exportGenesisParts) {
          yield [m.name, moduleGenesisJSON(m, ctx, registry)];
          continue;
        }
        const parts = m.exportGenesisParts(ctx);
        const head = registry.toJSON(m.genesisType!, parts.genesis) as Record<string, unknown>;
        const fields = Object.entries(head).map(([k, v]): [string, unknown] => {
          const s = parts.streamed[k];
          if (!s) return [k, v];
          const elem = repeatedMessageType(registry, m.genesisType!, k);
          return [k, new LazyArray(mapIterable(s.entries, (e) => registry.toJSON(elem, e)), s.count, `${m.name}.${k}`)];
        });
        for (const k of Object.keys(parts.streamed)) {
          if (!Object.hasOwn(head, k)) throw new Error(`module ${m.name}: streamed genesis field ${k} is not a field of ${m.genesisType}`);
        }
        yield [m.name, new LazyObject(fields)];
      }
    }
    return new LazyObject(sections());
  }

  // ---- blocks ----

  async preBlock(ctx: Context): Promise<void> {
    for (const m of this.orders.preBlock) await m.preBlock?.(ctx);
  }

  async beginBlock(ctx: Context): Promise<void> {
    for (const m of this.orders.beginBlock) await m.beginBlock?.(ctx);
  }

  async endBlock(ctx: Context): Promise<ValidatorUpdate[]> {
    let updates: ValidatorUpdate[] = [];
    for (const m of this.orders.endBlock) {
      const u = await m.endBlock?.(ctx);
      if (u && u.length > 0) updates = this.takeUpdates(m, updates, u);
    }
    return updates;
  }

  private takeUpdates(m: AppModule, prior: ValidatorUpdate[], u: readonly ValidatorUpdate[]): ValidatorUpdate[] {
    if (!m.returnsValidatorUpdates) throw new Error(`module ${m.name} returned validator updates but is not declared to (returnsValidatorUpdates)`);
    if (prior.length > 0) throw new Error('validator updates already set by a previous module');
    return [...u];
  }

  // ---- versions and migrations ----

  /** The consensus version of every module. */
  versionMap(): VersionMap {
    const out: VersionMap = {};
    for (const m of this.modules) out[m.name] = m.consensusVersion;
    return out;
  }

  /**
   * Migrates every module from its version in `fromVM` to its current consensus version, one registered
   * migration per step; a module absent from `fromVM` is new and gets InitGenesis with its default
   * genesis (the SDK's `RunMigrations`). Returns the new version map.
   */
  async runMigrations(ctx: Context, fromVM: VersionMap): Promise<VersionMap> {
    for (const m of this.orders.migrations) {
      const from = fromVM[m.name];
      if (from === undefined) {
        if (m.genesisType && m.initGenesis) {
          const u = m.initGenesis(ctx, m.defaultGenesis?.() ?? {});
          if (u && u.length > 0) throw new Error(`module ${m.name}: validator updates from InitGenesis of a new module during migrations are not allowed`);
        }
        continue;
      }
      for (let v = from; v < m.consensusVersion; v++) {
        const handler = this.migrations.get(m.name)?.get(v);
        if (!handler) throw new Error(`no migration found for module ${m.name} from version ${v} to version ${v + 1}`);
        await handler(ctx);
      }
    }
    return this.versionMap();
  }
}

/** A module's ExportGenesis as genesis JSON. */
function moduleGenesisJSON(m: AppModule, ctx: Context, registry: ProtoRegistry): unknown {
  return registry.toJSON(m.genesisType!, m.exportGenesis!(ctx));
}

function* mapIterable<T, U>(it: Iterable<T>, f: (x: T) => U): Generator<U> {
  for (const x of it) yield f(x);
}

/** The full name of the message type of the repeated field `field` (proto name) of message `typeName`. */
export function repeatedMessageType(registry: ProtoRegistry, typeName: string, field: string): string {
  const t = registry.type(typeName);
  const f = t.fields[field] ?? Object.values(t.fields).find((x) => x.name === field);
  if (!f || !f.repeated || f.map) throw new Error(`${typeName}.${field} is not a repeated field`);
  const rt = f.resolve().resolvedType;
  if (!rt || !('fields' in rt)) throw new Error(`${typeName}.${field} is not a repeated message field`);
  return rt.fullName.replace(/^\./, '');
}

/** The SDK's default migration order: modules by name, auth last (other modules' migrations may need accounts). */
export function defaultMigrationsOrder(names: readonly string[]): string[] {
  const sorted = [...names].sort();
  const i = sorted.indexOf('auth');
  if (i >= 0) sorted.push(...sorted.splice(i, 1));
  return sorted;
}
