import { expect } from 'chai';
import { MemKVStore, branch } from '@chain/store';
import { Errors } from '@chain/errors';
import { BasicGasMeter, InfiniteGasMeter, GasKVStore, OutOfGasError, KV_GAS, Context, EventManager, storePrefix } from '../src/index.js';
import type { GasMeter, ExecMode } from '../src/index.js';
import { outOfGasError } from '../src/gas.js';
import { utf8, str } from './helpers.js';

/** Records every charge. */
class RecordingMeter implements GasMeter {
  readonly charges: [number, string][] = [];
  readonly limit = Number.MAX_SAFE_INTEGER;
  consumed(): number { return this.charges.reduce((s, [n]) => s + n, 0); }
  consume(amount: number, descriptor: string): void { this.charges.push([amount, descriptor]); }
  isInfinite(): boolean { return true; }
}

describe('app: gas meters', () => {
  it('BasicGasMeter allows consumption up to the limit and throws past it, keeping the overshoot', () => {
    const m = new BasicGasMeter(100);
    m.consume(60, 'a');
    m.consume(40, 'b');
    expect(m.consumed()).to.equal(100);
    expect(m.isInfinite()).to.equal(false);
    let err: unknown;
    try {
      m.consume(7, 'WriteFlat');
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(OutOfGasError);
    expect((err as OutOfGasError).descriptor).to.equal('WriteFlat');
    expect((err as Error).message).to.equal('out of gas in location: WriteFlat');
    expect(m.consumed()).to.equal(107);
    expect(() => new BasicGasMeter(0).consume(1, 'x')).to.throw(OutOfGasError);
    expect(() => new BasicGasMeter(0).consume(0, 'x')).to.not.throw();
  });

  it('InfiniteGasMeter counts without a limit', () => {
    const m: GasMeter = new InfiniteGasMeter();
    m.consume(Number.MAX_SAFE_INTEGER - 1, 'a');
    m.consume(1, 'b');
    expect(m.consumed()).to.equal(Number.MAX_SAFE_INTEGER);
    expect(m.limit).to.equal(Number.MAX_SAFE_INTEGER);
    expect(m.isInfinite()).to.equal(true);
  });

  it('outOfGasError is the SDK log with code 11', () => {
    const e = outOfGasError(new OutOfGasError('ReadFlat'), 100, 1000);
    expect(Errors.OutOfGas.is(e)).to.equal(true);
    expect(e.message).to.equal('out of gas in location: ReadFlat; gasWanted: 100, gasUsed: 1000: out of gas');
  });
});

describe('app: GasKVStore costs (KVGasConfig defaults)', () => {
  const setup = () => {
    const parent = new MemKVStore();
    parent.set(utf8('key'), utf8('value'));
    parent.set(utf8('kz'), utf8('vv'));
    const meter = new RecordingMeter();
    return { parent, meter, store: new GasKVStore(parent, meter) };
  };

  it('has the SDK defaults', () => {
    expect({ ...KV_GAS }).to.deep.equal({ hasCost: 1000, deleteCost: 1000, readCostFlat: 1000, readCostPerByte: 3, writeCostFlat: 2000, writeCostPerByte: 30, iterNextCostFlat: 30 });
  });

  it('get: flat + per byte of key and value (key only when missing)', () => {
    const { store, meter } = setup();
    expect(str(store.get(utf8('key')))).to.equal('value');
    expect(store.get(utf8('missing'))).to.equal(undefined);
    expect(meter.charges).to.deep.equal([[1000, 'ReadFlat'], [3 * 8, 'ReadPerByte'], [1000, 'ReadFlat'], [3 * 7, 'ReadPerByte']]);
  });

  it('set: flat + 30 per byte of key and value; delete and has: flat', () => {
    const { store, meter, parent } = setup();
    store.set(utf8('abc'), utf8('12345'));
    store.delete(utf8('key'));
    expect(store.has(utf8('abc'))).to.equal(true);
    expect(meter.charges).to.deep.equal([[2000, 'WriteFlat'], [30 * 8, 'WritePerByte'], [1000, 'Delete'], [1000, 'Has']]);
    expect(str(parent.get(utf8('abc')))).to.equal('12345');
    expect(parent.has(utf8('key'))).to.equal(false);
  });

  it('iteration: per entry a flat charge plus key and value bytes', () => {
    const { store, meter } = setup();
    const keys = [...store.iterator()].map(([k]) => str(k));
    expect(keys).to.deep.equal(['key', 'kz']);
    expect(meter.charges).to.deep.equal([[30, 'IterNextFlat'], [3 * 8, 'ValuePerByte'], [30, 'IterNextFlat'], [3 * 4, 'ValuePerByte']]);
    meter.charges.length = 0;
    expect([...store.iterator(utf8('kz'), undefined, true)].map(([k]) => str(k))).to.deep.equal(['kz']);
    expect(meter.charges).to.have.length(2);
  });

  it('a write past the limit throws before touching the parent', () => {
    const parent = new MemKVStore();
    const store = new GasKVStore(parent, new BasicGasMeter(2000));
    expect(() => store.set(utf8('a'), utf8('b'))).to.throw(OutOfGasError, 'WritePerByte');
    expect(parent.has(utf8('a'))).to.equal(false);
  });
});

describe('app: Context stores', () => {
  const block = { height: 5, time: new Date(0), chainId: 'c', proposer: new Uint8Array() };

  it('module stores are prefixes "<storeKey>/" of the root state', () => {
    const ms = new MemKVStore();
    const ctx = new Context(ms, block, 'block');
    ctx.kv('bank').set(utf8('x'), utf8('1'));
    ctx.kv('acc').set(utf8('x'), utf8('2'));
    expect([...ms.iterator()].map(([k, v]) => `${str(k)}=${str(v)}`)).to.deep.equal(['acc/x=2', 'bank/x=1']);
    expect(str(ctx.kv('bank').get(utf8('x')))).to.equal('1');
    expect([...ctx.kv('bank').iterator()]).to.have.length(1);
    expect(str(storePrefix('bank'))).to.equal('bank/');
    expect(() => storePrefix('a/b')).to.throw("store key may not contain '/': a/b");
  });

  const modes: [ExecMode, boolean][] = [['deliver', true], ['check', true], ['recheck', true], ['simulate', true], ['query', false], ['genesis', false], ['block', false]];
  for (const [mode, metered] of modes) {
    it(`${mode} mode ${metered ? 'charges' : 'does not charge'} store access`, () => {
      const meter = new BasicGasMeter(1_000_000);
      const ctx = new Context(branch(new MemKVStore()), block, mode, meter, new EventManager());
      ctx.kv('m').set(utf8('k'), utf8('v'));
      ctx.kv('m').get(utf8('k'));
      // key bytes include the "m/" prefix, as the SDK charges the full key
      expect(meter.consumed()).to.equal(metered ? 2000 + 30 * 4 + 1000 + 3 * 4 : 0);
    });
  }

  it('withStore / withGasMeter / withEvents keep everything else', () => {
    const meter = new BasicGasMeter(10);
    const em = new EventManager();
    const ctx = new Context(new MemKVStore(), block, 'deliver', meter, em, [{ denom: 'a', amount: 1n }]);
    const other = new MemKVStore();
    const c1 = ctx.withStore(other);
    expect([c1.ms === other, c1.gasMeter === meter, c1.events === em, c1.mode, c1.block]).to.deep.equal([true, true, true, 'deliver', block]);
    const em2 = new EventManager();
    expect(ctx.withEvents(em2).events).to.equal(em2);
    expect(ctx.withGasMeter(new InfiniteGasMeter()).gasMeter.isInfinite()).to.equal(true);
    expect(ctx.withStore(other).minGasPrices).to.deep.equal([{ denom: 'a', amount: 1n }]);
    expect([ctx.isCheckTx, ctx.isSimulate]).to.deep.equal([false, false]);
    expect(new Context(other, block, 'recheck').isCheckTx).to.equal(true);
  });

  it('EventManager keeps attribute order, indexes every attribute', () => {
    const em = new EventManager();
    em.emit('transfer', [['recipient', 'r'], ['sender', 's']]);
    em.emit('x', { a: '1' });
    expect(em.events).to.deep.equal([
      { type: 'transfer', attributes: [{ key: 'recipient', value: 'r', index: true }, { key: 'sender', value: 's', index: true }] },
      { type: 'x', attributes: [{ key: 'a', value: '1', index: true }] },
    ]);
  });
});
