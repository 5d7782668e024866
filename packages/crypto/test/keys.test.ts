import { expect } from 'chai';
import { createHash } from 'node:crypto';
import {
  DEV_MNEMONIC, derivePrivateKey, hdPath, secp256k1PublicKey, secp256k1Address, ethAddress, toChecksumAddress,
  verifySecp256k1, verifyEthSecp256k1, signSecp256k1Digest, sha256, keccak256, toBech32, fromBech32, nativeSecp256k1,
  utf8, toHex, fromHex, fromBase64, toBase64, recoverSecp256k1, nativeKeccak, ed25519PublicKey, ed25519Sign, ed25519Verify,
} from '../src/index.js';
import { ed25519 as nobleEd } from '@noble/curves/ed25519.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { secp256k1 as nobleSecp } from '@noble/curves/secp256k1.js';

describe('crypto keys', () => {
  it('loads the native secp256k1 binding', () => {
    expect(nativeSecp256k1).to.equal(true);
  });

  it('loads the native keccak addon and hashes as keccak-256 (not SHA3-256)', () => {
    expect(nativeKeccak).to.equal(true);
    expect(toHex(keccak256(new Uint8Array()))).to.equal('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(toHex(keccak256(utf8('abc')))).to.equal('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
    // every length around the 136-byte rate, from offsets inside a larger buffer, twice in a row
    const big = new Uint8Array(700).map((_, i) => (i * 31 + 7) & 0xff);
    for (const len of [1, 31, 32, 33, 135, 136, 137, 271, 272, 273, 500]) {
      const part = big.subarray(3, 3 + len);
      const want = toHex(keccak_256(part));
      expect(toHex(keccak256(part)), `length ${len}`).to.equal(want);
      expect(toHex(keccak256(part)), `length ${len}, again`).to.equal(want);
    }
    const a = keccak256(utf8('a'));
    const b = keccak256(utf8('b'));
    expect(toHex(a)).to.not.equal(toHex(b)); // results are independent buffers
  });

  it('derives the well-known hardhat account 0 from the dev mnemonic (coin type 60)', () => {
    const pk = derivePrivateKey(DEV_MNEMONIC, hdPath(60, 0));
    expect(toHex(pk)).to.equal('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    const addr = ethAddress(secp256k1PublicKey(pk));
    expect(toChecksumAddress(addr)).to.equal('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  });

  it('signs and verifies cosmos secp256k1 and rejects tampering', () => {
    const pk = derivePrivateKey(DEV_MNEMONIC, hdPath(118, 0));
    const pub = secp256k1PublicKey(pk);
    const msg = utf8('sign bytes');
    const sig = signSecp256k1Digest(pk, sha256(msg));
    expect(verifySecp256k1(pub, msg, sig)).to.equal(true);
    expect(verifySecp256k1(pub, utf8('other'), sig)).to.equal(false);
    expect(verifyEthSecp256k1(pub, msg, sig)).to.equal(false);
    expect(secp256k1Address(pub)).to.have.length(20);
  });

  it('rejects high-S signatures', () => {
    const pk = derivePrivateKey(DEV_MNEMONIC, hdPath(118, 1));
    const pub = secp256k1PublicKey(pk);
    const msg = utf8('x');
    const sig = signSecp256k1Digest(pk, sha256(msg));
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt('0x' + toHex(sig.subarray(32)));
    const high = fromHex((n - s).toString(16).padStart(64, '0'));
    const bad = new Uint8Array(64); bad.set(sig.subarray(0, 32)); bad.set(high, 32);
    expect(verifySecp256k1(pub, msg, bad)).to.equal(false);
  });

  it('verifies eth_secp256k1 (keccak digest), 64 or 65 bytes', () => {
    const pk = derivePrivateKey(DEV_MNEMONIC, hdPath(60, 2));
    const pub = secp256k1PublicKey(pk);
    const msg = utf8('doc');
    const sig = signSecp256k1Digest(pk, keccak256(msg));
    expect(verifyEthSecp256k1(pub, msg, sig)).to.equal(true);
    expect(verifyEthSecp256k1(pub, msg, new Uint8Array([...sig, 27]))).to.equal(true);
  });

  it('recovers the signer key of a signature (ecrecover), compressed and not', () => {
    const pk = derivePrivateKey(DEV_MNEMONIC, hdPath(60, 3));
    const digest = keccak256(utf8('recover me'));
    const full = nobleSecp.sign(digest, pk, { prehash: false, format: 'recovered' });
    const recid = full[0]!;
    const sig = full.subarray(1);
    expect(toHex(recoverSecp256k1(sig, recid, digest, true))).to.equal(toHex(secp256k1PublicKey(pk)));
    expect(toHex(recoverSecp256k1(sig, recid, digest, false))).to.equal(toHex(secp256k1PublicKey(pk, false)));
    expect(toHex(recoverSecp256k1(sig, recid ^ 1, digest, true))).to.not.equal(toHex(secp256k1PublicKey(pk)));
  });

  it('round-trips bech32 and rejects a bad checksum', () => {
    const data = new Uint8Array(20).fill(7);
    const s = toBech32('chain', data);
    expect(s.startsWith('chain1')).to.equal(true);
    expect(fromBech32(s).data).to.deep.equal(data);
    expect(() => fromBech32(s.slice(0, -1) + (s.endsWith('q') ? 'p' : 'q'))).to.throw(/decoding bech32 failed/);
  });

  it('bech32-encodes data of any length (the SDK does), decoding keeps the 1023-character limit', () => {
    const long = toBech32('chain', new Uint8Array(4000).fill(1));
    expect(long).to.have.length(6412);
    expect(() => fromBech32(long)).to.throw(/decoding bech32 failed/);
  });

  it('ed25519 public keys and signatures (node:crypto) equal @noble/curves\' (RFC 8032), RFC 8032 test 1 included', () => {
    // RFC 8032 section 7.1, TEST 1 (empty message)
    const seed = fromHex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    expect(toHex(ed25519PublicKey(seed))).to.equal('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    expect(toHex(ed25519Sign(seed, new Uint8Array(0)))).to.equal(
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    );
    for (let i = 0; i < 50; i++) {
      const k = sha256(utf8(`ed25519 seed ${i}`));
      const msg = sha256(utf8(`message ${i}`)).subarray(0, i);
      const pub = ed25519PublicKey(k);
      expect(toHex(pub)).to.equal(toHex(nobleEd.getPublicKey(k)));
      const sig = ed25519Sign(k, msg);
      expect(toHex(sig)).to.equal(toHex(nobleEd.sign(msg, k)));
      expect(ed25519Verify(pub, msg, sig)).to.equal(true);
    }
    expect(() => ed25519Sign(new Uint8Array(31), new Uint8Array(1))).to.throw('ed25519: a private key is a 32-byte seed, got 31 bytes');
    expect(() => ed25519PublicKey(new Uint8Array(64))).to.throw('ed25519: a private key is a 32-byte seed, got 64 bytes');
  });

  it('sha256 (node:crypto\'s one-shot hash) gives the digest createHash gives, as a plain Uint8Array', () => {
    expect(toHex(sha256(utf8('abc')))).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (let n = 0; n <= 300; n += 7) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      const d = sha256(data);
      expect(toHex(d)).to.equal(createHash('sha256').update(data).digest('hex'));
      expect(Object.getPrototypeOf(d)).to.equal(Uint8Array.prototype);
    }
  });

  it('base64 is strict', () => {
    expect(toBase64(fromBase64('AQID'))).to.equal('AQID');
    expect(() => fromBase64('!!!')).to.throw();
  });
});
