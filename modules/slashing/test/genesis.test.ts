/** slashing genesis (x/slashing/genesis.go, types/genesis.go v0.45): default, validation, round trip. */
import { expect } from 'chai';
import { defaultSlashingGenesis, validateSlashingGenesis } from '../src/index.js';
import type { SlashingGenesisState } from '../src/index.js';
import { genesis, openChain, paramsJson, signingInfoJson, vote } from './helpers.js';
import type { TestSetup } from './helpers.js';

describe('slashing genesis', () => {
  let s: TestSetup | undefined;
  afterEach(async () => {
    await s?.chain.close();
    s = undefined;
  });

  it('default: the v0.45 default params, no signing infos, no missed blocks (JSON)', async () => {
    s = await openChain();
    expect(s.registry.toJSON('chain.slashing.v1beta1.GenesisState', defaultSlashingGenesis())).to.deep.equal({
      params: paramsJson(), signing_infos: [], missed_blocks: [],
    });
  });

  it('validate: the v0.45 messages, in order', () => {
    const g = defaultSlashingGenesis();
    const p = g.params!;
    const bad = (o: Partial<typeof p>): SlashingGenesisState => ({ ...g, params: { ...p, ...o } });
    expect(() => validateSlashingGenesis(g)).to.not.throw();
    expect(() => validateSlashingGenesis(bad({ slash_fraction_downtime: '2000000000000000000' }))).to.throw(
      'slashing fraction downtime should be less than or equal to one and greater than zero, is 2.000000000000000000');
    expect(() => validateSlashingGenesis(bad({ slash_fraction_double_sign: '-1' }))).to.throw(
      'slashing fraction double sign should be less than or equal to one and greater than zero, is -0.000000000000000001');
    expect(() => validateSlashingGenesis(bad({ min_signed_per_window: '1000000000000000001' }))).to.throw(
      'min signed per window should be less than or equal to one and greater than zero, is 1.000000000000000001');
    expect(() => validateSlashingGenesis(bad({ downtime_jail_duration: { seconds: 59n, nanos: 0 } }))).to.throw(
      'downtime unjail duration must be at least 1 minute, is 59s');
    expect(() => validateSlashingGenesis(bad({ downtime_jail_duration: { seconds: 30n, nanos: 500_000_000 } }))).to.throw(
      'downtime unjail duration must be at least 1 minute, is 30.5s');
    expect(() => validateSlashingGenesis(bad({ signed_blocks_window: 9n }))).to.throw('signed blocks window must be at least 10, is 9');
  });

  it('InitChain refuses an invalid genesis', async () => {
    s = await openChain();
    expect(() => s!.chain.initChain(genesis(s!, 0n, { params: paramsJson({ signed_blocks_window: '5' }), signing_infos: [], missed_blocks: [] })))
      .to.throw('signed blocks window must be at least 10, is 5');
  });

  it('round trip: export after blocks equals what InitGenesis of that export exports', async () => {
    s = await openChain();
    const a = s.staking.addValidator(0, 10n);
    const b = s.staking.addValidator(1, 10n);
    const imported = {
      params: paramsJson({ signed_blocks_window: '20', downtime_jail_duration: '3600s' }),
      signing_infos: [signingInfoJson(a.consAddress), signingInfoJson(b.consAddress, 0n)],
      missed_blocks: [{ address: b.consAddress, missed_blocks: [{ index: '3', missed: true }, { index: '4', missed: false }] }],
    };
    await s.chain.init(genesis(s, 0n, imported));
    await s.chain.block([], { lastCommit: { round: 0, votes: [vote(a, 10n, false), vote(b, 10n, true)] } });
    await s.chain.block([], { lastCommit: { round: 0, votes: [vote(a, 10n, true), vote(b, 10n, false)] } });
    const json = s.chain.app.exportGenesis()['slashing'] as { signing_infos: { address: string; validator_signing_info: Record<string, unknown> }[]; missed_blocks: unknown[] };
    const byAddr = Object.fromEntries(json.signing_infos.map((x) => [x.address, x.validator_signing_info]));
    expect(byAddr[a.consAddress]).to.deep.include({ index_offset: '2', missed_blocks_counter: '1' });
    expect(byAddr[b.consAddress]).to.deep.include({ index_offset: '2', missed_blocks_counter: '1' });
    // b's array: index 1 missed, 3 missed (imported), 4 not; a's: index 0 missed
    const missedOf = (addr: string) => (json.missed_blocks as { address: string; missed_blocks: unknown[] }[]).find((m) => m.address === addr)!.missed_blocks;
    expect(missedOf(a.consAddress)).to.deep.equal([{ index: '0', missed: true }]);
    expect(missedOf(b.consAddress)).to.deep.equal([{ index: '1', missed: true }, { index: '3', missed: true }, { index: '4', missed: false }]);

    // import the export into a fresh chain: the same export
    const s2 = await openChain();
    try {
      s2.staking.addValidator(0, 10n);
      s2.staking.addValidator(1, 10n);
      await s2.chain.init(genesis(s2, 0n, json as unknown as Record<string, unknown>));
      expect(s2.chain.app.exportGenesis()['slashing']).to.deep.equal(json);
      // the pubkey relation is rebuilt from staking's validators
      expect(s2.keeper.getPubkey(s2.chain.ctx(), b.consAddr)).to.not.equal(undefined);
    } finally {
      await s2.chain.close();
    }
  });
});
