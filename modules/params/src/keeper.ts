/**
 * ParamsKeeper: the registry of the app's parameter subspaces (one per module with params), reading and
 * changing one parameter at a time in amino JSON, as x/params of SDK v0.45. It stores nothing itself: each
 * subspace reads and writes the live params of its module through that module's keeper.
 */
import type { Context } from '@chain/app';
import { Errors } from '@chain/errors';
import { branch } from '@chain/store';
import { ParamsErrors } from './errors.js';
import type { ParamSubspace } from './expected-keepers.js';
import type { ParamChange } from './gen/chain/params/v1beta1.js';

export interface ParamsLogger {
  info(msg: string, ctx?: Record<string, unknown>): void;
}

export interface ParamsKeeperOptions {
  /** the subspaces of the app's modules (`addSubspace` adds one later, e.g. gov's, built after this keeper) */
  readonly subspaces?: readonly ParamSubspace[];
  /** where applied changes are logged (`attempt to set new parameter value; key: <k>, value: <v>`); default: none */
  readonly logger?: ParamsLogger;
}

export class ParamsKeeper {
  private readonly spaces = new Map<string, ParamSubspace>();
  private readonly log: ParamsLogger | undefined;

  constructor(opts: ParamsKeeperOptions = {}) {
    for (const s of opts.subspaces ?? []) this.addSubspace(s);
    this.log = opts.logger;
  }

  /** Registers a module's subspace; a name can be registered once (the SDK's `Keeper.Subspace` panics too). */
  addSubspace(s: ParamSubspace): void {
    if (!s.name) throw new Error('params keeper: a subspace needs a name');
    if (this.spaces.has(s.name)) throw new Error(`params keeper: subspace ${s.name} is already registered`);
    this.spaces.set(s.name, s);
  }

  getSubspace(name: string): ParamSubspace | undefined {
    return this.spaces.get(name);
  }

  /** The registered subspace names, sorted. */
  subspaceNames(): string[] {
    return [...this.spaces.keys()].sort();
  }

  /** The subspace `name`, else `params` 2 `<name>: unknown subspace`. */
  subspace(name: string): ParamSubspace {
    const s = this.spaces.get(name);
    if (!s) throw ParamsErrors.UnknownSubspace.wrap(name);
    return s;
  }

  /**
   * The live value of `subspace`/`key` in amino JSON. An unknown subspace is `params` 2; an unknown key is
   * `sdk` 22 (key not found), where SDK v0.45 answers an empty value.
   */
  getParam(ctx: Context, subspace: string, key: string): string {
    const s = this.subspace(subspace);
    const keys = s.keys();
    if (!keys.includes(key)) throw Errors.KeyNotFound.wrap(`parameter ${key} not registered in subspace ${subspace} (keys: ${keys.join(', ')})`);
    return s.getAmino(ctx, key);
  }

  /**
   * Applies one change (the SDK's `Subspace.Update`): the value is decoded on top of the current one and
   * validated by the owning module, then stored. An unknown subspace is `params` 2; an unregistered key, a
   * value that does not decode or does not validate is `params` 3 `key: <k>, value: <v>, err: <reason>`.
   */
  setParam(ctx: Context, change: ParamChange): void {
    const s = this.subspace(change.subspace);
    this.log?.info(`attempt to set new parameter value; key: ${change.key}, value: ${change.value}`, { subspace: change.subspace });
    try {
      s.setAmino(ctx, change.key, change.value);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      throw ParamsErrors.SettingParameter.wrap(`key: ${change.key}, value: ${change.value}, err: ${reason}`);
    }
  }

  /** Applies `changes` in order, all or nothing: the first failure throws and nothing is written. */
  applyChanges(ctx: Context, changes: readonly ParamChange[]): void {
    const b = branch(ctx.ms);
    const bctx = ctx.withStore(b);
    for (const c of changes) this.setParam(bctx, c);
    b.write();
  }

  /**
   * Checks that `changes` would apply at this state (the SDK runs the proposal handler on a cache context at
   * submission): every subspace and key exists and every value decodes and validates, each change seeing the
   * ones before it. Nothing is written.
   */
  checkChanges(ctx: Context, changes: readonly ParamChange[]): void {
    const bctx = ctx.withStore(branch(ctx.ms));
    for (const c of changes) this.setParam(bctx, c);
  }
}
