/**
 * eth_simulateV1 (geth's semantics), eth_call / eth_estimateGas with an EIP-2930 access list and the 1559 fee
 * fields, and eth_call's block overrides, against a node. Expected results are geth's: the eth_simulateV1 cases are
 * ported from the execution-apis test fixtures (`tests/eth_simulateV1/*.io`, the requests with their addresses,
 * code and calldata; the answers' returnData, gasUsed, logs and error codes and messages, which do not depend on
 * the chain), the rest from geth's documented behaviour (EIP-2930 costs: 2400 per listed address, 1900 per
 * storage key; a warm access 100 instead of a cold 2600 / 2100).
 */
import { expect } from 'chai';
import { encodeRlp, getAddress, keccak256, toBeArray } from 'ethers';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { postJson } from '../src/clients.js';
import { headerHash } from '../src/eth-header.js';

const C0 = '0xc000000000000000000000000000000000000000';
const C1 = '0xc100000000000000000000000000000000000000';
const C2 = '0xc200000000000000000000000000000000000000';
const C3 = '0xc300000000000000000000000000000000000000';
const C4 = '0xc400000000000000000000000000000000000000';
const ZERO32 = '0x' + '00'.repeat(32);
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const ETHER = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const word = (n: bigint | number): string => '0x' + BigInt(n).toString(16).padStart(64, '0');
const qty = (n: bigint | number): string => '0x' + BigInt(n).toString(16);
const addrWord = (a: string): string => '0x' + a.slice(2).padStart(64, '0');

/** ethSimulate-override-storage-slots: getter(slot) 0x0ff4c916, setter(slot, value) 0x7b8d56e3 (slots 0 and 1) */
const STORAGE_CODE = [
  '0x608060405234801561001057600080fd5b506004361061004c5760003560e01c80630ff4c916146100515780633033413b1461008157806344e12f871461009f5780637b8d56e3146100bd575b6000',
  '80fd5b61006b600480360381019061006691906101f6565b6100d9565b6040516100789190610232565b60405180910390f35b61008961013f565b6040516100969190610232565b60405180910390f3',
  '5b6100a7610145565b6040516100b49190610232565b60405180910390f35b6100d760048036038101906100d2919061024d565b61014b565b005b60006002821061011e576040517f08c379a0000000',
  '000000000000000000000000000000000000000000000000008152600401610115906102ea565b60405180910390fd5b6000820361012c5760005490505b6001820361013a5760015490505b91905056',
  '5b60015481565b60005481565b6002821061018e576040517f08c379a0000000000000000000000000000000000000000000000000000000008152600401610185906102ea565b60405180910390fd5b',
  '600082036101a257806000819055506101b7565b600182036101b657806001819055506101b7565b5b5050565b600080fd5b6000819050919050565b6101d3816101c0565b81146101de57600080fd5b',
  '50565b6000813590506101f0816101ca565b92915050565b60006020828403121561020c5761020b6101bb565b5b600061021a848285016101e1565b91505092915050565b61022c816101c0565b8252',
  '5050565b60006020820190506102476000830184610223565b92915050565b60008060408385031215610264576102636101bb565b5b6000610272858286016101e1565b925050602061028385828601',
  '6101e1565b9150509250929050565b600082825260208201905092915050565b7f746f6f2062696720736c6f740000000000000000000000000000000000000000600082015250565b60006102d4600c',
  '8361028d565b91506102df8261029e565b602082019050919050565b60006020820190508181036000830152610303816102c7565b905091905056fea2646970667358221220ceea194bb66b5b9f52c8',
  '3e5bf5a1989255de8cb7157838eff98f970c3a04cb3064736f6c63430008120033',
].join('');
/** ethSimulate-eth-send-should-produce-more-logs-on-forward: sendEther(address) 0x4b64e492 forwards msg.value */
const FORWARD_CODE = [
  '0x60806040526004361061001e5760003560e01c80634b64e49214610023575b600080fd5b61003d6004803603810190610038919061011f565b61003f565b005b60008173ffffffffffffffffffffff',
  'ffffffffffffffffff166108fc349081150290604051600060405180830381858888f193505050509050806100b8576040517f08c379a000000000000000000000000000000000000000000000000000',
  '00000081526004016100af906101a9565b60405180910390fd5b5050565b600080fd5b600073ffffffffffffffffffffffffffffffffffffffff82169050919050565b60006100ec826100c1565b9050',
  '919050565b6100fc816100e1565b811461010757600080fd5b50565b600081359050610119816100f3565b92915050565b600060208284031215610135576101346100bc565b5b600061014384828501',
  '61010a565b91505092915050565b600082825260208201905092915050565b7f4661696c656420746f2073656e64204574686572000000000000000000000000600082015250565b6000610193601483',
  '61014c565b915061019e8261015d565b602082019050919050565b600060208201905081810360008301526101c281610186565b905091905056fea2646970667358221220563acd6f5b8ad06a3faf5c',
  '27fddd0ecbc198408b99290ce50d15c2cf7043694964736f6c63430008120033',
].join('');
/** ethSimulate-eth-send-should-not-produce-logs-on-revert: always reverts with "Always reverting contract" */
const REVERT_CODE = [
  '0x608060405260006042576040517f08c379a0000000000000000000000000000000000000000000000000000000008152600401603990609d565b60405180910390fd5b005b60008282526020820190',
  '5092915050565b7f416c7761797320726576657274696e6720636f6e747261637400000000000000600082015250565b600060896019836044565b91506092826055565b602082019050919050565b60',
  '00602082019050818103600083015260b481607e565b905091905056fea264697066735822122005cbbbc709291f66fadc17416c1b0ed4d72941840db11468a21b8e1a0362024c64736f6c6343000812',
  '0033',
].join('');

/** Code that returns, as 32-byte words, what the given one-byte opcodes push (NUMBER 43, TIMESTAMP 42, ...). */
function returnWords(ops: number[]): string {
  let code = '';
  ops.forEach((op, i) => { code += op.toString(16).padStart(2, '0') + '60' + (i * 32).toString(16).padStart(2, '0') + '52'; });
  return '0x' + code + '60' + (ops.length * 32).toString(16).padStart(2, '0') + '5ff3';
}
/** Code that returns BALANCE(a). */
const balanceOf = (a: string): string => '0x73' + a.slice(2) + '315f5260205ff3';
/** Code that reads EXTCODESIZE(a) and returns the gas left after it. */
const gasAfterExtcodesize = (a: string): string => '0x73' + a.slice(2) + '3b505a5f5260205ff3';

describe('e2e: eth_simulateV1, access lists and block overrides on eth_call (geth\'s semantics)', function () {
  this.timeout(180_000);
  let node: NodeHandle;
  let id = 0;
  const rpc = async (method: string, params: unknown[] = []): Promise<any> => (await postJson(node.ethUrl, { jsonrpc: '2.0', id: ++id, method, params })).body;
  const ok = async (method: string, params: unknown[] = []): Promise<any> => {
    const r = await rpc(method, params);
    expect(r.error, `${method}: ${JSON.stringify(r.error)}`).to.equal(undefined);
    return r.result;
  };
  const err = async (method: string, params: unknown[] = []): Promise<{ code: number; message: string; data?: string }> => {
    const r = await rpc(method, params);
    expect(r.error, `${method} should fail, got ${JSON.stringify(r.result)?.slice(0, 300)}`).to.not.equal(undefined);
    return r.error;
  };
  /** the block simulations build on: pinned by number (the chain moves on meanwhile) */
  let base: any;
  let tag: string;

  before(async () => {
    node = await startNode({ extraArgs: ['--json-rpc.enable', '--evm.rpc.api', 'eth,net,web3,txpool,debug'] });
    base = await ok('eth_getBlockByNumber', ['latest', false]);
    tag = base.number;
  });
  after(async () => { await node?.stop(); node?.cleanup(); });

  const simulate = (opts: Record<string, unknown>, at: unknown = tag): Promise<any> => ok('eth_simulateV1', [opts, at]);

  describe('eth_simulateV1', function () {
    it('value transfers over two blocks with a balance override (ethSimulate-transfer-over-BlockStateCalls); the state carries over, nothing is written', async () => {
      const blocks = await simulate({
        blockStateCalls: [
          { stateOverrides: { [C0]: { balance: '0x1388' } }, calls: [{ from: C0, to: C1, value: '0x7d0' }, { from: C0, to: C3, value: '0x7d0' }] },
          { stateOverrides: { [C3]: { balance: '0x1388' } }, calls: [{ from: C1, to: C2, value: '0x3e8' }, { from: C3, to: C2, value: '0x3e8' }] },
          { stateOverrides: { [C4]: { code: balanceOf(C2) } }, calls: [{ from: C0, to: C4 }] },
        ],
      });
      expect(blocks).to.have.length(3);
      const transfer = { returnData: '0x', logs: [], gasUsed: '0x5208', maxUsedGas: '0x5208', status: '0x1' };
      expect(blocks[0].calls).to.deep.equal([transfer, transfer]);
      expect(blocks[1].calls).to.deep.equal([transfer, transfer]);
      // C2 got 1000 from C1 and 1000 from C3 (whose balance override replaced the 2000 it got in the first block)
      expect(blocks[2].calls[0].returnData).to.equal(word(2000));
      blocks.forEach((b: any, i: number) => {
        expect(b.number).to.equal(qty(BigInt(base.number) + BigInt(i + 1)));
        expect(b.timestamp).to.equal(qty(BigInt(base.timestamp) + 12n * BigInt(i + 1)));
        expect(b.parentHash).to.equal(i === 0 ? base.hash : blocks[i - 1].hash);
        expect(b.baseFeePerGas).to.equal('0x0');
        expect(b.miner).to.equal(base.miner);
        expect(b.gasLimit).to.equal(base.gasLimit);
        expect(b.extraData).to.equal('0x');
        expect(b.transactions).to.have.length(b.calls.length);
        expect(headerHash(b)).to.equal(b.hash);
      });
      expect(blocks[0].gasUsed).to.equal('0xa410');
      // a simulation never writes state
      expect(await ok('eth_getBalance', [C2, 'latest'])).to.equal('0x0');
      expect(await ok('eth_getCode', [C4, 'latest'])).to.equal('0x');
    });

    it('a contract with storage set by calls, then by stateDiff and state overrides (ethSimulate-override-storage-slots)', async () => {
      const get = (slot: number): { from: string; to: string; input: string } => ({ from: C0, to: C1, input: '0x0ff4c916' + word(slot).slice(2) });
      const blocks = await simulate({
        blockStateCalls: [
          {
            stateOverrides: { [C0]: { balance: '0x7d0' }, [C1]: { code: STORAGE_CODE } },
            calls: [
              { from: C0, to: C1, input: '0x7b8d56e3' + word(0).slice(2) + word(1).slice(2) },
              { from: C0, to: C1, input: '0x7b8d56e3' + word(1).slice(2) + word(2).slice(2) },
              get(0), get(1),
            ],
          },
          { stateOverrides: { [C1]: { stateDiff: { [word(0)]: '0x12' + '00'.repeat(31) } } }, calls: [get(0), get(1)] },
          { stateOverrides: { [C1]: { state: { [word(0)]: '0x12' + '00'.repeat(31) } } }, calls: [get(0), get(1)] },
        ],
      });
      const call = (ret: string, gas: string): Record<string, unknown> => ({ returnData: ret, logs: [], gasUsed: gas, maxUsedGas: gas, status: '0x1' });
      expect(blocks.map((b: any) => b.calls)).to.deep.equal([
        [call('0x', '0xac5e'), call('0x', '0xac81'), call(word(1), '0x5d85'), call(word(2), '0x5d91')],
        [call('0x12' + '00'.repeat(31), '0x5d85'), call(word(2), '0x5d91')],
        [call('0x12' + '00'.repeat(31), '0x5d85'), call(word(0), '0x5d91')],
      ]);
      expect(blocks[0].gasUsed).to.equal('0x213f5');
    });

    it('block overrides are what the contract sees; gaps are filled with empty blocks; gas limit and fee recipient carry over', async () => {
      const n = BigInt(base.number);
      const t = BigInt(base.timestamp);
      const randao = '0x' + '00'.repeat(31) + '2a';
      // NUMBER, TIMESTAMP, COINBASE, PREVRANDAO, GASLIMIT, BASEFEE
      const code = returnWords([0x43, 0x42, 0x41, 0x44, 0x45, 0x48]);
      const blocks = await simulate({
        blockStateCalls: [
          {
            blockOverrides: { number: qty(n + 3n), time: qty(t + 100n), feeRecipient: C3, prevRandao: randao, gasLimit: '0x1c9c380', baseFeePerGas: '0x7' },
            stateOverrides: { [C1]: { code } },
            calls: [{ from: C0, to: C1 }],
          },
          { calls: [{ from: C0, to: C1 }] },
        ],
      });
      expect(blocks.map((b: any) => [b.number, b.timestamp, b.calls.length])).to.deep.equal([
        [qty(n + 1n), qty(t + 12n), 0], [qty(n + 2n), qty(t + 24n), 0], [qty(n + 3n), qty(t + 100n), 1], [qty(n + 4n), qty(t + 112n), 1],
      ]);
      expect(blocks[2].calls[0].returnData).to.equal('0x' + [word(n + 3n), word(t + 100n), addrWord(C3), randao, word(30_000_000), word(7)].map((w) => w.slice(2)).join(''));
      // the next block: +1, +12 s, the same fee recipient and gas limit, no prevRandao, the base fee 0 again (no validation)
      expect(blocks[3].calls[0].returnData).to.equal('0x' + [word(n + 4n), word(t + 112n), addrWord(C3), ZERO32, word(30_000_000), word(0)].map((w) => w.slice(2)).join(''));
      expect([blocks[2].miner, blocks[2].mixHash, blocks[2].baseFeePerGas, blocks[2].gasLimit]).to.deep.equal([C3, randao, '0x7', '0x1c9c380']);
      for (let i = 0; i < blocks.length; i++) {
        expect(headerHash(blocks[i])).to.equal(blocks[i].hash);
        if (i > 0) expect(blocks[i].parentHash).to.equal(blocks[i - 1].hash);
      }
    });

    it('BLOCKHASH sees the simulated blocks before it', async () => {
      const n = BigInt(base.number);
      // BLOCKHASH(NUMBER - 1)
      const code = '0x600143034060005260206000f3';
      const blocks = await simulate({ blockStateCalls: [{}, { stateOverrides: { [C1]: { code } }, calls: [{ from: C0, to: C1 }] }] });
      expect(blocks[1].number).to.equal(qty(n + 2n));
      expect(blocks[1].calls[0].returnData).to.equal(blocks[0].hash);
    });

    it('numbers and timestamps must increase (-38020, -38021); limits (-38026, empty input); a block beyond the head', async () => {
      const n = BigInt(base.number);
      const t = BigInt(base.timestamp);
      let e = await err('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { number: qty(n + 2n) } }, { blockOverrides: { number: qty(n + 1n) } }] }, tag]);
      expect(e).to.deep.equal({ code: -38020, message: `block numbers must be in order: ${n + 1n} <= ${n + 2n}` });
      e = await err('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { time: qty(t + 100n) } }, { blockOverrides: { time: qty(t + 50n) } }] }, tag]);
      expect(e).to.deep.equal({ code: -38021, message: `block timestamps must be in order: ${t + 50n} <= ${t + 100n}` });
      // a gap: the empty blocks take +12 s each, so an explicit time must be after theirs
      e = await err('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { number: qty(n + 3n), time: qty(t + 20n) } }] }, tag]);
      expect(e).to.deep.equal({ code: -38021, message: `block timestamps must be in order: ${t + 20n} <= ${t + 24n}` });
      e = await err('eth_simulateV1', [{ blockStateCalls: Array.from({ length: 257 }, () => ({})) }, tag]);
      expect(e).to.deep.equal({ code: -38026, message: 'too many blocks' });
      e = await err('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { number: qty(n + 257n) } }] }, tag]);
      expect(e).to.deep.equal({ code: -38026, message: 'too many blocks' });
      e = await err('eth_simulateV1', [{ blockStateCalls: [] }, tag]);
      expect(e).to.deep.equal({ code: -32602, message: 'empty input' });
      e = await err('eth_simulateV1', [{ blockStateCalls: [{}] }, qty(n + 1000n)]);
      expect(e).to.deep.equal({ code: -32000, message: 'header not found' });
      // 256 blocks are allowed
      expect(await simulate({ blockStateCalls: [{ blockOverrides: { number: qty(n + 256n) } }] })).to.have.length(256);
    });

    it('a revert: status 0 with the reason, code 3 and the data (ethSimulate-eth-send-should-not-produce-logs-on-revert)', async () => {
      const blocks = await simulate({
        blockStateCalls: [{ stateOverrides: { [C0]: { balance: '0x7d0' }, [C1]: { code: REVERT_CODE } }, calls: [{ from: C0, to: C1, value: '0x3e8' }] }],
        traceTransfers: true,
        returnFullTransactions: true,
      });
      expect(blocks[0].calls).to.deep.equal([{
        returnData: '0x', logs: [], gasUsed: '0x5355', maxUsedGas: '0x5355', status: '0x0',
        error: {
          message: 'execution reverted: Always reverting contract', code: 3,
          data: '0x08c379a000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000019416c7761797320726576657274696e6720636f6e747261637400000000000000',
        },
      }]);
      // returnFullTransactions: the tx objects, with their sender
      const tx = blocks[0].transactions[0];
      expect([tx.from, tx.to, tx.value, tx.type, tx.blockHash, tx.blockNumber, tx.transactionIndex]).to.deep.equal([C0, C1, '0x3e8', '0x2', blocks[0].hash, blocks[0].number, '0x0']);
      expect(tx.hash).to.match(/^0x[0-9a-f]{64}$/);
    });

    it('validation: nonces (-38010, -38011), the base fee (-38012); always: funds (-38014) and intrinsic gas (-38013)', async () => {
      const supplied = '\\(supplied gas \\d+\\)';
      const nonceCall = (nonce: string, validation: boolean): Promise<any> => rpc('eth_simulateV1', [{
        blockStateCalls: [{ blockOverrides: { baseFeePerGas: '0x0' }, stateOverrides: { [C0]: { balance: '0x4e20', nonce: '0xa' } }, calls: [{ from: C0, to: C1, nonce }] }],
        validation,
      }, tag]);
      let r = await nonceCall('0x0', true);
      expect(r.error.code).to.equal(-38010);
      expect(r.error.message).to.match(new RegExp(`^err: nonce too low: address 0xC000000000000000000000000000000000000000, tx: 0 state: 10 ${supplied}$`));
      r = await nonceCall('0xb', true);
      expect(r.error.code).to.equal(-38011);
      expect(r.error.message).to.match(new RegExp(`^err: nonce too high: address 0xC000000000000000000000000000000000000000, tx: 11 state: 10 ${supplied}$`));
      // without validation the nonce is not checked (ethSimulate-transaction-too-low-nonce-38010)
      r = await nonceCall('0x0', false);
      expect(r.result[0].calls[0].status).to.equal('0x1');
      // ethSimulate-basefee-too-low-with-validation-38012
      let e = await err('eth_simulateV1', [{
        blockStateCalls: [{ blockOverrides: { baseFeePerGas: '0xa' }, stateOverrides: { [C0]: { balance: '0x7d0' } }, calls: [{ from: C0, to: C1, maxFeePerGas: '0x0', maxPriorityFeePerGas: '0x0' }] }],
        validation: true,
      }, tag]);
      expect(e.code).to.equal(-38012);
      expect(e.message).to.match(new RegExp(`^err: max fee per gas less than block base fee: address 0xC000000000000000000000000000000000000000, maxFeePerGas: 0, baseFee: 10 ${supplied}$`));
      // ethSimulate-simple-no-funds
      e = await err('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: C0, to: C1, value: '0x3e8' }] }] }, tag]);
      expect(e.code).to.equal(-38014);
      expect(e.message).to.match(new RegExp(`^err: insufficient funds for gas \\* price \\+ value: address 0xC000000000000000000000000000000000000000 have 0 want 1000 ${supplied}$`));
      // ethSimulate-instrict-gas-38013
      e = await err('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: C0, to: C1, gas: '0x0' }] }] }, tag]);
      expect(e).to.deep.equal({ code: -38013, message: 'err: intrinsic gas too low: have 0, want 21000 (supplied gas 0)' });
      // fees are bought at min(tip + base fee, max fee) = 7 per gas, the unused gas refunded, the tip (2) paid to the fee recipient
      const fee = await simulate({
        blockStateCalls: [{
          blockOverrides: { baseFeePerGas: '0x5', feeRecipient: C3 },
          stateOverrides: { [C0]: { balance: qty(10n ** 18n) }, [C4]: { code: balanceOf(C0) }, [C2]: { code: balanceOf(C3) } },
          calls: [
            { from: C0, to: C1, gas: qty(30_000), maxFeePerGas: '0x9', maxPriorityFeePerGas: '0x2' },
            { from: C0, to: C4, gas: qty(100_000), maxFeePerGas: '0x9', maxPriorityFeePerGas: '0x2' },
            { from: C0, to: C2, gas: qty(100_000), maxFeePerGas: '0x9', maxPriorityFeePerGas: '0x2' },
          ],
        }],
        validation: true,
      });
      const [, c4, c2] = fee[0].calls;
      expect(c4.returnData).to.equal(word(10n ** 18n - 21_000n * 7n - 100_000n * 7n));
      expect(c2.returnData).to.equal(word(21_000n * 2n + BigInt(c4.gasUsed) * 2n));
      expect(fee[0].baseFeePerGas).to.equal('0x5');
    });

    it('traceTransfers: ERC-7528 Transfer logs of ether moved (ethSimulate-eth-send-should-produce-logs, ...-more-logs-on-forward)', async () => {
      let blocks = await simulate({ blockStateCalls: [{ stateOverrides: { [C0]: { balance: '0x7d0' } }, calls: [{ from: C0, to: C1, value: '0x3e8' }] }], traceTransfers: true });
      const b = blocks[0];
      expect(b.calls[0].logs).to.deep.equal([{
        address: ETHER, topics: [TRANSFER, addrWord(C0), addrWord(C1)], data: word(1000), blockNumber: b.number,
        transactionHash: b.transactions[0], transactionIndex: '0x0', blockHash: b.hash, blockTimestamp: b.timestamp, logIndex: '0x0', removed: false,
      }]);
      // the transfer logs are not the receipt's: the bloom is empty
      expect(b.logsBloom).to.equal('0x' + '00'.repeat(256));
      // not by default (ethSimulate-eth-send-should-not-produce-logs-by-default)
      blocks = await simulate({ blockStateCalls: [{ stateOverrides: { [C0]: { balance: '0x7d0' } }, calls: [{ from: C0, to: C1, value: '0x3e8' }] }] });
      expect(blocks[0].calls[0].logs).to.deep.equal([]);
      // forwarded by a contract: two transfers, in order
      blocks = await simulate({
        blockStateCalls: [{
          stateOverrides: { [C0]: { balance: '0x7d0' }, [C1]: { code: FORWARD_CODE } },
          calls: [{ from: C0, to: C1, value: '0x3e8', input: '0x4b64e492' + word(0xc2).slice(2) }],
        }],
        traceTransfers: true,
      });
      const c = blocks[0].calls[0];
      expect([c.status, c.gasUsed, c.maxUsedGas]).to.deep.equal(['0x1', '0xdad2', '0xdad2']);
      expect(c.logs.map((l: any) => [l.address, l.topics, l.data, l.logIndex])).to.deep.equal([
        [ETHER, [TRANSFER, addrWord(C0), addrWord(C1)], word(1000), '0x0'],
        [ETHER, [TRANSFER, addrWord(C1), word(0xc2)], word(1000), '0x1'],
      ]);
    });

    it('log indices as geth counts them: a log of a failed frame keeps its index (without traceTransfers too)', async () => {
      // C2: LOG0 then REVERT; C1: CALL C2 (its failure ignored), then LOG0
      const logRevert = '0x60006000a060006000fd';
      const callThenLog = '0x' + '6000600060006000' + '6000' + '73' + C2.slice(2) + '5af150' + '60006000a0' + '00';
      const blocks = await simulate({ blockStateCalls: [{ stateOverrides: { [C1]: { code: callThenLog }, [C2]: { code: logRevert } }, calls: [{ from: C0, to: C1 }, { from: C0, to: C2 }, { from: C0, to: C1 }] }] });
      const [c1, c2, c3] = blocks[0].calls;
      expect(c1.logs.map((l: any) => [l.address, l.logIndex])).to.deep.equal([[C1, '0x1']]);
      expect([c2.status, c2.logs, c2.error]).to.deep.equal(['0x0', [], { message: 'execution reverted', code: 3, data: '0x' }]);
      expect(c3.logs.map((l: any) => [l.address, l.logIndex])).to.deep.equal([[C1, '0x4']]);
    });

    it('movePrecompileToAddress (geth\'s precompile-move): sha256 answers at the new address, the code put at 0x02 at its own', async () => {
      const SHA256 = '0x0000000000000000000000000000000000000002';
      const input = '0x' + '00'.repeat(31) + '01';
      const blocks = await simulate({
        blockStateCalls: [{
          stateOverrides: { [SHA256]: { code: '0x365981600082378181f3', movePrecompileToAddress: C3 } },
          calls: [{ from: C0, to: C3, input }, { from: C0, to: SHA256, input }],
        }],
      });
      expect(blocks[0].calls.map((c: any) => [c.returnData, c.status])).to.deep.equal([
        ['0xec4916dd28fc4c10d78e287ca5d9cc51ee1ae73cbfde08c6b37324cbfaac8bc5', '0x1'], [input, '0x1'],
      ]);
      expect(await err('eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: { [C1]: { movePrecompileToAddress: C3 } } }] }, tag]))
        .to.deep.equal({ code: -32000, message: `account ${getAddress(C1)} is not a precompile` });
      // eth_call takes it too
      expect(await ok('eth_call', [{ to: C3, input }, tag, { [SHA256]: { movePrecompileToAddress: C3 } }])).to.equal('0xec4916dd28fc4c10d78e287ca5d9cc51ee1ae73cbfde08c6b37324cbfaac8bc5');
    });

    it('blob calls: a type-3 tx (its unsigned envelope hashed), BLOBHASH, blob gas and excess in the verifiable header; geth\'s blob errors', async () => {
      const h1 = '0x0122' + '00'.repeat(30);
      const blobhash0 = '0x60004960005260206000f3';
      const blocks = await simulate({
        blockStateCalls: [
          { stateOverrides: { [C1]: { code: blobhash0 }, [C0]: { balance: '0xde0b6b3a7640000' } }, calls: [{ from: C0, to: C1, blobVersionedHashes: Array.from({ length: 7 }, () => h1) }] },
          { calls: [] },
        ],
        returnFullTransactions: true,
      });
      const [b1, b2] = blocks;
      expect(b1.calls[0].returnData).to.equal(word(BigInt(h1)));
      expect([b1.blobGasUsed, b1.excessBlobGas, b2.blobGasUsed, b2.excessBlobGas]).to.deep.equal([qty(7 * 131072), '0x0', '0x0', qty(131072)]);
      for (const b of blocks) expect(headerHash(b)).to.equal(b.hash);
      const t = b1.transactions[0];
      expect(t).to.deep.include({ type: '0x3', maxFeePerBlobGas: '0x0', blobVersionedHashes: Array.from({ length: 7 }, () => h1), to: C1, from: C0 });
      // the hash of the unsigned EIP-4844 envelope (v = r = s = 0), encoded here with ethers
      const q = (v: string): Uint8Array => toBeArray(BigInt(v));
      const raw = '0x03' + encodeRlp([q(t.chainId), q(t.nonce), q(t.maxPriorityFeePerGas), q(t.maxFeePerGas), q(t.gas), t.to, q(t.value), t.input, [], q(t.maxFeePerBlobGas), t.blobVersionedHashes, '0x', '0x', '0x']).slice(2);
      expect(t.hash).to.equal(keccak256(raw));
      expect(await err('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: C0, to: C1, gas: '0x186a0', blobVersionedHashes: [] }] }] }, tag]))
        .to.deep.equal({ code: -32603, message: 'err: blob transaction missing blob hashes (supplied gas 100000)' });
    });
  });

  describe('eth_call and eth_estimateGas: access lists, 1559 fees, block overrides', function () {
    const A = '0xa000000000000000000000000000000000000000';
    const B = '0xb000000000000000000000000000000000000000';

    it('an access list makes a cold account access warm: the call has 100 more gas left, the estimate is 100 lower (2500 saved, 2400 paid)', async () => {
      const overrides = { [A]: { code: gasAfterExtcodesize(B) } };
      const call = { from: C0, to: A, gas: qty(100_000) };
      const without = BigInt(await ok('eth_call', [call, 'latest', overrides]));
      const withList = BigInt(await ok('eth_call', [{ ...call, accessList: [{ address: B, storageKeys: [] }] }, 'latest', overrides]));
      expect(withList - without).to.equal(100n);
      // a listed slot that is never read costs its 1900
      const withSlot = BigInt(await ok('eth_call', [{ ...call, accessList: [{ address: B, storageKeys: [ZERO32] }] }, 'latest', overrides]));
      expect(withList - withSlot).to.equal(1900n);
      const e1 = BigInt(await ok('eth_estimateGas', [{ from: C0, to: A }, 'latest', overrides]));
      const e2 = BigInt(await ok('eth_estimateGas', [{ from: C0, to: A, accessList: [{ address: B, storageKeys: [] }] }, 'latest', overrides]));
      // 21000 + PUSH20 3 + EXTCODESIZE 2600 + POP 2 + GAS 2 + PUSH0 2 + MSTORE 6 + PUSH1 3 + PUSH0 2
      expect(e1).to.equal(23_620n);
      expect(e1 - e2).to.equal(100n);
      // eth_createAccessList finds that list and the same gas
      const r = await ok('eth_createAccessList', [{ from: C0, to: A }, 'latest', overrides]);
      expect(r.accessList).to.deep.equal([{ address: B, storageKeys: [] }]);
      expect(BigInt(r.gasUsed)).to.equal(e2);
      // too little gas for the list's intrinsic cost
      const e = await err('eth_call', [{ ...call, gas: qty(22_000), accessList: [{ address: B, storageKeys: [] }] }, 'latest', overrides]);
      expect(e.message).to.equal('intrinsic gas too low: have 22000, want 23400');
    });

    it('the 1559 fields set the gas price as geth\'s ToMessage; no fee: GASPRICE and BASEFEE 0', async () => {
      const code = returnWords([0x3a, 0x48]); // GASPRICE, BASEFEE
      // geth buys the gas of a call with fees: the sender needs gas × max fee
      const overrides = { [A]: { code }, [C0]: { balance: qty(10n ** 24n) } };
      // a block may commit between two requests and move the base fee: each call's base fee is read back (BASEFEE, or
      // the error's text) and must be the one eth_baseFee gave just before or just after it
      const fees = async <T>(f: () => Promise<T>): Promise<{ v: T; ok: bigint[] }> => {
        const before = BigInt(await ok('eth_baseFee'));
        const v = await f();
        return { v, ok: [before, BigInt(await ok('eth_baseFee'))] };
      };
      const words = (hex: string): bigint[] => [BigInt('0x' + hex.slice(2, 66)), BigInt('0x' + hex.slice(66, 130))];
      expect(await ok('eth_call', [{ from: C0, to: A }, 'latest', overrides])).to.equal('0x' + word(0).slice(2) + word(0).slice(2));
      const tip = 3n;
      const baseFee = BigInt(await ok('eth_baseFee'));
      const r = await fees(() => ok('eth_call', [{ from: C0, to: A, maxFeePerGas: qty(baseFee + 100n), maxPriorityFeePerGas: qty(tip) }, 'latest', overrides]));
      const [price, base] = words(r.v);
      expect(r.ok).to.include(base);
      expect(price).to.equal(base + tip);
      const capped = await fees(() => ok('eth_call', [{ from: C0, to: A, maxFeePerGas: qty(baseFee + 1n), maxPriorityFeePerGas: qty(tip) }, 'latest', overrides]));
      const [cappedPrice, cappedBase] = words(capped.v);
      expect(capped.ok).to.include(cappedBase);
      // the price is the max fee whenever base fee + tip exceeds it
      expect(cappedPrice).to.equal(cappedBase + tip < baseFee + 1n ? cappedBase + tip : baseFee + 1n);
      let e = await err('eth_call', [{ from: C0, to: A, gasPrice: '0x1', maxFeePerGas: '0x1' }, 'latest', overrides]);
      expect(e).to.deep.equal({ code: -32000, message: 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified' });
      e = await err('eth_call', [{ from: C0, to: A, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }, 'latest', overrides]);
      expect(e.code).to.equal(-32000);
      expect(e.message).to.match(/^err: max priority fee per gas higher than max fee per gas: address 0xC000000000000000000000000000000000000000, maxPriorityFeePerGas: 2, maxFeePerGas: 1 \(supplied gas \d+\)$/);
      if (baseFee > 1n) {
        const low = await fees(() => err('eth_call', [{ from: C0, to: A, maxFeePerGas: '0x1' }, 'latest', overrides]));
        const m = /^err: max fee per gas less than block base fee: address 0xC000000000000000000000000000000000000000, maxFeePerGas: 1, baseFee: (\d+) \(supplied gas \d+\)$/.exec(low.v.message);
        expect(m, low.v.message).to.not.equal(null);
        expect(low.ok).to.include(BigInt(m![1]!));
      }
      e = await err('eth_call', [{ from: C0, to: A, chainId: '0x1' }, 'latest', overrides]);
      expect(e).to.deep.equal({ code: -32000, message: 'chainId does not match node\'s (have=1, want=1337)' });
    });

    it('eth_call: VM errors in geth\'s words (-32000); a revert is code 3 with the data', async () => {
      const cases: [string, string][] = [
        ['0xfe', 'invalid opcode: INVALID'], ['0x0c', 'invalid opcode: opcode 0xc not defined'], ['0x600101', 'stack underflow (1 <=> 2)'],
        ['0x600356', 'invalid jump destination'], ['0x63ffffffff51', 'out of gas'], ['0x6001600060003e', 'return data out of bounds'],
      ];
      for (const [code, message] of cases) {
        expect(await err('eth_call', [{ from: C0, to: A, gas: qty(100_000) }, 'latest', { [A]: { code } }]), code).to.deep.equal({ code: -32000, message });
      }
      // a STATICCALL into code that writes: the callee fails with write protection (the caller sees 0), as its callTracer frame says
      const writer = '0x600160005500';
      const caller = '0x6000600060006000' + '73' + B.slice(2) + '5afa' + '60005260206000f3';
      const trace = await ok('debug_traceCall', [{ from: C0, to: A, gas: qty(100_000) }, 'latest', { tracer: 'callTracer', stateOverrides: { [A]: { code: caller }, [B]: { code: writer } } }]);
      expect(trace.calls[0]).to.deep.include({ type: 'STATICCALL', error: 'write protection' });
      expect(await err('eth_call', [{ from: C0, to: A }, 'latest', { [A]: { code: '0x60006000fd' } }])).to.deep.equal({ code: 3, message: 'execution reverted', data: '0x' });
    });

    it('eth_call with blobVersionedHashes / maxFeePerBlobGas (geth\'s blobhash-opcode, invalid-blob-tx)', async () => {
      const h = '0x0122' + '00'.repeat(30);
      expect(await ok('eth_call', [{ from: C0, to: A, blobVersionedHashes: [h] }, 'latest', { [A]: { code: '0x60004960005260206000f3' } }])).to.equal(h);
      expect(await err('eth_call', [{ from: C0, input: '0x00', gas: qty(100_000), blobVersionedHashes: [] }, 'latest']))
        .to.deep.equal({ code: -32000, message: 'err: blob transaction of type create (supplied gas 100000)' });
      expect((await rpc('eth_call', [{ from: C0, to: A, blobVersionedHashes: ['0x12'] }, 'latest'])).error.code).to.equal(-32602);
    });

    it('block overrides on eth_call and eth_estimateGas (number, time, gasLimit, feeRecipient, prevRandao, baseFeePerGas, blobBaseFee); beaconRoot and withdrawals refused', async () => {
      // NUMBER, TIMESTAMP, GASLIMIT, COINBASE, PREVRANDAO, BASEFEE, BLOBBASEFEE
      const overrides = { [A]: { code: returnWords([0x43, 0x42, 0x45, 0x41, 0x44, 0x48, 0x4a]) } };
      const randao = '0x' + 'ab'.repeat(32);
      const bo = { number: '0x1234', time: '0x5678', gasLimit: '0x2faf080', feeRecipient: C3, prevRandao: randao, baseFeePerGas: '0x7', blobBaseFee: '0x9' };
      const r = await ok('eth_call', [{ from: C0, to: A, gasPrice: '0x7' }, 'latest', { ...overrides, [C0]: { balance: qty(10n ** 24n) } }, bo]);
      expect(r).to.equal('0x' + [word(0x1234), word(0x5678), word(50_000_000), addrWord(C3), randao, word(7), word(9)].map((w) => w.slice(2)).join(''));
      // geth: a call without fees runs with the base fee 0 (BASEFEE reads 0) even when overridden
      const free = await ok('eth_call', [{ from: C0, to: A }, 'latest', overrides, { baseFeePerGas: '0x7' }]);
      expect(free.slice(2 + 64 * 5, 2 + 64 * 6)).to.equal(word(0).slice(2));
      expect(BigInt(await ok('eth_estimateGas', [{ from: C0, to: A }, 'latest', overrides, bo])) > 21_000n).to.equal(true);
      let e = await err('eth_call', [{ from: C0, to: A }, 'latest', overrides, { beaconRoot: ZERO32 }]);
      expect(e).to.deep.equal({ code: -32000, message: 'block override "beaconRoot" is not supported for this RPC method' });
      e = await err('eth_call', [{ from: C0, to: A }, 'latest', overrides, { withdrawals: [] }]);
      expect(e).to.deep.equal({ code: -32000, message: 'block override "withdrawals" is not supported for this RPC method' });
    });
  });
});
