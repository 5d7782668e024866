/** The evidence queries over ABCI (x/evidence/keeper/grpc_query.go v0.45), with their gateway JSON. */
import { expect } from 'chai';
import type { ProtoObject } from '@chain/codec';
import { fromBase64, toHex } from '@chain/crypto';
import { equivocationHash } from '../src/index.js';
import type { Equivocation } from '../src/index.js';
import { duplicateVote, genesis, openChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('evidence: queries', () => {
  let s: TestSetup;
  let ev: Equivocation[];
  before(async () => {
    s = await openChain();
    const a = s.staking.addValidator(0, 100n);
    const b = s.staking.addValidator(1, 100n);
    await s.chain.init(genesis(s, 200n * 10n ** 6n, [a, b]));
    await s.chain.block([], { misbehavior: [duplicateVote(a, 100n, 1, new Date('2024-01-01T00:00:01Z')), duplicateVote(b, 90n, 1, new Date('2024-01-01T00:00:01Z'))] });
    ev = [
      { height: 1n, time: { seconds: 1704067201n, nanos: 0 }, power: 100n, consensus_address: a.consAddress },
      { height: 1n, time: { seconds: 1704067201n, nanos: 0 }, power: 90n, consensus_address: b.consAddress },
    ];
  });
  after(async () => {
    await s.chain.close();
  });

  const call = async (dialect: 'chain' | 'cosmos', method: string, req: ProtoObject) => {
    const { res, value } = await s.chain.query(`/${dialect}.evidence.v1beta1.Query/${method}`, req);
    return { res, json: value ? s.registry.toJSON(`chain.evidence.v1beta1.Query${method}Response`, value, dialect) as Record<string, unknown> : undefined };
  };
  const evJson = (e: Equivocation, typeUrl: string) => ({
    '@type': typeUrl, height: e.height.toString(), time: '2024-01-01T00:00:01Z', power: e.power.toString(), consensus_address: e.consensus_address,
  });

  it('Evidence by hash bytes: {"evidence": {"@type", height, time, power, consensus_address}} in both dialects', async () => {
    const hash = equivocationHash(s.registry, ev[0]!);
    const chain = await call('chain', 'Evidence', { evidence_hash: hash });
    expect(chain.res.code, chain.res.log).to.equal(0);
    expect(chain.json).to.deep.equal({ evidence: evJson(ev[0]!, '/chain.evidence.v1beta1.Equivocation') });
    const cosmos = await call('cosmos', 'Evidence', { evidence_hash: hash });
    expect(cosmos.json).to.deep.equal({ evidence: evJson(ev[0]!, '/cosmos.evidence.v1beta1.Equivocation') });
  });

  it('the hash as hex: the v0.47 `hash` field, or hex text in the REST path (decoded as base64 by the gateway)', async () => {
    const hash = equivocationHash(s.registry, ev[1]!);
    const hexText = toHex(hash).toUpperCase();
    const byField = await call('chain', 'Evidence', { hash: hexText });
    expect(byField.json).to.deep.equal({ evidence: evJson(ev[1]!, '/chain.evidence.v1beta1.Equivocation') });
    const viaPath = await call('chain', 'Evidence', { evidence_hash: fromBase64(hexText) });
    expect(viaPath.json).to.deep.equal({ evidence: evJson(ev[1]!, '/chain.evidence.v1beta1.Equivocation') });
  });

  it('errors: empty → InvalidArgument "invalid hash"; missing → NotFound "evidence <HEX> not found"', async () => {
    const empty = await call('chain', 'Evidence', {});
    expect(empty.res.log).to.equal('rpc error: code = InvalidArgument desc = invalid hash: invalid request');
    const missing = new Uint8Array(32).fill(0xab);
    const nf = await call('chain', 'Evidence', { evidence_hash: missing });
    expect(nf.res.log).to.equal(`rpc error: code = NotFound desc = evidence ${'AB'.repeat(32)} not found: key not found`);
  });

  it('AllEvidence: every evidence in hash order, paginated', async () => {
    const all = await call('cosmos', 'AllEvidence', {});
    const sorted = [...ev].sort((x, y) => Buffer.compare(Buffer.from(equivocationHash(s.registry, x)), Buffer.from(equivocationHash(s.registry, y))));
    expect(all.json).to.deep.equal({ evidence: sorted.map((e) => evJson(e, '/cosmos.evidence.v1beta1.Equivocation')), pagination: { next_key: null, total: '2' } });
    const page = await call('chain', 'AllEvidence', { pagination: { limit: 1n } });
    expect((page.json!['evidence'] as unknown[]).length).to.equal(1);
  });
});
