import { expect } from 'chai';
import { applyValidatorUpdates, consensusAddress, runSimulation, SimulationError } from '../src/index.js';
import type { SimulationParams, SimulationReport } from '../src/index.js';
import { toySetup } from './toy.js';
import type { ToyKnobs } from './toy.js';

const params = (o: Partial<SimulationParams> = {}): SimulationParams & { lines: string[] } => {
  const lines: string[] = [];
  return { seed: 11, blocks: 30, accounts: 8, opsPerBlock: [0, 6], log: (l) => lines.push(l), lines, ...o };
};

async function failure(knobs: ToyKnobs, p: SimulationParams): Promise<SimulationError> {
  const err = await runSimulation(toySetup(knobs), p).then(() => undefined, (e: unknown) => e);
  expect(err, 'the simulation should fail').to.be.instanceOf(SimulationError);
  return err as SimulationError;
}

describe('simulation: the runner', function () {
  this.timeout(60_000);

  it('runs blocks of random valid and invalid txs through CheckTx and FinalizeBlock, and replays them', async () => {
    const p = params({ blocks: 40 });
    const setup = toySetup();
    const r: SimulationReport = await runSimulation(setup, p);
    expect(p.lines[0]).to.equal('simulation: seed 11 (rerun with SIM_SEED=11), 40 blocks, 8 accounts');
    expect(r.blocks).to.equal(40);
    expect(r.replayed).to.equal(40);
    const t = r.operations['toy/transfer']!;
    const s = r.operations['toy/set-power']!;
    expect(t.ok).to.be.greaterThan(5);
    expect(t.failed).to.be.greaterThan(2);
    expect(t.labels['insufficient funds']).to.equal(t.failed + t.refused);
    expect(s.labels.remove! + s.labels.set!).to.equal(s.ok);
    expect(s.labels['remove unknown']).to.equal(s.failed);
    expect(r.txs).to.equal(t.ok + t.failed + s.ok + s.failed);
    expect(r.invariantChecks).to.equal(40);
    expect(r.validatorUpdates).to.be.greaterThan(0);
    expect(p.lines.some((l) => l.includes('toy/transfer'))).to.equal(true);
    // the same seed is the same run: same app hash; another seed, another run
    const again = await runSimulation(toySetup(), params({ blocks: 40 }));
    expect(again.appHash).to.equal(r.appHash);
    expect(again.operations).to.deep.equal(r.operations);
    const other = await runSimulation(toySetup(), params({ blocks: 40, seed: 12 }));
    expect(other.appHash).to.not.equal(r.appHash);
  });

  it('hands each block the last commit of the previous height\'s set (updates of H change the set of H+2), > 2/3 signed, some absent', async () => {
    const setup = toySetup({ genesisValidators: 6 });
    // flaky validators: many absences
    const r = await runSimulation(setup, params({
      blocks: 40, opsPerBlock: [2, 6],
      liveness: {
        missChance: { online: 0.3, flaky: 0.6, offline: 1 },
        transitions: { online: { online: 0.8, flaky: 0.1, offline: 0.1 }, flaky: { online: 0.3, flaky: 0.6, offline: 0.1 }, offline: { online: 0.2, flaky: 0.2, offline: 0.6 } },
        nilChance: 0.1,
      },
    }));
    expect(r.absentVotes).to.be.greaterThan(10);
    expect(r.nilVotes).to.be.greaterThan(0);
    // the app saw in begin block H the votes of the set of H-1: the genesis set, changed by the updates
    // returned at each height G from G+2 on
    const toy = setup.opened[0]!;
    const sets = new Map<number, ReturnType<typeof applyValidatorUpdates>>();
    const initial = applyValidatorUpdates([], toy.genesisUpdates);
    sets.set(1, initial);
    sets.set(2, initial);
    let changes = 0;
    for (let h = 1; h <= 38; h++) {
      const u = toy.updates.get(h)!;
      if (u.length > 0) changes++;
      sets.set(h + 2, applyValidatorUpdates(sets.get(h + 1)!, u));
    }
    expect(changes).to.be.greaterThan(3);
    expect(toy.votes.get(1)).to.deep.equal([]);
    // the misbehaviour (at least one): a validator of a recent height, with its power and the total then
    const seen = [...toy.misbehavior.entries()].filter(([, m]) => m.length > 0);
    expect(seen.length).to.equal(r.misbehaviors).and.to.be.greaterThan(0);
    for (const [h, [m]] of seen) {
      expect(m!.height).to.be.within(h - 20, h - 1);
      const set = sets.get(m!.height)!;
      expect(set.find((x) => Buffer.from(x.address).toString('hex') === m!.address)?.power).to.equal(m!.power);
      expect(m!.total).to.equal(set.reduce((s, x) => s + x.power, 0n));
    }
    for (let h = 2; h <= 40; h++) {
      const v = toy.votes.get(h)!;
      const expected = sets.get(h - 1)!.map((x) => ({ address: Buffer.from(x.address).toString('hex'), power: x.power }));
      expect(v.map((x) => ({ address: x.address, power: x.power })), `voters of block ${h}`).to.deep.equal(expected);
      const total = v.reduce((s, x) => s + x.power, 0n);
      const committed = v.filter((x) => x.flag === 2).reduce((s, x) => s + x.power, 0n);
      expect(committed * 3n > total * 2n, `height ${h}: more than 2/3 committed`).to.equal(true);
    }
  });

  it('applies validator updates as CometBFT: power 0 removes, a new key joins, the set is never empty', () => {
    const k = (n: number) => new Uint8Array(32).fill(n);
    const set = applyValidatorUpdates([], [{ pubKey: { type: 'ed25519', key: k(1) }, power: 5n }, { pubKey: { type: 'ed25519', key: k(2) }, power: 7n }]);
    expect(set.map((v) => v.power)).to.deep.equal([7n, 5n]);
    expect(Buffer.from(set[0]!.address).toString('hex')).to.equal(Buffer.from(consensusAddress(k(2))).toString('hex'));
    const next = applyValidatorUpdates(set, [{ pubKey: { type: 'ed25519', key: k(2) }, power: 0n }, { pubKey: { type: 'ed25519', key: k(3) }, power: 1n }]);
    expect(next.map((v) => v.power)).to.deep.equal([5n, 1n]);
    expect(() => applyValidatorUpdates(next, [{ pubKey: { type: 'ed25519', key: k(9) }, power: 0n }])).to.throw('not in the set');
    expect(() => applyValidatorUpdates(set, [{ pubKey: { type: 'ed25519', key: k(1) }, power: 0n }, { pubKey: { type: 'ed25519', key: k(2) }, power: 0n }])).to.throw('empty validator set');
  });

  it('reports a broken invariant with its name, the height and the seed (also printed)', async () => {
    const p = params();
    const err = await failure({ breakInvariantAt: 7 }, p);
    expect(err.kind).to.equal('invariant');
    expect(err.subject).to.equal('toy/breaks-late');
    expect(err.height).to.equal(7);
    expect(err.seed).to.equal(11);
    expect(err.message).to.contain('simulation failed at height 7 (seed 11; rerun with SIM_SEED=11): invariant toy/breaks-late: broken on purpose from height 7');
    expect(p.lines.at(-1)).to.equal(err.message);
  });

  it('detects a replay that does not give the same app hash at some height', async () => {
    const err = await failure({ nondeterministicAt: 9 }, params());
    expect(err.kind).to.equal('replay');
    expect(err.height).to.equal(9);
    expect(err.message).to.match(/the replay from genesis gave app hash [0-9a-f]{64}, the run [0-9a-f]{64}/);
  });

  it('detects a block that FinalizeBlock executes otherwise than the dry run', async () => {
    const err = await failure({ countCallsAt: 5 }, params());
    expect(err.kind).to.equal('nondeterminism');
    expect(err.height).to.equal(5);
    expect(err.message).to.match(/FinalizeBlock app hash [0-9a-f]{64}, dry run [0-9a-f]{64}/);
  });

  it('fails when an operation expected to succeed is refused, or refused with another code', async () => {
    const wrong = await failure({ wrongExpectation: true }, params());
    expect(wrong.kind).to.equal('operation');
    expect(wrong.subject).to.equal('toy/transfer (too much (claimed valid))');
    expect(wrong.message).to.match(/expected success, got sdk\/5: failed to execute message; message index: 0: \d+ < \d+: insufficient funds/);
    const code = await failure({ wrongCode: true }, params());
    expect(code.message).to.contain('expected sdk/15, got sdk/5');
  });

  it('fails when a refused tx changed state outside the ante stores', async () => {
    const err = await failure({ leakyAnte: true }, params());
    expect(err.kind).to.equal('operation');
    expect(err.message).to.contain('a refused tx changed state outside the ante stores: tok/');
  });
});
