/**
 * The seeded randomized simulation of the chain's app (the SDK's `TestFullAppSimulation`): the real app of
 * `createChainApp` on a fresh store, a random genesis (4–8 validators with delegators, random module params,
 * two denoms), hundreds of blocks of random valid and invalid txs from bank, staking, distribution,
 * slashing and gov delivered through CheckTx and FinalizeBlock, simulated consensus (absent validators →
 * downtime jailing, a double-sign misbehaviour → evidence, mint and distribution every block), gov
 * proposals that end within the run (short deposit and voting periods: passed, rejected, vetoed, dropped),
 * every invariant of bank, staking, distribution and gov after every block, and a replay from genesis with
 * the same app hash at every height.
 *
 * The seed is printed; `SIM_SEED=<n>` reruns one, `SIM_BLOCKS=<n>` changes the length.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from '@chain/app';
import type { Event } from '@chain/events';
import { CommitStore } from '@chain/store';
import { sha256, toBase64, toBech32, utf8 } from '@chain/crypto';
import { bankSimulation } from '@chain/bank';
import { stakingSimulation } from '@chain/staking';
import { distributionSimulation } from '@chain/distribution';
import { slashingSimulation } from '@chain/slashing';
import { GovProposalResult, govSimulation } from '@chain/gov';
import { runSimulation, seedFromEnv } from '@chain/simulation';
import type { Invariant, Rand, SimAccount, SimulationGenesis, SimulationModule, SimulationSetup } from '@chain/simulation';
import { createChainApp } from '../src/app.js';
import type { ChainApp } from '../src/app.js';
import { CHAIN_APP_CONFIG } from '../src/app-config.js';

const CHAIN_ID = 'chain_1337-1';
const PREFIX = 'chain';
const BOND = 'achain';
const OTHER = 'afoo';
const UNIT = 10n ** 18n;
/** the longest gap between two blocks, in seconds (6 h: over a run, commission may change again after 24 h) */
const TIME_JUMP_MAX = 6 * 3600;
/** the seed of `npm test` (a fixed one keeps CI reproducible; SIM_SEED runs others) */
const DEFAULT_SEED = 13;

const moduleAddress = (name: string): string => toBech32(PREFIX, sha256(utf8(name)).subarray(0, 20));

/** A random decimal in [lo, hi] on a 0.001 grid, as the 18-decimal text of a Dec. */
function dec(rand: Rand, lo: number, hi: number): string {
  const m = rand.int(Math.round(lo * 1000), Math.round(hi * 1000));
  return `${Math.floor(m / 1000)}.${String(m % 1000).padStart(3, '0')}${'0'.repeat(15)}`;
}

/**
 * The genesis of a run: every account funded in both denoms; accounts 0..n-1 genesis validators (unbonded
 * with their self-delegation in the not-bonded pool, bonded by staking's InitGenesis as gentxs would be),
 * some other accounts delegating to them; random staking, slashing, distribution, mint and gov params (gov's
 * deposit and voting periods of 1 to 10 minutes: with blocks 1–10 s apart and now and then hours, proposals
 * end within the run).
 */
function randomGenesis(rand: Rand, accounts: readonly SimAccount[], time: Date): SimulationGenesis {
  const nVals = rand.int(4, 8);
  const validators: Record<string, unknown>[] = [];
  const delegations: Record<string, unknown>[] = [];
  const tokens = new Map<string, bigint>();
  const valoper = (a: SimAccount) => toBech32(PREFIX + 'valoper', a.addr);
  for (const a of accounts.slice(0, nVals)) tokens.set(valoper(a), 0n);
  const delegate = (a: SimAccount, val: string, amount: bigint) => {
    tokens.set(val, tokens.get(val)! + amount);
    const existing = delegations.find((d) => d.delegator_address === a.address && d.validator_address === val);
    if (existing) existing.shares = (BigInt(existing.shares as string) + amount).toString();
    else delegations.push({ delegator_address: a.address, validator_address: val, shares: amount.toString() });
  };
  const selfBond = new Map<string, bigint>();
  for (const a of accounts.slice(0, nVals)) {
    const self = rand.bigint(100n, 3000n) * UNIT + rand.bigint(0n, UNIT);
    selfBond.set(valoper(a), self);
    delegate(a, valoper(a), self);
  }
  for (const a of accounts.slice(nVals)) {
    if (!rand.bool(0.5)) continue;
    for (let i = rand.int(1, 2); i > 0; i--) delegate(a, valoper(rand.pick(accounts.slice(0, nVals))), rand.bigint(1n, 2000n) * UNIT);
  }
  for (const a of accounts.slice(0, nVals)) {
    const val = valoper(a);
    const maxRate = dec(rand, 0.05, 1);
    const minSelf = rand.bool(0.7) ? 1n : rand.bigint(1n, selfBond.get(val)! / 2n);
    validators.push({
      operator_address: val,
      consensus_pubkey: { '@type': '/chain.crypto.ed25519.PubKey', key: toBase64(a.consPub) },
      jailed: false,
      status: 'BOND_STATUS_UNBONDED',
      tokens: tokens.get(val)!.toString(),
      delegator_shares: `${tokens.get(val)!}.000000000000000000`,
      description: { moniker: `genesis-${a.index}`, identity: '', website: '', security_contact: '', details: '' },
      unbonding_height: '0',
      unbonding_time: '1970-01-01T00:00:00Z',
      commission: {
        commission_rates: { rate: dec(rand, 0, Number(maxRate)), max_rate: maxRate, max_change_rate: dec(rand, 0, Number(maxRate)) },
        update_time: time.toISOString(),
      },
      min_self_delegation: minSelf.toString(),
    });
  }
  const delegated = [...tokens.values()].reduce((s, t) => s + t, 0n);
  for (const d of delegations) d.shares = `${d.shares as string}.000000000000000000`;
  const balances = accounts.map((a) => ({
    address: a.address,
    coins: [{ denom: BOND, amount: (rand.bigint(20_000n, 500_000n) * UNIT).toString() }, ...(rand.bool(0.8) ? [{ denom: OTHER, amount: rand.bigint(1n, 10n ** 24n).toString() }] : [])]
      .sort((x, y) => (x.denom < y.denom ? -1 : 1)),
  }));
  balances.push({ address: moduleAddress('not_bonded_tokens_pool'), coins: [{ denom: BOND, amount: delegated.toString() }] });
  const communityTax = dec(rand, 0, 0.2);
  return {
    time,
    appState: {
      auth: {
        params: { max_memo_characters: '256', tx_sig_limit: '7', tx_size_cost_per_byte: '10', sig_verify_cost_ed25519: '590', sig_verify_cost_secp256k1: '1000' },
        accounts: accounts.map((a, i) => ({ '@type': '/chain.auth.v1beta1.BaseAccount', address: a.address, pub_key: null, account_number: String(i), sequence: '0' })),
      },
      bank: { params: { send_enabled: [], default_send_enabled: true }, balances, supply: [], denom_metadata: [], send_enabled: [] },
      staking: {
        params: {
          // longer than any gap between two blocks (TIME_JUMP_MAX): see the note on SimulationParams.timeJumps
          unbonding_time: `${rand.int(TIME_JUMP_MAX + 600, 2 * TIME_JUMP_MAX)}s`, max_validators: rand.int(4, 12), max_entries: rand.int(2, 7), historical_entries: rand.int(0, 20), bond_denom: BOND,
        },
        last_total_power: '0', last_validator_powers: [], validators, delegations, unbonding_delegations: [], redelegations: [], exported: false,
      },
      distribution: {
        params: {
          community_tax: communityTax, base_proposer_reward: dec(rand, 0, 0.05), bonus_proposer_reward: dec(rand, 0, 0.05),
          withdraw_addr_enabled: rand.bool(0.9),
        },
        fee_pool: { community_pool: [] }, delegator_withdraw_infos: [], previous_proposer: '', outstanding_rewards: [], validator_accumulated_commissions: [],
        validator_historical_rewards: [], validator_current_rewards: [], delegator_starting_infos: [], validator_slash_events: [],
      },
      slashing: {
        params: {
          signed_blocks_window: String(rand.int(10, 30)), min_signed_per_window: dec(rand, 0.3, 0.7), downtime_jail_duration: `${rand.int(60, 1200)}s`,
          slash_fraction_double_sign: dec(rand, 0.01, 0.3), slash_fraction_downtime: dec(rand, 0, 0.1),
        },
        signing_infos: [], missed_blocks: [],
      },
      mint: {
        minter: { inflation: dec(rand, 0.07, 0.2), annual_provisions: '0.000000000000000000' },
        params: {
          mint_denom: BOND, inflation_rate_change: '0.130000000000000000', inflation_max: '0.200000000000000000', inflation_min: '0.070000000000000000',
          goal_bonded: '0.670000000000000000', blocks_per_year: String(rand.int(50_000, 6_311_520)),
        },
      },
      // the ranges of the SDK's gov RandomizedGenState (quorum 0.334–0.5, threshold 0.45–0.55, veto 0.25–0.334)
      gov: {
        starting_proposal_id: '1', deposits: [], votes: [], proposals: [],
        deposit_params: { min_deposit: [{ denom: BOND, amount: (rand.bigint(10n, 1000n) * UNIT).toString() }], max_deposit_period: `${rand.int(60, 600)}s` },
        voting_params: { voting_period: `${rand.int(60, 600)}s` },
        tally_params: { quorum: dec(rand, 0.334, 0.5), threshold: dec(rand, 0.45, 0.55), veto_threshold: dec(rand, 0.25, 0.334) },
      },
    },
  };
}

/** What the run did, seen in the state after each block (an invariant that never breaks: the test's probe). */
class Observer {
  /** most validators jailed at once */
  jailed = 0;
  /** validators jailed for downtime (a signing info with a jail time, not tombstoned) */
  downtimeJailed = 0;
  tombstoned = 0;
  /** validators that existed and were removed (unbonded without delegations) */
  removed = 0;
  /** unbonding delegation and redelegation entries that matured and left the state */
  completedUnbondings = 0;
  completedRedelegations = 0;
  supplyGrew = false;
  /**
   * how gov's proposals ended (EndBlock events): `passed`, `rejected` (deposits refunded), `vetoed`
   * (deposits burned, the no-with-veto share of the final tally over the threshold), `no quorum` (deposits
   * burned, the veto under it), `dropped`, `failed`
   */
  readonly proposals: Record<string, number> = {};
  /** proposals whose deposits were refunded, burned */
  refunded = 0;
  burned = 0;
  /** proposals ended in the block being finalized, resolved against its committed state */
  private ended: { id: bigint; result: string; burned: boolean }[] = [];
  private firstSupply: bigint | undefined;
  private readonly seen = new Set<string>();
  private ubdEntries = 0;
  private redEntries = 0;

  /** Watches `c`'s blocks: the EndBlock events of each FinalizeBlock say how gov's proposals ended. */
  constructor(private readonly c: ChainApp) {
    const finalize = c.app.finalizeBlock.bind(c.app);
    c.app.finalizeBlock = async (req) => {
      const res = await finalize(req);
      this.govEndBlock(res.events.filter((e) => e.attributes.some((a) => a.key === 'mode' && a.value === 'EndBlock')));
      return res;
    };
  }

  /**
   * gov's EndBlock emits, per proposal it ends, the bank events of its deposits (burn by the gov module
   * account, or transfers from it back to the depositors) and then `inactive_proposal` or `active_proposal`
   * with the result; a rejected proposal was vetoed or missed the quorum when its deposits were burned.
   */
  private govEndBlock(events: readonly Event[]): void {
    const gov = moduleAddress('gov');
    const attr = (e: Event, key: string) => e.attributes.find((a) => a.key === key)?.value;
    let burned = false;
    let refunded = false;
    for (const e of events) {
      if (e.type === 'burn' && attr(e, 'burner') === gov) burned = true;
      else if (e.type === 'transfer' && attr(e, 'sender') === gov) refunded = true;
      else if (e.type === 'inactive_proposal' || e.type === 'active_proposal') {
        this.ended.push({ id: BigInt(attr(e, 'proposal_id')!), result: attr(e, 'proposal_result')!, burned });
        if (burned) this.burned++;
        if (refunded) this.refunded++;
        burned = refunded = false;
      }
    }
  }

  /** how the proposals ended in the last block, now that its state is committed (a vetoed one by its final tally) */
  private govOutcomes(ctx: Context): void {
    for (const { id, result, burned } of this.ended) {
      let name = result.replace(/^proposal_/, '');
      if (result === GovProposalResult.Rejected && burned) {
        const t = this.c.govKeeper.getProposal(ctx, id)!.final_tally_result!;
        const total = [t.yes, t.abstain, t.no, t.no_with_veto].reduce((s, x) => s + BigInt(x), 0n);
        const threshold = BigInt(this.c.govKeeper.getParamsValues(ctx).vetoThreshold.atomics());
        name = total > 0n && BigInt(t.no_with_veto) * 10n ** 18n > threshold * total ? 'vetoed' : 'no quorum';
      }
      this.proposals[name] = (this.proposals[name] ?? 0) + 1;
    }
    this.ended = [];
  }

  invariant(): Invariant {
    return {
      name: 'test/observer',
      check: (ctx: Context) => {
        const { stakingKeeper: sk, slashingKeeper, bankKeeper } = this.c;
        const vals = [...sk.iterateValidators(ctx)];
        for (const v of vals) this.seen.add(v.operator_address);
        this.removed = [...this.seen].filter((op) => !vals.some((v) => v.operator_address === op)).length;
        this.jailed = Math.max(this.jailed, vals.filter((v) => v.jailed).length);
        const infos = [...slashingKeeper.iterateValidatorSigningInfos(ctx)].map(([, i]) => i);
        this.tombstoned = Math.max(this.tombstoned, infos.filter((i) => i.tombstoned).length);
        this.downtimeJailed = Math.max(this.downtimeJailed, infos.filter((i) => !i.tombstoned && (i.jailed_until?.seconds ?? 0n) > 0n).length);
        const supply = bankKeeper.getSupply(ctx, BOND);
        this.firstSupply ??= supply;
        if (supply > this.firstSupply) this.supplyGrew = true;
        const ubd = sk.state.UnbondingDelegations.values(ctx).toArray().reduce((n, u) => n + u.entries.length, 0);
        const red = sk.state.Redelegations.values(ctx).toArray().reduce((n, r) => n + r.entries.length, 0);
        if (ubd < this.ubdEntries) this.completedUnbondings += this.ubdEntries - ubd;
        if (red < this.redEntries) this.completedRedelegations += this.redEntries - red;
        this.ubdEntries = ubd;
        this.redEntries = red;
        this.govOutcomes(ctx);
        return { broken: false, message: '' };
      },
    };
  }
}

/** The chain's setup for the runner: a fresh `createChainApp` per app, with the modules' simulations over its keepers. */
function chainSetup(observe?: (c: ChainApp, modules: readonly SimulationModule[]) => Invariant): SimulationSetup {
  const moduleAccounts = CHAIN_APP_CONFIG.moduleAccounts.map((m) => m.name);
  return {
    chainId: CHAIN_ID,
    bech32Prefix: PREFIX,
    async openApp() {
      const dir = mkdtempSync(join(tmpdir(), 'chain-sim-'));
      const store = await CommitStore.open(join(dir, 'db'));
      const c = createChainApp({ store, chainId: CHAIN_ID, minGasPrices: '0achain' });
      const modules: SimulationModule[] = [
        bankSimulation(c.bankKeeper, { moduleAccounts }),
        stakingSimulation(c.stakingKeeper),
        distributionSimulation(c.distributionKeeper, { moduleAccounts }),
        slashingSimulation(c.slashingKeeper),
        govSimulation(c.govKeeper),
      ];
      if (observe) modules.push({ name: 'test', operations: [], invariants: [observe(c, modules)] });
      return {
        app: c.app,
        modules,
        account: (ctx, addr) => {
          const acc = c.accountKeeper.getAccount(ctx, addr);
          return acc ? { accountNumber: acc.base.account_number, sequence: acc.base.sequence } : undefined;
        },
        close: async () => {
          await store.close().catch(() => undefined);
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
    genesis: (rand, accounts) => randomGenesis(rand, accounts, new Date('2024-03-01T00:00:00Z')),
    anteStores: ['acc'],
  };
}

describe('simulation: the chain app', function () {
  this.timeout(300_000);

  it('runs hundreds of blocks of random valid and invalid txs with every invariant after every block, and replays them from genesis', async () => {
    const seed = seedFromEnv(DEFAULT_SEED);
    const blocks = Number(process.env.SIM_BLOCKS ?? 300);
    let observer: Observer | undefined;
    let invariants: string[] = [];
    // the first app opened is the run's (the second, the replay's, runs no invariant)
    const setup = chainSetup((c, modules) => {
      if (!observer) invariants = modules.flatMap((m) => m.invariants.map((i) => i.name));
      return (observer ??= new Observer(c)).invariant();
    });
    const report = await runSimulation(setup, {
      seed, blocks, accounts: 40, opsPerBlock: [0, 10], misbehaviorChance: 0.004, timeJumps: { chance: 0.05, seconds: [600, TIME_JUMP_MAX] },
    });
    expect(report.replayed).to.equal(blocks);
    // every module's invariants, gov's module account among them, after every block (and the observer)
    expect(invariants).to.include.members(['bank/total-supply', 'staking/module-accounts', 'distribution/module-account', 'gov/module-account']);
    expect(report.invariantChecks).to.equal(blocks * (invariants.length + 1));
    const o = observer!;
    console.log(`  observed: at most ${o.jailed} jailed at once, ${o.downtimeJailed} jailed for downtime, ${o.tombstoned} tombstoned, ${o.removed} validators removed, ` +
      `${o.completedUnbondings} unbonding and ${o.completedRedelegations} redelegation entries completed; proposals ${JSON.stringify(o.proposals)}, ` +
      `deposits refunded for ${o.refunded} and burned for ${o.burned}`);
    // what the run covered, checked on the default run (another seed or length may, e.g., have a genesis
    // that disables withdraw addresses, and then no MsgSetWithdrawAddress succeeds)
    if (seed !== DEFAULT_SEED || blocks < 300) return;
    const ops = report.operations;
    expect(Object.keys(ops).sort()).to.deep.equal([
      'bank/multi-send', 'bank/send', 'distribution/fund-community-pool', 'distribution/set-withdraw-address', 'distribution/withdraw-delegator-reward',
      'distribution/withdraw-validator-commission', 'gov/deposit', 'gov/submit-proposal', 'gov/vote', 'gov/vote-weighted', 'slashing/unjail',
      'staking/create-validator', 'staking/delegate', 'staking/edit-validator', 'staking/redelegate', 'staking/undelegate',
    ]);
    // every message type went through, valid and invalid
    for (const [name, s] of Object.entries(ops)) {
      expect(s.ok, `${name} succeeded`).to.be.greaterThan(0);
      expect(s.failed + s.refused, `${name} refused`).to.be.greaterThan(0);
    }
    // consensus did its part: absent validators, validator set changes, a misbehaviour
    expect(report.absentVotes).to.be.greaterThan(0);
    expect(report.validatorUpdates).to.be.greaterThan(0);
    expect(report.misbehaviors).to.be.greaterThan(0);
    // and the state shows it: downtime jailing, tombstoning (evidence), minting, finished unbondings,
    // validators removed
    expect(o.downtimeJailed, 'validators jailed for downtime').to.be.greaterThan(0);
    expect(o.tombstoned, 'validators tombstoned by evidence').to.be.greaterThan(0);
    expect(o.supplyGrew, 'mint added to the supply').to.equal(true);
    expect(o.completedUnbondings, 'unbondings completed').to.be.greaterThan(0);
    expect(o.completedRedelegations, 'redelegations completed').to.be.greaterThan(0);
    expect(o.removed, 'validators removed').to.be.greaterThan(0);
    // gov: proposals submitted below and at the min deposit, deposits that started the voting
    expect(ops['gov/submit-proposal']!.labels['in deposit period'], 'proposals submitted below the min deposit').to.be.greaterThan(0);
    expect(ops['gov/submit-proposal']!.labels['voting started'], 'proposals submitted with the min deposit').to.be.greaterThan(0);
    expect(ops['gov/deposit']!.labels['voting started'], 'deposits that started the voting').to.be.greaterThan(0);
    // and proposals ended every way within the run, their deposits refunded or burned (the gov module
    // account invariant held after every block)
    for (const outcome of ['passed', 'rejected', 'vetoed', 'no quorum', 'dropped']) expect(o.proposals[outcome] ?? 0, `proposals ${outcome}`).to.be.greaterThan(0);
    expect(o.refunded, 'proposals whose deposits were refunded').to.be.greaterThan(0);
    expect(o.burned, 'proposals whose deposits were burned').to.be.greaterThan(0);
  });
});
