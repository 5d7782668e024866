/** registry.encode of google.protobuf.Any takes a direct path: the bytes must be protobufjs' own. */
import { expect } from 'chai';
import { ProtoRegistry } from '../src/index.js';

describe('registry.encode(google.protobuf.Any) fast path', () => {
  const registry = new ProtoRegistry();
  const t = registry.type('google.protobuf.Any');
  const reference = (obj: Record<string, unknown>): Uint8Array => t.encode(t.fromObject(obj)).finish();

  it('gives the bytes protobufjs gives, as a Buffer, for every shape of type URL and value', () => {
    const urls = ['', '/a', '/chain.auth.v1beta1.BaseAccount', '/' + 'x'.repeat(127), '/' + 'y'.repeat(128), '/' + 'z'.repeat(20000), '/é', '/\ud800'];
    const values = [new Uint8Array(0), Uint8Array.of(0), new Uint8Array(127).fill(1), new Uint8Array(128).fill(2), new Uint8Array(70000).fill(3), Buffer.from([9, 8, 7])];
    for (const type_url of urls) {
      for (const value of values) {
        const got = registry.encode('google.protobuf.Any', { type_url, value });
        const want = reference({ type_url, value });
        expect(Buffer.isBuffer(got), `${type_url.length}/${value.length}`).to.equal(Buffer.isBuffer(want));
        expect(Buffer.from(got).equals(Buffer.from(want)), `${type_url.length}/${value.length}`).to.equal(true);
      }
    }
  });

  it('leaves other shapes to protobufjs (same results)', () => {
    const odd: Record<string, unknown>[] = [
      { type_url: '/a', value: 'AQI=' },
      { type_url: 5, value: Uint8Array.of(1) },
      { value: Uint8Array.of(1) },
      { type_url: '/a' },
      { type_url: '/a', value: [1, 2] },
      { type_url: '/a', value: Uint8Array.of(1), extra: 1 },
      t.fromObject({ type_url: '/b', value: Uint8Array.of(4) }) as unknown as Record<string, unknown>,
    ];
    for (const obj of odd) {
      const want = reference(obj);
      expect(Buffer.from(registry.encode('google.protobuf.Any', obj)).equals(Buffer.from(want)), JSON.stringify(obj)).to.equal(true);
    }
  });

  it('packAny / unpackAny round-trip', () => {
    const any = registry.packAny('google.protobuf.Any', { type_url: '/x.Y', value: Uint8Array.of(1, 2, 3) });
    expect(registry.decode<{ type_url: string; value: Uint8Array }>('google.protobuf.Any', any.value)).to.deep.include({ type_url: '/x.Y' });
  });
});
