/**
 * Tracing: the struct logger and the call tracer over replays of committed blocks (App.replayBlock, the
 * keeper's per-block tracer hook), checked against the recorded execution: gas, failure, return data,
 * the opcode sequence and its gas accounting, nested calls, reverts, creates, SELFDESTRUCT, logs, time
 * limits, and a replay that depends on a Cosmos tx and the begin-block base fee of its block.
 */
import { expect } from 'chai';
import type { AnyMsg } from '@chain/codec';
import type { ReplayBlockRequest } from '@chain/app';
import { keccak256, secp256k1PublicKey, signSecp256k1Digest } from '@chain/crypto';
import { bigIntToBytes, bytesToHex, generateAddress } from '@ethereumjs/util';
import { TraceTimeoutError, TraceTooLargeError, TracerNotFoundError, traceBlock } from '../src/index.js';
import type { CallFrameJSON, StructLogResult, TracerOptions } from '../src/index.js';
import { CHAIN_ID, DENOM, ETHER, EvmTestChain, GENESIS_TIME, ethKey, eventsOf, signEthTx } from './helpers.js';
import type { EthKey } from './helpers.js';
import { calldata, concat, contracts, encodeArgs } from './contracts.js';

/** runtime code returning BASEFEE: BASEFEE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN */
const BASEFEE_CODE = '0x4860005260206000f3';
const BASEFEE_ADDR = '0x00000000000000000000000000000000000b45ef';

/** A Cosmos tx signed with an eth_secp256k1 key (SIGN_MODE_DIRECT over keccak256). */
function cosmosTx(chain: EvmTestChain, key: EthKey, msgs: AnyMsg[]): Uint8Array {
  const r = chain.registry;
  const acc = chain.ak.getAccount(chain.ctx(), key.addr)!;
  const bodyBytes = r.encode('chain.tx.v1beta1.TxBody', { messages: msgs, memo: '' });
  const authInfoBytes = r.encode('chain.tx.v1beta1.AuthInfo', {
    signer_infos: [{ public_key: r.packAny('chain.crypto.ethsecp256k1.PubKey', { key: secp256k1PublicKey(key.priv) }), mode_info: { single: { mode: 1 } }, sequence: acc.base.sequence }],
    fee: { amount: [{ denom: DENOM, amount: '1000' }], gas_limit: 200_000n, payer: '', granter: '' },
  });
  const signDoc = r.encode('chain.tx.v1beta1.SignDoc', { body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, chain_id: CHAIN_ID, account_number: acc.base.account_number });
  return r.encode('chain.tx.v1beta1.TxRaw', { body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, signatures: [signSecp256k1Digest(key.priv, keccak256(signDoc))] });
}

/** Calldata gas (EIP-2028): 4 per zero byte, 16 per other byte. */
const calldataGas = (d: Uint8Array): bigint => d.reduce((s, b) => s + (b === 0 ? 4n : 16n), 0n);

describe('tracing (struct logger, call tracer) over block replays', function () {
  this.timeout(60_000);
  let chain: EvmTestChain;
  const alice = ethKey(0);
  const bob = ethKey(1);
  let token: string;
  let parent: string;
  let child: string;
  /** committed blocks as replay requests, by height */
  const blocks = new Map<number, ReplayBlockRequest>();

  /** Commits a block of `txs` and remembers how to replay it; returns its results. */
  async function commit(txs: Uint8Array[]) {
    const height = chain.app.lastHeight + 1;
    const res = await chain.block(txs);
    blocks.set(height, { height, time: new Date(GENESIS_TIME.getTime() + height * 1000), proposer: new Uint8Array(20).fill(7), txs });
    return { height, res };
  }

  async function trace(height: number, opts: TracerOptions = {}, only?: string) {
    return traceBlock(chain.app, chain.evm, blocks.get(height)!, opts, only);
  }

  before(async () => {
    chain = await EvmTestChain.create({ evmGenesis: { accounts: [{ address: BASEFEE_ADDR, code: BASEFEE_CODE, storage: [] }] } });
    const c = contracts();
    const r1 = await commit([chain.ethTx(alice, { data: concat(c.Token.bytecode, encodeArgs(1000n)), gasLimit: 1_500_000n })]);
    expect(r1.res.txResults[0]!.code).to.equal(0);
    token = bytesToHex(generateAddress(alice.addr, bigIntToBytes(0n)));
    const r2 = await commit([chain.ethTx(alice, { data: c.Parent.bytecode, gasLimit: 1_500_000n })]);
    expect(r2.res.txResults[0]!.code).to.equal(0);
    parent = bytesToHex(generateAddress(alice.addr, bigIntToBytes(1n)));
    child = bytesToHex(generateAddress(new Uint8Array(Buffer.from(parent.slice(2), 'hex')), bigIntToBytes(1n)));
  });

  after(async () => {
    await chain?.close();
  });

  it('struct logs of an ERC-20 transfer: opcodes, gas accounting, stack and storage agree with the receipt', async () => {
    const data = calldata('transfer(address,uint256)', bob.addr, 25n);
    const gasLimit = 100_000n;
    const { height, res } = await commit([chain.ethTx(alice, { to: token, data, gasLimit })]);
    const receipt = eventsOf(res.txResults[0]!.events, 'ethereum_tx')[0]!;
    const [t] = await trace(height);
    const r = t!.result as StructLogResult;
    expect(t!.hash).to.equal(receipt.ethereumTxHash);
    expect(r.gas).to.equal(Number(receipt.txGasUsed));
    expect(r.failed).to.equal(false);
    expect(r.returnValue).to.equal('0x' + '00'.repeat(31) + '01');
    const logs = r.structLogs;
    // the solc prelude: PUSH1 0x80 PUSH1 0x40 MSTORE, the first step has the gas left after the intrinsic gas
    expect(logs.slice(0, 3).map((l) => l.op)).to.deep.equal(['PUSH1', 'PUSH1', 'MSTORE']);
    expect(logs[0]).to.include({ pc: 0, depth: 1, gasCost: 3 });
    const intrinsic = 21_000n + calldataGas(data);
    expect(BigInt(logs[0]!.gas)).to.equal(gasLimit - intrinsic);
    expect(logs[2]!.stack).to.deep.equal(['0x80', '0x40']);
    expect(logs[0]!.stack).to.deep.equal([]);
    // each step costs what it says: gas(i) - gasCost(i) = gas(i+1); the sum is the execution gas
    for (let i = 0; i + 1 < logs.length; i++) expect(logs[i]!.gas - logs[i]!.gasCost, `step ${i} ${logs[i]!.op}`).to.equal(logs[i + 1]!.gas);
    const last = logs[logs.length - 1]!;
    expect(last.op).to.equal('RETURN');
    const spent = logs.reduce((s, l) => s + l.gasCost, 0);
    expect(BigInt(spent)).to.equal(gasLimit - intrinsic - BigInt(last.gas - last.gasCost));
    // no refund in a transfer between non-zero balances: gas used = intrinsic + execution
    expect(BigInt(r.gas)).to.equal(intrinsic + BigInt(spent));
    // storage: the sender's balance slot, read then written (32-byte unprefixed hex)
    const slot = Buffer.from(keccak256(concat(encodeArgs(alice.addr), encodeArgs(0n)))).toString('hex');
    const loads = logs.filter((l) => l.op === 'SLOAD');
    expect(loads[0]!.storage![slot]).to.equal((1000n).toString(16).padStart(64, '0'));
    const stores = logs.filter((l) => l.op === 'SSTORE');
    expect(stores.length).to.equal(2);
    expect(stores[0]!.storage![slot]).to.equal((975n).toString(16).padStart(64, '0'));
    expect(logs.filter((l) => l.op !== 'SLOAD' && l.op !== 'SSTORE').every((l) => l.storage === undefined)).to.equal(true);
    expect(logs.every((l) => l.memory === undefined && l.error === undefined && l.refund === undefined)).to.equal(true);
  });

  it('honours disableStack, disableStorage, enableMemory, enableReturnData and limit', async () => {
    const { height } = await commit([chain.ethTx(alice, { to: parent, data: calldata('run()'), gasLimit: 300_000n })]);
    const [full] = await trace(height, { enableMemory: true, enableReturnData: true });
    const logs = (full!.result as StructLogResult).structLogs;
    const withMem = logs.find((l) => l.memory !== undefined)!;
    expect(withMem.memory!.every((w) => /^[0-9a-f]{64}$/.test(w))).to.equal(true);
    // after the reverted child call, the return data is its revert data
    expect(logs.some((l) => l.returnData?.startsWith('0x08c379a0'))).to.equal(true);
    // a CALL's cost includes the gas it forwards (geth): the callee starts with it, so cost - callee gas = the
    // call's own cost (warm or cold access, memory)
    const calls = logs.flatMap((l, i) => (l.op === 'CALL' && logs[i + 1]?.depth === 2 ? [[l, logs[i + 1]!] as const] : []));
    expect(calls).to.have.length(2);
    for (const [call, first] of calls) expect(call.gasCost - first.gas).to.be.within(100, 2700);
    const [bare] = await trace(height, { disableStack: true, disableStorage: true, limit: 7 });
    const b = bare!.result as StructLogResult;
    expect(b.structLogs).to.have.length(7);
    expect(b.structLogs.every((l) => l.stack === undefined && l.storage === undefined)).to.equal(true);
    expect(b.gas).to.equal((full!.result as StructLogResult).gas);
  });

  it('call tracer: nested calls, a caught revert with its reason, logs with their position', async () => {
    const gasLimit = 300_000n;
    const { height, res } = await commit([chain.ethTx(alice, { to: parent, data: calldata('run()'), gasLimit })]);
    const receipt = eventsOf(res.txResults[0]!.events, 'ethereum_tx')[0]!;
    const [t] = await trace(height, { tracer: 'callTracer', tracerConfig: { withLog: true } });
    const top = t!.result as CallFrameJSON;
    expect(top).to.include({ type: 'CALL', from: alice.hex.toLowerCase(), to: parent, value: '0x0', gas: '0x' + gasLimit.toString(16), input: bytesToHex(calldata('run()')) });
    expect(BigInt(top.gasUsed)).to.equal(BigInt(receipt.txGasUsed!));
    expect(top.error).to.equal(undefined);
    const [reverted, ok] = top.calls!;
    expect(reverted).to.include({ type: 'CALL', from: parent, to: child, value: '0x0', error: 'execution reverted', revertReason: 'child reverted' });
    expect(reverted!.input).to.equal(bytesToHex(calldata('setAndRevert(uint256)', 42n)));
    expect(reverted!.output!.startsWith('0x08c379a0')).to.equal(true);
    expect(ok).to.include({ type: 'CALL', from: parent, to: child, input: bytesToHex(calldata('set(uint256)', 7n)) });
    expect(ok!.error).to.equal(undefined);
    for (const f of [reverted!, ok!]) expect(BigInt(f.gasUsed) <= BigInt(f.gas)).to.equal(true);
    // Ran(1, 2), emitted after both sub-calls
    expect(top.logs).to.deep.equal([{
      address: parent, topics: [bytesToHex(keccak256(new TextEncoder().encode('Ran(uint256,uint256)')))],
      data: bytesToHex(encodeArgs(1n, 2n)), position: '0x2',
    }]);
    const [onlyTop] = await trace(height, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } });
    expect((onlyTop!.result as CallFrameJSON).calls).to.equal(undefined);
    expect((onlyTop!.result as CallFrameJSON).gasUsed).to.equal(top.gasUsed);
  });

  it('a failed tx: the revert reason, committed sub-calls, no logs, struct logger failed with the revert data', async () => {
    const { height, res } = await commit([chain.ethTx(alice, { to: parent, data: calldata('runAndFail()'), gasLimit: 300_000n })]);
    const receipt = eventsOf(res.txResults[0]!.events, 'ethereum_tx')[0]!;
    expect(receipt.ethereumTxFailed).to.match(/execution reverted: parent failed/);
    const [c] = await trace(height, { tracer: 'callTracer', tracerConfig: { withLog: true } });
    const top = c!.result as CallFrameJSON;
    expect(top).to.include({ error: 'execution reverted', revertReason: 'parent failed' });
    expect(top.calls).to.have.length(1);
    expect(top.calls![0]!.error).to.equal(undefined);
    expect(top.logs).to.equal(undefined);
    const [s] = await trace(height);
    const r = s!.result as StructLogResult;
    expect(r.failed).to.equal(true);
    expect(r.gas).to.equal(Number(receipt.txGasUsed));
    expect(r.returnValue.startsWith('0x08c379a0')).to.equal(true);
    expect(r.structLogs[r.structLogs.length - 1]!.op).to.equal('REVERT');
    expect(r.structLogs[r.structLogs.length - 1]!.error).to.equal(undefined);
  });

  it('creates: CREATE frames with the created address and code, SELFDESTRUCT of a contract created in the tx', async () => {
    const c = contracts();
    const nonce = chain.nonce(alice.addr);
    const { height } = await commit([
      chain.ethTx(alice, { data: c.Parent.bytecode, gasLimit: 1_500_000n }),
      chain.ethTx(alice, { data: c.Boom.bytecode, value: 5n, gasLimit: 500_000n, nonce: nonce + 1n }),
    ]);
    const traced = await trace(height, { tracer: 'callTracer' });
    expect(traced).to.have.length(2);
    const p = traced[0]!.result as CallFrameJSON;
    const created = bytesToHex(generateAddress(alice.addr, bigIntToBytes(nonce)));
    expect(p).to.include({ type: 'CREATE', to: created, value: '0x0' });
    expect(p.calls).to.have.length(1);
    expect(p.calls![0]).to.include({ type: 'CREATE', from: created, to: bytesToHex(generateAddress(Buffer.from(created.slice(2), 'hex'), bigIntToBytes(1n))) });
    expect(p.calls![0]!.output!.length).to.be.greaterThan(10);
    const boom = traced[1]!.result as CallFrameJSON;
    const boomAddr = bytesToHex(generateAddress(alice.addr, bigIntToBytes(nonce + 1n)));
    expect(boom).to.include({ type: 'CREATE', to: boomAddr, value: '0x5' });
    expect(boom.calls).to.deep.equal([{ type: 'SELFDESTRUCT', from: boomAddr, to: alice.hex.toLowerCase(), value: '0x5', gas: '0x0', gasUsed: '0x0', input: '0x' }]);
    // only the one tx asked for
    const one = await trace(height, { tracer: 'callTracer' }, traced[1]!.hash);
    expect(one.map((x) => x.hash)).to.deep.equal([traced[1]!.hash]);
  });

  it('replays the txs before the traced one, Cosmos txs and the block base fee included', async () => {
    const fresh = ethKey(7);
    const send = chain.registry.packAny('chain.bank.v1beta1.MsgSend', { from_address: bob.address, to_address: fresh.address, amount: [{ denom: DENOM, amount: ETHER.toString() }] });
    const cosmos = cosmosTx(chain, bob, [send]);
    // the fresh account can only pay for its tx thanks to the Cosmos send before it in the same block
    const eth = chain.wrap(signEthTx(fresh, { nonce: 0n, to: BASEFEE_ADDR, gasLimit: 50_000n }));
    const { height, res } = await commit([cosmos, eth]);
    expect(res.txResults.map((x) => x.code), res.txResults.map((x) => x.log).join(' | ')).to.deep.equal([0, 0]);
    const baseFee = BigInt(eventsOf(res.events, 'fee_market')[0]!.base_fee!);
    const traced = await trace(height);
    expect(traced).to.have.length(1);
    expect(traced[0]!.cosmosIndex).to.equal(1);
    const r = traced[0]!.result as StructLogResult;
    expect(r.failed).to.equal(false);
    expect(BigInt(r.returnValue)).to.equal(baseFee);
    expect(r.gas).to.equal(Number(eventsOf(res.txResults[1]!.events, 'ethereum_tx')[0]!.txGasUsed));
    // the replay wrote nothing: no views left open, balances as committed
    expect(chain.store.openViews).to.equal(0);
    expect(chain.nonce(fresh.addr)).to.equal(1n);
  });

  it('rejects unknown tracers and aborts a trace at its time limit or size cap', async () => {
    const { height } = await commit([chain.ethTx(alice, { data: contracts().Spin.bytecode, gasLimit: 1_000_000n })]);
    let err: unknown;
    try { await trace(height, { tracer: 'nope' }); } catch (e) { err = e; }
    expect(err).to.be.instanceOf(TracerNotFoundError);
    expect(String(err)).to.match(/tracer not found/);
    const spin = bytesToHex(generateAddress(alice.addr, bigIntToBytes(chain.nonce(alice.addr) - 1n)));
    const { height: h2 } = await commit([chain.ethTx(alice, { to: spin, data: calldata('spin()'), gasLimit: 1_000_000n })]);
    err = undefined;
    try { await trace(h2, { timeoutMs: 1 }); } catch (e) { err = e; }
    expect(err).to.be.instanceOf(TraceTimeoutError);
    expect(String(err)).to.match(/execution timeout/);
    // a trace past its size cap is aborted too (it must not exhaust the node's memory)
    err = undefined;
    try { await trace(h2, { maxBytes: 100_000 }); } catch (e) { err = e; }
    expect(err).to.be.instanceOf(TraceTooLargeError);
    expect(String(err)).to.match(/trace result too large/);
    // with time enough, the out-of-gas step carries the error
    const [t] = await trace(h2, { disableStack: true, timeoutMs: 20_000 });
    const r = t!.result as StructLogResult;
    expect(r.failed).to.equal(true);
    expect(r.gas).to.equal(1_000_000);
    expect(r.returnValue).to.equal('0x');
    expect(r.structLogs[r.structLogs.length - 1]!.error).to.equal('out of gas');
    expect(chain.store.openViews).to.equal(0);
  });

  it('block 1 (genesis state) cannot be replayed', async () => {
    let err: unknown;
    try { await traceBlock(chain.app, chain.evm, { height: 1, time: GENESIS_TIME, proposer: new Uint8Array(20), txs: [] }); } catch (e) { err = e; }
    expect(String(err)).to.match(/block 1 cannot be replayed/);
  });
});
