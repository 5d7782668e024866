/**
 * decodeEthTx against an independent decoding (ethereumjs with its own pure-JS keccak and ecrecover, no
 * shared Common), its cache, and the tx parameters our shared Common carries.
 */
import { expect } from 'chai';
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { paramsEVM } from '@ethereumjs/evm';
import { createLegacyTx, createTxFromRLP } from '@ethereumjs/tx';
import type { AccessList } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { RLP } from '@ethereumjs/rlp';
import { sharedVerifyPool } from '@chain/crypto';
import { commonFor, decodeEthTx, precheckEthTx } from '../src/index.js';
import { signingHash } from '../src/ethtx.js';
import { ETH_CHAIN_ID, ethKey, signEthTx } from './helpers.js';

const reference = createCustomCommon({ chainId: Number(ETH_CHAIN_ID) }, Mainnet, { hardfork: Hardfork.Prague });

describe('decodeEthTx', () => {
  const alice = ethKey(0);
  const data = Uint8Array.from([0, 0, 1, 2, 0, 3]); // 3 zero bytes, 3 non-zero
  const accessList = [{ address: ethKey(3).hex, storageKeys: ['0x' + '11'.repeat(32)] }] as AccessList;

  for (const type of [0, 1, 2] as const) {
    it(`matches an independent decoding for type ${type}: hash, sender, fields, intrinsic gas`, () => {
      const raw = signEthTx(alice, { type, nonce: 7n, to: ethKey(1).addr, value: 5n, data, gasLimit: 90_000n, ...(type === 0 ? {} : { accessList }) });
      const ref = createTxFromRLP(raw, { common: reference });
      const d = decodeEthTx(raw, ETH_CHAIN_ID);
      expect(d.hashHex).to.equal(bytesToHex(ref.hash()));
      expect(bytesToHex(d.sender)).to.equal(ref.getSenderAddress().toString());
      expect(bytesToHex(d.sender)).to.equal(bytesToHex(alice.addr));
      expect({ type: d.type, nonce: d.nonce, gasLimit: d.gasLimit, value: d.value }).to.deep.equal({ type, nonce: 7n, gasLimit: 90_000n, value: 5n });
      // 21000 + 3 x 16 + 3 x 4 (+ 2400 per address and 1900 per slot of the access list)
      const expected = 21_000n + 48n + 12n + (type === 0 ? 0n : 2_400n + 1_900n);
      expect(d.intrinsicGas).to.equal(expected);
      expect(d.intrinsicGas).to.equal(ref.getIntrinsicGas());
    });
  }

  it('decodes each tx once (cached by its bytes) and keeps its own copy of them', () => {
    const raw = signEthTx(alice, { nonce: 11n, to: ethKey(2).addr, value: 1n });
    const a = decodeEthTx(raw, ETH_CHAIN_ID);
    expect(decodeEthTx(raw.slice(), ETH_CHAIN_ID)).to.equal(a);
    const hash = a.hashHex;
    raw[raw.length - 1] ^= 1; // the caller's buffer changes: the cached tx does not
    expect(a.hashHex).to.equal(hash);
    expect(bytesToHex(a.raw)).to.not.equal(bytesToHex(raw));
    let other;
    try { other = decodeEthTx(raw, ETH_CHAIN_ID); } catch { other = undefined; } // decoded on their own
    expect(other?.hashHex).to.not.equal(hash);
  });

  it('does not cache txs above 16 KiB (the cache is bounded in bytes, not only in entries)', () => {
    const raw = signEthTx(alice, { nonce: 14n, to: ethKey(2).addr, data: new Uint8Array(20_000).fill(1), gasLimit: 1_000_000n });
    const a = decodeEthTx(raw, ETH_CHAIN_ID);
    const b = decodeEthTx(raw, ETH_CHAIN_ID);
    expect(b).to.not.equal(a);
    expect(b.hashHex).to.equal(a.hashHex);
  });

  it('does not cache failures, and checks the chain id before the cache can answer', () => {
    const raw = signEthTx(alice, { nonce: 12n, to: ethKey(2).addr });
    expect(() => decodeEthTx(raw, 1n)).to.throw(/chain id 1337 does not match/);
    expect(decodeEthTx(raw, ETH_CHAIN_ID).nonce).to.equal(12n);
    expect(() => decodeEthTx(raw, 1n)).to.throw(/chain id 1337 does not match/);
  });

  it('keeps the tx parameters of the shared Common after copies and EVM parameter updates', () => {
    const common = commonFor(ETH_CHAIN_ID);
    const copy = common.copy();
    copy.updateParams(paramsEVM); // another dictionary (what the EVM does): applied for real, to the copy
    expect(copy.param('keccak256Gas')).to.equal(30n);
    expect(copy.param('txGas')).to.equal(21_000n);
    expect(common.param('txGas')).to.equal(21_000n);
    expect(common.copy().param('txDataNonZeroGas')).to.equal(16n);
    const raw = signEthTx(alice, { nonce: 13n, to: ethKey(2).addr, data });
    expect(decodeEthTx(raw, ETH_CHAIN_ID).intrinsicGas).to.equal(21_000n + 48n + 12n);
  });
});

describe('commonFor: isActivatedEIP by a set', () => {
  it('answers as ethereumjs does, for every EIP number, on copies and after the EIPs change', () => {
    const c = commonFor(ETH_CHAIN_ID);
    const proto = Object.getPrototypeOf(c) as { isActivatedEIP(this: unknown, eip: number): boolean };
    const check = (x: typeof c): void => {
      for (let eip = 0; eip <= 8000; eip++) expect(x.isActivatedEIP(eip), `EIP-${eip}`).to.equal(proto.isActivatedEIP.call(x, eip));
    };
    check(c);
    expect(c.isActivatedEIP(2929)).to.equal(true);
    const copy = c.copy();
    check(copy);
    copy.setHardfork(Hardfork.London);
    check(copy);
    expect(copy.isActivatedEIP(1153)).to.equal(false);
    expect(c.isActivatedEIP(1153)).to.equal(true);
  });
});

describe('signingHash (what the signature signs, from the encoding)', () => {
  it('equals ethereumjs getHashedMessageToSign for every tx type, data of 0-600 bytes, access lists, chain ids, unprotected', () => {
    const homestead = createCustomCommon({ chainId: Number(ETH_CHAIN_ID) }, Mainnet, { hardfork: Hardfork.Homestead });
    let n = 0;
    for (const len of [0, 1, 31, 55, 56, 200, 255, 256, 600]) {
      const data = Uint8Array.from({ length: len }, (_, i) => (i * 37 + len) & 255);
      for (const type of [0, 1, 2] as const) {
        for (const chainId of [ETH_CHAIN_ID, 1n, 9000n, 2n ** 40n]) {
          const accessList: AccessList = len % 2 === 0 ? [] : [{ address: bytesToHex(ethKey(3).addr), storageKeys: [bytesToHex(new Uint8Array(32).fill(len & 255))] }];
          const raw = signEthTx(ethKey(len % 5), { type, chainId, nonce: BigInt(len), to: len === 55 ? undefined : ethKey(1).addr, value: BigInt(len) * 10n ** 15n, data, accessList: type === 0 ? undefined : accessList, gasLimit: 1_000_000n });
          const ref = createTxFromRLP(raw, { common: commonFor(chainId) });
          expect(bytesToHex(signingHash(raw, type, chainId)), `type ${type} data ${len} chain ${chainId}`).to.equal(bytesToHex(ref.getHashedMessageToSign()));
          n++;
        }
      }
      const unprotected = createLegacyTx({ nonce: 1n, gasLimit: 60_000n, gasPrice: 10n ** 10n, data }, { common: homestead }).sign(ethKey(0).priv).serialize();
      expect(bytesToHex(signingHash(unprotected, 0, undefined))).to.equal(bytesToHex(createTxFromRLP(unprotected, { common: homestead }).getHashedMessageToSign()));
    }
    expect(n).to.equal(108);
  });
});

describe('precheckEthTx (the sender recovered on the verification pool)', () => {
  const SECP_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  const alice = ethKey(0);
  const strip = (d: ReturnType<typeof decodeEthTx>): Record<string, unknown> => ({ ...d, raw: bytesToHex(d.raw), hash: bytesToHex(d.hash), sender: bytesToHex(d.sender) });

  it('puts in the cache what decodeEthTx decodes (all tx types, an unprotected legacy tx), recovered on a worker', async () => {
    const pool = sharedVerifyPool();
    expect(pool, 'the native secp256k1 binding and workers').to.not.equal(undefined);
    const homestead = createCustomCommon({ chainId: Number(ETH_CHAIN_ID) }, Mainnet, { hardfork: Hardfork.Homestead });
    const raws = [
      ...([0, 1, 2] as const).map((type, i) => signEthTx(alice, { type, nonce: 100n + BigInt(i), to: ethKey(1).addr, value: 3n })),
      ...([0, 1, 2] as const).map((type, i) => signEthTx(ethKey(4), { type, nonce: 200n + BigInt(i), data: Uint8Array.of(1, 2) })),
      createLegacyTx({ nonce: 300n, gasLimit: 21_000n, gasPrice: 10n ** 10n, to: ethKey(9).addr, value: 1n }, { common: homestead }).sign(alice.priv).serialize(),
    ];
    const before = pool!.checks;
    for (const raw of raws) {
      await precheckEthTx(raw, ETH_CHAIN_ID);
      const cached = decodeEthTx(raw, ETH_CHAIN_ID, { allowUnprotected: true });
      // the same as an independent decoding on this thread
      const ref = createTxFromRLP(raw, { common: reference });
      expect(bytesToHex(cached.sender)).to.equal(ref.getSenderAddress().toString());
      expect(cached.hashHex).to.equal(bytesToHex(ref.hash()));
      // and decodeEthTx answers it from the cache (the same object), with its checks: unprotected still refused
      expect(decodeEthTx(raw.slice(), ETH_CHAIN_ID, { allowUnprotected: true })).to.equal(cached);
      expect(strip(cached)).to.deep.equal(strip({ ...cached, ...createTxFromRLPFields(raw) }));
    }
    expect(pool!.checks - before).to.equal(raws.length);
    expect(() => decodeEthTx(raws[raws.length - 1]!, ETH_CHAIN_ID)).to.throw(/EIP-155/);
  });

  it('leaves bad txs to decodeEthTx (its errors): high s, another chain, garbage; caches nothing for them', async () => {
    const raw = signEthTx(alice, { type: 2, nonce: 400n, to: ethKey(1).addr });
    const tx = createTxFromRLP(raw, { common: commonFor(ETH_CHAIN_ID) });
    // the malleated twin (s -> n - s, parity flipped) recovers to the same key, but the decoder refuses a high s
    const fields = (tx as unknown as { raw(): Uint8Array[] }).raw();
    const s = BigInt(bytesToHex(fields[11]!));
    const hiS = createTxFromRLPWith(raw, SECP_N - s, fields[9]![0] === 1 ? 0 : 1);
    for (const bad of [hiS, signEthTx(alice, { type: 2, nonce: 401n, chainId: 1n }), Uint8Array.of(2, 0xc0)]) {
      await precheckEthTx(bad, ETH_CHAIN_ID);
      expect(() => decodeEthTx(bad, ETH_CHAIN_ID)).to.throw();
    }
  });
});

/** The fields decodeEthTx derives without the signature, decoded on this thread (for the comparison above). */
function createTxFromRLPFields(raw: Uint8Array): Record<string, unknown> {
  const tx = createTxFromRLP(raw, { common: commonFor(ETH_CHAIN_ID) });
  return { nonce: tx.nonce, gasLimit: tx.gasLimit, value: tx.value, intrinsicGas: tx.getIntrinsicGas(), type: tx.type };
}

/** A 1559 tx with its s and y parity replaced (RLP re-encoded). */
function createTxFromRLPWith(raw: Uint8Array, s: bigint, yParity: number): Uint8Array {
  const tx = createTxFromRLP(raw, { common: commonFor(ETH_CHAIN_ID) });
  const f = (tx as unknown as { raw(): Uint8Array[] }).raw();
  f[9] = yParity === 0 ? new Uint8Array() : Uint8Array.of(1);
  f[11] = Buffer.from(s.toString(16).padStart(64, '0'), 'hex');
  return Uint8Array.from([2, ...RLP.encode(f)]);
}
