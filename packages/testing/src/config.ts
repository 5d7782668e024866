import type { AppConfig, AppModule, ModuleAccountConfig } from '@chain/app';

/**
 * An app config for a test chain of `modules`: every order lists the modules having that hook, in the
 * modules' order (a real app declares its orders; tests of one module rarely care). `overrides` replaces
 * whole orders or adds module accounts.
 */
export function testAppConfig(
  modules: readonly AppModule[],
  overrides: { moduleAccounts?: readonly ModuleAccountConfig[]; allowReceiving?: readonly string[]; order?: Partial<AppConfig['order']> } = {},
): AppConfig {
  const having = (f: (m: AppModule) => boolean): string[] => modules.filter(f).map((m) => m.name);
  return {
    modules: modules.map((m) => m.name),
    moduleAccounts: overrides.moduleAccounts ?? [],
    allowReceiving: overrides.allowReceiving,
    order: {
      preBlock: having((m) => !!m.preBlock),
      beginBlock: having((m) => !!m.beginBlock),
      endBlock: having((m) => !!m.endBlock),
      initGenesis: having((m) => !!(m.genesisType && m.initGenesis)),
      ...overrides.order,
    },
  };
}
