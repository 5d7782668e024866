import { expect } from 'chai';
import { MemKVStore } from '@chain/store';
import { StatusError, GrpcCode } from '@chain/errors';
import { paginate, pageParams, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../src/index.js';
import type { PageRequest } from '../src/index.js';
import { utf8, str } from './helpers.js';

const KEYS = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

function store(keys = KEYS): MemKVStore {
  const s = new MemKVStore();
  keys.forEach((k, i) => s.set(utf8(k), utf8(String(i))));
  return s;
}

const run = (req: PageRequest | null | undefined, s = store(), map = (k: Uint8Array): string | undefined => str(k)) => {
  const { items, pagination } = paginate(s, req, map);
  return { items, next: pagination.next_key ? str(pagination.next_key) : null, total: pagination.total };
};

function expectStatus(f: () => unknown, message: string): void {
  try {
    f();
    expect.fail('should have thrown');
  } catch (e) {
    expect(e).to.be.instanceOf(StatusError);
    expect((e as StatusError).grpcCode).to.equal(GrpcCode.INVALID_ARGUMENT);
    expect((e as Error).message).to.equal(message);
  }
}

describe('app: paginate', () => {
  it('no request: everything, total counted (limit 0 forces count_total)', () => {
    expect(run(undefined)).to.deep.equal({ items: KEYS, next: null, total: 7n });
    expect(run(null)).to.deep.equal({ items: KEYS, next: null, total: 7n });
    expect(run({ limit: 0, count_total: false })).to.deep.equal({ items: KEYS, next: null, total: 7n });
    expect(run({}, new MemKVStore())).to.deep.equal({ items: [], next: null, total: 0n });
  });

  it('offset pages: next_key is the first key after the page; total only with count_total', () => {
    expect(run({ limit: 3n })).to.deep.equal({ items: ['a', 'b', 'c'], next: 'd', total: 0n });
    expect(run({ limit: 3n, count_total: true })).to.deep.equal({ items: ['a', 'b', 'c'], next: 'd', total: 7n });
    expect(run({ offset: 3n, limit: 3n, count_total: true })).to.deep.equal({ items: ['d', 'e', 'f'], next: 'g', total: 7n });
    expect(run({ offset: 6n, limit: 3n, count_total: true })).to.deep.equal({ items: ['g'], next: null, total: 7n });
    expect(run({ offset: 4n, limit: 3n })).to.deep.equal({ items: ['e', 'f', 'g'], next: null, total: 0n });
    expect(run({ offset: 10n, limit: 3n, count_total: true })).to.deep.equal({ items: [], next: null, total: 7n });
    expect(run({ offset: 2, limit: 2 })).to.deep.equal({ items: ['c', 'd'], next: 'e', total: 0n });
  });

  it('key pages start at the key (inclusive) and never count the total', () => {
    expect(run({ key: utf8('c'), limit: 2n, count_total: true })).to.deep.equal({ items: ['c', 'd'], next: 'e', total: 0n });
    expect(run({ key: utf8('f'), limit: 2n })).to.deep.equal({ items: ['f', 'g'], next: null, total: 0n });
    expect(run({ key: utf8('bb'), limit: 1n })).to.deep.equal({ items: ['c'], next: 'd', total: 0n });
    expect(run({ key: utf8('z'), limit: 1n })).to.deep.equal({ items: [], next: null, total: 0n });
    // an empty key is no key
    expect(run({ key: new Uint8Array(), limit: 2n, count_total: true })).to.deep.equal({ items: ['a', 'b'], next: 'c', total: 7n });
  });

  it('walking next_key visits every item exactly once', () => {
    const seen: string[] = [];
    let key: Uint8Array | undefined;
    for (let i = 0; i < 10; i++) {
      const { items, pagination } = paginate(store(), { key, limit: 3n }, (k) => str(k));
      seen.push(...(items as string[]));
      if (!pagination.next_key) break;
      key = pagination.next_key;
    }
    expect(seen).to.deep.equal(KEYS);
  });

  it('reverse: descending by offset and by key (the key itself first)', () => {
    expect(run({ reverse: true, limit: 3n, count_total: true })).to.deep.equal({ items: ['g', 'f', 'e'], next: 'd', total: 7n });
    expect(run({ reverse: true, offset: 5n, limit: 3n })).to.deep.equal({ items: ['b', 'a'], next: null, total: 0n });
    expect(run({ reverse: true, key: utf8('d'), limit: 2n })).to.deep.equal({ items: ['d', 'c'], next: 'b', total: 0n });
    expect(run({ reverse: true, key: utf8('b'), limit: 5n })).to.deep.equal({ items: ['b', 'a'], next: null, total: 0n });
    // keys that extend the start key sort after it and are not included
    const s = store(['a', 'b', 'b0', 'c']);
    expect(run({ reverse: true, key: utf8('b'), limit: 5n }, s).items).to.deep.equal(['b', 'a']);
  });

  it('entries mapped to undefined are skipped and not counted', () => {
    const onlyVowels = (k: Uint8Array): string | undefined => ('aeiou'.includes(str(k)!) ? str(k) : undefined);
    expect(run({ limit: 1n, count_total: true }, store(), onlyVowels)).to.deep.equal({ items: ['a'], next: 'e', total: 2n });
    expect(run({ offset: 1n, limit: 5n, count_total: true }, store(), onlyVowels)).to.deep.equal({ items: ['e'], next: null, total: 2n });
  });

  it('rejects a limit above the maximum and offset together with key (InvalidArgument)', () => {
    expect([DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT]).to.deep.equal([100, 100]);
    expectStatus(() => run({ limit: 101n }), 'pagination.limit must be at most 100, got 101');
    expectStatus(() => run({ key: utf8('a'), offset: 1n }), 'paginate: invalid request, either offset or key is expected, got both');
    expect(run({ limit: 100n }).items).to.have.length(7);
  });

  it('pageParams normalizes the request', () => {
    expect(pageParams(undefined)).to.deep.equal({ key: undefined, offset: 0, limit: 100, countTotal: true, reverse: false });
    expect(pageParams({ key: utf8('k'), limit: 5n, reverse: true })).to.deep.equal({ key: utf8('k'), offset: 0, limit: 5, countTotal: false, reverse: true });
    expect(pageParams({ offset: 3n, limit: 2n, count_total: true })).to.deep.equal({ key: undefined, offset: 3, limit: 2, countTotal: true, reverse: false });
  });
});
