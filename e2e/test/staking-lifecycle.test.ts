/**
 * Proof of stake through cosmjs against `chaind dev`: a validator created by a tx (its own consensus key,
 * which the embedded engine never signs with), edited, delegated to, redelegated from, undelegated from
 * (the tokens return after the 20 s unbonding time); rewards and commission accrue and are withdrawn to a
 * set withdraw address; the community pool is funded; the new validator is jailed for downtime after the
 * signing window, slashed by slash_fraction_downtime, and unjailed after the jail time. Every message is
 * found by `message.action` and `message.module`; `tm.event='ValidatorSetUpdates'` sees the new validator.
 */
import { expect } from 'chai';
import {
  SigningStargateClient, GasPrice, QueryClient, setupDistributionExtension, setupMintExtension, setupSlashingExtension, setupStakingExtension,
} from '@cosmjs/stargate';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import type { DeliverTxResponse } from '@cosmjs/stargate';
import { Registry } from '@cosmjs/proto-signing';
import { defaultRegistryTypes } from '@cosmjs/stargate';
import { MsgUnjail } from 'cosmjs-types/cosmos/slashing/v1beta1/tx';
import { PubKey } from 'cosmjs-types/cosmos/crypto/ed25519/keys';
import { ed25519PublicKey, fromBech32, sha256, toBase64 as b64, toBech32, utf8 } from '@chain/crypto';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devWallet, getJson, WsSubscription, DENOM } from '../src/clients.js';

const E18 = 10n ** 18n;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('e2e: staking, distribution, slashing through cosmjs', function () {
  this.timeout(300_000);
  let node: NodeHandle;
  let client: SigningStargateClient;
  let operator: string;
  let valoper: string;
  let genesisValoper: string;
  const consPub = ed25519PublicKey(sha256(utf8('e2e staking validator')));

  const rest = async (path: string): Promise<any> => {
    const r = await getJson(`${node.restUrl}${path}`);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).to.equal(200);
    return r.body;
  };
  const ok = (r: DeliverTxResponse): DeliverTxResponse => {
    expect(r.code, r.rawLog).to.equal(0);
    return r;
  };
  // gas: the simulation's estimate × 2. Simulations carry no fee, so they skip the fee deduction (as the SDK's
  // do); cosmjs's 'auto' (× 1.4) leaves too little for small messages such as MsgEditValidator
  const GAS = 2;
  const send = async (typeUrl: string, value: unknown): Promise<DeliverTxResponse> => ok(await client.signAndBroadcast(operator, [{ typeUrl, value }], GAS));
  const searchActions = async (action: string): Promise<number> => {
    const q = encodeURIComponent(`message.action='${action}' AND message.sender='${operator}'`);
    return Number((await rest(`/cosmos/tx/v1beta1/txs?query=${q}&pagination.count_total=true`)).pagination.total);
  };

  before(async () => {
    node = await startNode();
    const wallet = await devWallet(6);
    operator = (await wallet.getAccounts())[0]!.address;
    valoper = toBech32('chainvaloper', fromBech32(operator).data);
    const registry = new Registry([...defaultRegistryTypes, ['/cosmos.slashing.v1beta1.MsgUnjail', MsgUnjail]]);
    client = await SigningStargateClient.connectWithSigner(node.rpcUrl, wallet, { registry, gasPrice: GasPrice.fromString(`1000000000${DENOM}`) });
    genesisValoper = (await rest('/cosmos/staking/v1beta1/validators')).validators[0].operator_address;
  });

  after(async () => {
    client?.disconnect();
    await node?.stop();
    node?.cleanup();
  });

  it('creates a validator (the set update reaches the websocket), then edits it', async () => {
    const updates = await WsSubscription.open(node.wsUrl, "tm.event='ValidatorSetUpdates'");
    await send('/cosmos.staking.v1beta1.MsgCreateValidator', {
      description: { moniker: 'e2e', identity: '', website: '', securityContact: '', details: '' },
      commission: { rate: '100000000000000000', maxRate: '200000000000000000', maxChangeRate: '10000000000000000' },
      minSelfDelegation: '1',
      delegatorAddress: operator,
      validatorAddress: valoper,
      pubkey: { typeUrl: '/cosmos.crypto.ed25519.PubKey', value: PubKey.encode({ key: consPub }).finish() },
      value: { denom: DENOM, amount: (10n * E18).toString() },
    });
    const v = (await rest(`/cosmos/staking/v1beta1/validators/${valoper}`)).validator;
    expect(v.description.moniker).to.equal('e2e');
    expect(v.tokens).to.equal((10n * E18).toString());
    for (let i = 0; i < 100 && updates.events.length === 0; i++) await sleep(50);
    const update = updates.events[0]?.data?.value?.validator_updates?.[0];
    expect(update, 'ValidatorSetUpdates event').to.not.equal(undefined);
    expect(update.pub_key.value ?? update.pub_key.Sum?.value?.ed25519).to.equal(b64(consPub));
    expect(update.voting_power ?? update.power).to.equal('10');
    updates.close();
    await send('/cosmos.staking.v1beta1.MsgEditValidator', {
      description: { moniker: 'e2e-edited', identity: '[do-not-modify]', website: '[do-not-modify]', securityContact: '[do-not-modify]', details: '[do-not-modify]' },
      validatorAddress: valoper, commissionRate: '', minSelfDelegation: '',
    });
    expect((await rest(`/chain/staking/v1beta1/validators/${valoper}`)).validator.description.moniker).to.equal('e2e-edited');
    expect(await searchActions('/cosmos.staking.v1beta1.MsgCreateValidator')).to.equal(1);
    expect(await searchActions('/chain.staking.v1beta1.MsgEditValidator')).to.equal(1);
  });

  it('delegates, redelegates and undelegates; the unbonded tokens return after the unbonding time', async () => {
    ok(await client.delegateTokens(operator, genesisValoper, { denom: DENOM, amount: (3n * E18).toString() }, GAS));
    await send('/cosmos.staking.v1beta1.MsgBeginRedelegate', {
      delegatorAddress: operator, validatorSrcAddress: genesisValoper, validatorDstAddress: valoper, amount: { denom: DENOM, amount: E18.toString() },
    });
    const reds = await rest(`/cosmos/staking/v1beta1/delegators/${operator}/redelegations`);
    expect(reds.redelegation_responses).to.have.length(1);
    ok(await client.undelegateTokens(operator, genesisValoper, { denom: DENOM, amount: E18.toString() }, GAS));
    // (the undelegation also withdrew the delegation's rewards: the balance is read after it)
    const before = BigInt((await rest(`/cosmos/bank/v1beta1/balances/${operator}/by_denom?denom=${DENOM}`)).balance.amount);
    const ubd = await rest(`/cosmos/staking/v1beta1/validators/${genesisValoper}/delegations/${operator}/unbonding_delegation`);
    expect(ubd.unbond.entries[0].balance).to.equal(E18.toString());
    // the unbonding time is 20 s in dev
    for (let i = 0; i < 60; i++) {
      const entries = (await getJson(`${node.restUrl}/cosmos/staking/v1beta1/delegators/${operator}/unbonding_delegations`)).body.unbonding_responses ?? [];
      if (entries.length === 0) break;
      await sleep(1000);
    }
    const after = BigInt((await rest(`/cosmos/bank/v1beta1/balances/${operator}/by_denom?denom=${DENOM}`)).balance.amount);
    expect(after - before).to.equal(E18);
    expect(await searchActions('/cosmos.staking.v1beta1.MsgUndelegate')).to.equal(1);
  });

  it('sets a withdraw address, withdraws rewards and commission to it, funds the community pool', async () => {
    const withdrawTo = (await (await devWallet(7)).getAccounts())[0]!.address;
    await send('/cosmos.distribution.v1beta1.MsgSetWithdrawAddress', { delegatorAddress: operator, withdrawAddress: withdrawTo });
    expect((await rest(`/cosmos/distribution/v1beta1/delegators/${operator}/withdraw_address`)).withdraw_address).to.equal(withdrawTo);
    const balance = async (a: string): Promise<bigint> => BigInt((await rest(`/cosmos/bank/v1beta1/balances/${a}/by_denom?denom=${DENOM}`)).balance.amount);
    const rewards = await rest(`/cosmos/distribution/v1beta1/delegators/${operator}/rewards`);
    expect(rewards.total.length).to.be.greaterThan(0);
    const b0 = await balance(withdrawTo);
    ok(await client.withdrawRewards(operator, genesisValoper, GAS));
    const b1 = await balance(withdrawTo);
    expect(b1 > b0, 'rewards reached the withdraw address').to.equal(true);
    const commission = await rest(`/cosmos/distribution/v1beta1/validators/${valoper}/commission`);
    expect(commission.commission.commission.length).to.be.greaterThan(0);
    await send('/cosmos.distribution.v1beta1.MsgWithdrawValidatorCommission', { validatorAddress: valoper });
    expect((await balance(withdrawTo)) > b1, 'commission reached the withdraw address').to.equal(true);
    const pool0 = (await rest('/cosmos/distribution/v1beta1/community_pool')).pool[0].amount;
    await send('/cosmos.distribution.v1beta1.MsgFundCommunityPool', { depositor: operator, amount: [{ denom: DENOM, amount: '1000000' }] });
    const pool1 = (await rest('/cosmos/distribution/v1beta1/community_pool')).pool[0].amount;
    expect(Number(pool1) > Number(pool0)).to.equal(true);
    expect(await searchActions('/cosmos.distribution.v1beta1.MsgWithdrawValidatorCommission')).to.equal(1);
    const q = encodeURIComponent(`message.module='distribution' AND message.sender='${operator}'`);
    expect(Number((await rest(`/cosmos/tx/v1beta1/txs?query=${q}&pagination.count_total=true`)).pagination.total)).to.be.at.least(3);
  });

  it('jails the new validator for downtime (it never signs), slashes it by 1%, and unjails it after the jail time', async () => {
    const consAddr = toBech32('chainvalcons', sha256(consPub).subarray(0, 20));
    let v: any;
    for (let i = 0; i < 120; i++) {
      v = (await rest(`/cosmos/staking/v1beta1/validators/${valoper}`)).validator;
      if (v.jailed) break;
      await sleep(250);
    }
    expect(v.jailed, 'jailed for downtime').to.equal(true);
    const info = (await rest(`/cosmos/slashing/v1beta1/signing_infos/${consAddr}`)).val_signing_info;
    expect(new Date(info.jailed_until).getTime()).to.be.greaterThan(Date.now());
    // slashed by slash_fraction_downtime (0.01) of its power in the missed blocks' commits: 10 (the
    // self-delegation), or 11 if the redelegation's power update reached the set before the infraction
    const slashes = (await rest(`/cosmos/distribution/v1beta1/validators/${valoper}/slashes?starting_height=1&ending_height=100000`)).slashes;
    expect(slashes.map((x: any) => x.fraction)).to.deep.equal(['0.010000000000000000']);
    expect([11n * E18 - 10n * E18 / 100n, 11n * E18 - 11n * E18 / 100n]).to.deep.include(BigInt(v.tokens));
    await sleep(Math.max(0, new Date(info.jailed_until).getTime() - Date.now()) + 1500);
    const unjailed = await send('/cosmos.slashing.v1beta1.MsgUnjail', { validatorAddr: valoper });
    // read at the unjail's height: it still never signs, so (as in the SDK) it is jailed again once it has
    // missed more than the window allows
    const at = await getJson(`${node.restUrl}/cosmos/staking/v1beta1/validators/${valoper}`, { 'x-cosmos-block-height': String(unjailed.height) });
    expect(at.body.validator.jailed).to.equal(false);
    expect(await searchActions('/cosmos.slashing.v1beta1.MsgUnjail')).to.equal(1);
  });

  it("answers cosmjs's staking, distribution, slashing and mint query extensions as its REST routes do", async () => {
    const comet = await Comet38Client.connect(node.rpcUrl);
    try {
      const q = QueryClient.withExtensions(comet, setupStakingExtension, setupDistributionExtension, setupSlashingExtension, setupMintExtension);
      // cosmjs decodes Dec fields as their raw integer text (18 decimals): compare through this
      const dec = (text: string): string => (BigInt(text.replace('.', '')) * 10n ** BigInt(18 - (text.split('.')[1]?.length ?? 0))).toString();
      // staking
      const params = await q.staking.params();
      const restParams = (await rest('/cosmos/staking/v1beta1/params')).params;
      expect(params.params!.bondDenom).to.equal(DENOM);
      expect(params.params!.maxValidators).to.equal(restParams.max_validators);
      expect(params.params!.unbondingTime!.seconds).to.equal(20n);
      const pool = (await q.staking.pool()).pool!;
      expect(pool.bondedTokens).to.equal((await rest('/cosmos/staking/v1beta1/pool')).pool.bonded_tokens);
      const vals = await q.staking.validators('BOND_STATUS_BONDED');
      expect(vals.validators.map((v) => v.operatorAddress)).to.include(genesisValoper);
      const mine = (await q.staking.validator(valoper)).validator!;
      expect(mine.description!.moniker).to.equal('e2e-edited');
      expect(mine.commission!.commissionRates!.rate).to.equal(dec('0.1'));
      const del = (await q.staking.delegation(operator, genesisValoper)).delegationResponse!;
      const restDel = (await rest(`/cosmos/staking/v1beta1/validators/${genesisValoper}/delegations/${operator}`)).delegation_response;
      expect(del.balance!.amount).to.equal(restDel.balance.amount);
      expect(del.delegation!.shares).to.equal(dec(restDel.delegation.shares));
      expect((await q.staking.delegatorDelegations(operator)).delegationResponses.length).to.equal(2);
      expect((await q.staking.validatorDelegations(valoper)).delegationResponses.map((d) => d.delegation!.delegatorAddress)).to.include(operator);
      expect((await q.staking.delegatorValidators(operator)).validators).to.have.length(2);
      expect((await q.staking.delegatorValidator(operator, valoper)).validator!.operatorAddress).to.equal(valoper);
      // the redelegation completed after the 20 s unbonding time: the SDK answers "no redelegation found"
      let redErr = '';
      await q.staking.redelegations(operator, genesisValoper, valoper).catch((e: Error) => { redErr = e.message; });
      expect(redErr).to.match(/no redelegation found/);
      expect((await q.staking.delegatorUnbondingDelegations(operator)).unbondingResponses).to.have.length(0);
      const height = Number((await rest('/cosmos/base/tendermint/v1beta1/blocks/latest')).block.header.height);
      expect((await q.staking.historicalInfo(height - 1)).hist!.valset.length).to.be.greaterThan(0);
      // distribution
      const dparams = (await q.distribution.params()).params!;
      expect(dparams.communityTax).to.equal(dec((await rest('/cosmos/distribution/v1beta1/params')).params.community_tax));
      expect((await q.distribution.communityPool()).pool.length).to.equal(1);
      expect((await q.distribution.delegatorWithdrawAddress(operator)).withdrawAddress).to.equal((await (await devWallet(7)).getAccounts())[0]!.address);
      expect((await q.distribution.delegationTotalRewards(operator)).rewards.length).to.equal(2);
      expect((await q.distribution.delegationRewards(operator, genesisValoper)).rewards.length).to.be.greaterThan(0);
      expect((await q.distribution.delegatorValidators(operator)).validators).to.have.members([genesisValoper, valoper]);
      expect((await q.distribution.validatorOutstandingRewards(genesisValoper)).rewards!.rewards.length).to.be.greaterThan(0);
      expect((await q.distribution.validatorCommission(genesisValoper)).commission!.commission.length).to.be.greaterThan(0);
      // (after the unjail it misses blocks again, so a second downtime slash may already be there)
      const slashes = (await q.distribution.validatorSlashes(valoper, 1, height)).slashes.map((x) => x.fraction);
      expect(slashes[0]).to.equal(dec('0.01'));
      const restSlashes = (await rest(`/cosmos/distribution/v1beta1/validators/${valoper}/slashes?starting_height=1&ending_height=${height}`)).slashes;
      expect(slashes).to.deep.equal(restSlashes.map((x: any) => dec(x.fraction)));
      // slashing
      const consAddr = toBech32('chainvalcons', sha256(consPub).subarray(0, 20));
      const sparams = (await q.slashing.params()).params!;
      expect(sparams.signedBlocksWindow).to.equal(20n);
      expect(sparams.slashFractionDowntime).to.deep.equal(new TextEncoder().encode(dec('0.01')));
      const info = (await q.slashing.signingInfo(consAddr)).valSigningInfo!;
      expect(info.address).to.equal(consAddr);
      expect(info.missedBlocksCounter > 0n).to.equal(true);
      expect((await q.slashing.signingInfos()).info.map((i) => i.address)).to.include(consAddr);
      // mint (the extension decodes the Dec values to cosmjs Decimals)
      const mparams = await q.mint.params();
      expect(mparams.mintDenom).to.equal(DENOM);
      const restInflation = Number((await rest('/cosmos/mint/v1beta1/inflation')).inflation);
      expect((await q.mint.inflation()).toFloatApproximation()).to.be.closeTo(restInflation, 1e-6);
      expect((await q.mint.annualProvisions()).toFloatApproximation()).to.be.greaterThan(0);
      expect(mparams.goalBonded.toFloatApproximation()).to.equal(0.67);
    } finally {
      comet.disconnect();
    }
  });
});
