/** AccountKeeper.packAccount encodes a BaseAccount directly: the bytes must be the registry's (protobufjs). */
import { expect } from 'chai';
import { ProtoRegistry } from '@chain/codec';
import { toBech32 } from '@chain/crypto';
import { AccountKeeper, AddressCodec, AUTH_PROTO_DIR } from '../src/index.js';
import type { BaseAccount } from '../src/index.js';

const BASE_ACCOUNT = 'chain.auth.v1beta1.BaseAccount';

describe('auth: packAccount (direct BaseAccount encoding)', () => {
  const registry = new ProtoRegistry();
  registry.addProtoDir(AUTH_PROTO_DIR);
  const k = new AccountKeeper({ registry, addressCodec: new AddressCodec('chain'), moduleAccounts: { fee_collector: [] } });
  const t = registry.type(BASE_ACCOUNT);
  const anyT = registry.type('google.protobuf.Any');
  const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

  it('gives the bytes of registry.packAny for numbers, addresses and sequences of every size', () => {
    const nums = [0n, 1n, 127n, 128n, 16383n, 16384n, 2n ** 31n - 1n, 2n ** 31n, 2n ** 32n, 2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 1n];
    const addrs = ['', toBech32('chain', new Uint8Array(20).fill(3)), toBech32('chain', new Uint8Array(32).fill(9)), 'x'.repeat(200)];
    for (const address of addrs) {
      for (const account_number of nums) {
        for (const sequence of [0n, 1n, 300n, 2n ** 64n - 1n]) {
          for (const pub_key of [null, undefined]) {
            const base = { address, pub_key, account_number, sequence } as BaseAccount;
            const got = k.packAccount({ address: new Uint8Array(20), base });
            const want = registry.packAny(BASE_ACCOUNT, { ...base });
            expect(got.type_url).to.equal(want.type_url);
            expect(Buffer.isBuffer(got.value)).to.equal(Buffer.isBuffer(want.value));
            expect(same(got.value, want.value), `${address.length} ${account_number} ${sequence}`).to.equal(true);
            expect(same(got.value, t.encode(t.fromObject({ ...base })).finish())).to.equal(true);
            // and the stored Any (the Accounts value codec)
            expect(same(k.state.Accounts.valueCodec.encode(got), anyT.encode(anyT.fromObject(want)).finish())).to.equal(true);
          }
        }
      }
    }
  });

  it('leaves public keys, non-ASCII addresses and out-of-range numbers to the registry (same bytes)', () => {
    const pk = registry.packAny('chain.crypto.secp256k1.PubKey', { key: new Uint8Array(33).fill(2) });
    const odd = [
      { address: 'a', pub_key: pk, account_number: 1n, sequence: 2n },
      { address: 'é', pub_key: null, account_number: 1n, sequence: 2n },
      { address: 'a', pub_key: null, account_number: 2n ** 64n, sequence: -1n },
      { address: 'a', pub_key: null, account_number: 5, sequence: '7' },
    ] as unknown as BaseAccount[];
    for (const base of odd) {
      const got = k.packAccount({ address: new Uint8Array(20), base });
      expect(same(got.value, registry.packAny(BASE_ACCOUNT, { ...base }).value)).to.equal(true);
    }
  });

  it('round-trips through decodeAccount', () => {
    const base: BaseAccount = { address: toBech32('chain', new Uint8Array(20).fill(1)), pub_key: null, account_number: 12345678901234n, sequence: 7n };
    const addr = new Uint8Array(20).fill(1);
    const acc = k.decodeAccount(addr, k.state.Accounts.valueCodec.encode(k.packAccount({ address: addr, base })));
    expect(acc.base).to.deep.equal(base);
  });
});
