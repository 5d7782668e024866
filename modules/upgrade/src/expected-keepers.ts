/**
 * What the upgrade module needs of the rest of the app: no other module's keeper. The composition hands the
 * keeper the app's module versions (`moduleVersions: () => app.manager.versionMap()`), and registers the
 * upgrade handlers of this binary (`setUpgradeHandler(name, (ctx, plan, vm) => app.manager.runMigrations(ctx, vm))`).
 */
export interface UpgradeExpectedKeepers {}
