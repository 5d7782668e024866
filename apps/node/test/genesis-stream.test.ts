/**
 * Genesis import from the file, section by section (`openGenesis` → InitChain's `appStateSource`; auth's
 * accounts and bank's balances in chunks): the same state as InitChain from the parsed document, the same
 * validation errors, syntax errors with JSON.parse's message, and a progress display per large field.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Progress } from '@chain/app';
import type { InitChainResponse } from '@chain/app';
import { CommitStore } from '@chain/store';
import type { GenesisDoc } from '@chain/consensus';
import { sha256, toBech32, toHex, utf8 } from '@chain/crypto';
import { createChainApp } from '../src/app.js';
import type { ChainApp } from '../src/app.js';
import { initHome, openGenesis, readGenesis } from '../src/config/init.js';
import { withProgress } from '../src/progress.js';

const EXTRA = 2500;

describe('genesis import from the file in sections and chunks', function () {
  this.timeout(120_000);
  let home: string;
  let genesisPath: string;
  let good: string;
  const cleanup: (() => Promise<void>)[] = [];

  async function app(opts: { genesisSpillEntries?: number } = {}): Promise<ChainApp & { store: CommitStore }> {
    const dir = mkdtempSync(join(tmpdir(), 'chain-genesis-stream-'));
    const store = await CommitStore.open(join(dir, 'db'), { stateCacheSize: 1000 });
    cleanup.push(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); });
    return { ...createChainApp({ store, chainId: 'chain-stream-1', minGasPrices: '', ...opts }), store };
  }

  const request = (doc: GenesisDoc) => ({ time: new Date(doc.genesis_time), chainId: doc.chain_id, validators: [], initialHeight: Number(doc.initial_height) });

  /** InitChain from the file through openGenesis (what the node does); the labels of the progress displays. */
  async function fromFile(text: string): Promise<{ c: ChainApp; res: InitChainResponse; shown: string[] }> {
    writeFileSync(genesisPath, text);
    const g = openGenesis(home);
    try {
      const c = await app();
      const shown: string[] = [];
      const progress = (label: string, total?: number): Progress => new Progress({ label, total, silent: true, now: () => { shown.push(`${label} ${total}`); return 0; } });
      const res = c.app.initChainSync({ ...request(g.doc), appState: {}, appStateSource: g.appStateSource(), progress });
      return { c, res, shown: [...new Set(shown)] };
    } finally {
      g.close();
    }
  }

  const errorOf = async (text: string): Promise<string> => {
    try {
      await fromFile(text);
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };

  before(() => {
    home = mkdtempSync(join(tmpdir(), 'chain-genesis-stream-home-'));
    initHome({ home, dev: true, chainId: 'chain-stream-1' });
    genesisPath = join(home, 'config', 'genesis.json');
    const doc = readGenesis(home);
    const auth = doc.app_state.auth as { accounts: Record<string, unknown>[] };
    const bank = doc.app_state.bank as { balances: Record<string, unknown>[]; supply: unknown[] };
    const first = auth.accounts.length;
    for (let i = 0; i < EXTRA; i++) {
      const address = toBech32('chain', sha256(utf8(`stream ${i}`)).subarray(0, 20));
      auth.accounts.push({ '@type': '/chain.auth.v1beta1.BaseAccount', address, pub_key: null, account_number: String(first + i), sequence: '0' });
      bank.balances.push({ address, coins: [{ denom: 'achain', amount: String(1000 + i) }] });
    }
    // bank's supply check runs over every chunk: the total of all balances
    const total = bank.balances.reduce((s, b) => s + BigInt((b.coins as { amount: string }[])[0]!.amount), 0n);
    bank.supply = [{ denom: 'achain', amount: total.toString() }];
    good = JSON.stringify(doc, null, 2);
  });

  after(async () => {
    for (const f of cleanup) await f();
    rmSync(home, { recursive: true, force: true });
  });

  it('the state after InitChain equals the one from the parsed document, key by key; a display per large field', async () => {
    const parsed = JSON.parse(good) as GenesisDoc;
    const whole = await app();
    const resWhole = whole.app.initChainSync({ ...request(parsed), appState: parsed.app_state });
    const { c, res, shown } = await fromFile(good);
    expect(res.validators.map((v) => [toHex(v.pubKey.key), v.power])).to.deep.equal(resWhole.validators.map((v) => [toHex(v.pubKey.key), v.power]));
    const dump = (x: ChainApp): string[] => [...x.app.pendingGenesisState()!.iterator()].map(([k, v]) => `${toHex(k)}=${toHex(v)}`);
    const a = dump(whole);
    expect(a.length).to.be.greaterThan(2 * EXTRA);
    expect(dump(c)).to.deep.equal(a);
    expect(JSON.stringify(c.app.exportGenesis())).to.equal(JSON.stringify(whole.app.exportGenesis()));
    expect(shown).to.deep.equal([`genesis auth.accounts ${EXTRA + 20}`, `genesis bank.balances ${EXTRA + 21}`]);
  });

  it('moved to disk during InitChain (a large genesis): the same export before the first block, the same blocks and state after', async () => {
    const parsed = JSON.parse(good) as GenesisDoc;
    const whole = await app();
    whole.app.initChainSync({ ...request(parsed), appState: parsed.app_state });
    writeFileSync(genesisPath, good);
    const g = openGenesis(home);
    const moved = await app({ genesisSpillEntries: 700 });
    try {
      await moved.app.initChain({ ...request(g.doc), appState: {}, appStateSource: g.appStateSource() });
    } finally {
      g.close();
    }
    expect(moved.store.spilledGenesis).to.be.greaterThan(2 * EXTRA);
    expect(moved.app.pendingGenesisState()).to.equal(undefined);
    expect(JSON.stringify(moved.app.exportGenesis())).to.equal(JSON.stringify(whole.app.exportGenesis()));
    const proposer = Buffer.from(parsed.validators[0]!.address, 'hex');
    for (let h = 1; h <= 3; h++) {
      const req = {
        txs: [], decidedLastCommit: { round: 0, votes: [] }, misbehavior: [], hash: new Uint8Array(32).fill(h), height: h,
        time: new Date(Date.parse(parsed.genesis_time) + h * 1000), nextValidatorsHash: new Uint8Array(32), proposerAddress: proposer,
      };
      const a = await whole.app.finalizeBlock(req);
      await whole.app.commit();
      const b = await moved.app.finalizeBlock(req);
      await moved.app.commit();
      expect(toHex(b.appHash), `app hash of block ${h}`).to.equal(toHex(a.appHash));
      expect(JSON.stringify(b.events), `events of block ${h}`).to.equal(JSON.stringify(a.events));
    }
    expect(moved.store.spilledGenesis).to.equal(0);
    const dump = (x: { store: CommitStore }): string[] => [...x.store.state.iterator()].map(([k, v]) => `${toHex(k)}=${toHex(v)}`);
    expect(dump(moved)).to.deep.equal(dump(whole));
  });

  it('the validation errors of the parsed document: duplicate account, duplicate balance, wrong supply, bad address, unknown module', async () => {
    const doc = JSON.parse(good) as GenesisDoc;
    const auth = doc.app_state.auth as { accounts: { address: string }[] };
    const bank = doc.app_state.bank as { balances: { address: string; coins: unknown[] }[]; supply: { amount: string }[] };
    const variants: [string, (d: any) => void][] = [
      ['duplicate account', (d) => { d.app_state.auth.accounts[2000].address = auth.accounts[5]!.address; }],
      ['duplicate balance', (d) => { d.app_state.bank.balances[2400].address = bank.balances[3]!.address; }],
      ['wrong supply', (d) => { d.app_state.bank.supply[0].amount = '1'; }],
      ['bad balance address', (d) => { d.app_state.bank.balances[1500].address = 'chain1nope'; }],
      ['unsorted coins', (d) => { d.app_state.bank.balances[1700].coins = [{ denom: 'zzz', amount: '1' }, { denom: 'aaa', amount: '1' }]; }],
      ['unknown module', (d) => { d.app_state.nope = {}; }],
    ];
    for (const [what, change] of variants) {
      const d = JSON.parse(good);
      change(d);
      const whole = await app();
      let expected = 'no error';
      try {
        whole.app.initChainSync({ ...request(d), appState: d.app_state });
      } catch (e) {
        expected = (e as Error).message;
      }
      expect(expected, what).to.not.equal('no error');
      expect(await errorOf(JSON.stringify(d, null, 2)), what).to.equal(expected);
    }
  });

  it('a syntax error in a header field, a module section or a large field: `cannot read <file>: ` and JSON.parse\'s message', async () => {
    const jsonError = (t: string): string => { try { JSON.parse(t); } catch (e) { return (e as Error).message; } return 'parsed'; };
    const i = good.indexOf('"amount": "3000"');
    for (const text of [
      good.replace('"initial_height": "1"', '"initial_height": 1x'),
      good.replace('"max_memo_characters": "256"', '"max_memo_characters": "256",'),
      good.slice(0, i) + '"amount": 3000.' + good.slice(i + '"amount": "3000"'.length),
    ]) {
      expect(text).to.not.equal(good);
      expect(await errorOf(text)).to.equal(`cannot read ${genesisPath}: ${jsonError(text)}`);
    }
    writeFileSync(genesisPath, good);
  });

  it('withProgress (CometBFT mode) adds the progress displays without reading a lazy appState', () => {
    let reads = 0;
    const req = { time: new Date(0), chainId: 'c', validators: [], initialHeight: 1, get appState() { reads++; return {}; } };
    const progress = (label: string, total?: number): Progress => new Progress({ label, total, silent: true });
    const out = withProgress(req, progress);
    expect(reads).to.equal(0);
    expect(out.progress).to.equal(progress);
    expect(out.chainId).to.equal('c');
    expect(out.appState).to.deep.equal({});
    expect(reads).to.equal(1);
  });

  it('openGenesis reads the top-level fields only; app_state is read from the file when asked for', () => {
    writeFileSync(genesisPath, good);
    const g = openGenesis(home);
    g.close();
    const parsed = JSON.parse(readFileSync(genesisPath, 'utf8')) as GenesisDoc;
    expect(Object.keys(g.doc)).to.deep.equal(Object.keys(parsed));
    expect(g.doc.chain_id).to.equal('chain-stream-1');
    expect(g.doc.validators).to.deep.equal(parsed.validators);
    expect(JSON.stringify(g.doc)).to.equal(JSON.stringify(parsed));
  });
});
