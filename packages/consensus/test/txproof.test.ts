/** Tx inclusion proofs (`Txs.Proof`, `TxProof.Validate`) against vectors from cometbft v0.38 (tools/cmt-vectors). */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { dataHash, merkleProofs, merkleRoot, txHash, txProof, validateTxProof, verifyMerkleProof, type TxProof } from '../src/hashing.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON vectors are untyped */
const V: any = JSON.parse(readFileSync(new URL('./vectors/cmt-v038.json', import.meta.url), 'utf8'));
const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const b64 = (b: Uint8Array): string => Buffer.from(b).toString('base64');
const flip = (b: Uint8Array): Uint8Array => { const c = new Uint8Array(b); c[0] ^= 1; return c; };

/** The libs/json form CometBFT's RPC writes (what packages/server/src/rpc/format.ts txProofJson emits). */
const json = (p: TxProof) => ({
  root_hash: Buffer.from(p.rootHash).toString('hex').toUpperCase(),
  data: b64(p.data),
  proof: { total: String(p.proof.total), index: String(p.proof.index), leaf_hash: b64(p.proof.leafHash), aunts: p.proof.aunts.map(b64) },
});

describe('tx proofs (cometbft v0.38 vectors)', () => {
  it('the vectors cover 1–7 txs and uneven sizes, every index', () => {
    expect(V.tx_proofs.map((s: any) => s.name)).to.include.members(['1 txs', '2 txs', '3 txs', '5 txs', '7 txs', 'uneven']);
    for (const s of V.tx_proofs) expect(s.proofs).to.have.length(s.txs.length);
  });

  for (const s of V.tx_proofs as any[]) {
    it(`${s.name}: txProof equals Txs.Proof(i) as libs/json writes it, root = data_hash, Validate semantics`, () => {
      const txs = (s.txs as string[]).map(hex);
      expect(Buffer.from(dataHash(txs)).toString('hex')).to.equal(s.data_hash);
      txs.forEach((_, i) => {
        const p = txProof(txs, i);
        expect(json(p)).to.deep.equal(s.proofs[i]);
        const dh = hex(s.data_hash);
        expect(validateTxProof(p, dh)).to.equal(undefined);
        // the tampered proofs CometBFT rejects, with its messages
        const t = s.tampered[i];
        const msg = (m: string) => (m === '' ? undefined : m);
        expect(validateTxProof(p, flip(dh))).to.equal(msg(t.wrong_data_hash)).and.to.not.equal(undefined);
        expect(validateTxProof({ ...p, data: new TextEncoder().encode('another tx') }, dh)).to.equal(msg(t.other_tx)).and.to.not.equal(undefined);
        expect(validateTxProof({ ...p, proof: { ...p.proof, leafHash: flip(p.proof.leafHash) } }, dh)).to.equal(msg(t.bad_leaf_hash)).and.to.not.equal(undefined);
        if (p.proof.aunts.length) {
          const aunts = [flip(p.proof.aunts[0]!), ...p.proof.aunts.slice(1)];
          expect(validateTxProof({ ...p, proof: { ...p.proof, aunts } }, dh)).to.equal(msg(t.bad_aunt)).and.to.not.equal(undefined);
          expect(validateTxProof({ ...p, proof: { ...p.proof, aunts: p.proof.aunts.slice(0, -1) } }, dh)).to.equal(msg(t.dropped_aunt)).and.to.not.equal(undefined);
        } else {
          expect(t).to.not.have.property('bad_aunt');
        }
      });
    });
  }

  it('merkleProofs agree with merkleRoot for 0–40 items and every proof verifies only its own leaf', () => {
    for (let n = 0; n <= 40; n++) {
      const items = Array.from({ length: n }, (_, i) => Uint8Array.of(i, n, 7));
      const { root, proofs } = merkleProofs(items);
      expect(root).to.deep.equal(merkleRoot(items));
      expect(proofs).to.have.length(n);
      proofs.forEach((p, i) => {
        expect(verifyMerkleProof(p, root, items[i]!)).to.equal(undefined);
        if (n > 1) expect(verifyMerkleProof(p, root, items[(i + 1) % n]!)).to.equal('invalid leaf hash');
        expect(verifyMerkleProof({ ...p, index: n }, root, items[i]!)).to.not.equal(undefined);
      });
    }
  });

  it('txProof: leaves are the tx hashes (Tx.Hash), out-of-range indices throw', () => {
    const txs = [Uint8Array.of(1), Uint8Array.of(2)];
    expect(txProof(txs, 1).proof.leafHash).to.deep.equal(merkleProofs(txs.map(txHash)).proofs[1]!.leafHash);
    expect(txProof(txs, 1).proof.leafHash).to.not.deep.equal(merkleProofs(txs).proofs[1]!.leafHash);
    expect(() => txProof(txs, 2)).to.throw(RangeError);
    expect(() => txProof([], 0)).to.throw(RangeError);
  });
});
