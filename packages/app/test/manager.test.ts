/**
 * The module manager refuses app configs that would misbehave silently (a module forgotten in an order,
 * two sources of validator updates, hooks never wired, a query path registered twice) and runs genesis,
 * block hooks and migrations in the declared orders.
 */
import { expect } from 'chai';
import { ProtoRegistry } from '@chain/codec';
import { MemKVStore } from '@chain/store';
import { Context, EventManager, HookSlot, InfiniteGasMeter, ModuleManager, createRouter, defaultMigrationsOrder } from '../src/index.js';
import type { AppConfig, AppModule, QueryHandler, ServiceRegistrar, ValidatorUpdate } from '../src/index.js';
import { FIXTURE_PROTO_DIR } from './helpers.js';

const mod = (name: string, extra: Partial<AppModule> = {}): AppModule => ({ name, consensusVersion: 1, ...extra });
const noop = (): void => undefined;
const config = (modules: string[], order: Partial<AppConfig['order']> = {}): AppConfig => ({
  modules, moduleAccounts: [], order: { preBlock: [], beginBlock: [], endBlock: [], initGenesis: [], ...order },
});
const ctx = (): Context => new Context(new MemKVStore(), { height: 1, time: new Date(0), chainId: 'c', proposer: new Uint8Array() }, 'block', new InfiniteGasMeter(), new EventManager());
const update = (power: bigint): ValidatorUpdate => ({ pubKey: { type: 'ed25519', key: new Uint8Array(32) }, power });

describe('app: ModuleManager refusals', () => {
  it('refuses a module that is in the config but not given, or given but not in the config, or twice', () => {
    expect(() => new ModuleManager(config(['a', 'b']), [mod('a')])).to.throw('app config: module b is in the config but was not given');
    expect(() => new ModuleManager(config(['a']), [mod('a'), mod('b')])).to.throw('app config: module b was given but is not in the config');
    expect(() => new ModuleManager(config(['a', 'a']), [mod('a')])).to.throw('app config: module a listed twice');
    expect(() => new ModuleManager(config(['a']), [mod('a'), mod('a')])).to.throw('app config: two modules named a');
    expect(() => new ModuleManager(config(['a']), [mod('a', { consensusVersion: 0 })])).to.throw('app config: module a has no valid consensus version');
  });

  it('refuses an order that forgets a module having that hook (pre-block, begin, end, init and export genesis)', () => {
    const cases: [Partial<AppModule>, keyof AppConfig['order']][] = [
      [{ preBlock: noop }, 'preBlock'],
      [{ beginBlock: noop }, 'beginBlock'],
      [{ endBlock: noop }, 'endBlock'],
      [{ genesisType: 'x.Genesis', initGenesis: noop }, 'initGenesis'],
    ];
    for (const [hook, order] of cases) {
      expect(() => new ModuleManager(config(['a', 'b']), [mod('a'), mod('b', hook)]), order).to.throw(`app config: order ${order} forgets module(s) b`);
      expect(() => new ModuleManager(config(['a', 'b'], { [order]: ['b'] }), [mod('a'), mod('b', hook)]), order).to.not.throw();
    }
    const exporting = mod('b', { genesisType: 'x.Genesis', initGenesis: noop, exportGenesis: () => ({}) });
    expect(() => new ModuleManager(config(['b'], { initGenesis: ['b'], exportGenesis: [] }), [exporting])).to.throw('app config: order exportGenesis forgets module(s) b');
    // a module without the hook may be listed or not
    expect(() => new ModuleManager(config(['a'], { beginBlock: ['a'] }), [mod('a')])).to.not.throw();
  });

  it('refuses an order naming an unknown module or one module twice', () => {
    expect(() => new ModuleManager(config(['a'], { endBlock: ['a', 'zz'] }), [mod('a')])).to.throw('app config: order endBlock names unknown module zz');
    expect(() => new ModuleManager(config(['a'], { beginBlock: ['a', 'a'] }), [mod('a')])).to.throw('app config: order beginBlock names module a twice');
  });

  it('refuses two modules returning validator updates, and updates from a module not declared to return them', async () => {
    expect(() => new ModuleManager(config(['a', 'b']), [mod('a', { returnsValidatorUpdates: true }), mod('b', { returnsValidatorUpdates: true })]))
      .to.throw('app config: validator updates can come from one module only, not a and b');
    const m = new ModuleManager(config(['a', 's'], { endBlock: ['a', 's'] }), [mod('a', { endBlock: () => [update(1n)] }), mod('s', { returnsValidatorUpdates: true, endBlock: () => [update(2n)] })]);
    let err: unknown;
    await m.endBlock(ctx()).catch((e: unknown) => { err = e; });
    expect(String(err)).to.contain('module a returned validator updates but is not declared to (returnsValidatorUpdates)');
    const ok = new ModuleManager(config(['a', 's'], { endBlock: ['a', 's'] }), [mod('a', { endBlock: noop }), mod('s', { returnsValidatorUpdates: true, endBlock: () => [update(2n)] })]);
    expect((await ok.endBlock(ctx())).map((u) => u.power)).to.deep.equal([2n]);
    expect(ok.validatorUpdatesModule).to.equal('s');
  });

  it('refuses a hook slot the composition never wired; set() with no listeners is an explicit "none"', () => {
    interface StakingHooks { afterValidatorCreated(addr: string): void; afterDelegationModified(del: string, val: string): void }
    const slot = new HookSlot<StakingHooks>('staking', ['afterValidatorCreated', 'afterDelegationModified']);
    const staking = mod('staking', { hookSlots: [slot] });
    expect(() => new ModuleManager(config(['staking']), [staking])).to.throw('app config: hooks staking of module staking are not wired');
    slot.set();
    expect(() => new ModuleManager(config(['staking']), [staking])).to.not.throw();
    expect(() => slot.set()).to.throw('hooks staking are already set');
  });

  it('refuses a query path registered twice (it used to overwrite silently)', () => {
    const registry = new ProtoRegistry();
    registry.addProtoDir(FIXTURE_PROTO_DIR);
    const q: QueryHandler = () => ({});
    const query = (service: string): Partial<AppModule> => ({ registerServices: (r: ServiceRegistrar) => r.registerQueryService(service, { Get: q, List: q }) });
    const m = new ModuleManager(config(['a', 'b']), [mod('a', query('chain.apptest.v1.Query')), mod('b', query('chain.apptest.v1.Query'))]);
    expect(() => m.registerServices(registry, createRouter(registry))).to.throw('duplicate query path /chain.apptest.v1.Query/Get (already registered by a)');
  });
});

describe('app: ModuleManager runs', () => {
  it('block hooks in the declared orders, not the module list order', async () => {
    const calls: string[] = [];
    const m = (n: string): AppModule => mod(n, { preBlock: () => { calls.push(`pre:${n}`); }, beginBlock: () => { calls.push(`begin:${n}`); }, endBlock: () => { calls.push(`end:${n}`); } });
    const mm = new ModuleManager(config(['a', 'b', 'c'], { preBlock: ['c', 'a', 'b'], beginBlock: ['b', 'c', 'a'], endBlock: ['a', 'c', 'b'] }), [m('a'), m('b'), m('c')]);
    await mm.preBlock(ctx());
    await mm.beginBlock(ctx());
    await mm.endBlock(ctx());
    expect(calls).to.deep.equal(['pre:c', 'pre:a', 'pre:b', 'begin:b', 'begin:c', 'begin:a', 'end:a', 'end:c', 'end:b']);
  });

  it('hooks fan out to every listener in the order they were wired', () => {
    interface H { created(x: string): void }
    const slot = new HookSlot<H>('h', ['created']);
    const got: string[] = [];
    const distribution = { prefix: 'd', created(x: string) { got.push(`${this.prefix}:${x}`); } };
    slot.set(distribution, { created: (x) => got.push(`s:${x}`) }, {});
    slot.call.created('v1');
    expect(got).to.deep.equal(['d:v1', 's:v1']);
    expect(() => new HookSlot<H>('unset', ['created']).call).to.throw('hooks unset were never set');
  });

  it('migrations step by step from the stored versions, InitGenesis for new modules, refusing a missing step', async () => {
    const steps: string[] = [];
    const bank = mod('bank', {
      consensusVersion: 3,
      registerMigrations: (r) => {
        r.register('bank', 1, () => { steps.push('bank 1→2'); });
        r.register('bank', 2, () => { steps.push('bank 2→3'); });
      },
    });
    const auth = mod('auth', { consensusVersion: 2, registerMigrations: (r) => r.register('auth', 1, () => { steps.push('auth 1→2'); }) });
    const fresh = mod('fresh', { genesisType: 'x.G', defaultGenesis: () => ({ n: 1 }), initGenesis: (_c, g) => { steps.push(`fresh init ${JSON.stringify(g)}`); } });
    const mm = new ModuleManager(config(['auth', 'bank', 'fresh'], { initGenesis: ['fresh'] }), [auth, bank, fresh]);
    const vm = await mm.runMigrations(ctx(), { auth: 1, bank: 1 });
    // the SDK's default order: by name, auth last
    expect(steps).to.deep.equal(['bank 1→2', 'bank 2→3', 'fresh init {"n":1}', 'auth 1→2']);
    expect(vm).to.deep.equal({ auth: 2, bank: 3, fresh: 1 });
    let err: unknown;
    await mm.runMigrations(ctx(), { auth: 2, bank: 0, fresh: 1 }).catch((e: unknown) => { err = e; });
    expect(String(err)).to.contain('no migration found for module bank from version 0 to version 1');
    expect(() => new ModuleManager(config(['bank']), [mod('bank', { registerMigrations: (r) => { r.register('bank', 1, noop); r.register('bank', 1, noop); } })]))
      .to.throw('migration of module bank from version 1 registered twice');
    expect(defaultMigrationsOrder(['staking', 'auth', 'bank'])).to.deep.equal(['bank', 'staking', 'auth']);
  });
});
