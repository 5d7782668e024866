/**
 * decodeEthTx against an independent decoding (ethereumjs with its own pure-JS keccak and ecrecover, no
 * shared Common), its cache, and the tx parameters our shared Common carries.
 */
import { expect } from 'chai';
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { paramsEVM } from '@ethereumjs/evm';
import { createTxFromRLP } from '@ethereumjs/tx';
import type { AccessList } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { commonFor, decodeEthTx } from '../src/index.js';
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
