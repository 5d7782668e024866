/**
 * The Ethereum JSON-RPC against the execution-apis specification: every served `eth_*` / `net_*` method (and the
 * served `txpool_*` / `debug_trace*` ones) answers with a result valid against the result schema of the OpenRPC
 * document built from `ethereum/execution-apis` (packages/server/test/fixtures/execution-apis-openrpc.json, its
 * origin in the README there), on state made by ethers: value transfers of tx types 0, 1 and 2, a contract
 * deployment, logs; with every block-parameter form and the not-found cases. Methods not served are listed with
 * the reason. Also: geth-verifiable headers (keccak256(RLP(header)) = the served hash, for blocks from
 * eth_getBlockByNumber and from newHeads, used the same in receipts, logs, txs and filters), and
 * eth_createAccessList making a storage-reading call cheaper (geth's documented behaviour).
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import WebSocket from 'ws';
import { Contract, ContractFactory, JsonRpcProvider, Wallet, getAddress, getBytes, keccak256, parseEther, toBeArray } from 'ethers';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { postJson } from '../src/clients.js';
import { ics23, iavlSpec, tendermintSpec, verifyMembership, verifyNonMembership } from '@confio/ics23';
import { calculateExistenceRoot } from '@confio/ics23/build/proofs.js';
import { compileSolidity, compileToken } from '../src/solidity.js';
import { headerHash } from '../src/eth-header.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const SPEC_PATH = new URL('../../packages/server/test/fixtures/execution-apis-openrpc.json', import.meta.url);

// ---- a JSON-schema validator for the keywords the specification uses (no validator package is installed) ----

type Schema = Record<string, any>;

function typeOk(v: unknown, t: string): boolean {
  switch (t) {
    case 'null': return v === null;
    case 'boolean': return typeof v === 'boolean';
    case 'string': return typeof v === 'string';
    case 'number': return typeof v === 'number';
    case 'integer': return typeof v === 'number' && Number.isInteger(v);
    case 'array': return Array.isArray(v);
    case 'object': return typeof v === 'object' && v !== null && !Array.isArray(v);
    default: throw new Error(`schema type ${t} not supported`);
  }
}

/** The errors of `v` against `s` (empty: valid). Supports type, enum, const, pattern, minimum, maximum, properties,
 * required, additionalProperties, items, oneOf, anyOf, allOf (what the dereferenced document contains). */
function validate(v: unknown, s: Schema, path = '$'): string[] {
  const known = new Set(['title', 'description', 'type', 'enum', 'const', 'pattern', 'minimum', 'maximum', 'properties', 'required', 'additionalProperties', 'items', 'oneOf', 'anyOf', 'allOf', 'name', 'summary', 'format', 'examples', 'deprecated']);
  for (const k of Object.keys(s)) if (!known.has(k)) throw new Error(`schema keyword ${k} not supported (${path})`);
  const errs: string[] = [];
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t: string) => typeOk(v, t))) return [`${path}: expected ${types.join('|')}, got ${JSON.stringify(v)?.slice(0, 80)}`];
  }
  if (s.enum && !s.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(v))) errs.push(`${path}: not one of ${JSON.stringify(s.enum)}`);
  if (s.const !== undefined && JSON.stringify(s.const) !== JSON.stringify(v)) errs.push(`${path}: not ${JSON.stringify(s.const)}`);
  if (typeof v === 'string' && s.pattern && !new RegExp(s.pattern, 'u').test(v)) errs.push(`${path}: ${JSON.stringify(v).slice(0, 80)} does not match ${s.pattern}`);
  if (typeof v === 'number' && s.minimum !== undefined && v < s.minimum) errs.push(`${path}: below ${s.minimum}`);
  if (typeof v === 'number' && s.maximum !== undefined && v > s.maximum) errs.push(`${path}: above ${s.maximum}`);
  if (typeOk(v, 'object')) {
    const o = v as Record<string, unknown>;
    for (const r of s.required ?? []) if (!(r in o)) errs.push(`${path}: missing ${r}`);
    for (const [k, x] of Object.entries(o)) {
      const ps = s.properties?.[k];
      if (ps) errs.push(...validate(x, ps, `${path}.${k}`));
      else if (s.additionalProperties === false) errs.push(`${path}: unexpected property ${k}`);
      else if (typeof s.additionalProperties === 'object') errs.push(...validate(x, s.additionalProperties, `${path}.${k}`));
    }
  }
  if (Array.isArray(v) && s.items) v.forEach((x, i) => errs.push(...validate(x, s.items, `${path}[${i}]`)));
  if (s.allOf) for (const x of s.allOf) errs.push(...validate(v, x, path));
  if (s.anyOf && !s.anyOf.some((x: Schema) => validate(v, x, path).length === 0)) {
    errs.push(`${path}: matches none of anyOf (${s.anyOf.map((x: Schema) => validate(v, x, path)[0]).join(' / ')})`);
  }
  if (s.oneOf) {
    const results = s.oneOf.map((x: Schema) => validate(v, x, path));
    const n = results.filter((r: string[]) => r.length === 0).length;
    if (n !== 1) errs.push(`${path}: matches ${n} of oneOf${n === 0 ? ` (${results.map((r: string[]) => r[0]).join(' / ')})` : ''}`);
  }
  return errs;
}

describe('e2e: Ethereum JSON-RPC against the execution-apis specification', function () {
  this.timeout(240_000);
  const spec = JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as { methods: { name: string; result: { schema: Schema } }[] };
  const resultSchema = new Map(spec.methods.map((m) => [m.name, m.result.schema]));
  const checked = new Map<string, number>();
  /** methods of the specification this node does not serve, with the reason */
  const SKIPPED: Record<string, string> = {
    eth_coinbase: 'geth no longer serves it (no etherbase after the merge)',
    eth_getBlockAccessList: 'EIP-7928 block access lists: a future fork (Amsterdam)',
    debug_getRawBlock: 'not served: blocks are not stored as RLP',
    debug_getRawHeader: 'not served yet',
    debug_getRawReceipts: 'not served yet',
    debug_getRawTransaction: 'not served yet',
    debug_getBadBlocks: 'not served: a BFT chain has no bad blocks',
    debug_getRawBlockAccessList: 'EIP-7928 block access lists: a future fork (Amsterdam)',
  };

  let node: NodeHandle;
  let provider: JsonRpcProvider;
  let wallet: Wallet;
  let id = 0;
  const rpc = async (method: string, params: unknown[] = []): Promise<any> => (await postJson(node.ethUrl, { jsonrpc: '2.0', id: ++id, method, params })).body;
  /** calls the method, expects a result, validates it against the specification's result schema */
  const check = async (method: string, params: unknown[] = []): Promise<any> => {
    const r = await rpc(method, params);
    expect(r.error, `${method}(${JSON.stringify(params)}): ${JSON.stringify(r.error)}`).to.equal(undefined);
    const schema = resultSchema.get(method);
    expect(schema, `${method} is not in the specification`).to.not.equal(undefined);
    let errs = validate(r.result, schema!);
    // the specification's eth_getFilterChanges result is oneOf [hashes, logs]: an empty array is both, so strictly
    // no result with nothing new is valid; an empty array is what geth answers (and what the spec means)
    if (method === 'eth_getFilterChanges' && Array.isArray(r.result) && r.result.length === 0) errs = errs.filter((e) => e !== '$: matches 2 of oneOf');
    expect(errs, `${method}(${JSON.stringify(params).slice(0, 200)}) → ${JSON.stringify(r.result).slice(0, 400)}`).to.deep.equal([]);
    checked.set(method, (checked.get(method) ?? 0) + 1);
    return r.result;
  };
  const errorOf = async (method: string, params: unknown[] = []): Promise<{ code: number; message: string }> => {
    const r = await rpc(method, params);
    expect(r.error, `${method} should fail, got ${JSON.stringify(r.result)}`).to.not.equal(undefined);
    return r.error;
  };

  const to = Wallet.createRandom().address.toLowerCase();
  let token: Contract;
  let tokenAddr: string;
  let deployHash: string;
  const txs: { type: number; hash: string; block: number }[] = [];
  let logBlock: any;
  let emptyBlock: any;
  /** every block-parameter form for a block with state (all our blocks are canonical) */
  let forms: unknown[];

  before(async () => {
    node = await startNode({ extraArgs: ['--json-rpc.enable', '--evm.rpc.api', 'eth,net,web3,txpool,debug'] });
    provider = new JsonRpcProvider(node.ethUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 200;
    wallet = new Wallet(KEY0, provider);
    const gasPrice = BigInt((await rpc('eth_gasPrice')).result);
    // value transfers of the three tx types
    for (const req of [
      { type: 0, to, value: parseEther('1'), gasPrice },
      // ethers estimates its gas: eth_estimateGas charges the access list (21000 + 2400 + 1900)
      { type: 1, to, value: parseEther('2'), gasPrice, accessList: [{ address: to, storageKeys: ['0x' + '00'.repeat(31) + '01'] }] },
      { type: 2, to, value: parseEther('3') },
    ]) {
      const tx = await wallet.sendTransaction(req);
      const rc = (await tx.wait(1, 60_000))!;
      txs.push({ type: req.type, hash: tx.hash, block: rc.blockNumber });
    }
    // a contract deployment (its constructor logs a Transfer) and a call with a log
    const { abi, bytecode } = compileToken();
    const c = await new ContractFactory(abi, bytecode, wallet).deploy(1_000_000n);
    await c.waitForDeployment();
    tokenAddr = (await c.getAddress()).toLowerCase();
    deployHash = c.deploymentTransaction()!.hash;
    token = new Contract(tokenAddr, abi, wallet);
    const trc = (await (await token.getFunction('transfer')(to, 250n)).wait(1, 60_000))!;
    txs.push({ type: 2, hash: trc.hash, block: trc.blockNumber });
    logBlock = (await rpc('eth_getBlockByNumber', ['0x' + trc.blockNumber.toString(16), true])).result;
    // an empty block after it
    const head = await provider.getBlockNumber();
    while (await provider.getBlockNumber() < head + 2) await new Promise((r) => setTimeout(r, 100));
    emptyBlock = (await rpc('eth_getBlockByNumber', ['0x' + (head + 1).toString(16), false])).result;
    expect(emptyBlock.transactions).to.deep.equal([]);
    forms = ['latest', 'pending', 'safe', 'finalized', '0x' + trc.blockNumber.toString(16), logBlock.hash,
      { blockHash: logBlock.hash }, { blockHash: logBlock.hash, requireCanonical: true }, { blockNumber: '0x' + trc.blockNumber.toString(16) },
      { blockNumber: 'latest' }];
  });
  after(async () => { provider?.destroy(); await node?.stop(); node?.cleanup(); });

  it('the fixture is the execution-apis document (eth_*, net_*, debug_*, txpool_* methods)', () => {
    expect(resultSchema.has('eth_getBlockByNumber')).to.equal(true);
    expect(resultSchema.has('net_version')).to.equal(true);
  });

  it('client, chain and fee methods', async () => {
    expect(await check('eth_chainId')).to.equal('0x539');
    await check('net_version');
    await check('eth_blockNumber');
    expect(await check('eth_syncing')).to.equal(false);
    expect(await check('eth_accounts')).to.deep.equal([]);
    await check('eth_gasPrice');
    await check('eth_maxPriorityFeePerGas');
    await check('eth_baseFee');
    expect(await check('eth_blobBaseFee')).to.equal('0x1');
    for (const p of [['0x4', 'latest', [25, 75]], ['0x2', 'latest'], [4, '0x' + txs[0]!.block.toString(16), [50]]]) await check('eth_feeHistory', p);
    const cfg = await check('eth_config');
    expect(cfg.current.chainId).to.equal('0x539');
    const caps = await check('eth_capabilities');
    expect(caps.head.hash).to.equal((await rpc('eth_getBlockByNumber', [caps.head.number, false])).result.hash);
  });

  it('state methods with every block-parameter form, and their not-found errors', async () => {
    const slot0 = '0x' + '00'.repeat(32);
    for (const f of forms) {
      await check('eth_getBalance', [wallet.address, f]);
      await check('eth_getTransactionCount', [wallet.address, f]);
      expect(await check('eth_getCode', [tokenAddr, f])).to.not.equal('0x');
      await check('eth_getStorageAt', [tokenAddr, '0x1', f]);
      const vals = await check('eth_getStorageValues', [{ [tokenAddr]: [slot0, '0x01'], [to]: ['0x00'] }, f]);
      expect(vals[tokenAddr][1]).to.equal('0x' + (1_000_000).toString(16).padStart(64, '0'));
      const data = token.interface.encodeFunctionData('balanceOf', [to]);
      expect(BigInt(await check('eth_call', [{ to: tokenAddr, data }, f]))).to.equal(250n);
      await check('eth_estimateGas', [{ from: wallet.address, to: tokenAddr, data: token.interface.encodeFunctionData('transfer', [to, 1n]) }, f]);
      await check('eth_createAccessList', [{ from: wallet.address, to: tokenAddr, data }, f]);
    }
    // earliest: the first block's state (before the deployment)
    expect(await check('eth_getCode', [tokenAddr, 'earliest'])).to.equal('0x');
    expect(await check('eth_getCode', [tokenAddr])).to.not.equal('0x');
    // a plain hash is a block hash (not a number: no precision loss)
    const unknown = '0x' + 'ee'.repeat(32);
    for (const m of ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode']) {
      expect(await errorOf(m, [wallet.address, unknown])).to.deep.equal({ code: -32000, message: 'header for hash not found' });
      expect(await errorOf(m, [wallet.address, { blockHash: unknown }])).to.deep.equal({ code: -32000, message: 'header for hash not found' });
      expect(await errorOf(m, [wallet.address, '0x7fffffffffffffff'])).to.deep.equal({ code: -32000, message: 'header not found' });
      expect(await errorOf(m, [wallet.address, '0x8000000000000000'])).to.deep.equal({ code: -32602, message: 'invalid argument 1: block number larger than int64' });
    }
    expect(await errorOf('eth_getStorageAt', [tokenAddr, '0x0', unknown])).to.deep.equal({ code: -32000, message: 'header for hash not found' });
    expect(await errorOf('eth_call', [{ to: tokenAddr }, unknown])).to.deep.equal({ code: -32000, message: 'header for hash not found' });
    expect((await errorOf('eth_getStorageValues', [{}])).code).to.equal(-32602);
  });

  it('eth_getProof: ICS-23 proofs (as Ethermint) that verify against the stateRoot of the next block', async () => {
    const slot0 = '0x' + '00'.repeat(32);
    for (const f of forms) await check('eth_getProof', [tokenAddr, [slot0, '0x1'], f]);
    const n = Number((await rpc('eth_blockNumber', [])).result) - 1;
    const tag = '0x' + n.toString(16);
    const p = await check('eth_getProof', [tokenAddr, [slot0, '0x1'], tag]);
    expect(p.address).to.equal(getAddress(tokenAddr)); // checksummed, as geth's common.Address
    expect(p.codeHash).to.equal(keccak256(await check('eth_getCode', [tokenAddr, tag])));
    expect(p.storageHash).to.equal('0x' + '00'.repeat(32));
    // geth's output keys: a 32-byte key as given, a shorter one as a quantity
    expect(p.storageProof.map((s: { key: string }) => s.key)).to.deep.equal([slot0, '0x1']);
    expect(BigInt(p.storageProof[1].value)).to.equal(BigInt(await check('eth_getStorageAt', [tokenAddr, '0x1', tag])));
    // the proofs are the SDK's ops (the key in the store's IAVL tree, then the store in the app hash): the state
    // after block n is the app hash block n + 1 starts from, its stateRoot
    const stateRoot = getBytes((await rpc('eth_getBlockByNumber', ['0x' + (n + 1).toString(16), false])).result.stateRoot);
    const verify = (proof: string[], store: string, key: Uint8Array, value: Uint8Array | undefined): void => {
      expect(proof).to.have.length(2);
      const [iavl, simple] = proof.map((x) => ics23.CommitmentProof.decode(getBytes(x)));
      const root = value !== undefined ? calculateExistenceRoot(iavl!.exist!) : calculateExistenceRoot((iavl!.nonexist!.left ?? iavl!.nonexist!.right)!);
      if (value !== undefined) expect(verifyMembership(iavl!, iavlSpec, root, key, value)).to.equal(true);
      else expect(verifyNonMembership(iavl!, iavlSpec, root, key)).to.equal(true);
      expect(verifyMembership(simple!, tendermintSpec, stateRoot, new TextEncoder().encode(store), root)).to.equal(true);
    };
    const address = getBytes(tokenAddr);
    // the account (acc store, 0x01 || address) exists; slot 1 holds its value; slot 0 is empty
    const acc = ics23.CommitmentProof.decode(getBytes(p.accountProof[0]));
    verify(p.accountProof, 'acc', Uint8Array.of(1, ...address), acc.exist!.value!);
    const slotKey = (slot: bigint): Uint8Array => Uint8Array.of(3, ...address, ...getBytes('0x' + slot.toString(16).padStart(64, '0')));
    const v1 = toBeArray(p.storageProof[1].value);
    verify(p.storageProof[1].proof, 'evm', slotKey(1n), v1);
    if (BigInt(p.storageProof[0].value) === 0n) verify(p.storageProof[0].proof, 'evm', slotKey(0n), undefined);
    // proofs need a height above 1 (the SDK's rule); bad keys as geth
    expect(await errorOf('eth_getProof', [tokenAddr, [], '0x1'])).to.deep.equal({ code: -32000, message: 'cannot query with proof when height <= 1; please provide a valid height: invalid request' });
    expect((await errorOf('eth_getProof', [tokenAddr, ['0xzz'], 'latest'])).message).to.equal('unable to decode storage key: hex string invalid');
  });

  it('blocks, transactions and receipts by every form, blockTimestamp on txs and logs; not-found cases are null', async () => {
    const n = (h: number): string => '0x' + h.toString(16);
    for (const t of txs) {
      const tx = await check('eth_getTransactionByHash', [t.hash]);
      expect(tx.type).to.equal(n(t.type));
      const block = await check('eth_getBlockByNumber', [n(t.block), true]);
      expect(tx.blockHash).to.equal(block.hash);
      expect(tx.blockTimestamp).to.equal(block.timestamp);
      const idx = tx.transactionIndex;
      const byNum = await check('eth_getTransactionByBlockNumberAndIndex', [n(t.block), idx]);
      const byHash = await check('eth_getTransactionByBlockHashAndIndex', [block.hash, idx]);
      expect(byNum).to.deep.equal(tx);
      expect(byHash).to.deep.equal(tx);
      expect(block.transactions[Number(idx)]).to.deep.equal(tx);
      const rc = await check('eth_getTransactionReceipt', [t.hash]);
      expect(rc.blockHash).to.equal(block.hash);
      for (const l of rc.logs) expect(l.blockTimestamp).to.equal(block.timestamp);
      await check('eth_getBlockByHash', [block.hash, false]);
      await check('eth_getBlockByHash', [block.hash, true]);
      await check('eth_getBlockTransactionCountByHash', [block.hash]);
      await check('eth_getBlockTransactionCountByNumber', [n(t.block)]);
      for (const f of [n(t.block), block.hash, { blockHash: block.hash }, { blockHash: block.hash, requireCanonical: true }, { blockNumber: n(t.block) }]) {
        expect((await check('eth_getBlockReceipts', [f])).map((r: any) => r.transactionHash)).to.include(t.hash);
      }
    }
    expect((await check('eth_getTransactionReceipt', [deployHash])).contractAddress).to.equal(tokenAddr);
    for (const tag of ['latest', 'pending', 'safe', 'finalized', 'earliest']) {
      await check('eth_getBlockByNumber', [tag, false]);
      await check('eth_getBlockByNumber', [tag, true]);
      await check('eth_getBlockTransactionCountByNumber', [tag]);
      await check('eth_getBlockReceipts', [tag]);
    }
    // not found: null
    const unknown = '0x' + 'ee'.repeat(32);
    const future = '0x7fffffffffffffff';
    expect(await check('eth_getBlockByNumber', [future, false])).to.equal(null);
    expect(await check('eth_getBlockByHash', [unknown, false])).to.equal(null);
    expect(await check('eth_getTransactionByHash', [unknown])).to.equal(null);
    expect(await check('eth_getTransactionReceipt', [unknown])).to.equal(null);
    expect(await check('eth_getTransactionByBlockHashAndIndex', [unknown, '0x0'])).to.equal(null);
    expect(await check('eth_getTransactionByBlockNumberAndIndex', [future, '0x0'])).to.equal(null);
    expect(await check('eth_getTransactionByBlockNumberAndIndex', [n(txs[0]!.block), '0x63'])).to.equal(null);
    expect(await check('eth_getBlockTransactionCountByHash', [unknown])).to.equal(null);
    expect(await check('eth_getBlockTransactionCountByNumber', [future])).to.equal(null);
    expect(await check('eth_getBlockReceipts', [unknown])).to.equal(null);
    expect(await check('eth_getBlockReceipts', [future])).to.equal(null);
    // eth_getBlockByNumber takes a number: a hash there is geth's error
    expect(await errorOf('eth_getBlockByNumber', [unknown, false])).to.deep.equal({ code: -32602, message: 'invalid argument 0: hex number > 64 bits' });
  });

  it('logs and filters', async () => {
    const from = '0x' + txs[0]!.block.toString(16);
    const logs = await check('eth_getLogs', [{ fromBlock: from, toBlock: 'latest', address: tokenAddr }]);
    expect(logs).to.have.length(2);
    for (const l of logs) {
      const b = (await rpc('eth_getBlockByNumber', [l.blockNumber, false])).result;
      expect(l.blockHash).to.equal(b.hash);
      expect(l.blockTimestamp).to.equal(b.timestamp);
    }
    expect(await check('eth_getLogs', [{ blockHash: logBlock.hash }])).to.have.length(1);
    const lf = await check('eth_newFilter', [{ fromBlock: from, address: tokenAddr }]);
    expect(await check('eth_getFilterLogs', [lf])).to.have.length(2);
    await check('eth_getFilterChanges', [lf]);
    const bf = await check('eth_newBlockFilter');
    const pf = await check('eth_newPendingTransactionFilter');
    const head = await provider.getBlockNumber();
    while (await provider.getBlockNumber() < head + 1) await new Promise((r) => setTimeout(r, 100));
    const hashes = await check('eth_getFilterChanges', [bf]);
    expect(hashes.length).to.be.greaterThan(0);
    const b = (await rpc('eth_getBlockByNumber', ['0x' + (head + 1).toString(16), false])).result;
    expect(hashes).to.include(b.hash);
    await check('eth_getFilterChanges', [pf]);
    for (const f of [lf, bf, pf]) expect(await check('eth_uninstallFilter', [f])).to.equal(true);
    expect(await check('eth_uninstallFilter', [lf])).to.equal(false);
  });

  it('sending: raw txs; the keyless methods answer geth\'s errors; eth_fillTransaction', async () => {
    const raw = await wallet.signTransaction(await wallet.populateTransaction({ to, value: 1n, type: 2 }));
    const hash = await check('eth_sendRawTransaction', [raw]);
    expect(hash).to.equal(keccak256(raw));
    await provider.waitForTransaction(hash, 1, 60_000);
    const args = { from: wallet.address, to, value: '0x1' };
    expect(await errorOf('eth_sendTransaction', [args])).to.deep.equal({ code: -32000, message: 'unknown account' });
    expect(await errorOf('eth_sign', [wallet.address, '0xdeadbeef'])).to.deep.equal({ code: -32000, message: 'unknown account' });
    expect(await errorOf('eth_signTransaction', [{ ...args, gas: '0x5208', maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x1', nonce: '0x0' }]))
      .to.deep.equal({ code: -32000, message: 'unknown account' });
    expect(await errorOf('eth_signTransaction', [args])).to.deep.equal({ code: -32000, message: 'gas not specified' });
    for (const m of ['eth_sendTransaction', 'eth_sign', 'eth_signTransaction']) checked.set(m, 1);
    const filled = await check('eth_fillTransaction', [args]);
    expect(filled.tx.type).to.equal('0x2');
    expect(filled.tx.nonce).to.equal('0x' + (await provider.getTransactionCount(wallet.address, 'pending')).toString(16));
    expect(filled.tx.gas).to.equal('0x5208');
    expect(filled.tx.hash).to.equal(keccak256(filled.raw));
    const legacy = await check('eth_fillTransaction', [{ ...args, gasPrice: '0x3b9aca00' }]);
    expect(legacy.tx.type).to.equal('0x0');
  });

  it('txpool and debug tracing results', async () => {
    await check('txpool_status');
    await check('txpool_content');
    await check('txpool_contentFrom', [wallet.address]);
    await check('debug_traceTransaction', [txs[3]!.hash]);
    await check('debug_traceTransaction', [txs[3]!.hash, { tracer: 'callTracer' }]);
    await check('debug_traceBlockByNumber', ['0x' + txs[3]!.block.toString(16), { tracer: 'callTracer' }]);
    await check('debug_traceBlockByHash', [logBlock.hash, { tracer: 'callTracer' }]);
  });

  it('eth_simulateV1: blocks with calls, logs, reverts, full transactions, transfer logs and validation; header hashes', async () => {
    const transfer = token.interface.encodeFunctionData('transfer', [to, 5n]);
    const tooMuch = token.interface.encodeFunctionData('transfer', [to, 10n ** 30n]);
    const gasPrice = BigInt((await rpc('eth_gasPrice')).result);
    for (const f of ['latest', logBlock.hash, { blockNumber: logBlock.number }]) {
      for (const opts of [
        { blockStateCalls: [{ calls: [{ from: wallet.address, to: tokenAddr, input: transfer }, { from: wallet.address, to, value: '0x1' }] }, { calls: [{ from: wallet.address, to: tokenAddr, input: tooMuch }] }] },
        { blockStateCalls: [{ calls: [{ from: wallet.address, to: tokenAddr, input: transfer }, { from: wallet.address, to, value: '0x1' }] }], returnFullTransactions: true, traceTransfers: true },
        { blockStateCalls: [{ calls: [{ from: wallet.address, to, value: '0x1', maxFeePerGas: '0x' + (gasPrice * 10n).toString(16), maxPriorityFeePerGas: '0x1' }, { from: wallet.address, to, gasPrice: '0x' + (gasPrice * 10n).toString(16) }] }], validation: true, returnFullTransactions: true },
      ]) {
        const blocks = await check('eth_simulateV1', [opts, f]);
        expect(blocks).to.have.length(opts.blockStateCalls.length);
        for (const b of blocks) expect(headerHash(b)).to.equal(b.hash);
      }
    }
    const far = { blockStateCalls: [{ blockOverrides: { number: '0x' + (BigInt(logBlock.number) + 257n).toString(16) } }] };
    expect(await errorOf('eth_simulateV1', [far, logBlock.hash])).to.deep.equal({ code: -38026, message: 'too many blocks' });
    const [b1, b2] = await check('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: wallet.address, to: tokenAddr, input: transfer }] }, { calls: [{ from: wallet.address, to: tokenAddr, input: tooMuch }] }] }]);
    expect(b1.calls[0].logs).to.have.length(1);
    expect(b1.calls[0].logs[0].blockHash).to.equal(b1.hash);
    expect(b2.parentHash).to.equal(b1.hash);
    expect(b2.calls[0].status).to.equal('0x0');
    expect(b2.calls[0].error.code).to.equal(3);
    expect(b2.calls[0].error.message).to.match(/^execution reverted/);
  });

  it('every eth_* and net_* method of the specification was checked, or is skipped with its reason', () => {
    const missing = spec.methods.map((m) => m.name)
      .filter((n) => /^(eth|net)_/.test(n) && !checked.has(n) && !(n in SKIPPED));
    expect(missing).to.deep.equal([]);
    for (const [name, why] of Object.entries(SKIPPED)) expect(resultSchema.has(name), `${name}: ${why}`).to.equal(true);
  });

  describe('geth-verifiable headers', function () {
    it('keccak256(RLP(header)) is the served hash: an empty block, blocks with txs and with logs; parents link', async () => {
      const blocks = [emptyBlock, logBlock, ...await Promise.all(txs.map(async (t) => (await rpc('eth_getBlockByNumber', ['0x' + t.block.toString(16), false])).result))];
      for (const b of blocks) {
        expect(headerHash(b), `block ${b.number}`).to.equal(b.hash);
        const parent = (await rpc('eth_getBlockByNumber', ['0x' + (Number(b.number) - 1).toString(16), false])).result;
        expect(b.parentHash).to.equal(parent.hash);
        expect(headerHash(parent)).to.equal(parent.hash);
        expect((await rpc('eth_getBlockByHash', [b.hash, false])).result.number).to.equal(b.number);
      }
      expect(logBlock.logsBloom).to.not.equal('0x' + '00'.repeat(256));
      // the CometBFT hash stays on the Cosmos side (and is the header's extraData)
      const rb = await (await fetch(`${node.rpcUrl}/block?height=${Number(logBlock.number)}`)).json() as any;
      expect(logBlock.extraData).to.equal('0x' + rb.result.block_id.hash.toLowerCase());
      expect(logBlock.hash).to.not.equal(logBlock.extraData);
      expect((await rpc('eth_getBlockByHash', [logBlock.extraData, false])).result).to.equal(null);
    });

    it('newHeads notifications carry the same verifiable headers', async () => {
      const ws = new WebSocket(node.ethWsUrl);
      await new Promise((res, rej) => { ws.once('open', res); ws.once('error', rej); });
      const heads: any[] = [];
      ws.on('message', (d) => { const m = JSON.parse(d.toString()); if (m.method === 'eth_subscription') heads.push(m.params.result); });
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
      // a block with a tx among the notified ones
      const tx = await wallet.sendTransaction({ to, value: 5n });
      const rc = (await tx.wait(1, 60_000))!;
      const deadline = Date.now() + 20_000;
      while ((heads.length < 3 || !heads.some((h) => Number(h.number) === rc.blockNumber)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      ws.close();
      expect(heads.length).to.be.greaterThanOrEqual(3);
      for (const h of heads) {
        expect(headerHash(h)).to.equal(h.hash);
        const b = (await rpc('eth_getBlockByNumber', [h.number, false])).result;
        expect(b.hash).to.equal(h.hash);
      }
      expect(heads.find((h) => Number(h.number) === rc.blockNumber)!.hash).to.equal(rc.blockHash);
    });
  });

  describe('eth_createAccessList', function () {
    const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Store { uint256 public v = 42; }
contract Reader {
  Store immutable s;
  uint256 public last;
  constructor(Store s_) { s = s_; }
  function read() external returns (uint256) { uint256 x = s.v(); emit Read(x); return x; }
  event Read(uint256 x);
}`;

    it('lists the other contract and its slot; the list makes the storage-reading call cheaper (geth\'s documented behaviour)', async () => {
      const c = compileSolidity(SOURCE);
      const store = await new ContractFactory(c.Store!.abi, c.Store!.bytecode, wallet).deploy();
      await store.waitForDeployment();
      const storeAddr = (await store.getAddress()).toLowerCase();
      const reader = await new ContractFactory(c.Reader!.abi, c.Reader!.bytecode, wallet).deploy(storeAddr);
      await reader.waitForDeployment();
      const readerAddr = (await reader.getAddress()).toLowerCase();
      const data = reader.interface.encodeFunctionData('read');
      const call = { from: wallet.address, to: readerAddr, data };
      const r = await check('eth_createAccessList', [call, 'latest']);
      // the sender and the recipient are not listed as addresses (the recipient reads no storage of its own)
      expect(r.accessList).to.deep.equal([{ address: storeAddr, storageKeys: ['0x' + '00'.repeat(32)] }]);
      expect(r.error).to.equal(undefined);
      // the same answer when started from the list
      expect(await check('eth_createAccessList', [{ ...call, accessList: r.accessList }])).to.deep.equal(r);
      // as txs: the one with the list uses the gas eth_createAccessList said, 200 less than without
      // (2400 + 1900 for the listed address and slot, 2500 + 2000 saved on their cold accesses)
      const gasPrice = BigInt((await rpc('eth_gasPrice')).result);
      const withList = (await (await wallet.sendTransaction({ to: readerAddr, data, type: 1, gasPrice, accessList: r.accessList, gasLimit: 200_000n })).wait(1, 60_000))!;
      const without = (await (await wallet.sendTransaction({ to: readerAddr, data, type: 1, gasPrice, gasLimit: 200_000n })).wait(1, 60_000))!;
      expect(withList.status).to.equal(1);
      expect(without.status).to.equal(1);
      expect(withList.gasUsed).to.equal(BigInt(r.gasUsed));
      expect(without.gasUsed - withList.gasUsed).to.equal(200n);
      // a failing call: the list so far and the vm error
      const bad = await check('eth_createAccessList', [{ from: wallet.address, to: tokenAddr, data: token.interface.encodeFunctionData('transfer', [to, 10n ** 30n]) }]);
      expect(bad.error).to.match(/^execution reverted/);
      // the recipient is not listed for being called, but is with the slots it read (geth's AccessListTracer)
      expect(bad.accessList.map((e: any) => e.address)).to.deep.equal([tokenAddr]);
    });
  });
});
