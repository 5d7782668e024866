import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from '../src/cli.js';
import { applyFlags, loadConfig } from '../src/config/config.js';
import { initHome, devAccounts, isInitialized, genesisParams, readGenesis, readValidatorKey } from '../src/config/init.js';
import { CommitStore } from '@chain/store';
import { fromBase64, fromBech32, secp256k1Address, secp256k1PublicKey, fromHex, sha256, toBech32, toHex, utf8 } from '@chain/crypto';
import { createChainApp } from '../src/app.js';

describe('node config and CLI', () => {
  let home: string;
  beforeEach(() => { home = mkdtempSync(join(tmpdir(), 'chaind-cfg-')); });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('parses flags: values, = form and bare booleans', () => {
    const a = parseArgs(['start', '--home', '/x', '--json-rpc.enable', '--api.address=tcp://1.2.3.4:5', '--api.enable', 'false', '--rpc.laddr', 'tcp://127.0.0.1:1']);
    expect(a.command).to.equal('start');
    expect(a.flags).to.deep.equal({ home: '/x', 'json-rpc.enable': true, 'api.address': 'tcp://1.2.3.4:5', 'api.enable': 'false', 'rpc.laddr': 'tcp://127.0.0.1:1' });
  });

  it('writes a dev home whose config files parse, with flags on top', () => {
    initHome({ home, dev: true });
    expect(isInitialized(home)).to.equal(true);
    const cfg = loadConfig(home);
    expect(cfg.app.api.enable).to.equal(true);
    expect(cfg.app.api.address).to.equal('tcp://0.0.0.0:1317');
    expect(cfg.app['minimum-gas-prices']).to.equal('1000000000achain');
    expect(cfg.config.rpc.laddr).to.equal('tcp://127.0.0.1:26657');
    const over = applyFlags(cfg, { 'rpc.laddr': 'tcp://127.0.0.1:9', 'api.enable': 'false', 'json-rpc.enable': true, 'grpc.address': '0.0.0.0:1' });
    expect(over.config.rpc.laddr).to.equal('tcp://127.0.0.1:9');
    expect(over.app.api.enable).to.equal(false);
    expect(over.app['json-rpc'].enable).to.equal(true);
    expect(() => applyFlags(cfg, { 'api.enable': 'maybe' })).to.throw(/expects true or false/);
    expect(() => initHome({ home, dev: true })).to.throw(/already exists/);
  });

  it('funds the 20 dev accounts in the dev genesis', () => {
    initHome({ home, dev: true });
    const g = JSON.parse(readFileSync(join(home, 'config', 'genesis.json'), 'utf8'));
    expect(g.chain_id).to.equal('chain_1337-1');
    const accts = devAccounts();
    expect(accts).to.have.length(20);
    expect(accts[0]!.hexAddress).to.equal('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    // the 20 dev accounts, then the not-bonded pool holding the genesis validator's self-delegation
    expect(g.app_state.bank.balances.map((b: any) => b.address)).to.deep.equal([...accts.map((a) => a.address), 'chain1tygms3xhhs3yv487phx3dw4a95jn7t7l5ep4yk']);
    expect(g.app_state.bank.balances[0].coins).to.deep.equal([{ denom: 'achain', amount: '1000000000000000000000000' }]);
    expect(g.app_state.bank.balances[20].coins).to.deep.equal([{ denom: 'achain', amount: '1000000000000000000000' }]);
    // the genesis validator: the node's consensus key, operated by dev account 0, bonded by InitGenesis
    const [val] = g.app_state.staking.validators;
    expect(val.operator_address).to.equal('chainvaloper17w0adeg64ky0daxwd2ugyuneellmjgnxvhw770');
    expect(val.status).to.equal('BOND_STATUS_UNBONDED');
    expect(g.app_state.staking.delegations).to.deep.equal([{ delegator_address: accts[0]!.address, validator_address: val.operator_address, shares: '1000000000000000000000.000000000000000000' }]);
    expect(g.app_state.staking.params.unbonding_time).to.equal('20s');
    expect(g.app_state.bank.denom_metadata[0].display).to.equal('chain');
  });

  it('chaind init writes the original chain\'s production params (reference §2.8), bond and mint denom achain', () => {
    initHome({ home });
    const g = JSON.parse(readFileSync(join(home, 'config', 'genesis.json'), 'utf8'));
    const s = g.app_state;
    expect(s.auth.params).to.deep.equal({ max_memo_characters: '256', tx_sig_limit: '7', tx_size_cost_per_byte: '10', sig_verify_cost_ed25519: '590', sig_verify_cost_secp256k1: '1000' });
    expect(s.staking.params).to.deep.equal({ unbonding_time: '1814400s', max_validators: 100, max_entries: 7, historical_entries: 10000, bond_denom: 'achain' });
    expect(s.slashing.params).to.deep.equal({
      signed_blocks_window: '100', min_signed_per_window: '0.500000000000000000', downtime_jail_duration: '600s',
      slash_fraction_double_sign: '0.050000000000000000', slash_fraction_downtime: '0.010000000000000000',
    });
    expect(s.distribution.params).to.deep.equal({
      community_tax: '0.020000000000000000', base_proposer_reward: '0.010000000000000000', bonus_proposer_reward: '0.040000000000000000', withdraw_addr_enabled: true,
    });
    expect(s.mint).to.deep.equal({
      minter: { inflation: '0.130000000000000000', annual_provisions: '0.000000000000000000' },
      params: {
        mint_denom: 'achain', inflation_rate_change: '0.130000000000000000', inflation_max: '0.200000000000000000', inflation_min: '0.070000000000000000',
        goal_bonded: '0.670000000000000000', blocks_per_year: '6311520',
      },
    });
    expect(g.consensus_params.block).to.deep.equal({ max_bytes: '22020096', max_gas: '-1' });
    expect(g.consensus_params.evidence).to.deep.include({ max_age_num_blocks: '100000', max_age_duration: String(172800n * 10n ** 9n) });
    expect(g.consensus_params.validator).to.deep.equal({ pub_key_types: ['ed25519'] });
    expect(g.initial_height).to.equal('1');
    // no dev accounts: the only genesis account is the validator's operator, whose key init wrote
    const op = JSON.parse(readFileSync(join(home, 'config', 'operator_key.json'), 'utf8'));
    expect(op.address).to.equal(toBech32('chain', secp256k1Address(secp256k1PublicKey(fromHex(op.private_key)))));
    expect(s.auth.accounts).to.deep.equal([{ '@type': '/chain.auth.v1beta1.BaseAccount', address: op.address, pub_key: null, account_number: '0', sequence: '0' }]);
    // the gentx-equivalent: the node's consensus key, operated by that account, its self-delegation in the not-bonded pool
    const key = readValidatorKey(home);
    const [val] = s.staking.validators;
    expect(s.staking.validators).to.have.length(1);
    expect(val.operator_address).to.equal(toBech32('chainvaloper', fromBech32(op.address).data));
    expect(val.consensus_pubkey).to.deep.equal({ '@type': '/chain.crypto.ed25519.PubKey', key: key.pub_key.value });
    expect(val).to.deep.include({ status: 'BOND_STATUS_UNBONDED', tokens: '1000000000000000000000', jailed: false });
    expect(s.staking.delegations).to.deep.equal([{ delegator_address: op.address, validator_address: val.operator_address, shares: '1000000000000000000000.000000000000000000' }]);
    expect(s.bank.balances).to.deep.equal([{ address: 'chain1tygms3xhhs3yv487phx3dw4a95jn7t7l5ep4yk', coins: [{ denom: 'achain', amount: '1000000000000000000000' }] }]);
    expect(g.validators).to.deep.equal([{ address: key.address, pub_key: key.pub_key, power: '1000', name: 'node0' }]);
  });

  it('chaind dev keeps the production params but shortens unbonding, the signing window and the jail time', () => {
    const prod = genesisParams(false);
    const dev = genesisParams(true);
    expect(dev.staking.unbonding_time).to.equal('20s');
    expect(dev.slashing.signed_blocks_window).to.equal('20');
    expect(dev.slashing.min_signed_per_window).to.equal('0.500000000000000000');
    expect(dev.slashing.downtime_jail_duration).to.equal('60s');
    // everything else is the production value (gov's deposit and voting periods are shortened too)
    const blank = (p: ReturnType<typeof genesisParams>) => ({
      ...p,
      staking: { ...p.staking, unbonding_time: 'x' },
      slashing: { ...p.slashing, signed_blocks_window: 'x', downtime_jail_duration: 'x' },
      gov: { ...p.gov, deposit_params: { ...p.gov.deposit_params, max_deposit_period: 'x' }, voting_params: { ...p.gov.voting_params, voting_period: 'x' } },
    });
    expect(blank(dev)).to.deep.equal(blank(prod));
    expect(prod.staking.unbonding_time).to.equal('1814400s');
    initHome({ home, dev: true });
    const s = readGenesis(home).app_state as any;
    expect(s.staking.params).to.deep.equal(dev.staking);
    expect(s.slashing.params).to.deep.equal(dev.slashing);
    expect(s.distribution.params).to.deep.equal(prod.distribution);
  });

  it('the production genesis passes InitChain: the node\'s key is the one bonded validator, and the params export as written', async () => {
    initHome({ home, chainId: 'chain_520-1' });
    const g = readGenesis(home);
    const key = readValidatorKey(home);
    const store = await CommitStore.open(join(home, 'data', 'chain.db'));
    try {
      const c = createChainApp({ store, chainId: g.chain_id, minGasPrices: '' });
      const res = await c.app.initChain({ time: new Date(g.genesis_time), chainId: g.chain_id, validators: [], appState: g.app_state, initialHeight: 1 });
      expect(res.validators.map((v) => [toHex(v.pubKey.key), v.power])).to.deep.equal([[toHex(fromBase64(key.pub_key.value)), 1000n]]);
      await c.app.finalizeBlock({
        txs: [], decidedLastCommit: { round: 0, votes: [] }, misbehavior: [], hash: new Uint8Array(32), height: 1, time: new Date(g.genesis_time),
        nextValidatorsHash: new Uint8Array(32), proposerAddress: new Uint8Array(20),
      });
      await c.app.commit();
      const out = c.app.exportGenesis() as any;
      const s = g.app_state as any;
      for (const m of ['auth', 'staking', 'slashing', 'distribution', 'mint']) expect(out[m].params, m).to.deep.equal(s[m].params);
      expect(out.staking.validators.map((v: any) => v.status)).to.deep.equal(['BOND_STATUS_BONDED']);
      expect(out.staking.last_total_power).to.equal('1000');
      const bondedPool = toBech32('chain', sha256(utf8('bonded_tokens_pool')).subarray(0, 20));
      const bonded = out.bank.balances.find((b: any) => b.address === bondedPool);
      expect(bonded?.coins).to.deep.equal([{ denom: 'achain', amount: '1000000000000000000000' }]);
    } finally {
      await store.close();
    }
  });

  it('rejects bad config files with a clear message', () => {
    initHome({ home });
    writeFileSync(join(home, 'config', 'app.toml'), '[api]\nenable = "yes"\n');
    expect(() => loadConfig(home)).to.throw(/invalid app.toml: api.enable/);
    writeFileSync(join(home, 'config', 'app.toml'), '[api\n');
    expect(() => loadConfig(home)).to.throw(/cannot parse/);
  });
});
