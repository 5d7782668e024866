/**
 * The declared shape of an app, as data (the SDK's `app_config.go`): which modules, which module
 * accounts with which permissions, which addresses may not receive funds, who the governance authority
 * is, and the order in which the block and genesis hooks run. The `ModuleManager` checks it against the
 * modules at construction.
 */

/** Permissions of a module account (the SDK's `authtypes.Minter`, `Burner`, `Staking`). */
export type ModuleAccountPermission = 'minter' | 'burner' | 'staking';

export interface ModuleAccountConfig {
  readonly name: string;
  readonly permissions: readonly ModuleAccountPermission[];
}

/** The orders of the block and genesis hooks, by module name. */
export interface ModuleOrders {
  /** modules with a `preBlock` hook (upgrade first) */
  readonly preBlock: readonly string[];
  readonly beginBlock: readonly string[];
  readonly endBlock: readonly string[];
  /** every module with genesis state */
  readonly initGenesis: readonly string[];
  /** defaults to `initGenesis` */
  readonly exportGenesis?: readonly string[];
  /** order of `runMigrations` (defaults to the SDK's: by name, auth last) */
  readonly migrations?: readonly string[];
}

export interface AppConfig {
  /** module names, in the order their services are registered */
  readonly modules: readonly string[];
  readonly moduleAccounts: readonly ModuleAccountConfig[];
  /**
   * Module accounts that may receive funds through sends (the rest are blocked addresses, as in the SDK's
   * `BlockedAddresses`; simapp lets the distribution account receive).
   */
  readonly allowReceiving?: readonly string[];
  /** module whose account is the authority of governance-gated messages (default `gov`) */
  readonly authority?: string;
  readonly order: ModuleOrders;
}

/** The module accounts that may not receive funds under `config`. */
export function blockedModuleAccounts(config: AppConfig): string[] {
  const allowed = new Set(config.allowReceiving ?? []);
  return config.moduleAccounts.map((m) => m.name).filter((n) => !allowed.has(n));
}

/** Module account permissions as a record (what the auth keeper takes). */
export function moduleAccountPermissions(config: AppConfig): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const m of config.moduleAccounts) out[m.name] = [...m.permissions];
  return out;
}
