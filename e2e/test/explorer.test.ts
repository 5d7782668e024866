/**
 * The built-in explorer in a real browser: `chaind dev` (explorer on by default) serves /explorer/ on its REST
 * port, headless Debian Chromium (tools/chromium/install.sh installs it) driven by playwright-core opens it, sees
 * blocks arrive over the CometBFT websocket, and finds a Cosmos tx, an Ethereum tx and an account by search.
 * Screenshots go to e2e/artifacts/explorer/ (gitignored), also of a failing test.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { JsonRpcProvider, Wallet } from 'ethers';
import { GasPrice, SigningStargateClient } from '@cosmjs/stargate';
import { randomBytes, toBech32, toHex } from '@chain/crypto';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devWallet, getJson, postJson, signedSend } from '../src/clients.js';
import { liquidityRegistry, liquidityTypeUrl } from '../src/liquidity.js';

const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const INSTALL = new URL('../../tools/chromium/install.sh', import.meta.url).pathname;
const ARTIFACTS = new URL('../artifacts/explorer/', import.meta.url).pathname;
/** dev account eth 0 (Hardhat's account 0) */
const ETH_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

describe('explorer in headless Chromium', function () {
  this.timeout(120_000);
  let node: NodeHandle;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  /** the Cosmos tx sent by the second test, searched by the later ones */
  let sent: { hash: string; height: number; recipient: string } | undefined;

  const shot = async (name: string): Promise<void> => { await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true }); };
  const search = async (query: string): Promise<void> => {
    await page.fill('#search-input', query);
    await page.click('#search button[type=submit]');
  };
  const textOf = async (selector: string): Promise<string> => (await page.locator(selector).first().innerText()).trim();
  const waitText = (selector: string, text: string, timeout = 20_000) => page.waitForFunction(
    ([s, t]) => document.querySelector(s!)?.textContent?.trim() === t, [selector, text] as const, { timeout },
  );

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      // the project installs what it needs: the script runs apt-get as root (and says what to do otherwise)
      this.timeout(600_000);
      const r = spawnSync('bash', [INSTALL], { encoding: 'utf8' });
      if (r.status !== 0) process.stderr.write(`${r.stdout}${r.stderr}`);
    }
    if (!existsSync(CHROMIUM)) {
      throw new Error(`headless Chromium is missing at ${CHROMIUM}: install it with \`bash tools/chromium/install.sh\` (apt-get install chromium; .ci/run does it), or set CHROMIUM_BIN`);
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    node = await startNode({ timeoutCommit: '500ms' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page) {
      await page.screenshot({ path: `${ARTIFACTS}failed-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`, fullPage: true }).catch(() => undefined);
    }
  });

  after(async () => {
    await browser?.close();
    if (node) {
      await node.stop();
      node.cleanup();
    }
  });

  it('serves the page at /explorer on the REST port and shows new blocks as they arrive, without a reload', async () => {
    const r = await fetch(`${node.restUrl}/explorer`, { redirect: 'manual' });
    expect(r.status).to.equal(301);
    await page.goto(`${node.restUrl}/explorer/`);
    await page.waitForSelector('#live-status.live', { timeout: 20_000 });
    await page.waitForSelector('#latest-blocks tbody tr[data-height]', { timeout: 20_000 });
    const first = Number(await page.locator('#latest-blocks tbody tr[data-height]').first().getAttribute('data-height'));
    expect(first).to.be.greaterThan(0);
    await page.evaluate(() => { (window as unknown as { marker: number }).marker = 42; });
    await page.waitForFunction((h) => Number(document.querySelector('#latest-blocks tbody tr[data-height]')?.getAttribute('data-height')) > h, first, { timeout: 20_000 });
    const later = Number(await page.locator('#latest-blocks tbody tr[data-height]').first().getAttribute('data-height'));
    expect(later).to.be.greaterThan(first);
    // the same document (no reload): the new row came over the websocket
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).to.equal(42);
    // the row's height is a committed block of the node
    const blk = await getJson(`${node.restUrl}/cosmos/base/tendermint/v1beta1/blocks/${later}`);
    expect(blk.status).to.equal(200);
    expect(await textOf('#chain-id')).to.equal('chain_1337-1');
    await shot('home');
  });

  it('shows a Cosmos tx live, and its hash search shows the decoded message, the result and the events', async () => {
    const recipient = toBech32('chain', randomBytes(20));
    const raw = await signedSend(node.restUrl, 0, recipient, '1234');
    const b = await postJson(`${node.restUrl}/cosmos/tx/v1beta1/txs`, { tx_bytes: Buffer.from(raw).toString('base64'), mode: 'BROADCAST_MODE_SYNC' });
    expect(b.body.tx_response.code).to.equal(0);
    const hash: string = b.body.tx_response.txhash;
    // live: the Tx event puts it in the latest transactions
    await page.waitForSelector(`#latest-txs tr[data-hash="${hash}"]`, { timeout: 20_000 });
    const committed = await getJson(`${node.restUrl}/cosmos/tx/v1beta1/txs/${hash}`);
    expect(committed.status).to.equal(200);
    sent = { hash, height: Number(committed.body.tx_response.height), recipient };

    await search(hash.toLowerCase());
    await waitText('#tx-hash', hash);
    expect(await textOf('#tx-height')).to.equal(String(sent.height));
    expect(await textOf('#tx-result')).to.equal('success');
    expect(await textOf('#tx-messages .msg-type')).to.equal('/cosmos.bank.v1beta1.MsgSend');
    const msgs = await textOf('#tx-messages');
    expect(msgs).to.include(recipient);
    expect(msgs).to.include('0.000000000000001234 chain');
    const transfers = await page.locator('#tx-events [data-type="transfer"]').allInnerTexts();
    expect(transfers.some((t) => t.includes(recipient) && t.includes('0.000000000000001234 chain'))).to.equal(true);
    expect(await page.locator('#tx-logs').innerText()).to.include('#0');
    await shot('tx-cosmos');
  });

  it('an address search (bech32 or 0x) shows the account, its balance and its tx', async () => {
    expect(sent).to.not.equal(undefined);
    const { recipient, hash } = sent!;
    await search(recipient);
    await waitText('#account-bech32', recipient);
    expect(await textOf('#balances')).to.equal('0.000000000000001234 chain');
    const hex = await textOf('#account-hex');
    expect(hex).to.match(/^0x[0-9a-f]{40}$/);
    expect(await page.locator('#account-txs').innerText()).to.include(hash.slice(0, 10));
    await shot('account');
    // the same account by its Ethereum address, and the sender's page with its delegation
    await search(hex.toUpperCase().replace(/^0X/, '0x'));
    await page.waitForFunction((h) => document.querySelector('#account-hex')?.textContent === h && !!document.querySelector('#account-bech32'), hex);
    expect(await textOf('#account-bech32')).to.equal(recipient);
    await search('chain17w0adeg64ky0daxwd2ugyuneellmjgnxkl0eq4');
    await waitText('#account-bech32', 'chain17w0adeg64ky0daxwd2ugyuneellmjgnxkl0eq4');
    expect(await textOf('#account-hex')).to.equal('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
    expect(await page.locator('#delegations').innerText()).to.include('chainvaloper17w0adeg64ky0daxwd2ugyuneellmjgnxvhw770');
  });

  it('an Ethereum tx hash shows the Ethereum and the Cosmos views of the same tx', async () => {
    const provider = new JsonRpcProvider(node.ethUrl, undefined, { staticNetwork: true });
    const wallet = new Wallet(ETH_KEY, provider);
    const to = '0x' + toHex(randomBytes(20));
    const tx = await wallet.sendTransaction({ to, value: 10n ** 15n });
    const receipt = await tx.wait();
    expect(receipt?.status).to.equal(1);
    const found = await getJson(`${node.restUrl}/cosmos/tx/v1beta1/txs?events=${encodeURIComponent(`ethereum_tx.ethereumTxHash='${tx.hash}'`)}`);
    const cosmosHash: string = found.body.tx_responses[0].txhash;

    await search(tx.hash);
    await waitText('#eth-hash', tx.hash);
    expect(await textOf('#tx-hash')).to.equal(cosmosHash);
    expect(await textOf('#tx-messages .msg-type')).to.match(/MsgEthereumTx$/);
    expect(await textOf('#eth-status')).to.equal('success');
    expect((await textOf('#eth-from')).toLowerCase()).to.equal(wallet.address.toLowerCase());
    expect((await textOf('#eth-to')).toLowerCase()).to.equal(to);
    expect(await textOf('#eth-value')).to.equal('0.001 chain');
    expect(await page.locator('#tx-events [data-type="ethereum_tx"]').innerText()).to.include(tx.hash);
    await shot('tx-ethereum');
    // the Cosmos hash leads to the same page with the Ethereum view
    await search(cosmosHash);
    await waitText('#tx-hash', cosmosHash);
    await waitText('#eth-hash', tx.hash);
  });

  it('a height search shows the block with its tx; validators show voting power and uptime', async () => {
    expect(sent).to.not.equal(undefined);
    await search(String(sent!.height));
    await waitText('#block-height', String(sent!.height));
    expect(await page.locator('#block-tx-list').innerText()).to.include(sent!.hash);
    const blk = await getJson(`${node.restUrl}/cosmos/base/tendermint/v1beta1/blocks/${sent!.height}`);
    expect(await textOf('#block-hash')).to.equal(Buffer.from(blk.body.block_id.hash, 'base64').toString('hex').toUpperCase());
    await shot('block');

    await page.click('nav a[href="#/validators"]');
    await page.waitForSelector('#validators tbody tr');
    const row = await page.locator('#validators tbody tr[data-operator="chainvaloper17w0adeg64ky0daxwd2ugyuneellmjgnxvhw770"]').innerText();
    expect(row).to.include('node0');
    expect(row).to.include('1000 (100.00 %)');
    expect(row).to.match(/100\.00 % \(0 missed of \d+\)/);
    await shot('validators');
    await search('chainvaloper17w0adeg64ky0daxwd2ugyuneellmjgnxvhw770');
    await waitText('#validator-operator', 'chainvaloper17w0adeg64ky0daxwd2ugyuneellmjgnxvhw770');

    for (const [nav, sel] of [['#/tokens', '#tokens'], ['#/proposals', '#proposals-view'], ['#/pools', '#pools-view'], ['#/wallet', '#keplr-json']] as const) {
      await page.click(`nav a[href="${nav}"]`);
      await page.waitForSelector(sel);
    }
    expect(await page.locator('#keplr-json').innerText()).to.include('"chainId": "chain_1337-1"');
    // back to the latest blocks and txs (the README's screenshot is this one)
    await page.click('nav a[href="#/"]');
    await page.waitForSelector(`#latest-txs tr[data-hash="${sent!.hash}"]`);
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `${ARTIFACTS}home-after-txs.png` });
    expect(pageErrors).to.deep.equal([]);
  });

  it('shows a token, its owner, a liquidity pool with reserves and price, and the owner\'s pool share', async () => {
    const wallet = await devWallet(1);
    const [{ address: owner }] = await wallet.getAccounts();
    const client = await SigningStargateClient.connectWithSigner(node.rpcUrl, wallet, {
      registry: liquidityRegistry(), gasPrice: GasPrice.fromString('1000000000achain'), broadcastPollIntervalMs: 200,
    });
    try {
      const issued = await client.signAndBroadcast(owner, [{ typeUrl: '/chain.prc10.MsgIssueToken', value: {
        symbol: 'kitty', name: 'Kitty Token', scale: 6, min_unit: 'ukitty', initial_supply: '1000', max_supply: '10000', mintable: true, owner,
      } }], 2);
      expect(issued.code, issued.rawLog).to.equal(0);
      // 0.002 chain against 200 kitty: 0.00001 chain per kitty
      const created = await client.signAndBroadcast(owner, [{ typeUrl: liquidityTypeUrl('MsgCreatePool'), value: {
        pool_creator_address: owner, pool_type_id: 1, deposit_coins: [{ denom: 'achain', amount: '2000000000000000' }, { denom: 'ukitty', amount: '200000000' }],
      } }], 2);
      expect(created.code, created.rawLog).to.equal(0);
    } finally {
      client.disconnect();
    }
    await page.click('nav a[href="#/tokens"]');
    await page.waitForSelector('#tokens tr[data-symbol="kitty"]');
    const token = await page.locator('#tokens tr[data-symbol="kitty"]').innerText();
    expect(token).to.include('Kitty Token');
    expect(token).to.include('1,000 kitty');
    await page.click('nav a[href="#/pools"]');
    await page.waitForSelector('#pools tbody tr');
    const pool = await page.locator('#pools tbody tr').first().innerText();
    expect(pool).to.include('achain / ukitty');
    expect(pool).to.include('0.002 chain');
    expect(pool).to.include('200 kitty');
    expect(pool).to.include('0.00001 chain per kitty');
    await shot('pools');
    await search(owner);
    await waitText('#account-bech32', owner);
    expect(await page.locator('#owned-tokens').innerText()).to.include('Kitty Token');
    const shares = await page.locator('#pool-shares').innerText();
    expect(shares).to.include('100.0000 %');
    expect(shares).to.include('200 kitty');
    expect(await textOf('#balances')).to.include('800 kitty');
    expect(pageErrors).to.deep.equal([]);
  });

  it('serves the wallet descriptions with the node\'s own URLs', async () => {
    const k = (await getJson(`${node.restUrl}/keplr/chain-info.json`)).body;
    expect(k).to.deep.include({ chainId: 'chain_1337-1', rpc: node.rpcUrl, rest: node.restUrl, bip44: { coinType: 60 } });
    expect(k.evm).to.deep.equal({ chainId: 1337, rpc: node.ethUrl, websocket: node.ethWsUrl });
    expect(k.feeCurrencies[0].gasPriceStep.low).to.equal(1e9);
    const c = (await getJson(`${node.restUrl}/chain-registry/chain.json`)).body;
    expect(c.apis.rest[0].address).to.equal(node.restUrl);
    expect(c.apis.rpc[0].address).to.equal(node.rpcUrl);
    expect(c.fees.fee_tokens[0]).to.deep.include({ denom: 'achain', fixed_min_gas_price: 1e9 });
    const a = (await getJson(`${node.restUrl}/chain-registry/assetlist.json`)).body;
    expect(a.assets[0].denom_units).to.deep.equal([{ denom: 'achain', exponent: 0 }, { denom: 'chain', exponent: 18 }]);
  });
});
