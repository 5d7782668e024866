/**
 * The Ethereum JSON-RPC of the host over a stub `EthereumExecution` adapter, a stub consensus source and a
 * stub app (no module): what the server itself does with the adapter's answers. The server against the real
 * evm module: apps/node/test/jsonrpc.test.ts and e2e/test/eth-*.test.ts.
 */
import { expect } from 'chai';
import { keccak256 } from '@chain/crypto';
import { rlp, uintBytes } from '../src/eth-rpc/trie.js';
import type { App } from '@chain/app';
import type { ProtoObject } from '@chain/codec';
import type { StoredBlock, StoredResults } from '@chain/consensus';
import { EthRpcBackend, startJsonRpcServer } from '../src/index.js';
import type { ConsensusSource, EthereumExecution, EthHashStore, EthTxView, JsonRpcServer, JsonRpcSettings } from '../src/index.js';
import type { EthSimulateRequest, EthSimulatedBlock } from '../src/eth-rpc/index.js';
import { headerHash } from '../src/eth-rpc/header.js';

const hex = (b: Uint8Array): string => '0x' + Buffer.from(b).toString('hex');
const EMPTY_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';

class UnprotectedError extends Error {}

const TX: EthTxView = {
  raw: Uint8Array.of(1, 2, 3), hashHex: '0x' + 'ab'.repeat(32), type: 2, chainId: 9000n, nonce: 0n, gasLimit: 21_000n,
  gasFeeCap: 10n, gasTipCap: 1n, to: new Uint8Array(20), value: 5n, data: new Uint8Array(), accessList: [],
  sender: new Uint8Array(20).fill(1), protected: true,
};

describe('eth-rpc over a stub adapter', function () {
  let server: JsonRpcServer;
  let url: string;
  const queries: string[] = [];
  const broadcast: Uint8Array[] = [];
  const overrides: unknown[] = [];
  const callRequests: ProtoObject[] = [];
  const simulations: { height: number | undefined; req: EthSimulateRequest; hashes: string[] }[] = [];

  const execution: EthereumExecution = {
    queryService: '/test.evm.v1.Query',
    chainId: (id) => BigInt(/_(\d+)-/.exec(id)![1]!),
    ethereumTxsOf: () => [],
    decodeTx: () => TX,
    effectiveGasPrice: (tx, baseFee) => baseFee + tx.gasTipCap,
    wrapTx: (raw, opts) => {
      if (raw[0] === 0xff && !opts.allowUnprotected) throw new UnprotectedError('unprotected');
      return { tx: Uint8Array.of(9, 9), ethHash: new Uint8Array(32).fill(0xcd), decoded: TX };
    },
    isUnprotectedTxError: (e) => e instanceof UnprotectedError,
    validateStateOverride: (o) => {
      overrides.push(o);
      if (typeof o !== 'object') throw new Error('bad override');
    },
    revertReason: (ret) => (ret.length > 0 ? `reason of ${ret.length} bytes` : undefined),
    traceBlock: async () => [],
    traceCall: async (height, req) => ({ height, to: req.to }),
    simulateV1: async (height, req, seal) => {
      const first = req.blocks[0]!.calls[0];
      if (first?.value === 999n) throw Object.assign(new Error('err: insufficient funds for gas * price + value: address 0x0 have 0 want 999 (supplied gas 1)'), { rpcCode: -38014 });
      const hashes: string[] = [];
      const out: EthSimulatedBlock[] = [];
      if (first?.value === 0x3e8n) {
        // ethSimulate-simple of the execution-apis tests, as geth executed it on hive's chain (id 3503995874084926, gas cap 50M)
        const cid = 3503995874084926n;
        const tx = (from: string, to: string, gas: bigint) => ({
          type: 2 as const, chainId: cid, nonce: 0n, gas, gasPrice: 0n, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n, to, value: 0x3e8n, input: new Uint8Array(), accessList: [], from,
        });
        const call = (cumulativeGasUsed: bigint) => ({ returnData: new Uint8Array(), logs: [], gasUsed: 21_000n, maxUsedGas: 21_000n, status: 1 as const, cumulativeGasUsed });
        const block: EthSimulatedBlock = {
          number: 0x37n, timestamp: 0x228n, gasLimit: 0xbebc200n, gasUsed: 0xa410n, miner: '0x' + '00'.repeat(20), baseFee: 0n, prevRandao: '0x' + '00'.repeat(32),
          parentHash: '0xd226371d0b1551adb03fb52b71f08e3e11247fe9b1af994768af8cdaa8e7dcd7', blobGasUsed: 0n, excessBlobGas: 0n,
          txs: [tx('0xc000000000000000000000000000000000000000', '0xc100000000000000000000000000000000000000', 50_000_000n), tx('0xc100000000000000000000000000000000000000', '0xc200000000000000000000000000000000000000', 49_979_000n)],
          calls: [call(21_000n), call(42_000n)],
        };
        hashes.push(seal(block));
        simulations.push({ height, req, hashes });
        return [block];
      }
      let parentHash = req.base.hash;
      for (const [i, b] of req.blocks.entries()) {
        const block: EthSimulatedBlock = {
          number: req.base.number + BigInt(i + 1), timestamp: req.base.timestamp + 12n * BigInt(i + 1), gasLimit: req.base.gasLimit, gasUsed: 21_000n * BigInt(b.calls.length),
          miner: req.base.miner, baseFee: 0n, prevRandao: '0x' + '00'.repeat(32), parentHash, blobGasUsed: 0n, excessBlobGas: 0n,
          txs: b.calls.map((c, j) => ({
            type: 2 as const, chainId: 9000n, nonce: BigInt(j), gas: c.gas ?? 21_000n, gasPrice: 0n, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n,
            to: c.to, value: c.value ?? 0n, input: c.input ?? new Uint8Array(), accessList: [], from: c.from ?? '0x' + '00'.repeat(20),
          })),
          calls: b.calls.map((c, j) => ({
            returnData: new Uint8Array(), gasUsed: 21_000n, maxUsedGas: 21_000n, status: 1 as const, cumulativeGasUsed: 21_000n * BigInt(j + 1),
            logs: [{ address: '0x' + 'ee'.repeat(20), topics: ['0x' + '01'.repeat(32)], data: '0x', logIndex: j, transfer: true }],
          })),
        };
        parentHash = seal(block);
        hashes.push(parentHash);
        out.push(block);
      }
      simulations.push({ height, req, hashes });
      return out;
    },
  };

  const block = (height: number): StoredBlock => ({
    block: {
      header: { height, time: { seconds: 1_700_000_000 + height, nanos: 0 }, lastBlockId: { hash: new Uint8Array(32).fill(height - 1) }, proposerAddress: new Uint8Array(20).fill(7), appHash: new Uint8Array(32).fill(3) },
      data: { txs: [] },
    },
    blockId: { hash: new Uint8Array(32).fill(height) },
    size: 100,
  }) as unknown as StoredBlock;
  // the Ethereum header the chain's EVM declares at each block's end (`ethereum_block`), linked by parent hash
  const ethHeader = (height: number): Record<string, string> => {
    const fields = {
      parentHash: height === 1 ? '0x' + '00'.repeat(32) : ethHeader(height - 1).hash!, miner: hex(new Uint8Array(20).fill(7)),
      stateRoot: hex(new Uint8Array(32).fill(3)), transactionsRoot: EMPTY_ROOT, receiptsRoot: EMPTY_ROOT, logsBloom: '0x' + '00'.repeat(256),
      number: BigInt(height), gasLimit: 1_000_000n, gasUsed: 0n, timestamp: BigInt(1_700_000_000 + height), extraData: hex(new Uint8Array(32).fill(height)), baseFee: 7n,
    };
    return {
      hash: headerHash(fields), parent_hash: fields.parentHash, miner: fields.miner, state_root: fields.stateRoot, transactions_root: EMPTY_ROOT,
      receipts_root: EMPTY_ROOT, number: String(height), gas_limit: '1000000', gas_used: '0', timestamp: String(fields.timestamp), extra_data: fields.extraData, base_fee: '7',
    };
  };
  const results = (height: number): StoredResults => ({
    height, txResults: [], validatorUpdates: [], appHash: new Uint8Array(32),
    events: [
      { type: 'fee_market', attributes: [{ key: 'base_fee', value: '7' }] }, { type: 'block_gas', attributes: [{ key: 'amount', value: '0' }] },
      { type: 'ethereum_block', attributes: Object.entries(ethHeader(height)).map(([key, value]) => ({ key, value })) },
    ],
  }) as unknown as StoredResults;

  const source = {
    kind: 'stub', chainId: 'test_9000-1',
    latestHeight: async () => 3, earliestHeight: async () => 1,
    block: async (h: number) => (h >= 1 && h <= 3 ? block(h) : undefined),
    results: async (h: number) => (h >= 1 && h <= 3 ? results(h) : undefined),
    heightByHash: async () => undefined,
    blockMaxGas: async () => 1_000_000,
    searchTxs: async () => ({ total: 0, txs: [] }),
    pendingTxs: async () => [],
    onPendingTx: () => () => {},
    onNewBlock: () => () => {},
    broadcastSync: async (raw: Uint8Array) => { broadcast.push(raw); return { code: 0, log: '' }; },
  } as unknown as ConsensusSource;

  const app = {
    registry: undefined,
    runQuery: async (path: string, req: ProtoObject) => {
      queries.push(path);
      const method = path.slice(path.lastIndexOf('/') + 1);
      if (method === 'Balance') return { balance: '100' };
      if (method === 'Params') return { params: { allow_unprotected_txs: false } };
      if (method === 'EthCall') callRequests.push(req);
      if (method === 'EthCall') return req.to === '0x' + '22'.repeat(20) ? { vm_error: 'execution reverted', ret: Uint8Array.of(1, 2) } : { ret: Uint8Array.of(0xaa) };
      throw new Error(`unexpected ${path}`);
    },
  } as unknown as App;

  const settings: JsonRpcSettings = {
    namespaces: new Set(['eth', 'net', 'web3', 'debug']), gasCap: 25_000_000n, txFeeCapWei: 0n, filterCap: 10, filterTimeoutMs: 60_000,
    feeHistoryCap: 100, logsCap: 10_000, blockRangeCap: 10_000, httpTimeoutMs: 0, httpIdleTimeoutMs: 0, maxOpenConnections: 0,
    allowUnprotectedTxs: false, batchLimit: 10, maxBodyBytes: 1 << 20, maxSubscriptionsPerConnection: 10, clientVersion: 'test/v1',
  };

  before(async () => {
    const backend = new EthRpcBackend({ source, app, execution, minGasPrice: 0n });
    server = await startJsonRpcServer({ backend, settings, http: { host: '127.0.0.1', port: 0 }, log: { info() {}, error() {} } });
    url = `http://127.0.0.1:${server.port}`;
  });
  after(() => server?.close());

  const rpc = async (method: string, params: unknown[] = []): Promise<any> => {
    const r = await fetch(url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), headers: { 'content-type': 'application/json' } });
    return r.json();
  };

  it('takes the chain id from the adapter and serves only the enabled namespaces', async () => {
    expect((await rpc('eth_chainId')).result).to.equal('0x2328');
    expect((await rpc('net_version')).result).to.equal('9000');
    expect((await rpc('web3_clientVersion')).result).to.equal('test/v1');
    expect((await rpc('txpool_status')).error.code).to.equal(-32601);
  });

  it('answers with a Content-Length (one write, as geth), also for a wrong method', async () => {
    const r = await fetch(url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }), headers: { 'content-type': 'application/json' } });
    const text = await r.text();
    expect(r.headers.get('transfer-encoding')).to.equal(null);
    expect(r.headers.get('content-type')).to.equal('application/json');
    expect(Number(r.headers.get('content-length'))).to.equal(Buffer.byteLength(text));
    const get = await fetch(url);
    expect(get.status).to.equal(405);
    expect(Number(get.headers.get('content-length'))).to.equal(Buffer.byteLength(await get.text()));
  });

  it("queries the adapter's query service at the tag's height", async () => {
    expect((await rpc('eth_getBalance', ['0x' + '11'.repeat(20), 'latest'])).result).to.equal('0x64');
    expect(queries).to.include('/test.evm.v1.Query/Balance');
    expect((await rpc('eth_getBalance', ['0x' + '11'.repeat(20), '0x9'])).error.code).to.equal(-32000);
  });

  it('eth_call: state overrides are checked by the adapter, reverts carry its reason', async () => {
    const ok = await rpc('eth_call', [{ to: '0x' + '11'.repeat(20) }, 'latest', { ['0x' + '33'.repeat(20)]: { balance: '0x1' } }]);
    expect(ok.result).to.equal('0xaa');
    expect(overrides).to.have.length(1);
    expect((await rpc('eth_call', [{ to: '0x' + '11'.repeat(20) }, 'latest', 'nope'])).error).to.deep.include({ code: -32602, message: 'bad override' });
    const rev = await rpc('eth_call', [{ to: '0x' + '22'.repeat(20) }, 'latest']);
    expect(rev.error).to.deep.equal({ code: 3, message: 'execution reverted: reason of 2 bytes', data: '0x0102' });
  });

  it('eth_sendRawTransaction broadcasts what the adapter wraps; unprotected txs as the chain param says', async () => {
    expect((await rpc('eth_sendRawTransaction', ['0x010203'])).result).to.equal(hex(new Uint8Array(32).fill(0xcd)));
    expect(broadcast.map(hex)).to.deep.equal(['0x0909']);
    const u = await rpc('eth_sendRawTransaction', ['0xff']);
    expect(u.error.message).to.equal('only replay-protected (EIP-155) transactions allowed over RPC');
    expect(queries).to.include('/test.evm.v1.Query/Params');
  });

  /** keccak256(RLP(header)) recomputed from a block's JSON, as geth's `types.Header.Hash()` */
  const gethHeaderHash = (b: Record<string, string>): string => {
    const n = (q: string): Uint8Array => uintBytes(BigInt(q));
    const b_ = (h: string): Uint8Array => Buffer.from(h.slice(2), 'hex');
    const fields = [b.parentHash, b.sha3Uncles, b.miner, b.stateRoot, b.transactionsRoot, b.receiptsRoot, b.logsBloom, n(b.difficulty!),
      n(b.number!), n(b.gasLimit!), n(b.gasUsed!), n(b.timestamp!), b.extraData, b.mixHash, b.nonce, n(b.baseFeePerGas!),
      b.withdrawalsRoot, n(b.blobGasUsed!), n(b.excessBlobGas!), b.parentBeaconBlockRoot, b.requestsHash];
    return hex(keccak256(rlp(fields.map((f) => (typeof f === 'string' ? b_(f) : f!)))));
  };

  it('builds blocks from the source: base fee from the events, empty tx and receipt roots; geth-verifiable hashes', async () => {
    const b1 = (await rpc('eth_getBlockByNumber', ['0x1', false])).result;
    const b = (await rpc('eth_getBlockByNumber', ['0x2', false])).result;
    expect(b).to.deep.include({
      number: '0x2', parentHash: b1.hash, baseFeePerGas: '0x7', extraData: hex(new Uint8Array(32).fill(2)),
      gasLimit: '0xf4240', transactionsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', transactions: [],
    });
    expect(b1.parentHash).to.equal('0x' + '00'.repeat(32)); // the first block has no parent (empty lastBlockId in the stub: height 0)
    expect(b.hash).to.equal(gethHeaderHash(b));
    expect(b1.hash).to.equal(gethHeaderHash(b1));
    expect((await rpc('eth_getBlockByNumber', ['0x9', false])).result).to.equal(null);
    // found by the Ethereum hash, not by the CometBFT one
    expect((await rpc('eth_getBlockByHash', [b.hash, false])).result.number).to.equal('0x2');
    expect((await rpc('eth_getBlockByHash', [hex(new Uint8Array(32).fill(2)), false])).result).to.equal(null);
  });

  it('block parameters as geth: tags, numbers (bigint), plain hashes, EIP-1898 objects; its errors', async () => {
    const b2 = (await rpc('eth_getBlockByNumber', ['0x2', false])).result;
    const bal = ['0x' + '11'.repeat(20)];
    for (const p of ['latest', 'pending', 'safe', 'finalized', 'earliest', '0x2', b2.hash, { blockHash: b2.hash }, { blockHash: b2.hash, requireCanonical: true }, { blockNumber: '0x2' }]) {
      expect((await rpc('eth_getBalance', [...bal, p])).result, JSON.stringify(p)).to.equal('0x64');
    }
    expect((await rpc('eth_getBalance', [...bal, '0x' + 'ab'.repeat(32)])).error).to.deep.equal({ code: -32000, message: 'header for hash not found' });
    expect((await rpc('eth_getBalance', [...bal, '0x9'])).error).to.deep.equal({ code: -32000, message: 'header not found' });
    expect((await rpc('eth_getBalance', [...bal, '0x7fffffffffffffff'])).error).to.deep.equal({ code: -32000, message: 'header not found' });
    expect((await rpc('eth_getBalance', [...bal, '0x8000000000000000'])).error).to.deep.equal({ code: -32602, message: 'invalid argument 1: block number larger than int64' });
    expect((await rpc('eth_getBalance', [...bal, '0x10000000000000000'])).error).to.deep.equal({ code: -32602, message: 'invalid argument 1: hex number > 64 bits' });
    expect((await rpc('eth_getBalance', [...bal, '0x02'])).error).to.deep.equal({ code: -32602, message: 'invalid argument 1: hex number with leading zero digits' });
    expect((await rpc('eth_getBalance', [...bal, { blockHash: b2.hash, blockNumber: '0x2' }])).error.code).to.equal(-32602);
    // eth_getBlockByNumber takes a BlockNumber: a hash is a number too large, a future number is null
    expect((await rpc('eth_getBlockByNumber', [b2.hash, false])).error).to.deep.equal({ code: -32602, message: 'invalid argument 0: hex number > 64 bits' });
    expect((await rpc('eth_getBlockByNumber', ['0x7fffffffffffffff', false])).result).to.equal(null);
    expect((await rpc('eth_getBlockByNumber', ['earliest', false])).result.number).to.equal('0x1');
    expect((await rpc('eth_getBlockReceipts', [b2.hash])).result).to.deep.equal([]);
    expect((await rpc('eth_getBlockReceipts', [{ blockHash: '0x' + 'ab'.repeat(32) }])).result).to.equal(null);
  });

  it('the keyless account methods answer geth\'s unknown account; blob base fee; config', async () => {
    const from = '0x' + '11'.repeat(20);
    expect((await rpc('eth_sendTransaction', [{ from, to: from }])).error).to.deep.equal({ code: -32000, message: 'unknown account' });
    expect((await rpc('eth_sign', [from, '0x01'])).error).to.deep.equal({ code: -32000, message: 'unknown account' });
    expect((await rpc('eth_signTransaction', [{ from, to: from }])).error).to.deep.equal({ code: -32000, message: 'gas not specified' });
    expect((await rpc('eth_signTransaction', [{ from, to: from, gas: '0x5208', gasPrice: '0x1', nonce: '0x0' }])).error).to.deep.equal({ code: -32000, message: 'unknown account' });
    expect((await rpc('eth_blobBaseFee')).result).to.equal('0x1');
    const cfg = (await rpc('eth_config')).result;
    expect(cfg.current.chainId).to.equal('0x2328');
    expect(cfg.current.forkId).to.match(/^0x[0-9a-f]{8}$/);
    expect(cfg.next).to.equal(null);
  });

  it('eth_call passes the access list, the 1559 fee fields and the block overrides on; geth\'s CallDefaults errors', async () => {
    const to = '0x' + '11'.repeat(20);
    const accessList = [{ address: to, storageKeys: ['0x' + '00'.repeat(32)] }];
    const bo = { number: '0x10', time: '0x20' };
    expect((await rpc('eth_call', [{ to, maxFeePerGas: '0x9', maxPriorityFeePerGas: '0x2', accessList }, 'latest', null, bo])).result).to.equal('0xaa');
    expect(callRequests.at(-1)).to.deep.include({
      gas_price: '', max_fee_per_gas: '9', max_priority_fee_per_gas: '2', access_list: JSON.stringify(accessList), block_overrides: JSON.stringify(bo), overrides: '',
    });
    expect((await rpc('eth_call', [{ to, gasPrice: '0x1', maxFeePerGas: '0x1' }])).error).to.deep.equal({ code: -32000, message: 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified' });
    expect((await rpc('eth_call', [{ to, chainId: '0x1' }])).error).to.deep.equal({ code: -32000, message: 'chainId does not match node\'s (have=1, want=9000)' });
    expect((await rpc('eth_call', [{ to }, 'latest', null, 'nope'])).error.code).to.equal(-32602);
  });

  it('eth_simulateV1: the request parsed for the adapter; each block sealed with its header hash, linked; errors with their codes', async () => {
    const from = '0x' + '11'.repeat(20);
    const to = '0x' + '22'.repeat(20);
    const r = await rpc('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from, to, value: '0x5', input: '0x01' }] }, {}], returnFullTransactions: true }, '0x2']);
    expect(r.error).to.equal(undefined);
    const sim = simulations.at(-1)!;
    expect(sim.height).to.equal(2);
    expect(sim.req.base.number).to.equal(2n);
    expect(sim.req.blocks[0]!.calls[0]).to.deep.include({ from, to, value: 5n });
    const [b1, b2] = r.result;
    expect([b1.hash, b2.hash]).to.deep.equal(sim.hashes);
    expect(b2.parentHash).to.equal(b1.hash);
    expect(headerHash({ ...b1, number: BigInt(b1.number), gasLimit: BigInt(b1.gasLimit), gasUsed: BigInt(b1.gasUsed), timestamp: BigInt(b1.timestamp), baseFee: 0n })).to.equal(b1.hash);
    expect(b1.transactions[0]).to.deep.include({ from, to, value: '0x5', type: '0x2', blockHash: b1.hash, transactionIndex: '0x0' });
    expect(b1.calls[0].logs[0]).to.deep.include({ blockHash: b1.hash, transactionHash: b1.transactions[0].hash, logIndex: '0x0' });
    // a transfer log is not the receipt's: the bloom stays empty
    expect(b1.logsBloom).to.equal('0x' + '00'.repeat(256));
    expect(b2.transactions).to.deep.equal([]);
    expect((await rpc('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from, to, value: '0x3e7' }] }] }])).error.code).to.equal(-38014);
    expect((await rpc('eth_simulateV1', [{ blockStateCalls: [] }])).error).to.deep.equal({ code: -32602, message: 'empty input' });
    expect((await rpc('eth_simulateV1', [{ blockStateCalls: Array.from({ length: 257 }, () => ({})) }])).error).to.deep.equal({ code: -38026, message: 'too many blocks' });
    expect((await rpc('eth_simulateV1', [{ blockStateCalls: [{}] }, '0x9'])).error).to.deep.equal({ code: -32000, message: 'header not found' });
  });

  it('eth_simulateV1: a block as geth builds it (ethSimulate-simple): tx hashes, roots, size; the header hash with geth\'s state root', async () => {
    const r = await rpc('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: '0xc000000000000000000000000000000000000000', to: '0xc100000000000000000000000000000000000000', value: '0x3e8' }] }] }]);
    const b = r.result[0];
    expect(b.transactions).to.deep.equal(['0xf1c5abb08809ef760f87aeabe7a87284c60797192dab6d2f0d26c27c9c038e9d', '0xbc123d32ae457d4a444af60d1aef663c2f4a77c44a52bec0eef8ac81b53549cb']);
    expect(b.transactionsRoot).to.equal('0x6d79cfd6f20bf10a0b3831acf15402528b00992cb9a71302596de7fbb4ebfb07');
    expect(b.receiptsRoot).to.equal('0x75308898d571eafb5cd8cde8278bf5b3d13c5f6ec074926de3bb895b519264e1');
    expect(b.size).to.equal('0x2c5');
    // geth's block hash, once its state root (which a simulation here does not compute) is put in
    const stateRoot = '0x026d07e9a1fb2c8e737ede84b4d70fd2c3be2872646b9ff1d13c215eb81354e5';
    const h = headerHash({ ...b, stateRoot, number: BigInt(b.number), gasLimit: BigInt(b.gasLimit), gasUsed: BigInt(b.gasUsed), timestamp: BigInt(b.timestamp), baseFee: 0n });
    expect(h).to.equal('0xdb785f2444d7f68bc2bc04860c27ad059217192d17e2889ec801bcae9209b204');
    expect(b.stateRoot).to.equal('0x' + '00'.repeat(32));
    expect(b.calls).to.deep.equal([
      { returnData: '0x', logs: [], gasUsed: '0x5208', maxUsedGas: '0x5208', status: '0x1' },
      { returnData: '0x', logs: [], gasUsed: '0x5208', maxUsedGas: '0x5208', status: '0x1' },
    ]);
  });

  it("serves the EVM's header only when its fields hash to its declared hash; a block without one is an error", async () => {
    const tampered = (height: number): StoredResults => {
      const r = results(height);
      return { ...r, events: r.events.map((e) => (e.type !== 'ethereum_block' ? e : { ...e, attributes: e.attributes.map((a) => (a.key === 'gas_limit' ? { ...a, value: '999' } : a)) })) } as StoredResults;
    };
    const bad = new EthRpcBackend({ source: { ...source, results: async (h: number) => tampered(h) } as ConsensusSource, app, execution, minGasPrice: 0n });
    let err: unknown;
    try { await bad.blockByHeight(2); } catch (e) { err = e; }
    expect(String((err as Error).message)).to.match(/^block 2: the ethereum_block header does not hash to its hash 0x[0-9a-f]{64}/);
    const none = new EthRpcBackend({ source: { ...source, results: async (h: number) => ({ ...results(h), events: results(h).events.filter((e) => e.type !== 'ethereum_block') }) } as unknown as ConsensusSource, app, execution, minGasPrice: 0n });
    err = undefined;
    try { await none.blockByHeight(2); } catch (e) { err = e; }
    expect((err as Error).message).to.equal('block 2 has no Ethereum header (no ethereum_block event)');
    // the good one: the header of the event, its hash the declared one
    const good = (await new EthRpcBackend({ source, app, execution, minGasPrice: 0n }).blockByHeight(2))!;
    expect(good.hash).to.equal(ethHeader(2).hash);
    expect(good.gasLimit).to.equal(1_000_000n);
  });

  it('a durable hash table: a new backend (a restart) finds a block by its Ethereum hash without rebuilding the chain', async () => {
    const table = new Map<number, string>();
    let scanned = 0;
    const store: EthHashStore = {
      hashAt: (h) => table.get(h),
      heightOf: (x) => [...table].find(([, v]) => v === x)?.[0],
      put: (h, x) => { table.set(h, x); },
      scannedTo: () => scanned,
      setScannedTo: (h) => { scanned = h; },
    };
    const loads: number[] = [];
    const counting = { ...source, block: async (h: number) => { loads.push(h); return source.block(h); } } as ConsensusSource;
    const first = new EthRpcBackend({ source: counting, app, execution, minGasPrice: 0n, hashStore: store });
    const hashes = [];
    for (let h = 1; h <= 3; h++) hashes.push((await first.blockByHeight(h))!.hash);
    expect([...table.keys()].sort()).to.deep.equal([1, 2, 3]);
    loads.length = 0;
    const second = new EthRpcBackend({ source: counting, app, execution, minGasPrice: 0n, hashStore: store });
    expect(await second.heightByEthHash(hashes[1]!)).to.equal(2);
    expect(loads).to.deep.equal([]); // answered from the table
    const b3 = await second.blockByHeight(3);
    expect(b3!.hash).to.equal(hashes[2]);
    expect(b3!.parentHash).to.equal(hashes[1]);
    expect(loads).to.deep.equal([3]); // the parent's hash is in block 3's own header (ethereum_block): block 2 is not built
    // an unknown hash scans only heights above the recorded scan
    scanned = 3;
    loads.length = 0;
    expect(await second.heightByEthHash('0x' + '99'.repeat(32))).to.equal(undefined);
    expect(loads).to.deep.equal([]);
  });

  it('debug_traceCall goes to the adapter at the resolved height', async () => {
    expect((await rpc('debug_traceCall', [{ to: '0x' + '11'.repeat(20) }, '0x2'])).result).to.deep.equal({ height: 2, to: '0x' + '11'.repeat(20) });
    expect((await rpc('debug_traceTransaction', ['0x' + '00'.repeat(32)])).error).to.deep.equal({ code: -32000, message: 'transaction not found' });
  });
});
