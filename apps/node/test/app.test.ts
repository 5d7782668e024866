/**
 * The chain's composition (`createChainApp` over `CHAIN_APP_CONFIG`): the declared config is complete,
 * the authority is the gov module account, and the dev genesis round-trips through InitChain and export.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitStore } from '@chain/store';
import { fromBech32, toHex } from '@chain/crypto';
import { createChainApp } from '../src/app.js';
import { CHAIN_APP_CONFIG } from '../src/app-config.js';
import { initHome, readGenesis } from '../src/config/init.js';

describe('createChainApp (the chain composition)', () => {
  let dir: string;
  let store: CommitStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chain-compose-'));
    store = await CommitStore.open(join(dir, 'db'));
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('composes the modules under the declared config, with the gov module account as authority', () => {
    const c = createChainApp({ store, chainId: 'chain_1337-1', minGasPrices: '0achain' });
    expect(c.app.allModules().map((m) => m.name)).to.deep.equal(['auth', 'bank', 'staking', 'distribution', 'slashing', 'evidence', 'mint', 'evm', 'token', 'liquidity', 'gov', 'params', 'upgrade']);
    expect(c.app.manager.versionMap()).to.deep.equal({
      auth: 2, bank: 2, staking: 2, distribution: 2, slashing: 2, evidence: 1, mint: 1, evm: 1, token: 1, liquidity: 2, gov: 2, params: 1, upgrade: 1,
    });
    expect(c.app.manager.validatorUpdatesModule).to.equal('staking');
    // the SDK's gov module address: the first 20 bytes of sha256("gov")
    expect(toHex(fromBech32(c.authority).data)).to.equal('7b5fe22b5446f7c62ea27b8bd71cef94e03f3df2');
    expect(c.router.queryRoute('/cosmos.bank.v1beta1.Query/Balance')?.path).to.equal('/chain.bank.v1beta1.Query/Balance');
  });

  it('refuses a config that forgets a module in an order it needs', () => {
    const config = { ...CHAIN_APP_CONFIG, order: { ...CHAIN_APP_CONFIG.order, endBlock: ['staking'] } };
    expect(() => createChainApp({ store, chainId: 'chain_1337-1', minGasPrices: '0achain', config })).to.throw('app config: order endBlock forgets module(s) evm');
  });

  it('round-trips the dev genesis through InitChain, the first block and export', async () => {
    const home = join(dir, 'home');
    initHome({ home, dev: true });
    const genesis = readGenesis(home);
    const c = createChainApp({ store, chainId: genesis.chain_id, minGasPrices: '0achain' });
    await c.app.initChain({ time: new Date(genesis.genesis_time), chainId: genesis.chain_id, validators: [], appState: genesis.app_state, initialHeight: 1 });
    await c.app.finalizeBlock({
      txs: [], decidedLastCommit: { round: 0, votes: [] }, misbehavior: [], hash: new Uint8Array(32), height: 1, time: new Date(genesis.genesis_time),
      nextValidatorsHash: new Uint8Array(32), proposerAddress: new Uint8Array(20),
    });
    await c.app.commit();
    const exported = c.app.exportGenesis() as Record<string, Record<string, unknown>>;
    expect(Object.keys(exported)).to.deep.equal(['auth', 'bank', 'distribution', 'staking', 'slashing', 'mint', 'evm', 'evidence', 'token', 'liquidity', 'gov', 'upgrade']);
    // the dev balances are exported as they were; the self-delegation moved to the bonded pool
    const bank = genesis.app_state.bank as { balances: { address: string }[] };
    const out = exported.bank!.balances as { address: string }[];
    for (const b of bank.balances.slice(0, 20)) expect(out, b.address).to.deep.include(b);
    const staking = exported.staking as { validators: { status: string }[] };
    expect(staking.validators.map((v) => v.status)).to.deep.equal(['BOND_STATUS_BONDED']);
  });
});
