import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { ed25519 } from '@noble/curves/ed25519.js';
import protobuf from 'protobufjs';
import {
  blockId, canonicalVoteSignBytes, commitHash, commitSigSignBytes, consensusParamsHash, dataHash, emptyBlockId,
  dataHashOfTxHashes, encodeBlock, encodeCommit, encodeExecTxResult, encodeHeader, evidenceHash, headerHash, isZeroBlockId,
  lastResultsHash, makePartSetHeader, merkleRoot, sortValidators, splitParts, txHash, validatorAddress,
  validatorSetHash,
} from '../src/hashing.js';
import {
  BLOCK_PART_SIZE_BYTES, GO_ZERO_TIME, type Block, type BlockID, type BlockIDFlag, type Commit, type ConsensusParams,
  type Header, type Timestamp, type Validator, type Vote, type VoteType,
} from '../src/cmt-types.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON vectors are untyped */
type J = any;

const V: J = JSON.parse(readFileSync(new URL('./vectors/cmt-v038.json', import.meta.url), 'utf8'));

const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

const time = (t: J): Timestamp => ({ seconds: t.seconds, nanos: t.nanos });
const bid = (b: J): BlockID => ({
  hash: hex(b.hash),
  partSetHeader: { total: b.part_set_header.total, hash: hex(b.part_set_header.hash) },
});
const header = (h: J): Header => ({
  version: { block: h.version.block, app: h.version.app },
  chainId: h.chain_id,
  height: h.height,
  time: time(h.time),
  lastBlockId: bid(h.last_block_id),
  lastCommitHash: hex(h.last_commit_hash),
  dataHash: hex(h.data_hash),
  validatorsHash: hex(h.validators_hash),
  nextValidatorsHash: hex(h.next_validators_hash),
  consensusHash: hex(h.consensus_hash),
  appHash: hex(h.app_hash),
  lastResultsHash: hex(h.last_results_hash),
  evidenceHash: hex(h.evidence_hash),
  proposerAddress: hex(h.proposer_address),
});
const commit = (c: J): Commit => ({
  height: c.height,
  round: c.round,
  blockId: bid(c.block_id),
  signatures: c.signatures.map((s: J) => ({
    blockIdFlag: s.block_id_flag as BlockIDFlag,
    validatorAddress: hex(s.validator_address),
    timestamp: time(s.timestamp),
    signature: hex(s.signature),
  })),
});
const genTx = (seed: number, len: number): Uint8Array => {
  const b = new Uint8Array(len);
  for (let j = 0; j < len; j++) b[j] = (j * 31 + seed) & 0xff;
  return b;
};
const tx = (t: J): Uint8Array => (t.seed !== undefined ? genTx(t.seed, t.len) : hex(t.hex));
const block = (b: J): Block => ({
  header: header(b.header),
  data: { txs: (b.txs ?? []).map(tx) },
  evidence: [],
  lastCommit: b.last_commit === null ? null : commit(b.last_commit),
});
const validator = (v: J): Validator => ({
  address: hex(v.address),
  pubKey: hex(v.pub_key),
  votingPower: v.voting_power,
  proposerPriority: v.proposer_priority,
});
const vote = (v: J): Vote => ({
  type: v.type as VoteType,
  height: v.height,
  round: v.round,
  blockId: bid(v.block_id),
  timestamp: time(v.timestamp),
  validatorAddress: hex(v.validator_address),
  validatorIndex: v.validator_index,
  signature: hex(v.signature),
});

describe('cometbft v0.38 hashing vectors', () => {
  it('vectors come from cometbft v0.38', () => {
    expect(V.cometbft_version).to.match(/^v0\.38\./);
    expect(V.block_part_size).to.equal(BLOCK_PART_SIZE_BYTES);
  });

  it('merkleRoot matches merkle.HashFromByteSlices', () => {
    expect(V.merkle.length).to.be.greaterThan(10);
    for (const m of V.merkle) expect(toHex(merkleRoot(m.items.map(hex))), `${m.items.length} items`).to.equal(m.root);
  });

  it('txHash matches Tx.Hash', () => {
    for (const t of V.tx_hashes) expect(toHex(txHash(hex(t.tx)))).to.equal(t.hash);
  });

  it('validatorAddress and key derivation match ed25519.GenPrivKeyFromSecret', () => {
    for (const k of V.keys) {
      const seed = createHash('sha256').update(k.secret).digest();
      expect(toHex(ed25519.getPublicKey(seed))).to.equal(k.pub_key);
      expect(toHex(validatorAddress(hex(k.pub_key)))).to.equal(k.address);
    }
  });

  it('validatorSetHash matches ValidatorSet.Hash, sortValidators matches set order', () => {
    for (const s of V.validator_sets) {
      const vals: Validator[] = s.validators.map(validator);
      expect(toHex(validatorSetHash(vals))).to.equal(s.hash);
      expect(sortValidators([...vals].reverse()).map((v) => toHex(v.address))).to.deep.equal(
        vals.map((v) => toHex(v.address)),
      );
    }
  });

  it('consensusParamsHash matches ConsensusParams.Hash', () => {
    expect(V.consensus_params).to.have.length(3);
    for (const p of V.consensus_params) {
      const params: ConsensusParams = {
        block: { maxBytes: p.block.max_bytes, maxGas: p.block.max_gas },
        evidence: {
          maxAgeNumBlocks: p.evidence.max_age_num_blocks,
          maxAgeDuration: BigInt(p.evidence.max_age_duration),
          maxBytes: p.evidence.max_bytes,
        },
        validator: { pubKeyTypes: p.validator.pub_key_types ?? [] },
        version: { app: p.version.app },
        abci: { voteExtensionsEnableHeight: p.abci.vote_extensions_enable_height },
      };
      expect(toHex(consensusParamsHash(params))).to.equal(p.hash);
    }
  });

  it('lastResultsHash matches ABCIResults.Hash (non-deterministic fields ignored)', () => {
    for (const r of V.results) {
      const results = r.results ?? [];
      const rs = results.map((x: J) => ({ code: x.code, data: hex(x.data), gasWanted: x.gas_wanted, gasUsed: x.gas_used, log: x.log }));
      expect(rs.map((x: J) => toHex(encodeExecTxResult(x)))).to.deep.equal(r.protos ?? []);
      expect(toHex(lastResultsHash(rs))).to.equal(r.hash);
    }
  });

  it('encodeExecTxResult writes what the protobuf encoder writes, over the edges of each field', () => {
    // an independent reference: protobufjs's writer, field by field as proto3 leaves zero values out
    const ref = (r: { code: number; data: Uint8Array; gasWanted: number; gasUsed: number }): string => {
      const w = protobuf.Writer.create();
      if (r.code !== 0) w.uint32(0x08).uint32(r.code);
      if (r.data.length > 0) w.uint32(0x12).bytes(r.data);
      if (r.gasWanted !== 0) w.uint32(0x28).int64(r.gasWanted);
      if (r.gasUsed !== 0) w.uint32(0x30).int64(r.gasUsed);
      return toHex(w.finish());
    };
    const codes = [0, 1, 5, 127, 128, 300, 16383, 16384, 2 ** 31, 2 ** 32 - 1];
    const gases = [0, 1, 127, 128, 200_000, 2 ** 31, 2 ** 32, 2 ** 35 + 3, Number.MAX_SAFE_INTEGER, -1, -200_000];
    const datas = [new Uint8Array(), Uint8Array.of(0), new Uint8Array(127).fill(7), new Uint8Array(128).fill(9), new Uint8Array(70_000).fill(3)];
    let n = 0;
    for (const code of codes) for (const gasWanted of gases) for (const data of datas) {
      const r = { code, data, gasWanted, gasUsed: gases[(n++ * 7) % gases.length]! };
      expect(toHex(encodeExecTxResult(r)), JSON.stringify({ ...r, data: data.length })).to.equal(ref(r));
    }
  });

  it('merkleRoot and dataHash: the same roots as hashing every leaf and inner node with its own Hash object', () => {
    const h = (...parts: Uint8Array[]): Uint8Array => {
      const x = createHash('sha256');
      for (const p of parts) x.update(p);
      return new Uint8Array(x.digest());
    };
    const slow = (items: Uint8Array[]): Uint8Array => {
      if (items.length === 0) return h();
      const rec = (xs: Uint8Array[]): Uint8Array => {
        if (xs.length === 1) return xs[0]!;
        let k = 1;
        while (k * 2 < xs.length) k *= 2;
        return h(Uint8Array.of(1), rec(xs.slice(0, k)), rec(xs.slice(k)));
      };
      return rec(items.map((it) => h(Uint8Array.of(0), it)));
    };
    let seed = 7;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (const count of [0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 33, 100]) {
      // item sizes up to 5,000 bytes (past the scratch buffer's first size)
      const items = Array.from({ length: count }, () => Uint8Array.from({ length: rand() % 5000 }, () => rand() % 256));
      expect(toHex(merkleRoot(items)), `${count} items`).to.equal(toHex(slow(items)));
      expect(toHex(dataHashOfTxHashes(items.map(txHash))), `${count} txs`).to.equal(toHex(dataHash(items)));
      expect(toHex(dataHash(items))).to.equal(toHex(slow(items.map((t) => h(t)))));
    }
  });

  it('commitHash and encodeCommit match Commit.Hash / Commit proto (absent + nil sigs)', () => {
    for (const c of V.commits) {
      const cm = commit(c.commit);
      expect(toHex(encodeCommit(cm))).to.equal(c.proto);
      expect(toHex(commitHash(cm))).to.equal(c.hash);
    }
    const absent = V.commits[2].commit.signatures[1];
    expect(time(absent.timestamp)).to.deep.equal(GO_ZERO_TIME);
  });

  it('commit signatures verify over commitSigSignBytes', () => {
    let verified = 0;
    for (const c of V.commits) {
      const cm = commit(c.commit);
      cm.signatures.forEach((s, i) => {
        if (s.blockIdFlag === 1) return;
        const key = V.keys.find((k: J) => k.address === toHex(s.validatorAddress));
        expect(ed25519.verify(s.signature, commitSigSignBytes(V.chain_id, cm, i), hex(key.pub_key))).to.equal(true);
        verified++;
      });
    }
    expect(verified).to.equal(3);
  });

  it('headerHash and encodeHeader match Header.Hash / Header proto', () => {
    expect(V.headers).to.have.length(3);
    expect(V.headers[0].header.height).to.equal(1);
    expect(isZeroBlockId(bid(V.headers[0].header.last_block_id))).to.equal(true);
    for (const h of V.headers) {
      const hd = header(h.header);
      expect(toHex(encodeHeader(hd))).to.equal(h.proto);
      expect(toHex(headerHash(hd))).to.equal(h.hash);
    }
  });

  it('headerHash rejects a header without validators hash', () => {
    const hd = header(V.headers[0].header);
    hd.validatorsHash = new Uint8Array(0);
    expect(() => headerHash(hd)).to.throw();
  });

  describe('blocks', () => {
    for (const b of V.blocks as J[]) {
      it(`${b.name}: data/evidence/commit hashes, block bytes, part set header, block id`, () => {
        const blk = block(b);
        expect(toHex(dataHash(blk.data.txs))).to.equal(b.data_hash);
        expect(toHex(dataHash(blk.data.txs))).to.equal(b.header.data_hash);
        expect(toHex(evidenceHash(blk.evidence))).to.equal(b.evidence_hash);
        expect(b.last_commit_hash).to.equal(b.header.last_commit_hash);
        if (blk.lastCommit) expect(toHex(commitHash(blk.lastCommit))).to.equal(b.last_commit_hash);
        expect(toHex(headerHash(blk.header))).to.equal(b.header_hash);

        const bytes = encodeBlock(blk);
        if (b.block_proto !== undefined) expect(toHex(bytes)).to.equal(b.block_proto);
        expect(bytes.length).to.equal(b.block_len);
        expect(sha(bytes)).to.equal(b.block_sha256);

        const psh = makePartSetHeader(bytes);
        expect(psh.total).to.equal(b.block_id.part_set_header.total);
        expect(toHex(psh.hash)).to.equal(b.block_id.part_set_header.hash);
        if (b.block_id.hash === '') {
          expect(blk.lastCommit).to.equal(null);
          expect(() => blockId(blk)).to.throw();
          return;
        }
        const id = blockId(blk);
        expect(toHex(id.hash)).to.equal(b.block_id.hash);
        expect(id.partSetHeader.total).to.equal(b.block_id.part_set_header.total);
        expect(toHex(id.partSetHeader.hash)).to.equal(b.block_id.part_set_header.hash);
      });
    }

    it('covers 0, 1 and 3 txs, nil/empty last commit and multi-part blocks', () => {
      const counts = (V.blocks as J[]).map((b) => (b.txs ?? []).length);
      expect(counts).to.include.members([0, 1, 3]);
      expect((V.blocks as J[]).some((b) => b.last_commit === null)).to.equal(true);
      const totals = (V.blocks as J[]).map((b) => b.block_id.part_set_header.total);
      expect(totals).to.include.members([1, 2, 3]);
    });

    it('splitParts cuts 64 KiB parts', () => {
      const parts = splitParts(new Uint8Array(BLOCK_PART_SIZE_BYTES * 2 + 1));
      expect(parts.map((p) => p.length)).to.deep.equal([BLOCK_PART_SIZE_BYTES, BLOCK_PART_SIZE_BYTES, 1]);
    });
  });

  it('canonicalVoteSignBytes matches VoteSignBytes; signatures reproduce', () => {
    expect(V.votes.length).to.be.greaterThan(3);
    for (const v of V.votes) {
      const vt = vote(v.vote);
      const sb = canonicalVoteSignBytes(v.chain_id, vt);
      expect(toHex(sb)).to.equal(v.sign_bytes);
      const key = V.keys.find((k: J) => k.pub_key === v.pub_key);
      const seed = createHash('sha256').update(key.secret).digest();
      expect(toHex(ed25519.sign(sb, seed))).to.equal(v.vote.signature);
      expect(ed25519.verify(vt.signature, sb, hex(v.pub_key))).to.equal(true);
    }
    const nilVote = V.votes.find((v: J) => v.vote.block_id.hash === '');
    expect(isZeroBlockId(bid(nilVote.vote.block_id))).to.equal(true);
    expect(isZeroBlockId(emptyBlockId())).to.equal(true);
  });
});

describe('hashing outputs', () => {
  it('returns plain Uint8Arrays (not Buffers)', () => {
    const blk = block(V.blocks[0]);
    for (const out of [encodeBlock(blk), headerHash(blk.header), validatorAddress(hex(V.keys[0].pub_key))]) {
      expect(Object.getPrototypeOf(out)).to.equal(Uint8Array.prototype);
    }
  });
});
