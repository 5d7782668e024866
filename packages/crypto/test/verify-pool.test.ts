import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { VerifyPool, recoverSecp256k1, sha256, signSecp256k1Digest, secp256k1PublicKey, uncompressSecp256k1, verifySecp256k1Digest, type RecoverItem, type VerifyItem } from '../src/index.js';

const SECP_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function highS(sig: Uint8Array): Uint8Array {
  const s = BigInt('0x' + Buffer.from(sig.subarray(32)).toString('hex'));
  const out = sig.slice();
  out.set(Buffer.from((SECP_N - s).toString(16).padStart(64, '0'), 'hex'), 32);
  return out;
}

describe('VerifyPool (secp256k1 on worker threads)', () => {
  let pool: VerifyPool;
  before(() => {
    pool = new VerifyPool(2);
  });
  after(async () => {
    await pool.close();
  });

  it('answers as verifySecp256k1Digest for valid, wrong, high-S and malformed checks, across workers and requests', async () => {
    const items: VerifyItem[] = [];
    for (let i = 0; i < 300; i++) {
      const priv = sha256(new TextEncoder().encode(`key ${i % 7}`));
      const digest = sha256(new TextEncoder().encode(`msg ${i}`));
      const sig = signSecp256k1Digest(priv, digest);
      const pub = i % 5 === 0 ? uncompressSecp256k1(secp256k1PublicKey(priv)) : secp256k1PublicKey(priv);
      switch (i % 6) {
        case 0: items.push({ pubkey: pub, digest, sig }); break;
        case 1: items.push({ pubkey: pub, digest: sha256(digest), sig }); break; // another message
        case 2: items.push({ pubkey: pub, digest, sig: highS(sig) }); break; // malleated: refused
        case 3: items.push({ pubkey: pub, digest, sig: sig.subarray(0, 63) }); break; // malformed
        case 4: items.push({ pubkey: pub.subarray(0, 20), digest, sig }); break; // malformed key
        default: items.push({ pubkey: pub, digest, sig });
      }
    }
    const want = items.map((it) => verifySecp256k1Digest(it.pubkey, it.digest, it.sig));
    expect(want.filter(Boolean).length).to.be.greaterThan(50);
    // several requests queued in one turn, so batches are split between the workers
    const got = await Promise.all([pool.verify(items.slice(0, 100)), pool.verify(items.slice(100, 101)), pool.verify(items.slice(101))]);
    expect(got.flat()).to.deep.equal(want);
    expect(await pool.verify([])).to.deep.equal([]);
  });

  it('recovers keys as recoverSecp256k1 (Ethereum senders), undefined for malformed input, with verifications in the same turn', async () => {
    const items: RecoverItem[] = [];
    const want: (string | undefined)[] = [];
    for (let i = 0; i < 120; i++) {
      const priv = sha256(new TextEncoder().encode(`key ${i % 5}`));
      const digest = sha256(new TextEncoder().encode(`msg ${i}`));
      const sig = signSecp256k1Digest(priv, digest);
      const pub = Buffer.from(uncompressSecp256k1(secp256k1PublicKey(priv))).toString('hex');
      const recovery = Buffer.from(recoverSecp256k1(sig, 0, digest)).toString('hex') === pub ? 0 : 1;
      switch (i % 4) {
        case 0: items.push({ digest, sig, recovery }); want.push(pub); break;
        case 1: items.push({ digest, sig, recovery: 1 - recovery }); want.push(Buffer.from(recoverSecp256k1(sig, 1 - recovery, digest)).toString('hex')); break; // another key
        case 2: items.push({ digest, sig, recovery: 2 }); want.push(undefined); break; // malformed recovery id
        default: items.push({ digest, sig: sig.subarray(0, 60), recovery }); want.push(undefined); // malformed signature
      }
    }
    const priv = sha256(new TextEncoder().encode('v'));
    const digest = sha256(new TextEncoder().encode('m'));
    const [a, b, v] = await Promise.all([pool.recover(items.slice(0, 50)), pool.recover(items.slice(50)), pool.verify([{ pubkey: secp256k1PublicKey(priv), digest, sig: signSecp256k1Digest(priv, digest) }])]);
    expect([...a, ...b].map((k) => k && Buffer.from(k).toString('hex'))).to.deep.equal(want);
    expect(v).to.deep.equal([true]);
    expect(await pool.recover([])).to.deep.equal([]);
  });

  it('answers false for everything once closed (callers then verify on the main thread)', async () => {
    const p = new VerifyPool(1);
    const priv = sha256(new TextEncoder().encode('k'));
    const digest = sha256(new TextEncoder().encode('m'));
    const item = { pubkey: secp256k1PublicKey(priv), digest, sig: signSecp256k1Digest(priv, digest) };
    expect(await p.verify([item])).to.deep.equal([true]);
    await p.close();
    expect(p.available).to.equal(false);
    expect(await p.verify([item])).to.deep.equal([false]);
  });

  it('keeps a process alive while checks are in flight, and lets it exit when idle', () => {
    const src = fileURLToPath(new URL('../src/verify-pool.ts', import.meta.url));
    const code = `import { VerifyPool } from ${JSON.stringify(src)};
const p = new VerifyPool(1);
const r = await p.verify([{ pubkey: new Uint8Array(33), digest: new Uint8Array(32), sig: new Uint8Array(64) }]);
console.log('answered', JSON.stringify(r), p.checks);`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 20_000 });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('answered [false] 1');
  });
});
