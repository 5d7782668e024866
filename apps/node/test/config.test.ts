import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from '../src/cli.js';
import { applyFlags, loadConfig, parseDurationMs, parseListenAddress } from '../src/config/config.js';
import { initHome, devAccounts, isInitialized } from '../src/config/init.js';

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

  it('rejects bad config files with a clear message', () => {
    initHome({ home });
    writeFileSync(join(home, 'config', 'app.toml'), '[api]\nenable = "yes"\n');
    expect(() => loadConfig(home)).to.throw(/invalid app.toml: api.enable/);
    writeFileSync(join(home, 'config', 'app.toml'), '[api\n');
    expect(() => loadConfig(home)).to.throw(/cannot parse/);
  });

  it('parses durations and listen addresses', () => {
    expect(parseDurationMs('1s')).to.equal(1000);
    expect(parseDurationMs('1m30s')).to.equal(90_000);
    expect(parseDurationMs('250ms')).to.equal(250);
    expect(() => parseDurationMs('fast')).to.throw(/invalid duration/);
    expect(parseListenAddress('tcp://0.0.0.0:1317')).to.deep.equal({ host: '0.0.0.0', port: 1317 });
    expect(parseListenAddress('127.0.0.1:26657')).to.deep.equal({ host: '127.0.0.1', port: 26657 });
    expect(() => parseListenAddress('tcp://host:99999')).to.throw(/invalid port/);
  });
});
