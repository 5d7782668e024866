import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import {
  FrameDecoder, encodeFrame, encodeUvarint, decodeRequest, decodeResponse, encodeRequest, encodeResponse,
} from '../src/index.js';
import type { RequestKind, ResponseKind } from '../src/index.js';

interface Vector { name: string; kind: 'request' | 'response'; frame: string }
const file = JSON.parse(readFileSync(new URL('./vectors/abci-v038.json', import.meta.url), 'utf8')) as {
  cometbft_version: string; validator_pub_key: string; validator_address: string; vectors: Vector[];
};
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));

describe('socket framing (vectors from CometBFT v0.38 WriteMessage, tools/cometbft/abci-vectors)', () => {
  it('the vectors come from cometbft 0.38', () => {
    expect(file.cometbft_version).to.match(/^0\.38\./);
    expect(file.vectors.length).to.be.greaterThan(20);
  });

  it('uvarint length prefixes as binary.PutUvarint', () => {
    expect(hex(encodeUvarint(0))).to.equal('00');
    expect(hex(encodeUvarint(127))).to.equal('7f');
    expect(hex(encodeUvarint(128))).to.equal('8001');
    expect(hex(encodeUvarint(300))).to.equal('ac02');
    expect(hex(encodeUvarint(2 ** 31 - 1))).to.equal('ffffffff07');
  });

  for (const v of file.vectors) {
    it(`${v.kind} ${v.name}: decodes Go's frame and re-encodes it byte for byte`, () => {
      const bytes = unhex(v.frame);
      const frames = new FrameDecoder().push(bytes);
      expect(frames).to.have.length(1);
      if (v.kind === 'request') {
        const { kind, body } = decodeRequest(frames[0]!);
        expect(kind).to.equal(v.name);
        expect(hex(encodeFrame(encodeRequest(kind as RequestKind, body)))).to.equal(v.frame);
      } else {
        const { kind, body } = decodeResponse(frames[0]!);
        expect(kind).to.equal(v.name);
        expect(hex(encodeFrame(encodeResponse(kind as ResponseKind, body)))).to.equal(v.frame);
      }
    });
  }

  it('decodes the fields CometBFT sets (init_chain, finalize_block)', () => {
    const get = (name: string): Uint8Array => new FrameDecoder().push(unhex(file.vectors.find((v) => v.kind === 'request' && v.name === name)!.frame))[0]!;
    const init = decodeRequest(get('init_chain')).body;
    expect(init.chain_id).to.equal('vec-1');
    expect(init.initial_height).to.equal('1');
    expect(hex(init.validators[0].pub_key.ed25519)).to.equal(file.validator_pub_key);
    expect(init.validators[0].power).to.equal('10');
    expect(init.consensus_params.block.max_gas).to.equal('-1');
    expect(init.consensus_params.evidence.max_age_duration.seconds).to.equal(String(48 * 3600));
    expect(Buffer.from(init.app_state_bytes).toString()).to.equal('{"counter":{}}');
    const fb = decodeRequest(get('finalize_block')).body;
    expect(fb.height).to.equal('5');
    expect(fb.txs).to.have.length(2);
    expect(fb.txs[0]).to.have.length(300);
    expect(hex(fb.decided_last_commit.votes[0].validator.address)).to.equal(file.validator_address);
    expect(fb.decided_last_commit.votes[0].block_id_flag).to.equal(2);
    expect(fb.misbehavior[0].type).to.equal(1);
    expect(fb.time.seconds).to.equal(String(Date.UTC(2024, 0, 2, 3, 4, 5) / 1000));
    expect(fb.time.nanos).to.equal(678_000_000);
  });

  it('splits a stream cut at every byte boundary into the same frames', () => {
    const all = file.vectors.map((v) => unhex(v.frame));
    const stream = Buffer.concat(all);
    for (const step of [1, 2, 3, 7, 64, stream.length]) {
      const d = new FrameDecoder();
      const got: Uint8Array[] = [];
      for (let i = 0; i < stream.length; i += step) got.push(...d.push(new Uint8Array(stream.subarray(i, i + step))));
      expect(got.map(hex)).to.deep.equal(all.map((f) => hex(new FrameDecoder().push(f)[0]!)));
      expect(d.pending).to.equal(0);
    }
  });

  it('refuses a length prefix over CometBFT\'s max size', () => {
    expect(() => new FrameDecoder().push(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f]))).to.throw(/max size/);
  });
});
