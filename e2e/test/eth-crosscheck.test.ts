/**
 * Cross-check of the Ethereum JSON-RPC against a reference EVM dev node (hardhat 2, `e2e/src/hardhat.ts`).
 * The same script runs on both: the same pre-signed txs from the same dev key with fixed fees (so tx hashes,
 * contract addresses, gas, balances and logs are identical on both chains), the same calls, filters, errors,
 * batches and websocket subscriptions. Every response is compared by shape (keys, JSON types, hex formats) and,
 * where a value is deterministic on both chains, by value (`e2e/src/shape.ts`). Each tolerated difference is
 * named below with its reason; a difference of ours that is not inherent is fixed in the node instead.
 */
import { expect } from 'chai';
import { AbiCoder, Interface, Wallet, getCreateAddress, keccak256, zeroPadValue } from 'ethers';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { startHardhat } from '../src/hardhat.js';
import type { HardhatHandle } from '../src/hardhat.js';
import { EthTarget, EthWs } from '../src/eth-rpc-client.js';
import { compareShape, differs, ignored, oursOnly, refOnly } from '../src/shape.js';
import type { Rules } from '../src/shape.js';
import { compileToken } from '../src/solidity.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const RECIPIENT = '0x' + '42'.repeat(20);
/** every tx pays exactly this per gas on both chains (fee cap = tip cap), so balances stay equal */
const PRICE = 2_000_000_000n;
const BLOCKS = 'ours commits a block every 200 ms from height 1 (empty ones too); hardhat mines one block per tx from 0';

/** Differences tolerated in every comparison. */
const CHAIN: Rules = {
  '*.blockHash': differs('keccak256(RLP(header)) of each chain\'s own header (ours: the Ethereum view of the CometBFT block)'),
  '*.blockNumber': differs(BLOCKS),
  '*.blockTimestamp': oursOnly('Log.blockTimestamp is in the execution-apis Log schema (geth 1.16+); hardhat 2 does not send it'),
  '*.chainId': oursOnly('geth reports chainId on EIP-155 legacy txs too; hardhat 2 omits it on type 0'),
  '*.yParity': oursOnly('typed txs carry yParity (execution-apis, geth); hardhat 2 sends only v'),
  '*.error.message': differs('implementation text (hive compares error codes only)'),
  '*.error.data': refOnly('hardhat attaches a {message, data} debug object to every error; geth sets data on reverts only'),
};

/** Differences of a block or header at `p`. */
function header(p: string): Rules {
  return {
    [`${p}.hash`]: differs('keccak256(RLP(header)) as geth computes it, of headers whose fields differ (see the other rules)'),
    [`${p}.parentHash`]: differs('the previous block\'s Ethereum hash, of each chain'),
    [`${p}.extraData`]: ignored('ours: the CometBFT block hash (32 bytes), which the Ethereum hash commits to; hardhat: empty'),
    [`${p}.number`]: differs(BLOCKS),
    [`${p}.timestamp`]: differs('wall clock of each chain'),
    [`${p}.miner`]: differs("our proposer's consensus address; hardhat: its coinbase 0xc014ba5e..."),
    [`${p}.stateRoot`]: differs('our app hash (SHA-256 commitment of the store after the previous block), not a state trie root'),
    [`${p}.mixHash`]: differs('no beacon-chain randomness: zero; hardhat: a random prevRandao'),
    [`${p}.parentBeaconBlockRoot`]: differs('no beacon chain: zero; hardhat: random'),
    [`${p}.size`]: differs('the size of our CometBFT block (protobuf, txs wrapped in Cosmos txs), not of an RLP block'),
    [`${p}.baseFeePerGas`]: differs('each fee market moved with its own blocks (ours has empty timer blocks)'),
  };
}

const FILTER_NOT_FOUND: Rules = {
  result: refOnly('hardhat answers null for an unknown filter id; geth (and ours): error -32000 "filter not found", which clients match'),
  error: oursOnly('hardhat answers null for an unknown filter id; geth (and ours): error -32000 "filter not found", which clients match'),
};

describe('e2e: Ethereum JSON-RPC cross-check against hardhat', function () {
  this.timeout(300_000);
  let node: NodeHandle | undefined;
  let hh: HardhatHandle | undefined;
  let ours: EthTarget;
  let ref: EthTarget;
  const sockets: EthWs[] = [];
  const iface = new Interface(compileToken().abi);
  const wallet = new Wallet(KEY0);
  const token = getCreateAddress({ from: wallet.address, nonce: 0 }).toLowerCase();
  const raw: Record<string, string> = {};
  /** receipts per target and script label */
  const rcs = new Map<EthTarget, Record<string, any>>();
  const rc = (t: EthTarget, label: string): any => rcs.get(t)![label];
  let diffs: string[] = [];
  /** eth_createAccessList's list for a token transfer (the token and the two balance slots) */
  let transferList: { address: string; storageKeys: string[] }[] = [];

  /** Runs `fn` on both nodes and compares the answers; returns [ours, hardhat]. */
  async function both(step: string, fn: (t: EthTarget) => Promise<unknown>, rules: Rules = {}): Promise<[any, any]> {
    const [a, b] = await Promise.all([fn(ours), fn(ref)]);
    diffs.push(...compareShape(a, b, { ...CHAIN, ...rules }, step, { oursName: 'chaind', refName: 'hardhat' }));
    return [a, b];
  }
  const call = (step: string, method: string, params: unknown[] | ((t: EthTarget) => unknown[]), rules: Rules = {}): Promise<[any, any]> =>
    both(step, (t) => t.call(method, typeof params === 'function' ? params(t) : params, 1), rules);
  /** Sends a pre-signed tx on both and compares the send replies and receipts. */
  async function send(label: string): Promise<void> {
    await both(`send(${label})`, async (t) => {
      const r = await t.send(raw[label]!);
      rcs.get(t)![label] = r.receipt.result;
      return r;
    });
  }
  function flush(): void {
    const d = diffs;
    diffs = [];
    expect(d, `differences from hardhat:\n  ${d.join('\n  ')}\n`).to.deep.equal([]);
  }

  before(async () => {
    // both handles are kept even if one start fails, so `after` stops whatever did start
    const [n, h] = await Promise.allSettled([startNode(), startHardhat()]);
    if (n.status === 'fulfilled') node = n.value;
    if (h.status === 'fulfilled') hh = h.value;
    for (const r of [n, h]) if (r.status === 'rejected') throw r.reason;
    ours = new EthTarget('chaind', node!.ethUrl, node!.ethWsUrl);
    ref = new EthTarget('hardhat', hh!.url, hh!.wsUrl);
    rcs.set(ours, {}).set(ref, {});
    const { bytecode } = compileToken();
    const fee = { chainId: 1337n, maxFeePerGas: PRICE, maxPriorityFeePerGas: PRICE, type: 2 };
    const transfer = (n: bigint): string => iface.encodeFunctionData('transfer', [RECIPIENT, n]);
    const txs: Record<string, object> = {
      deploy: { ...fee, nonce: 0, gasLimit: 1_000_000n, data: bytecode + iface.encodeDeploy([1_000_000n]).slice(2) },
      legacy: { chainId: 1337n, type: 0, gasPrice: PRICE, nonce: 1, gasLimit: 21_000n, to: RECIPIENT, value: 1000n },
      eip2930: { chainId: 1337n, type: 1, gasPrice: PRICE, nonce: 2, gasLimit: 30_000n, to: RECIPIENT, value: 2000n,
        accessList: [{ address: RECIPIENT, storageKeys: ['0x' + '00'.repeat(32)] }] },
      eip1559: { ...fee, nonce: 3, gasLimit: 21_000n, to: RECIPIENT, value: 3000n },
      transfer: { ...fee, nonce: 4, gasLimit: 100_000n, to: token, data: transfer(250n) },
      filtered: { ...fee, nonce: 5, gasLimit: 100_000n, to: token, data: transfer(1n) },
      subscribed: { ...fee, nonce: 6, gasLimit: 100_000n, to: token, data: transfer(2n) },
    };
    for (const [k, tx] of Object.entries(txs)) raw[k] = await wallet.signTransaction(tx);
  });

  after(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    await Promise.all([node?.stop(), hh?.stop()]);
    node?.cleanup();
  });

  it('the comparator names the path of each key, type, format and value difference', () => {
    const d = compareShape(
      { a: '0x1', b: [{ c: '0x' + '00'.repeat(32) }], d: null, e: 1, f: 'x' },
      { a: '0x01', b: [{ c: '0x' + '00'.repeat(20) }], d: {}, e: 2, g: 'y' }, { f: oursOnly('test') }, 'step');
    expect(d).to.deep.equal([
      'step.a: format quantity (ours: "0x1") vs data (reference: "0x01")',
      `step.b[0].c: format data32 (ours: "0x${'00'.repeat(32)}") vs data20 (reference: "0x${'00'.repeat(20)}")`,
      'step.d: type null (ours: null) vs object (reference: {})',
      'step.e: value 1 (ours) vs 2 (reference)',
      'step.g: only in reference ("y")',
    ]);
  });

  it('chain identity: eth_chainId, net_version, web3_sha3, eth_syncing, eth_blockNumber', async () => {
    await call('eth_chainId', 'eth_chainId', []);
    await call('net_version', 'net_version', []);
    await call('web3_sha3', 'web3_sha3', ['0x68656c6c6f']);
    await call('eth_syncing', 'eth_syncing', []);
    await call('eth_blockNumber', 'eth_blockNumber', [], { result: differs(BLOCKS) });
    flush();
  });

  it('account state before any tx: balance, nonce (latest and pending), code, storage', async () => {
    for (const a of [wallet.address, RECIPIENT]) {
      await call(`eth_getBalance(${a})`, 'eth_getBalance', [a, 'latest']);
      await call(`eth_getTransactionCount(${a})`, 'eth_getTransactionCount', [a, 'latest']);
      await call(`eth_getTransactionCount(${a}, pending)`, 'eth_getTransactionCount', [a, 'pending']);
      await call(`eth_getCode(${a})`, 'eth_getCode', [a, 'latest']);
      await call(`eth_getStorageAt(${a})`, 'eth_getStorageAt', [a, '0x0', 'latest']);
    }
    flush();
  });

  it('ERC-20 deploy: receipt with contractAddress and the mint log; code and storage', async () => {
    await send('deploy');
    expect(rc(ours, 'deploy').contractAddress).to.equal(token);
    await call('eth_getTransactionByHash(deploy)', 'eth_getTransactionByHash', (t) => [rc(t, 'deploy').transactionHash]);
    await call('eth_getCode(token)', 'eth_getCode', [token, 'latest']);
    await call('eth_getStorageAt(token, totalSupply)', 'eth_getStorageAt', [token, '0x1', 'latest']);
    const slot = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [wallet.address, 0]));
    await call('eth_getStorageAt(token, balanceOf[sender])', 'eth_getStorageAt', [token, slot, 'latest']);
    flush();
  });

  for (const label of ['legacy', 'eip2930', 'eip1559']) {
    it(`value transfer (${label}): send, receipt, tx, blocks by number and hash, indexes, block receipts`, async () => {
      await send(label);
      const hash = rc(ours, label).transactionHash;
      await call(`eth_getTransactionByHash(${label})`, 'eth_getTransactionByHash', [hash]);
      const num = (t: EthTarget): string => rc(t, label).blockNumber;
      const bh = (t: EthTarget): string => rc(t, label).blockHash;
      await call(`eth_getBlockByNumber(${label}, hashes)`, 'eth_getBlockByNumber', (t) => [num(t), false], header('result'));
      await call(`eth_getBlockByNumber(${label}, full)`, 'eth_getBlockByNumber', (t) => [num(t), true], header('result'));
      await call(`eth_getBlockByHash(${label}, full)`, 'eth_getBlockByHash', (t) => [bh(t), true], header('result'));
      await call(`eth_getTransactionByBlockHashAndIndex(${label})`, 'eth_getTransactionByBlockHashAndIndex', (t) => [bh(t), '0x0']);
      await call(`eth_getTransactionByBlockNumberAndIndex(${label})`, 'eth_getTransactionByBlockNumberAndIndex', (t) => [num(t), '0x0']);
      await call(`eth_getBlockTransactionCountByHash(${label})`, 'eth_getBlockTransactionCountByHash', (t) => [bh(t)]);
      await call(`eth_getBlockTransactionCountByNumber(${label})`, 'eth_getBlockTransactionCountByNumber', (t) => [num(t)]);
      // hardhat 2 has no eth_getBlockReceipts: our block receipts against its receipt of the block's one tx
      const blockReceipts = await ours.call('eth_getBlockReceipts', [num(ours)], 1);
      diffs.push(...compareShape(blockReceipts, { jsonrpc: '2.0', id: 1, result: [rc(ref, label)] }, CHAIN, `eth_getBlockReceipts(${label})`));
      for (const a of [wallet.address, RECIPIENT]) {
        await call(`eth_getBalance(${a}, after ${label})`, 'eth_getBalance', [a, 'latest']);
        await call(`eth_getTransactionCount(${a}, after ${label})`, 'eth_getTransactionCount', [a, 'latest']);
      }
      flush();
    });
  }

  it('ERC-20 transfer: receipt and Transfer log; eth_call; eth_estimateGas', async () => {
    await send('transfer');
    await call('eth_getBlockByNumber(transfer, full)', 'eth_getBlockByNumber', (t) => [rc(t, 'transfer').blockNumber, true], header('result'));
    for (const [name, data] of [['balanceOf(recipient)', iface.encodeFunctionData('balanceOf', [RECIPIENT])], ['totalSupply', iface.encodeFunctionData('totalSupply')]]) {
      await call(`eth_call(${name})`, 'eth_call', [{ to: token, data }, 'latest']);
    }
    await call('eth_call(transfer, from)', 'eth_call', [{ from: wallet.address, to: token, data: iface.encodeFunctionData('transfer', [RECIPIENT, 1n]) }, 'latest']);
    await call('eth_estimateGas(value)', 'eth_estimateGas', [{ from: wallet.address, to: RECIPIENT, value: '0x1' }], {
      result: differs("hardhat's estimate of a plain transfer is 21001, not the minimum; geth (and ours): 21000"),
    });
    await call('eth_estimateGas(transfer)', 'eth_estimateGas', [{ from: wallet.address, to: token, data: iface.encodeFunctionData('transfer', [RECIPIENT, 1n]) }]);
    flush();
  });

  it('a reverting call: error code 3 with the revert data (the same bytes as hardhat)', async () => {
    const data = iface.encodeFunctionData('transfer', [wallet.address, 10n ** 30n]);
    const revert: Rules = {
      'error.code': differs('hardhat 2 answers -32603 with the revert data nested in data.data; geth (and ours): 3 "execution reverted", data = the revert bytes'),
      'error.data': ignored('hardhat 2 nests the revert data in {message, data}; geth (and ours): the revert bytes (compared below)'),
    };
    for (const method of ['eth_call', 'eth_estimateGas']) {
      const [a, b] = await call(`${method}(revert)`, method, [{ from: RECIPIENT, to: token, data }, 'latest'], revert);
      expect(a.error.code, method).to.equal(3);
      expect(a.error.message).to.equal('execution reverted: insufficient balance');
      expect(a.error.data).to.match(/^0x08c379a0/).and.to.equal(b.error.data.data);
    }
    flush();
  });

  it('block parameters (EIP-1898 objects, a plain block hash) and the newer methods', async () => {
    const num = (t: EthTarget): string => rc(t, 'transfer').blockNumber;
    const bh = (t: EthTarget): string => rc(t, 'transfer').blockHash;
    await call('eth_getBalance({blockNumber})', 'eth_getBalance', (t) => [wallet.address, { blockNumber: num(t) }]);
    await call('eth_getBalance({blockHash})', 'eth_getBalance', (t) => [wallet.address, { blockHash: bh(t) }]);
    await call('eth_getBalance({blockHash, requireCanonical})', 'eth_getBalance', (t) => [wallet.address, { blockHash: bh(t), requireCanonical: true }]);
    const plain = 'hardhat 2 refuses a plain block hash (-32602); the specification (BlockNumberOrTagOrHash) and geth take it';
    const plainHash: Rules = { result: oursOnly(plain), error: refOnly(plain) };
    const [code] = await call('eth_getCode(plain block hash)', 'eth_getCode', (t) => [token, bh(t)], plainHash);
    expect(code.result.length).to.be.greaterThan(2);
    await call('eth_getTransactionCount(plain block hash)', 'eth_getTransactionCount', (t) => [wallet.address, bh(t)], plainHash);
    await call('eth_call(plain block hash)', 'eth_call', (t) => [{ to: token, data: iface.encodeFunctionData('totalSupply') }, bh(t)], plainHash);
    await call('eth_getBalance(unknown block hash)', 'eth_getBalance', [wallet.address, { blockHash: '0x' + 'ee'.repeat(32) }]);
    await call('eth_getBlockByNumber(far future)', 'eth_getBlockByNumber', ['0x7fffffffffffffff', false]);
    await call('eth_blobBaseFee', 'eth_blobBaseFee', []);
    const noAcl = 'hardhat 2 does not serve eth_createAccessList (-32004); geth does (e2e/test/eth-spec.test.ts checks its semantics)';
    const [acl] = await call('eth_createAccessList(transfer)', 'eth_createAccessList', [{ from: wallet.address, to: token, data: iface.encodeFunctionData('transfer', [RECIPIENT, 1n]) }, 'latest'],
      { result: oursOnly(noAcl), error: refOnly(noAcl) });
    // the token's slots the transfer touches: the sender's and the recipient's balances
    expect(acl.result.accessList).to.have.length(1);
    expect(acl.result.accessList[0].address).to.equal(token);
    expect(acl.result.accessList[0].storageKeys).to.have.length(2);
    transferList = acl.result.accessList;
    flush();
  });

  it('an access list and the 1559 fields on eth_call and eth_estimateGas: the same gas as hardhat', async () => {
    const data = iface.encodeFunctionData('transfer', [RECIPIENT, 1n]);
    const [without] = await call('eth_estimateGas(transfer)', 'eth_estimateGas', [{ from: wallet.address, to: token, data }]);
    const [withList] = await call('eth_estimateGas(transfer, accessList)', 'eth_estimateGas', [{ from: wallet.address, to: token, data, accessList: transferList }]);
    // the listed token address is the recipient (already warm): +2400; the two listed slots: +1900 - 2000 each
    expect(BigInt(withList.result) - BigInt(without.result)).to.equal(2400n - 200n);
    const fees = { maxFeePerGas: '0x' + (PRICE * 2n).toString(16), maxPriorityFeePerGas: '0x' + PRICE.toString(16) };
    await call('eth_estimateGas(transfer, accessList, 1559 fees)', 'eth_estimateGas', [{ from: wallet.address, to: token, data, accessList: transferList, ...fees }]);
    await call('eth_call(transfer, accessList, 1559 fees)', 'eth_call', [{ from: wallet.address, to: token, data, accessList: transferList, ...fees }, 'latest']);
    flush();
  });

  it('eth_getLogs by range and address, by topics, by block hash', async () => {
    await call('eth_getLogs(range, address)', 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: token }]);
    const topics = [iface.getEvent('Transfer')!.topicHash, null, zeroPadValue(RECIPIENT, 32)];
    const [a] = await call('eth_getLogs(topics)', 'eth_getLogs', [{ fromBlock: '0x0', topics }]);
    expect(a.result).to.have.length(1);
    await call('eth_getLogs(blockHash)', 'eth_getLogs', (t) => [{ blockHash: rc(t, 'transfer').blockHash }]);
    flush();
  });

  it('fees: eth_gasPrice, eth_maxPriorityFeePerGas, eth_feeHistory', async () => {
    await call('eth_gasPrice', 'eth_gasPrice', [], { result: differs("base fee (each chain's own history) + tip") });
    await call('eth_maxPriorityFeePerGas', 'eth_maxPriorityFeePerGas', []);
    const history = differs('each chain has its own blocks: base fees, fullness and tips of different blocks');
    await call('eth_feeHistory', 'eth_feeHistory', ['0x4', 'latest', [25, 75]], {
      'result.oldestBlock': differs(BLOCKS), 'result.baseFeePerGas': history, 'result.gasUsedRatio': history, 'result.reward': history,
    });
    flush();
  });

  it('filters: block, pending-transaction and log filters; changes, logs, uninstall, unknown ids', async () => {
    const ids = differs('filter ids: random 128-bit (geth) on ours, a counter on hardhat');
    const [bfA, bfB] = await call('eth_newBlockFilter', 'eth_newBlockFilter', [], { result: ids });
    const [pfA, pfB] = await call('eth_newPendingTransactionFilter', 'eth_newPendingTransactionFilter', [], { result: ids });
    const [lfA, lfB] = await call('eth_newFilter', 'eth_newFilter', [{ fromBlock: '0x0', address: token }], { result: ids });
    const id = (t: EthTarget, a: any, b: any): string => (t === ours ? a.result : b.result);
    await call('eth_getFilterLogs', 'eth_getFilterLogs', (t) => [id(t, lfA, lfB)]);
    await send('filtered');
    const [blocks] = await call('eth_getFilterChanges(blocks)', 'eth_getFilterChanges', (t) => [id(t, bfA, bfB)], {
      result: differs("ours commits a block every 200 ms with or without txs; hardhat mines on a tx and includes the head at the filter's creation"),
    });
    expect(blocks.result).to.include(rc(ours, 'filtered').blockHash);
    await call('eth_getFilterChanges(pending)', 'eth_getFilterChanges', (t) => [id(t, pfA, pfB)]);
    await call('eth_getFilterChanges(logs)', 'eth_getFilterChanges', (t) => [id(t, lfA, lfB)]);
    await call('eth_getFilterChanges(logs, again)', 'eth_getFilterChanges', (t) => [id(t, lfA, lfB)]);
    await call('eth_getFilterLogs(block filter)', 'eth_getFilterLogs', (t) => [id(t, bfA, bfB)], {
      'error.code': differs('hardhat: -32602; geth (and ours): -32000 (geth: "filter not found")'),
    });
    await call('eth_uninstallFilter', 'eth_uninstallFilter', (t) => [id(t, lfA, lfB)]);
    await call('eth_uninstallFilter(again)', 'eth_uninstallFilter', (t) => [id(t, lfA, lfB)]);
    await call('eth_getFilterChanges(uninstalled)', 'eth_getFilterChanges', (t) => [id(t, lfA, lfB)], FILTER_NOT_FOUND);
    await call('eth_getFilterLogs(unknown)', 'eth_getFilterLogs', ['0x1234'], FILTER_NOT_FOUND);
    flush();
  });

  it('errors: unknown method, invalid params, parse error, invalid request, bad ranges, bad raw txs, unknown objects', async () => {
    await call('unknown method', 'nope_nope', [], { 'error.code': differs('hardhat: -32004 "method not supported"; geth and the spec: -32601') });
    await call('eth_getBalance(bad address)', 'eth_getBalance', ['0x1234', 'latest']);
    await call('eth_getBalance(future block)', 'eth_getBalance', [wallet.address, '0xffffff']);
    await both('parse error', (t) => t.post('{bad'));
    await both('invalid request', (t) => t.post({ id: 1, method: 'eth_chainId' }), {
      id: ignored('the id is readable, so ours echoes it (JSON-RPC 2.0 asks for null only when it cannot be read); hardhat: null'),
    });
    const rangeErr = (why: string): Rules => ({ result: refOnly(`hardhat answers with logs; ${why}`), error: oursOnly(`hardhat answers with logs; ${why}`) });
    await call('eth_getLogs(reversed range)', 'eth_getLogs', [{ fromBlock: '0x5', toBlock: '0x1' }],
      rangeErr('geth (and ours, per the execution-apis fixture filter-error-reversed-block-range): -32602 "invalid block range params"'));
    await call('eth_getLogs(beyond head)', 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0xffffff' }],
      rangeErr('geth (and ours, per the execution-apis fixture filter-error-future-block-range): -32602 "block range extends beyond current head block"'));
    await call('eth_sendRawTransaction(garbage)', 'eth_sendRawTransaction', ['0x1234'], {
      'error.code': differs('hardhat: -32602; geth (and ours): -32000, a decode failure is a plain error'),
    });
    await call('eth_sendRawTransaction(mined again)', 'eth_sendRawTransaction', [raw.legacy]);
    const none = '0x' + '11'.repeat(32);
    await call('eth_getTransactionByHash(unknown)', 'eth_getTransactionByHash', [none]);
    await call('eth_getTransactionReceipt(unknown)', 'eth_getTransactionReceipt', [none]);
    await call('eth_getBlockByHash(unknown)', 'eth_getBlockByHash', [none, false]);
    await call('eth_getBlockByNumber(future)', 'eth_getBlockByNumber', ['0xffffff', false]);
    flush();
  });

  it('batches: replies in order with their ids, per-item errors; an empty batch', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 2, method: 'nope_nope' },
      { jsonrpc: '2.0', id: 3, method: 'eth_getBalance', params: ['0x12', 'latest'] },
      { jsonrpc: '2.0', id: 4, method: 'eth_getTransactionCount', params: [wallet.address, 'latest'] },
    ];
    await both('batch', (t) => t.post(batch), { '[1].error.code': differs('hardhat: -32004 "method not supported"; geth and the spec: -32601') });
    const [a] = await both('empty batch', (t) => t.post([]), {
      '': ignored('hardhat answers []; geth (and ours): one error -32600 "empty batch"'),
    });
    expect(a).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } });
    flush();
  });

  it('websocket: eth_subscribe replies, newHeads and logs notifications, batches, eth_unsubscribe', async () => {
    const [wa, wb] = await Promise.all([EthWs.open(ours.wsUrl), EthWs.open(ref.wsUrl)]);
    sockets.push(wa, wb);
    const ws = (t: EthTarget): EthWs => (t === ours ? wa : wb);
    const subId = { result: differs('subscription ids: random 128-bit (geth) on ours, a counter on hardhat') };
    const [headsA, headsB] = await both('eth_subscribe(newHeads)', (t) => ws(t).call(1, 'eth_subscribe', ['newHeads']), subId);
    const [logsA, logsB] = await both('eth_subscribe(logs)', (t) => ws(t).call(2, 'eth_subscribe', ['logs', { address: token }]), subId);
    const sub = (t: EthTarget, a: any, b: any): string => (t === ours ? a.result : b.result);
    await send('subscribed');
    const notified = { 'params.subscription': differs('subscription ids differ (see above)') };
    const headerOnly = refOnly("hardhat's newHeads payload is the block; geth's (and ours) is the header (RPCMarshalHeader)");
    await both('newHeads notification', (t) => ws(t).notification((m) =>
      m.params.subscription === sub(t, headsA, headsB) && m.params.result.number === rc(t, 'subscribed').blockNumber), {
      ...notified, ...header('params.result'),
      'params.result.transactions': headerOnly, 'params.result.uncles': headerOnly, 'params.result.size': headerOnly,
      'params.result.totalDifficulty': headerOnly, 'params.result.withdrawals': headerOnly,
    });
    await both('logs notification', (t) => ws(t).notification((m) => m.params.subscription === sub(t, logsA, logsB)), notified);
    await both('websocket batch', (t) => ws(t).request([
      { jsonrpc: '2.0', id: 'b1', method: 'net_version' }, { jsonrpc: '2.0', id: 'b2', method: 'eth_chainId' }], 'batch'));
    await both('eth_unsubscribe', (t) => ws(t).call(3, 'eth_unsubscribe', [sub(t, headsA, headsB)]));
    await both('eth_unsubscribe(again)', (t) => ws(t).call(4, 'eth_unsubscribe', [sub(t, headsA, headsB)]));
    await both('eth_subscribe(unknown kind)', (t) => ws(t).call(5, 'eth_subscribe', ['nope']));
    flush();
  });
});
