/**
 * Governance through cosmjs against `chaind dev` (gov `max_deposit_period` and `voting_period` 20 s,
 * `min_deposit` 10 chain): dev account cosm 1 delegates 1000 chain to the genesis validator (half the bonded
 * stake, over the 0.334 quorum) and its votes decide. In one round, proposals end passed (a text proposal moved
 * from its deposit period to voting by a second deposit; a parameter change of staking MaxValidators; a
 * community pool spend; an upgrade plan), rejected (a weighted vote), vetoed (deposits burned: the supply drops
 * by them beyond the block's mint) and dropped (deposit period over); then the plan is cancelled; then a plan
 * this binary has no handler for halts the node at its height (again after a restart) until
 * `--unsafe-skip-upgrades <h>` passes it. Every message is found by `message.action` in both spellings and by
 * `message.module='governance'`; cosmjs's gov queries (abci_query) read the same.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GasPrice, QueryClient, SigningStargateClient, defaultRegistryTypes, setupGovExtension } from '@cosmjs/stargate';
import type { DeliverTxResponse } from '@cosmjs/stargate';
import { Registry } from '@cosmjs/proto-signing';
import type { EncodeObject } from '@cosmjs/proto-signing';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { MsgDeposit, MsgVote } from 'cosmjs-types/cosmos/gov/v1beta1/tx';
import { ProposalStatus, TextProposal, VoteOption } from 'cosmjs-types/cosmos/gov/v1beta1/gov';
import { ParameterChangeProposal } from 'cosmjs-types/cosmos/params/v1beta1/params';
import { CommunityPoolSpendProposal } from 'cosmjs-types/cosmos/distribution/v1beta1/distribution';
import { CancelSoftwareUpgradeProposal, SoftwareUpgradeProposal } from 'cosmjs-types/cosmos/upgrade/v1beta1/upgrade';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { sha256, toBech32, utf8 } from '@chain/crypto';
import { DENOM, devWallet, fee, getJson, rawHttp, rpcCall } from '../src/clients.js';

const E18 = 10n ** 18n;
const MIN_DEPOSIT = 10n * E18;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Go's zero time.Time, what a Go client's plan carries (cosmjs's default, the Unix epoch, is a time-based plan) */
const GO_ZERO_TIME = { seconds: -62135596800n, nanos: 0 };
const coin = (amount: bigint) => [{ denom: DENOM, amount: amount.toString() }];
/** gas: the simulation's estimate × 2 (as the staking e2e) */
const GAS = 2;

describe('e2e: governance (gov, params, upgrade, community pool spend) through cosmjs', function () {
  this.timeout(420_000);
  let node: NodeHandle;
  const clients: SigningStargateClient[] = [];
  const addr: string[] = [];
  let valoper: string;
  let rec: string;

  const rest = async (path: string, height?: number): Promise<any> => {
    const r = await rawHttp(`${node.restUrl}${path}`, height === undefined ? {} : { headers: { 'x-cosmos-block-height': String(height) } });
    expect(r.status, `${path}: ${r.text.slice(0, 300)}`).to.equal(200);
    return r.body;
  };
  const ok = (r: DeliverTxResponse): DeliverTxResponse => {
    expect(r.code, r.rawLog).to.equal(0);
    return r;
  };
  const send = async (i: number, msgs: EncodeObject[]): Promise<DeliverTxResponse> => ok(await clients[i]!.signAndBroadcast(addr[i]!, msgs, GAS));
  const balance = async (a: string, height?: number): Promise<bigint> => BigInt((await rest(`/cosmos/bank/v1beta1/balances/${a}/by_denom?denom=${DENOM}`, height)).balance.amount);
  const supply = async (height: number): Promise<bigint> => BigInt((await rest(`/cosmos/bank/v1beta1/supply/by_denom?denom=${DENOM}`, height)).amount.amount);
  const height = async (): Promise<number> => Number((await rpcCall(node.rpcUrl, 'status')).result.sync_info.latest_block_height);
  const proposal = async (id: number): Promise<any> => (await rest(`/cosmos/gov/v1beta1/proposals/${id}`)).proposal;
  const submit = (i: number, content: { typeUrl: string; value: Uint8Array }, deposit: bigint): EncodeObject => ({
    typeUrl: '/cosmos.gov.v1beta1.MsgSubmitProposal', value: { content, initialDeposit: coin(deposit), proposer: addr[i]! },
  });
  const text = (title: string) => ({ typeUrl: '/cosmos.gov.v1beta1.TextProposal', value: TextProposal.encode({ title, description: `${title}: an e2e proposal` }).finish() });
  /** the ids of the tx's proposals, in message order (their submit_proposal{proposal_id} events) */
  const submitted = (r: DeliverTxResponse): number[] => r.events
    .filter((e) => e.type === 'submit_proposal' && e.attributes.some((a) => a.key === 'proposal_id'))
    .map((e) => Number(e.attributes.find((a) => a.key === 'proposal_id')!.value));
  const vote = (voter: number, id: number, option: VoteOption, typeUrl = '/cosmos.gov.v1beta1.MsgVote'): EncodeObject => ({ typeUrl, value: { proposalId: BigInt(id), voter: addr[voter]!, option } });
  /** the height whose EndBlock ended proposal `id` (the indexed `active_proposal` / `inactive_proposal` event) */
  const endHeight = async (id: number, type: 'active_proposal' | 'inactive_proposal'): Promise<number> => {
    const r = await rpcCall(node.rpcUrl, 'block_search', { query: `${type}.proposal_id='${id}'`, page: '1', per_page: '5' });
    expect(r.result?.blocks, JSON.stringify(r).slice(0, 300)).to.have.length(1);
    return Number(r.result.blocks[0].block.header.height);
  };
  /** the coins minted in block `h` (mint's BeginBlock event) */
  const mintedAt = async (h: number): Promise<bigint> => {
    const r = await rpcCall(node.rpcUrl, 'block_results', { height: String(h) });
    const events: any[] = r.result.finalize_block_events ?? r.result.begin_block_events ?? [];
    return events.filter((e) => e.type === 'mint').reduce((s, e) => s + BigInt(e.attributes.find((a: any) => a.key === 'amount').value), 0n);
  };
  const waitStatus = async (ids: number[], timeoutMs = 60_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const open = [];
      for (const id of ids) {
        const r = await rawHttp(`${node.restUrl}/cosmos/gov/v1beta1/proposals/${id}`);
        if (r.status === 200 && ['PROPOSAL_STATUS_DEPOSIT_PERIOD', 'PROPOSAL_STATUS_VOTING_PERIOD'].includes(r.body.proposal.status)) open.push(id);
      }
      if (open.length === 0) return;
      if (Date.now() > deadline) throw new Error(`proposals ${open.join(', ')} did not end`);
      await sleep(500);
    }
  };
  const search = async (query: string): Promise<number> =>
    Number((await rest(`/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(query)}&pagination.count_total=true`)).pagination.total);

  before(async () => {
    node = await startNode();
    const registry = new Registry([...defaultRegistryTypes, ['/chain.gov.v1beta1.MsgVote', MsgVote], ['/chain.gov.v1beta1.MsgDeposit', MsgDeposit]]);
    for (let i = 0; i < 6; i++) {
      const wallet = await devWallet(i);
      addr.push((await wallet.getAccounts())[0]!.address);
      // poll for inclusion every 250 ms (cosmjs's default is 3 s): the votes must land well inside the 20 s voting period
      clients.push(await SigningStargateClient.connectWithSigner(node.rpcUrl, wallet, { registry, gasPrice: GasPrice.fromString(`1000000000${DENOM}`), broadcastPollIntervalMs: 250 }));
    }
    // the spend's recipient: a fresh account
    rec = toBech32('chain', sha256(utf8('gov e2e spend recipient')).subarray(0, 20));
    valoper = (await rest('/cosmos/staking/v1beta1/validators')).validators[0].operator_address;
    // cosm 1 holds half the bonded stake: its votes carry the quorum and decide
    ok(await clients[1]!.delegateTokens(addr[1]!, valoper, coin(1000n * E18)[0]!, GAS));
    expect(node.output).to.contain('Governance: min deposit 10 chain (10000000000000000000achain), max deposit period 20s, voting period 20s');
  });

  after(async () => {
    for (const c of clients) c.disconnect();
    await node?.stop();
    node?.cleanup();
  });

  const ids: Record<string, number | undefined> = {};
  let pool0 = 0n;

  let b2 = 0n;

  it('submits and votes within the voting period: a text proposal moved to voting by a second deposit; yes, weighted, no-with-veto', async () => {
    const params = await rest('/cosmos/gov/v1beta1/params/deposit');
    expect(params.deposit_params).to.deep.equal({ min_deposit: coin(MIN_DEPOSIT), max_deposit_period: '20s' });
    pool0 = BigInt((await rest('/cosmos/distribution/v1beta1/community_pool')).pool[0].amount.split('.')[0]);
    expect(pool0 > 12345n, 'the community pool has funds').to.equal(true);
    // a proposal that never gets the min deposit (outside the round's critical path: its deposit period runs on its own)
    [ids.dropped] = submitted(await send(4, [submit(4, text('never enough'), E18)]));
    const h = await height();
    // one tx of cosm 2: the text proposal with part of the min deposit, four more with all of it
    const a = await send(2, [
      submit(2, text('deposit then yes'), 4n * E18),
      submit(2, text('weighted, rejected'), MIN_DEPOSIT),
      submit(2, {
        typeUrl: '/cosmos.params.v1beta1.ParameterChangeProposal',
        value: ParameterChangeProposal.encode({ title: 'max validators', description: 'MaxValidators 100 -> 50', changes: [{ subspace: 'staking', key: 'MaxValidators', value: '50' }] }).finish(),
      }, MIN_DEPOSIT),
      submit(2, {
        typeUrl: '/cosmos.distribution.v1beta1.CommunityPoolSpendProposal',
        value: CommunityPoolSpendProposal.encode({ title: 'spend', description: 'pays a fresh account', recipient: rec, amount: coin(12345n) }).finish(),
      }, MIN_DEPOSIT),
      submit(2, {
        typeUrl: '/cosmos.upgrade.v1beta1.SoftwareUpgradeProposal',
        value: SoftwareUpgradeProposal.encode(SoftwareUpgradeProposal.fromPartial({ title: 'plan', description: 'a plan to cancel', plan: { name: 'e2e-cancelled', height: BigInt(h + 1_000_000), info: 'later', time: GO_ZERO_TIME } })).finish(),
      }, MIN_DEPOSIT),
    ]);
    b2 = await balance(addr[2]!);
    [ids.text, ids.weighted, ids.param, ids.spend, ids.plan] = submitted(a);
    let p = await proposal(ids.text!);
    expect(p.status).to.equal('PROPOSAL_STATUS_DEPOSIT_PERIOD');
    expect(p.total_deposit).to.deep.equal(coin(4n * E18));
    expect(p.voting_start_time).to.equal('0001-01-01T00:00:00Z');
    expect(p.content).to.deep.equal({ '@type': '/cosmos.gov.v1beta1.TextProposal', title: 'deposit then yes', description: 'deposit then yes: an e2e proposal' });
    for (const k of ['weighted', 'param', 'spend', 'plan']) expect((await proposal(ids[k]!)).status, k).to.equal('PROPOSAL_STATUS_VOTING_PERIOD');
    // a vote on the text proposal now is refused (gov 3), before the second deposit (sent with the canonical type URL)
    const early = await clients[1]!.signAndBroadcast(addr[1]!, [vote(1, ids.text!, VoteOption.VOTE_OPTION_YES)], fee(300_000n));
    expect([early.code, early.rawLog]).to.deep.equal([3, `failed to execute message; message index: 0: ${ids.text}: inactive proposal`]);
    const b = await send(3, [
      { typeUrl: '/chain.gov.v1beta1.MsgDeposit', value: { proposalId: BigInt(ids.text!), depositor: addr[3]!, amount: coin(6n * E18) } },
      submit(3, text('vetoed'), MIN_DEPOSIT),
    ]);
    [ids.veto] = submitted(b);
    expect(b.events.some((e) => e.type === 'proposal_deposit' && e.attributes.some((x) => x.key === 'voting_period_start' && x.value === String(ids.text)))).to.equal(true);
    // cosm 1's votes, in one tx: yes, a weighted 0.3 yes / 0.7 no, no-with-veto, and yes on the rest
    await send(1, [
      vote(1, ids.text!, VoteOption.VOTE_OPTION_YES, '/chain.gov.v1beta1.MsgVote'),
      {
        typeUrl: '/cosmos.gov.v1beta1.MsgVoteWeighted',
        value: { proposalId: BigInt(ids.weighted!), voter: addr[1]!, options: [{ option: VoteOption.VOTE_OPTION_YES, weight: '300000000000000000' }, { option: VoteOption.VOTE_OPTION_NO, weight: '700000000000000000' }] },
      },
      vote(1, ids.veto!, VoteOption.VOTE_OPTION_NO_WITH_VETO),
      vote(1, ids.param!, VoteOption.VOTE_OPTION_YES), vote(1, ids.spend!, VoteOption.VOTE_OPTION_YES), vote(1, ids.plan!, VoteOption.VOTE_OPTION_YES),
    ]);
    // still in the voting period: the live tally, the votes and deposits
    p = await proposal(ids.text!);
    expect([p.status, p.total_deposit]).to.deep.equal(['PROPOSAL_STATUS_VOTING_PERIOD', coin(MIN_DEPOSIT)]);
    expect((await rest(`/cosmos/gov/v1beta1/proposals/${ids.text}/deposits/${addr[3]}`)).deposit.amount).to.deep.equal(coin(6n * E18));
    const tally = (await rest(`/cosmos/gov/v1beta1/proposals/${ids.weighted}/tally`)).tally;
    expect(tally).to.deep.equal({ yes: (300n * E18).toString(), abstain: '0', no: (700n * E18).toString(), no_with_veto: '0' });
    const v = (await rest(`/cosmos/gov/v1beta1/proposals/${ids.text}/votes/${addr[1]}`)).vote;
    expect(v).to.deep.equal({ proposal_id: String(ids.text), voter: addr[1], option: 'VOTE_OPTION_YES', options: [{ option: 'VOTE_OPTION_YES', weight: '1.000000000000000000' }] });
    const byVoter = (await rest(`/cosmos/gov/v1beta1/proposals?voter=${addr[1]}&proposal_status=PROPOSAL_STATUS_VOTING_PERIOD`)).proposals.map((x: any) => Number(x.proposal_id));
    expect(byVoter).to.deep.equal([ids.text, ids.weighted, ids.param, ids.spend, ids.plan, ids.veto].sort((x, y) => x! - y!));
    // cosmjs reads the same through abci_query
    const q = QueryClient.withExtensions(await Comet38Client.connect(node.rpcUrl), setupGovExtension);
    expect((await q.gov.proposal(ids.weighted!)).proposal.status).to.equal(ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD);
    expect((await q.gov.tally(ids.weighted!)).tally.no).to.equal((700n * E18).toString());
    expect((await q.gov.votes(ids.weighted!)).votes[0]!.options.map((o) => o.weight)).to.deep.equal(['300000000000000000', '700000000000000000']);
    expect(new TextDecoder().decode((await q.gov.params('tallying')).tallyParams.quorum)).to.equal('334000000000000000');
  });

  it('the voting ends: passed (refunded), rejected (refunded), vetoed (burned: supply down), dropped (burned)', async () => {
    await waitStatus(Object.values(ids) as number[]);
    const status = async (k: string) => (await proposal(ids[k]!)).status;
    expect(await status('text')).to.equal('PROPOSAL_STATUS_PASSED');
    expect(await status('weighted')).to.equal('PROPOSAL_STATUS_REJECTED');
    expect(await status('veto')).to.equal('PROPOSAL_STATUS_REJECTED');
    for (const k of ['param', 'spend', 'plan']) expect(await status(k), k).to.equal('PROPOSAL_STATUS_PASSED');
    expect((await proposal(ids.text!)).final_tally_result).to.deep.equal({ yes: (1000n * E18).toString(), abstain: '0', no: '0', no_with_veto: '0' });
    expect((await rest(`/cosmos/gov/v1beta1/proposals/${ids.veto}`)).proposal.final_tally_result.no_with_veto).to.equal((1000n * E18).toString());
    expect((await rawHttp(`${node.restUrl}/cosmos/gov/v1beta1/proposals/${ids.dropped}`)).status).to.equal(404);
    // votes and deposits are gone
    expect((await rest(`/cosmos/gov/v1beta1/proposals/${ids.text}/votes`)).votes).to.deep.equal([]);
    expect((await rest(`/cosmos/gov/v1beta1/proposals/${ids.text}/deposits`)).deposits).to.deep.equal([]);
    // refunds: cosm 2 got back its deposits on the passed and rejected ones (it sent nothing since)
    expect((await balance(addr[2]!)) - b2).to.equal(4n * E18 + MIN_DEPOSIT * 4n);
    // the text proposal's two depositors, at the block that ended it
    const hText = await endHeight(ids.text!, 'active_proposal');
    expect((await balance(addr[3]!, hText)) - (await balance(addr[3]!, hText - 1))).to.equal(6n * E18);
    // the vetoed proposal's deposit burned: the supply of its block grew by the mint minus the deposit
    const hVeto = await endHeight(ids.veto!, 'active_proposal');
    const burnedVeto = (await mintedAt(hVeto)) - ((await supply(hVeto)) - (await supply(hVeto - 1)));
    const hDrop = await endHeight(ids.dropped!, 'inactive_proposal');
    const burnedDrop = (await mintedAt(hDrop)) - ((await supply(hDrop)) - (await supply(hDrop - 1)));
    if (hVeto === hDrop) expect(burnedVeto).to.equal(MIN_DEPOSIT + E18);
    else expect([burnedVeto, burnedDrop]).to.deep.equal([MIN_DEPOSIT, E18]);
    // the vetoed proposer (cosm 3) and the dropped one's (cosm 4) got nothing back at those heights
    expect((await balance(addr[3]!, hVeto)) - (await balance(addr[3]!, hVeto - 1))).to.equal(hVeto === hText ? 6n * E18 : 0n);
    expect((await balance(addr[4]!, hDrop)) - (await balance(addr[4]!, hDrop - 1))).to.equal(0n);
    // the gov module account holds nothing now
    const govAddr = (await rest('/cosmos/auth/v1beta1/module_accounts/gov')).account.base_account.address;
    expect(await balance(govAddr)).to.equal(0n);
  });

  it('the parameter change is seen on the params route and staking\'s own params; the pool paid the spend; the plan is current', async () => {
    for (const prefix of ['/chain', '/cosmos']) {
      expect((await rest(`${prefix}/params/v1beta1/params?subspace=staking&key=MaxValidators`)).param).to.deep.equal({ subspace: 'staking', key: 'MaxValidators', value: '50' });
      expect((await rest(`${prefix}/staking/v1beta1/params`)).params.max_validators).to.equal(50);
    }
    expect(await balance(rec)).to.equal(12345n);
    const plan = (await rest('/cosmos/upgrade/v1beta1/current_plan')).plan;
    expect([plan.name, plan.info]).to.deep.equal(['e2e-cancelled', 'later']);
  });

  it('contents refused at submission as the SDK: unknown subspace or key, a plan in the past (gov 5, the handler\'s error inside); nothing changes', async () => {
    const before = await balance(addr[3]!);
    const count = Number((await rest('/cosmos/gov/v1beta1/proposals?pagination.count_total=true')).pagination.total);
    const h = await height();
    const cases: [{ typeUrl: string; value: Uint8Array }, RegExp][] = [
      [{ typeUrl: '/cosmos.params.v1beta1.ParameterChangeProposal', value: ParameterChangeProposal.encode({ title: 'bad', description: 'unknown subspace', changes: [{ subspace: 'nosuch', key: 'X', value: '1' }] }).finish() }, /nosuch: unknown subspace: invalid proposal content/],
      [{ typeUrl: '/cosmos.params.v1beta1.ParameterChangeProposal', value: ParameterChangeProposal.encode({ title: 'bad', description: 'unknown key', changes: [{ subspace: 'staking', key: 'MaxValidatorz', value: '1' }] }).finish() }, /parameter MaxValidatorz not registered.*invalid proposal content/],
      [{ typeUrl: '/cosmos.upgrade.v1beta1.SoftwareUpgradeProposal', value: SoftwareUpgradeProposal.encode(SoftwareUpgradeProposal.fromPartial({ title: 'bad', description: 'past', plan: { name: 'past', height: BigInt(Math.max(1, h - 1)), info: '', time: GO_ZERO_TIME } })).finish() }, /upgrade cannot be scheduled in the past: invalid request: invalid proposal content/],
    ];
    for (const [content, log] of cases) {
      // a fixed fee: a simulation would fail the same way, and cosmjs throws on that before broadcasting
      const r = await clients[3]!.signAndBroadcast(addr[3]!, [submit(3, content, MIN_DEPOSIT)], { amount: coin(400_000n * 1_000_000_000n), gas: '400000' });
      expect([r.code, r.rawLog]).to.satisfy(([code, raw]: [number, string]) => code === 5 && log.test(raw), `${r.code} ${r.rawLog}`);
    }
    // only the gas fees were paid; no proposal was stored
    expect(before - (await balance(addr[3]!)) < MIN_DEPOSIT).to.equal(true);
    expect(Number((await rest('/cosmos/gov/v1beta1/proposals?pagination.count_total=true')).pagination.total)).to.equal(count);
  });

  it('ids in routes: unknown 404, zero and malformed 400, as JSON in both spellings', async () => {
    for (const prefix of ['/chain', '/cosmos']) {
      const cases: [string, number, number, RegExp][] = [
        [`${prefix}/gov/v1beta1/proposals/999999`, 404, 5, /proposal 999999 doesn't exist/],
        [`${prefix}/gov/v1beta1/proposals/0`, 400, 3, /proposal id can not be 0/],
        [`${prefix}/gov/v1beta1/proposals/abc`, 400, 3, /proposal_id/],
        [`${prefix}/gov/v1beta1/proposals/-1/votes`, 400, 3, /proposal_id/],
        [`${prefix}/gov/v1beta1/proposals/${ids.text}/votes/${addr[5]}`, 400, 3, /not found for proposal/],
        [`${prefix}/gov/v1beta1/params/nope`, 400, 3, /nope is not a valid parameter type/],
        [`${prefix}/gov/v1beta1/proposals/99999999999999999999999/tally`, 400, 3, /proposal_id/],
      ];
      for (const [path, status, code, message] of cases) {
        const r = await rawHttp(`${node.restUrl}${path}`);
        expect(r.status, `${path}: ${r.text}`).to.equal(status);
        expect(r.headers.get('content-type'), path).to.match(/^application\/json/);
        expect(r.body.code, path).to.equal(code);
        expect(r.body.message, path).to.match(message);
      }
    }
  });

  it('a CancelSoftwareUpgradeProposal clears the plan', async () => {
    const [id] = submitted(await send(2, [submit(2, {
      typeUrl: '/cosmos.upgrade.v1beta1.CancelSoftwareUpgradeProposal',
      value: CancelSoftwareUpgradeProposal.encode({ title: 'cancel', description: 'cancels the plan' }).finish(),
    }, MIN_DEPOSIT)]));
    await send(1, [vote(1, id!, VoteOption.VOTE_OPTION_YES)]);
    ids.cancel = id!;
    await waitStatus([id!]);
    expect((await proposal(id!)).status).to.equal('PROPOSAL_STATUS_PASSED');
    expect((await rest('/cosmos/upgrade/v1beta1/current_plan')).plan).to.equal(null);
  });

  it('each gov message is found by message.action in both spellings and by message.module=governance', async () => {
    for (const m of ['MsgSubmitProposal', 'MsgDeposit', 'MsgVote', 'MsgVoteWeighted']) {
      const canonical = await search(`message.action='/chain.gov.v1beta1.${m}'`);
      expect(canonical, m).to.be.greaterThan(0);
      expect(await search(`message.action='/cosmos.gov.v1beta1.${m}'`), m).to.equal(canonical);
      expect(await search(`message.action='/chain.gov.v1beta1.${m}' AND message.module='governance'`), m).to.equal(canonical);
    }
    // cosm 1's governance txs: the votes of the first round and the vote on the cancellation (the refused vote is not indexed as a message)
    expect(await search(`message.module='governance' AND message.sender='${addr[1]}'`)).to.equal(2);
    expect(await search(`message.action='/chain.gov.v1beta1.MsgVoteWeighted' AND message.sender='${addr[1]}'`)).to.equal(1);
  });

  it('a plan without a handler halts the node at its height, again after a restart; --unsafe-skip-upgrades passes it', async () => {
    // the plan's height: after its voting ends, with room for blocks coming faster than now
    const h0 = await height();
    await sleep(3000);
    const rate = ((await height()) - h0) / 3;
    const h = await height();
    const planHeight = h + Math.ceil(rate * 35) + 20;
    const [id] = submitted(await send(2, [submit(2, {
      typeUrl: '/cosmos.upgrade.v1beta1.SoftwareUpgradeProposal',
      value: SoftwareUpgradeProposal.encode(SoftwareUpgradeProposal.fromPartial({ title: 'halt', description: 'no binary has it', plan: { name: 'e2e-halt', height: BigInt(planHeight), info: 'e2e info', time: GO_ZERO_TIME } })).finish(),
    }, MIN_DEPOSIT)]));
    await send(1, [vote(1, id!, VoteOption.VOTE_OPTION_YES)]);
    await waitStatus([id!]);
    expect((await proposal(id!)).status).to.equal('PROPOSAL_STATUS_PASSED');
    const plan = (await rest('/cosmos/upgrade/v1beta1/current_plan')).plan;
    expect([plan.name, plan.height]).to.deep.equal(['e2e-halt', String(planHeight)]);
    expect(await height(), 'the plan passed before its height').to.be.lessThan(planHeight);
    // the halt: no block at the plan's height; the message logged; upgrade-info.json written; queries still served
    const needed = `UPGRADE "e2e-halt" NEEDED at height: ${planHeight}: e2e info`;
    for (let i = 0; i < 240 && !node.output.includes(needed); i++) await sleep(500);
    expect(node.output).to.contain(needed);
    await sleep(2000);
    expect(await height()).to.equal(planHeight - 1);
    const info = join(node.home, 'data', 'upgrade-info.json');
    expect(existsSync(info)).to.equal(true);
    expect(JSON.parse(readFileSync(info, 'utf8'))).to.deep.equal({ name: 'e2e-halt', height: planHeight, info: 'e2e info' });
    expect((await getJson(`${node.restUrl}/cosmos/upgrade/v1beta1/current_plan`)).body.plan.name).to.equal('e2e-halt');
    // the same binary again: halts again, commits nothing
    await node.stop();
    node.output = '';
    await node.restart();
    for (let i = 0; i < 60 && !node.output.includes(needed); i++) await sleep(500);
    expect(node.output).to.contain(needed);
    await sleep(2000);
    expect(await height()).to.equal(planHeight - 1);
    // --unsafe-skip-upgrades <h>: the plan is skipped and cleared, the chain goes on
    await node.stop();
    const skipping = await startNode({ home: node.home, extraArgs: ['--unsafe-skip-upgrades', String(planHeight)] });
    const old = node;
    node = skipping;
    for (let i = 0; i < 120 && (await height()) <= planHeight; i++) await sleep(250);
    expect(await height()).to.be.greaterThan(planHeight);
    expect(node.output).to.contain(`UPGRADE "e2e-halt" SKIPPED at ${planHeight}: e2e info`);
    expect((await rest('/cosmos/upgrade/v1beta1/current_plan')).plan).to.equal(null);
    void old;
  });
});
