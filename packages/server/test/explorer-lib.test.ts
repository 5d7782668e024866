/** The explorer page's helpers (explorer/lib.js, a plain browser script) run in a VM context as the page runs them. */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { fromBech32, toBech32 } from '@chain/crypto';
import { EXPLORER_STATIC_DIR } from '../src/index.js';

interface Lib {
  hexOf(b: Uint8Array): string;
  bytesOfHex(h: string): Uint8Array;
  bytesOfBase64(b: string): Uint8Array;
  sha256(b: Uint8Array): Uint8Array;
  txHashOfBase64(b: string): string;
  bech32Encode(prefix: string, b: Uint8Array): string;
  bech32Decode(s: string): { prefix: string; bytes: Uint8Array };
  consAddressOfEd25519(prefix: string, key: string): string;
  formatUnits(amount: string, decimals: number): string;
  percent(part: string | bigint, total: string | bigint, digits: number): string;
  ratio(x: string, y: string, digits: number): string;
  classifyQuery(q: string, prefix: string): { route?: string; error?: string };
}

function loadLib(): Lib {
  const ctx: Record<string, unknown> = { atob, Uint8Array, Uint32Array, DataView, BigInt };
  runInNewContext(readFileSync(join(EXPLORER_STATIC_DIR, 'lib.js'), 'utf8'), ctx);
  return ctx.ExplorerLib as Lib;
}

describe('explorer page helpers (explorer/lib.js)', () => {
  const L = loadLib();
  const bytes = (n: number, seed = 7): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

  it('SHA-256 agrees with node:crypto on every padding case', () => {
    for (const n of [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 4099]) {
      const b = bytes(n, n);
      expect(L.hexOf(L.sha256(b)), `length ${n}`).to.equal(createHash('sha256').update(b).digest('hex'));
    }
  });

  it('tx hashes are the upper-case hex SHA-256 of the tx bytes', () => {
    const tx = bytes(300);
    expect(L.txHashOfBase64(Buffer.from(tx).toString('base64'))).to.equal(createHash('sha256').update(tx).digest('hex').toUpperCase());
  });

  it('bech32 round-trips with @chain/crypto and refuses bad checksums', () => {
    for (const n of [20, 32]) {
      const b = bytes(n);
      const s = L.bech32Encode('chain', b);
      expect(s).to.equal(toBech32('chain', b));
      const d = L.bech32Decode(s);
      expect(d.prefix).to.equal('chain');
      expect([...d.bytes]).to.deep.equal([...fromBech32(s).data]);
    }
    const good = toBech32('chainvaloper', bytes(20));
    expect(L.bech32Decode(good.toUpperCase()).prefix).to.equal('chainvaloper');
    const bad = good.slice(0, -1) + (good.endsWith('q') ? 'p' : 'q');
    expect(() => L.bech32Decode(bad)).to.throw(/checksum/);
    expect(() => L.bech32Decode('chain1' + good.slice(6, 20).toUpperCase() + good.slice(20))).to.throw(/mixed case/);
  });

  it('a consensus address is the first 20 bytes of SHA-256 of the ed25519 key', () => {
    const key = bytes(32, 3);
    const want = toBech32('chainvalcons', createHash('sha256').update(key).digest().subarray(0, 20));
    expect(L.consAddressOfEd25519('chain', Buffer.from(key).toString('base64'))).to.equal(want);
  });

  it('formats amounts exactly (BigInt), with grouping, trimmed fractions and Dec inputs', () => {
    expect(L.formatUnits('1000000000000000000000', 18)).to.equal('1,000');
    expect(L.formatUnits('1234', 18)).to.equal('0.000000000000001234');
    expect(L.formatUnits('1500000000000000000', 18)).to.equal('1.5');
    expect(L.formatUnits('123456789', 0)).to.equal('123,456,789');
    expect(L.formatUnits('99924952751301732000.123', 18)).to.equal('99.924952751301732');
    expect(L.formatUnits('-5', 1)).to.equal('-0.5');
    expect(L.percent('1', '3', 2)).to.equal('33.33 %');
    expect(L.percent('5', '0', 2)).to.equal('—');
    expect(L.ratio('3000000', '1000000', 8)).to.equal('3');
    expect(L.ratio('1', '3', 4)).to.equal('0.3333');
    expect(L.ratio('1', '0', 4)).to.equal('—');
  });

  it('search: heights, Cosmos and Ethereum tx hashes, bech32 and 0x addresses, validators; errors otherwise', () => {
    const acc = toBech32('chain', bytes(20));
    const hex = '0x' + Buffer.from(bytes(20)).toString('hex');
    const val = toBech32('chainvaloper', bytes(20));
    const h64 = 'ab'.repeat(32);
    expect(L.classifyQuery(' 42 ', 'chain')).to.deep.equal({ route: 'block/42' });
    expect(L.classifyQuery('0', 'chain').error).to.match(/start at 1/);
    expect(L.classifyQuery(h64, 'chain')).to.deep.equal({ route: 'tx/' + h64.toUpperCase() });
    expect(L.classifyQuery('0x' + h64.toUpperCase(), 'chain')).to.deep.equal({ route: 'tx/0x' + h64 });
    expect(L.classifyQuery(acc, 'chain')).to.deep.equal({ route: 'account/' + acc });
    expect(L.classifyQuery(hex.toUpperCase().replace('0X', '0x'), 'chain')).to.deep.equal({ route: 'account/' + acc });
    expect(L.classifyQuery(val, 'chain')).to.deep.equal({ route: 'validator/' + val });
    expect(L.classifyQuery(toBech32('cosmos', bytes(20)), 'chain').error).to.match(/prefix cosmos/);
    expect(L.classifyQuery('hello', 'chain').error).to.match(/Not a height/);
    expect(L.classifyQuery('', 'chain').error).to.match(/Type a height/);
  });
});
