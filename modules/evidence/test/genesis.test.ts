/** evidence genesis (x/evidence/genesis.go, types/genesis.go v0.45): default, validation, round trip. */
import { expect } from 'chai';
import { toBech32 } from '@chain/crypto';
import { defaultEvidenceGenesis, validateEquivocation } from '../src/index.js';
import type { Equivocation } from '../src/index.js';
import { duplicateVote, genesis, openChain } from './helpers.js';
import type { TestSetup } from './helpers.js';

const eqJson = (o: Partial<Record<string, string>> = {}) => ({
  '@type': '/cosmos.evidence.v1beta1.Equivocation', height: '5', time: '2024-01-01T00:00:00Z', power: '10',
  consensus_address: toBech32('chainvalcons', new Uint8Array(20).fill(3)), ...o,
});

describe('evidence genesis', () => {
  let s: TestSetup | undefined;
  afterEach(async () => {
    await s?.chain.close();
    s = undefined;
  });

  it('default: {"evidence": []}', async () => {
    s = await openChain();
    expect(s.registry.toJSON('chain.evidence.v1beta1.GenesisState', defaultEvidenceGenesis())).to.deep.equal({ evidence: [] });
  });

  it('Equivocation ValidateBasic: the v0.45 messages, in order', () => {
    const ok: Equivocation = { height: 1n, time: { seconds: 1n, nanos: 0 }, power: 1n, consensus_address: 'x' };
    expect(() => validateEquivocation(ok)).to.not.throw();
    expect(() => validateEquivocation({ ...ok, time: { seconds: 0n, nanos: 0 } })).to.throw('invalid equivocation time: 1970-01-01 00:00:00 +0000 UTC');
    expect(() => validateEquivocation({ ...ok, height: 0n })).to.throw('invalid equivocation height: 0');
    expect(() => validateEquivocation({ ...ok, power: 0n })).to.throw('invalid equivocation validator power: 0');
    expect(() => validateEquivocation({ ...ok, consensus_address: '' })).to.throw('invalid equivocation validator consensus address: ');
  });

  it('InitChain refuses invalid evidence and a non-evidence Any', async () => {
    s = await openChain();
    expect(() => s!.chain.initChain(genesis(s!, 0n, [], { evidence: [eqJson({ height: '0' })] }))).to.throw('invalid equivocation height: 0');
    expect(() => s!.chain.initChain(genesis(s!, 0n, [], { evidence: [{ '@type': '/chain.base.v1beta1.Coin', denom: 'a', amount: '1' }] }))).to.throw('expected evidence');
  });

  it('InitChain refuses the same evidence twice', async () => {
    s = await openChain();
    expect(() => s!.chain.initChain(genesis(s!, 0n, [], { evidence: [eqJson(), eqJson()] }))).to.throw(/evidence with hash [0-9A-F]{64} already exists/);
  });

  it('round trip: imported and BeginBlock evidence exported, and imported again identically', async () => {
    s = await openChain();
    const v = s.staking.addValidator(0, 100n);
    await s.chain.init(genesis(s, 100n * 10n ** 6n, [v], { evidence: [eqJson()] }));
    await s.chain.block([], { misbehavior: [duplicateVote(v, 100n, 1, new Date('2024-01-01T00:00:01Z'))] });
    const exported = s.chain.app.exportGenesis()['evidence'] as { evidence: Record<string, string>[] };
    expect(exported.evidence).to.have.length(2);
    expect(exported.evidence.map((e) => e['height']).sort()).to.deep.equal(['1', '5']);
    const s2 = await openChain();
    try {
      await s2.chain.init(genesis(s2, 0n, [], exported as unknown as Record<string, unknown>));
      expect(s2.chain.app.exportGenesis()['evidence']).to.deep.equal(exported);
    } finally {
      await s2.chain.close();
    }
  });
});
