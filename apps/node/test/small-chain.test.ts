/**
 * @chain/server hosts a chain other than chaind: a small chain (auth + bank + the token module, its own
 * bech32 prefix and chain id) is composed here from public package APIs only (nothing of apps/node/src), run on
 * the embedded engine, and served by the server package's REST gateway and CometBFT-compatible RPC. A balance
 * and an account read over REST, `status` and `abci_query` over RPC, then a signed bank send broadcast over RPC
 * (`broadcast_tx_commit`) and read back over REST (the tx service, over the consensus source) and RPC (`tx`).
 */
import { expect } from 'chai';
import { App, createRouter } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule, createAnteHandler } from '@chain/auth';
import { BankKeeper, BankModule } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import { CONSENSUS_PROTO_DIR, Engine, defaultConsensusParamsJSON, privValidatorKeyJSON, seedOfPrivValidatorKey } from '@chain/consensus';
import type { GenesisDoc } from '@chain/consensus';
import { fromBase64, sha256, toBase64, toHex } from '@chain/crypto';
import { EventBus } from '@chain/events';
import { TxIndexer, txEventMap } from '@chain/indexer';
import { Prc10Keeper, Prc10Module, PRC10_MODULE_NAME } from '@chain/prc10';
import {
  COMETBFT_VERSION, EmbeddedSource, SERVER_PROTO_DIR, createLogger, registerNodeServices, startRestServer, startRpcServer,
} from '@chain/server';
import type { RestServer, RpcServer } from '@chain/server';
import { CommitStore } from '@chain/store';
import { buildTx, devKey, tempDir, testAppConfig } from '@chain/testing';

const CHAIN_ID = 'small-1';
const PREFIX = 'small';
const DENOM = 'usmall';
const FEE_COLLECTOR = 'fee_collector';

describe('@chain/server hosting a small chain (auth + bank + token)', function () {
  this.timeout(30_000);
  const alice = devKey(0, PREFIX);
  const bob = devKey(1, PREFIX);
  let tmp: { dir: string; remove: () => void };
  let store: CommitStore;
  let engine: Engine;
  let bus: EventBus;
  let source: EmbeddedSource;
  let rest: RestServer;
  let rpc: RpcServer;
  let registry: ProtoRegistry;
  let restUrl: string;
  let rpcUrl: string;

  const getJson = async (url: string): Promise<any> => {
    const r = await fetch(url);
    const body = await r.json();
    if (!r.ok) throw new Error(`${url}: ${r.status} ${JSON.stringify(body)}`);
    return body;
  };
  const rpcCall = async (method: string, params: Record<string, unknown>): Promise<any> => {
    const r = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    const body = await r.json() as { result?: unknown; error?: unknown };
    if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    return body.result;
  };
  const balanceOverRest = async (address: string): Promise<bigint> =>
    BigInt((await getJson(`${restUrl}/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=${DENOM}`)).balance.amount);

  before(async () => {
    // the composition: registry, keepers, modules, app config, app (what a chain's createChainApp does)
    registry = new ProtoRegistry();
    registry.addProtoDir(CONSENSUS_PROTO_DIR);
    registry.addProtoDir(SERVER_PROTO_DIR);
    const router = createRouter(registry);
    const addressCodec = new AddressCodec(PREFIX);
    const moduleAccounts = { [FEE_COLLECTOR]: [], [PRC10_MODULE_NAME]: ['minter', 'burner'] } as const;
    const ak = new AccountKeeper({ registry, addressCodec, moduleAccounts: moduleAccounts as never });
    const blocked = new Set(Object.keys(moduleAccounts).map((n) => addressCodec.encode(ak.getModuleAddress(n))));
    const bank = new BankKeeper({ registry, accountKeeper: ak, blockedAddresses: blocked });
    const token = new Prc10Keeper({ registry, accountKeeper: ak, bankKeeper: bank });
    const modules = [new AuthModule(ak), new BankModule(bank), new Prc10Module(token)];
    const config = testAppConfig(modules, { moduleAccounts: Object.entries(moduleAccounts).map(([name, permissions]) => ({ name, permissions: [...permissions] })) });
    tmp = tempDir('small-chain');
    store = await CommitStore.open(tmp.dir);
    const app = new App({ registry, store, router, config, modules, chainId: CHAIN_ID, anteHandler: createAnteHandler(ak, bank), minGasPrices: [] });

    // the consensus: the embedded engine, one validator
    const valKey = privValidatorKeyJSON(sha256(new TextEncoder().encode('small-chain validator')));
    const genesis: GenesisDoc = {
      genesis_time: new Date().toISOString(),
      chain_id: CHAIN_ID,
      initial_height: '1',
      consensus_params: defaultConsensusParamsJSON(),
      validators: [{ address: valKey.address, pub_key: valKey.pub_key, power: '10', name: 'v0' }],
      app_hash: '',
      app_state: {
        auth: {
          params: { max_memo_characters: '256', tx_sig_limit: '7', tx_size_cost_per_byte: '10', sig_verify_cost_ed25519: '590', sig_verify_cost_secp256k1: '1000' },
          accounts: [alice, bob].map((k, i) => ({ '@type': '/chain.auth.v1beta1.BaseAccount', address: k.address, pub_key: null, account_number: String(i), sequence: '0' })),
        },
        bank: {
          params: { send_enabled: [], default_send_enabled: true },
          balances: [alice, bob].map((k) => ({ address: k.address, coins: [{ denom: DENOM, amount: '1000000' }] })),
          supply: [], denom_metadata: [], send_enabled: [],
        },
      },
    };
    bus = new EventBus();
    let engineRef: Engine | undefined;
    const indexer = new TxIndexer(store, async (height, index) => {
      const e = engineRef!;
      return (await e.blocks.results(height))?.txResults[index]?.events;
    });
    engine = new Engine({ app, store, bus, indexer, genesis, validatorKey: seedOfPrivValidatorKey(valKey), timeoutCommitMs: 100 });
    engineRef = engine;

    // the server package: node services over the consensus source, then REST and RPC on free ports
    source = new EmbeddedSource(engine, bus, {
      nodeId: toHex(sha256(fromBase64(valKey.pub_key.value))).slice(0, 40), moniker: 'small', rpcAddress: 'tcp://127.0.0.1:0',
      listenAddress: 'tcp://127.0.0.1:0', version: COMETBFT_VERSION,
    });
    registerNodeServices(app, source, { broadcastTimeoutMs: 10_000, appVersion: 'small-0.0.1', bech32Prefix: PREFIX });
    await engine.start();
    const log = createLogger('error');
    rest = await startRestServer({ app, host: '127.0.0.1', port: 0, log, api: { swagger: true } });
    rpc = await startRpcServer({
      node: {
        app, engine, bus,
        config: { max_body_bytes: 1_000_000, max_request_batch_size: 10, max_open_connections: 100, timeout_broadcast_tx_commit: '10s', cors_allowed_origins: [] },
      },
      host: '127.0.0.1', port: 0, log,
    });
    // the genesis state is readable once block 1 is committed
    for (let i = 0; i < 200 && app.lastHeight < 1; i++) await new Promise((r) => setTimeout(r, 25));
    expect(app.lastHeight).to.be.greaterThan(0);
    restUrl = `http://127.0.0.1:${rest.port}`;
    rpcUrl = `http://127.0.0.1:${rpc.port}`;
  });

  after(async () => {
    await rpc?.close();
    await rest?.close();
    await engine?.stop();
    source?.close();
    bus?.close();
    await store?.close();
    tmp?.remove();
  });

  it('serves a balance and an account over REST, in both dialects', async () => {
    expect(await balanceOverRest(alice.address)).to.equal(1_000_000n);
    const canonical = await getJson(`${restUrl}/chain/bank/v1beta1/balances/${bob.address}`);
    expect(canonical.balances).to.deep.equal([{ denom: DENOM, amount: '1000000' }]);
    const acc = await getJson(`${restUrl}/cosmos/auth/v1beta1/accounts/${alice.address}`);
    expect(acc.account['@type']).to.equal('/cosmos.auth.v1beta1.BaseAccount');
    expect(acc.account.address).to.equal(alice.address);
    // the token module's routes are there too, and the Swagger document lists them
    const swagger = await getJson(`${restUrl}/swagger/swagger.json`);
    expect(Object.keys(swagger.paths).some((p) => p.startsWith('/cosmos/bank/'))).to.equal(true);
    expect(Object.keys(swagger.paths).some((p) => p.includes('prc10') || p.startsWith('/token/'))).to.equal(true);
  });

  it('serves status and abci_query over the CometBFT RPC', async () => {
    const status = await rpcCall('status', {});
    expect(status.node_info.network).to.equal(CHAIN_ID);
    expect(Number(status.sync_info.latest_block_height)).to.be.greaterThan(0);
    const data = registry.encode('chain.bank.v1beta1.QueryBalanceRequest', { address: alice.address, denom: DENOM });
    const q = await rpcCall('abci_query', { path: '/cosmos.bank.v1beta1.Query/Balance', data: toHex(data) });
    expect(q.response.code).to.equal(0);
    const res = registry.decode<{ balance: { denom: string; amount: string } }>('chain.bank.v1beta1.QueryBalanceResponse', fromBase64(q.response.value));
    expect(res.balance).to.deep.equal({ denom: DENOM, amount: '1000000' });
    // node info through the node services registered over the consensus source
    const info = await getJson(`${restUrl}/cosmos/base/tendermint/v1beta1/node_info`);
    expect(info.default_node_info.network).to.equal(CHAIN_ID);
    expect(info.application_version.version).to.equal('small-0.0.1');
  });

  it('broadcasts a signed send over RPC and reads it back over REST and RPC', async () => {
    const msg = registry.packAny('chain.bank.v1beta1.MsgSend', { from_address: alice.address, to_address: bob.address, amount: [{ denom: DENOM, amount: '250' }] });
    const tx = buildTx(registry, [{ key: alice, accountNumber: 0n, sequence: 0n }], [msg], { chainId: CHAIN_ID, denom: DENOM, fee: [{ denom: DENOM, amount: '100' }] });
    const r = await rpcCall('broadcast_tx_commit', { tx: toBase64(tx) });
    expect(r.check_tx.code, r.check_tx.log).to.equal(0);
    expect(r.tx_result.code, r.tx_result.log).to.equal(0);
    const hash = toHex(sha256(tx)).toUpperCase();
    expect(r.hash).to.equal(hash);
    expect(await balanceOverRest(bob.address)).to.equal(1_000_250n);
    expect(await balanceOverRest(alice.address)).to.equal(1_000_000n - 250n - 100n);
    const got = await getJson(`${restUrl}/cosmos/tx/v1beta1/txs/${hash}`);
    expect(got.tx_response.txhash).to.equal(hash);
    expect(got.tx_response.height).to.equal(String(r.height));
    expect(got.tx.body.messages[0]['@type']).to.equal('/cosmos.bank.v1beta1.MsgSend');
    const byRpc = await rpcCall('tx', { hash: toBase64(sha256(tx)) });
    expect(byRpc.height).to.equal(String(r.height));
  });
});
