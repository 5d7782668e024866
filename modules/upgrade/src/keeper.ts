/**
 * UpgradeKeeper (x/upgrade of SDK v0.45, keeper/keeper.go): the scheduled plan, the applied plans, the module
 * version map, the protocol version, the upgrade handlers of this binary and the node-local settings (home
 * directory for `upgrade-info.json`, heights to skip).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context, VersionMap } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { UpgradeErrors } from './errors.js';
import type { ModuleVersion, Plan } from './gen/chain/upgrade/v1beta1.js';
import { UPGRADE_INFO_FILE_NAME, upgradeSchema, upgradedClientKey, upgradedConsStateKey } from './keys.js';
import type { UpgradeState } from './keys.js';
import { normalizePlan, validatePlan } from './plan.js';

/**
 * What a binary runs at the height of a plan of its name (the SDK's `UpgradeHandler`): migrations of the store,
 * typically `(ctx, plan, fromVM) => app.manager.runMigrations(ctx, fromVM)`, returning the new version map
 * (which the keeper stores). Throwing halts the chain at that height, as the SDK panics.
 */
export type UpgradeHandler = (ctx: Context, plan: Plan, fromVM: VersionMap) => VersionMap | Promise<VersionMap>;

export interface UpgradeLogger {
  info(msg: string, ctx?: Record<string, unknown>): void;
  error(msg: string, ctx?: Record<string, unknown>): void;
}

/** `upgrade-info.json`: the plan a halted node needs (`{"name":…,"height":…,"info":…}`, empty fields omitted). */
export interface UpgradeInfo {
  name?: string;
  height?: number;
  info?: string;
}

export interface UpgradeKeeperOptions {
  readonly registry: ProtoRegistry;
  /** the app's consensus version of every module (`() => app.manager.versionMap()`), recorded by InitGenesis */
  readonly moduleVersions: () => VersionMap;
  /** the node's home directory: a halt writes `<homeDir>/data/upgrade-info.json` (none: the halt writes no file) */
  readonly homeDir?: string;
  /** heights whose plan this node skips (`--unsafe-skip-upgrades`) */
  readonly skipUpgradeHeights?: Iterable<number>;
  /** where the halt, skip and apply messages go (default: stderr) */
  readonly logger?: UpgradeLogger;
}

const stderrLogger: UpgradeLogger = {
  info: (m) => process.stderr.write(`INFO  [upgrade] ${m}\n`),
  error: (m) => process.stderr.write(`ERROR [upgrade] ${m}\n`),
};

export class UpgradeKeeper {
  readonly registry: ProtoRegistry;
  /** The module's state: the collections of `upgradeSchema` (src/keys.ts). */
  readonly state: UpgradeState;
  readonly homeDir: string | undefined;
  readonly logger: UpgradeLogger;
  private readonly moduleVersions: () => VersionMap;
  private readonly skipHeights: ReadonlySet<number>;
  private readonly handlers = new Map<string, UpgradeHandler>();
  private downgradeVerifiedFlag = false;

  constructor(opts: UpgradeKeeperOptions) {
    if (typeof opts.moduleVersions !== 'function') throw new Error('upgrade keeper: moduleVersions is required');
    this.registry = opts.registry;
    this.state = upgradeSchema(opts.registry);
    this.moduleVersions = opts.moduleVersions;
    this.homeDir = opts.homeDir;
    this.logger = opts.logger ?? stderrLogger;
    const skip = new Set<number>();
    for (const h of opts.skipUpgradeHeights ?? []) {
      if (!Number.isSafeInteger(h) || h <= 0) throw new Error(`upgrade keeper: invalid skip height ${h}`);
      skip.add(h);
    }
    this.skipHeights = skip;
  }

  // ---- handlers (this binary) ----

  /**
   * Registers the handler of the upgrade `name` (the SDK's `SetUpgradeHandler`): at the plan's height this
   * binary runs it instead of halting. A binary must not have the handler before the plan is due (it would
   * halt with `BINARY UPDATED BEFORE TRIGGER!`), and must keep it afterwards (or halt with `Wrong app version`).
   */
  setUpgradeHandler(name: string, handler: UpgradeHandler): void {
    if (!name) throw new Error('upgrade handler: a name is required');
    this.handlers.set(name, handler);
  }

  hasHandler(name: string): boolean {
    return this.handlers.has(name);
  }

  isSkipHeight(height: number): boolean {
    return this.skipHeights.has(height);
  }

  /** The skip heights, sorted. */
  skipUpgradeHeights(): number[] {
    return [...this.skipHeights].sort((a, b) => a - b);
  }

  /** Whether the once-per-process binary check of BeginBlock ran (the SDK's `DowngradeVerified`). */
  downgradeVerified(): boolean {
    return this.downgradeVerifiedFlag;
  }

  setDowngradeVerified(v: boolean): void {
    this.downgradeVerifiedFlag = v;
  }

  // ---- plan ----

  getUpgradePlan(ctx: Context): Plan | undefined {
    return this.state.Plan.get(ctx);
  }

  /**
   * `ScheduleUpgrade`: `validatePlan`; a height below the current block's is `sdk` 18 `upgrade cannot be
   * scheduled in the past` (the current height is allowed); a name already applied is `sdk` 18 `upgrade with
   * name <n> has already been completed`. An existing plan is replaced (its IBC state cleared).
   */
  scheduleUpgrade(ctx: Context, plan: Plan): void {
    validatePlan(plan);
    if (plan.height < BigInt(ctx.block.height)) throw UpgradeErrors.InvalidRequest.wrap('upgrade cannot be scheduled in the past');
    if (this.getDoneHeight(ctx, plan.name) !== 0n) {
      throw UpgradeErrors.InvalidRequest.wrap(`upgrade with name ${plan.name} has already been completed`);
    }
    const old = this.getUpgradePlan(ctx);
    if (old) this.clearIBCState(ctx, old.height);
    this.state.Plan.set(ctx, normalizePlan(plan));
  }

  /** `ClearUpgradePlan`: removes the plan and its IBC state (nothing when there is none). */
  clearUpgradePlan(ctx: Context): void {
    const old = this.getUpgradePlan(ctx);
    if (old) this.clearIBCState(ctx, old.height);
    this.state.Plan.remove(ctx);
  }

  // ---- applied plans ----

  /** The height the plan `name` was applied at (0n: never). */
  getDoneHeight(ctx: Context, name: string): bigint {
    return this.state.Done.get(ctx, name) ?? 0n;
  }

  private setDone(ctx: Context, name: string): void {
    this.state.Done.set(ctx, name, BigInt(ctx.block.height));
  }

  /** `GetLastCompletedUpgrade`: the applied plan of the greatest height (the later name on a tie); `['', 0n]` when none. */
  getLastCompletedUpgrade(ctx: Context): [string, bigint] {
    const done = this.state.Done.iterate(ctx).toArray().reverse();
    let best: [string, bigint] = ['', 0n];
    for (const { key, value } of done) if (value > best[1]) best = [key, value];
    return best;
  }

  /**
   * `ApplyUpgrade`: runs the plan's handler with the stored version map and stores the map it returns, raises
   * the protocol version, clears the IBC state and the plan, and marks the plan done at this height.
   */
  async applyUpgrade(ctx: Context, plan: Plan): Promise<void> {
    const handler = this.handlers.get(plan.name);
    if (!handler) throw new Error('ApplyUpgrade should never be called without first checking HasHandler');
    const updated = await handler(ctx, plan, this.getModuleVersionMap(ctx));
    this.setModuleVersionMap(ctx, updated);
    this.setProtocolVersion(ctx, this.getProtocolVersion(ctx) + 1n);
    this.clearIBCState(ctx, plan.height);
    this.clearUpgradePlan(ctx);
    this.setDone(ctx, plan.name);
  }

  // ---- versions ----

  /** Stores each module's consensus version (`SetModuleVersionMap`; an empty map writes nothing). */
  setModuleVersionMap(ctx: Context, vm: VersionMap): void {
    for (const name of Object.keys(vm).sort()) {
      const v = vm[name]!;
      if (!Number.isSafeInteger(v) || v < 0) throw new Error(`module ${name}: invalid consensus version ${v}`);
      this.state.VersionMap.set(ctx, name, BigInt(v));
    }
  }

  /** The stored version map (`GetModuleVersionMap`). */
  getModuleVersionMap(ctx: Context): VersionMap {
    const out: VersionMap = {};
    for (const { key, value } of this.state.VersionMap.iterate(ctx)) out[key] = Number(value);
    return out;
  }

  /** The stored versions as `ModuleVersion`s, ordered by module name (`GetModuleVersions`). */
  getModuleVersions(ctx: Context): ModuleVersion[] {
    return this.state.VersionMap.iterate(ctx).toArray().map(({ key, value }) => ({ name: key, version: value }));
  }

  /** The stored version of one module, or undefined. */
  getModuleVersion(ctx: Context, name: string): bigint | undefined {
    return this.state.VersionMap.get(ctx, name);
  }

  /** The app's consensus versions now (what InitGenesis records). */
  appModuleVersions(): VersionMap {
    return this.moduleVersions();
  }

  getProtocolVersion(ctx: Context): bigint {
    return this.state.ProtocolVersion.get(ctx) ?? 0n;
  }

  private setProtocolVersion(ctx: Context, v: bigint): void {
    this.state.ProtocolVersion.set(ctx, v);
  }

  // ---- IBC upgrade state ----

  setUpgradedClient(ctx: Context, planHeight: bigint, bz: Uint8Array): void {
    this.state.UpgradedIBCState.set(ctx, upgradedClientKey(planHeight), bz);
  }

  getUpgradedClient(ctx: Context, height: bigint): Uint8Array | undefined {
    const bz = this.state.UpgradedIBCState.get(ctx, upgradedClientKey(height));
    return bz && bz.length > 0 ? bz : undefined;
  }

  setUpgradedConsensusState(ctx: Context, planHeight: bigint, bz: Uint8Array): void {
    this.state.UpgradedIBCState.set(ctx, upgradedConsStateKey(planHeight), bz);
  }

  getUpgradedConsensusState(ctx: Context, lastHeight: bigint): Uint8Array | undefined {
    const bz = this.state.UpgradedIBCState.get(ctx, upgradedConsStateKey(lastHeight));
    return bz && bz.length > 0 ? bz : undefined;
  }

  clearIBCState(ctx: Context, lastHeight: bigint): void {
    this.state.UpgradedIBCState.remove(ctx, upgradedClientKey(lastHeight));
    this.state.UpgradedIBCState.remove(ctx, upgradedConsStateKey(lastHeight));
  }

  // ---- upgrade-info.json ----

  /** `<homeDir>/data/upgrade-info.json` (the data folder is created); throws without a home directory. */
  upgradeInfoPath(): string {
    if (!this.homeDir) throw new Error('upgrade keeper: no home directory to write upgrade-info.json to');
    const dir = join(this.homeDir, 'data');
    mkdirSync(dir, { recursive: true });
    return join(dir, UPGRADE_INFO_FILE_NAME);
  }

  /**
   * Writes `upgrade-info.json` (mode 0600) as the SDK's `DumpUpgradeInfoWithInfoToDisk`: `{"name","height","info"}`
   * with empty fields omitted (Go's `omitempty`).
   */
  dumpUpgradeInfoToDisk(height: number, name: string, info = ''): void {
    const out: UpgradeInfo = {};
    if (name) out.name = name;
    if (height) out.height = height;
    if (info) out.info = info;
    writeFileSync(this.upgradeInfoPath(), JSON.stringify(out), { mode: 0o600 });
  }

  /** The written upgrade info, `{}` when there is no file (`ReadUpgradeInfoFromDisk`). */
  readUpgradeInfoFromDisk(): UpgradeInfo {
    let text: string;
    try {
      text = readFileSync(this.upgradeInfoPath(), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw e;
    }
    return JSON.parse(text) as UpgradeInfo;
  }
}
