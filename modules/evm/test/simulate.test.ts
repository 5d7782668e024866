/**
 * eth_call / eth_estimateGas with an EIP-2930 access list, the 1559 fee fields and block overrides (the query
 * service's `access_list`, `max_fee_per_gas`, `max_priority_fee_per_gas`, `block_overrides`), and eth_simulateV1
 * (simulateV1 over the keeper): geth's semantics, nothing written.
 */
import { expect } from 'chai';
import { keccak256 } from '@chain/crypto';
import { simulateV1 } from '../src/index.js';
import type { SimulateRequest, SimulatedBlock } from '../src/index.js';
import { EvmTestChain } from './helpers.js';

const C0 = '0xc000000000000000000000000000000000000000';
const C1 = '0xc100000000000000000000000000000000000000';
const C2 = '0xc200000000000000000000000000000000000000';
const A = '0xa000000000000000000000000000000000000000';
const B = '0xb000000000000000000000000000000000000000';
const hex = (b: Uint8Array): string => '0x' + Buffer.from(b).toString('hex');
const word = (n: bigint | number): string => '0x' + BigInt(n).toString(16).padStart(64, '0');

/** Code returning, as words, what the one-byte opcodes push. */
function returnWords(ops: number[]): string {
  let code = '';
  ops.forEach((op, i) => { code += op.toString(16).padStart(2, '0') + '60' + (i * 32).toString(16).padStart(2, '0') + '52'; });
  return '0x' + code + '60' + (ops.length * 32).toString(16).padStart(2, '0') + '5ff3';
}

describe('evm: access lists, fees and block overrides on eth_call; eth_simulateV1', function () {
  this.timeout(60_000);
  let chain: EvmTestChain;

  before(async () => { chain = await EvmTestChain.create(); });
  after(async () => { await chain?.close(); });

  const ethCall = (req: Record<string, unknown>) => chain.query<{ ret: Uint8Array; vm_error: string }>('EthCall', {
    from: C0, to: A, data: new Uint8Array(), value: '', gas: 100_000n, gas_price: '', ...req,
  });

  it('eth_call / eth_estimateGas: the access list warms its addresses and costs 2400 per address, 1900 per key', async () => {
    // PUSH20 B EXTCODESIZE POP GAS PUSH0 MSTORE PUSH1 32 PUSH0 RETURN
    const overrides = JSON.stringify({ [A]: { code: '0x73' + B.slice(2) + '3b505a5f5260205ff3' } });
    const without = BigInt(hex((await ethCall({ overrides })).ret));
    const withList = BigInt(hex((await ethCall({ overrides, access_list: JSON.stringify([{ address: B, storageKeys: [] }]) })).ret));
    expect(withList - without).to.equal(100n);
    const withKey = BigInt(hex((await ethCall({ overrides, access_list: JSON.stringify([{ address: B, storageKeys: [word(1)] }]) })).ret));
    expect(withList - withKey).to.equal(1900n);
    const est = (access_list: string) => chain.query<{ gas: bigint; vm_error: string }>('EstimateGas', {
      from: C0, to: A, data: new Uint8Array(), value: '', gas: 0n, gas_price: '', overrides, access_list,
    });
    expect((await est('')).gas).to.equal(23_620n);
    expect((await est(JSON.stringify([{ address: B, storageKeys: [] }]))).gas).to.equal(23_520n);
  });

  it('eth_call: the 1559 fields price the call (GASPRICE), a call without fees sees BASEFEE 0; fee checks', async () => {
    const overrides = JSON.stringify({ [A]: { code: returnWords([0x3a, 0x48]) }, [C0]: { balance: '0xffffffffffffffffffff' } });
    const baseFee = chain.baseFee();
    expect(hex((await ethCall({ overrides })).ret)).to.equal(word(0) + word(0).slice(2));
    const r = await ethCall({ overrides, max_fee_per_gas: (baseFee + 10n).toString(), max_priority_fee_per_gas: '3' });
    expect(hex(r.ret)).to.equal(word(baseFee + 3n) + word(baseFee).slice(2));
    let e = await ethCall({ overrides, gas_price: '1', max_fee_per_gas: '1' }).catch((x: Error) => x);
    expect(String(e)).to.match(/both gasPrice and \(maxFeePerGas or maxPriorityFeePerGas\) specified/);
    e = await ethCall({ overrides, max_fee_per_gas: '1', max_priority_fee_per_gas: '2' }).catch((x: Error) => x);
    expect(String(e)).to.match(/err: max priority fee per gas higher than max fee per gas: address 0xC000000000000000000000000000000000000000, maxPriorityFeePerGas: 2, maxFeePerGas: 1 \(supplied gas 100000\)/);
    // geth buys the gas: gas × max fee must be there
    e = await ethCall({ overrides: JSON.stringify({ [A]: { code: returnWords([0x3a]) } }), gas_price: (baseFee + 1n).toString() }).catch((x: Error) => x);
    expect(String(e)).to.match(/err: insufficient funds for gas \* price \+ value: address 0xC000000000000000000000000000000000000000 have 0 want \d+ \(supplied gas 100000\)/);
  });

  it('eth_call: block overrides (number, time, gas limit, fee recipient, prevRandao, base fee, blob base fee); beaconRoot refused', async () => {
    const overrides = JSON.stringify({ [A]: { code: returnWords([0x43, 0x42, 0x45, 0x41, 0x44, 0x48, 0x4a]) }, [C0]: { balance: '0xffffffffffffffffffff' } });
    const randao = '0x' + 'ab'.repeat(32);
    const block_overrides = JSON.stringify({ number: '0x1234', time: '0x5678', gasLimit: '0x2faf080', feeRecipient: C1, prevRandao: randao, baseFeePerGas: '0x7', blobBaseFee: '0x9' });
    const r = await ethCall({ overrides, block_overrides, gas_price: '7' });
    expect(hex(r.ret)).to.equal('0x' + [word(0x1234), word(0x5678), word(50_000_000), word(BigInt(C1)), randao, word(7), word(9)].map((w) => w.slice(2)).join(''));
    const e = await ethCall({ overrides, block_overrides: JSON.stringify({ beaconRoot: word(0) }) }).catch((x: Error) => x);
    expect(String(e)).to.match(/block override "beaconRoot" is not supported for this RPC method/);
  });

  describe('simulateV1', function () {
    const base = () => ({ number: BigInt(chain.ctx().block.height), hash: word(1), timestamp: 1000n, gasLimit: 30_000_000n, miner: '0x' + '07'.repeat(20) });
    const run = async (req: Omit<SimulateRequest, 'base'> & { base?: SimulateRequest['base'] }): Promise<{ blocks: SimulatedBlock[]; sealed: SimulatedBlock[] }> => {
      const sealed: SimulatedBlock[] = [];
      const blocks = await chain.app.atHeight(undefined, (q) => simulateV1(chain.evm, q, { base: base(), ...req }, (b) => {
        sealed.push(b);
        return hex(keccak256(Buffer.from(`block ${b.number}`)));
      }));
      return { blocks, sealed };
    };
    const code = async (p: Promise<unknown>): Promise<{ rpcCode: number; message: string }> => {
      try { await p; } catch (e) { return e as { rpcCode: number; message: string }; }
      throw new Error('expected a failure');
    };

    it('transfers over two blocks with a balance override; nonces increase; state carries; nothing is written', async () => {
      const { blocks, sealed } = await run({
        blocks: [
          { stateOverrides: { [C0]: { balance: '0x1388' } }, calls: [{ from: C0, to: C1, value: 2000n }, { from: C0, to: C1, value: 1000n }] },
          { calls: [{ from: C1, to: C2, value: 3000n }, { from: C0, to: A }] },
        ],
        validation: false, traceTransfers: false,
      });
      expect(sealed).to.deep.equal(blocks);
      expect(blocks.map((b) => [b.number, b.timestamp, b.gasUsed, b.baseFee])).to.deep.equal([
        [base().number + 1n, 1012n, 42_000n, 0n], [base().number + 2n, 1024n, 42_000n, 0n],
      ]);
      expect(blocks[1]!.parentHash).to.equal(hex(keccak256(Buffer.from(`block ${base().number + 1n}`))));
      expect(blocks[0]!.txs.map((t) => t.nonce)).to.deep.equal([0n, 1n]);
      expect(blocks[1]!.txs[1]!.nonce).to.equal(2n);
      expect(blocks.flatMap((b) => b.calls.map((c) => [c.status, c.gasUsed]))).to.deep.equal([[1, 21_000n], [1, 21_000n], [1, 21_000n], [1, 21_000n]]);
      expect(chain.bk.getBalance(chain.ctx(), Buffer.from(C0.slice(2), 'hex'), 'achain')).to.equal(0n);
    });

    it("geth's errors: order (-38020, -38021), funds (-38014), nonce with validation (-38010), the block's gas (-38015), limits (-38026)", async () => {
      const n = base().number;
      expect(await code(run({ blocks: [{ blockOverrides: { number: '0x' + (n + 2n).toString(16) }, calls: [] }, { blockOverrides: { number: '0x' + (n + 1n).toString(16) }, calls: [] }], validation: false, traceTransfers: false })))
        .to.include({ rpcCode: -38020, message: `block numbers must be in order: ${n + 1n} <= ${n + 2n}` });
      expect(await code(run({ blocks: [{ blockOverrides: { time: '0x3e8' }, calls: [] }], validation: false, traceTransfers: false })))
        .to.include({ rpcCode: -38021, message: 'block timestamps must be in order: 1000 <= 1000' });
      expect(await code(run({ blocks: [{ calls: [{ from: C0, to: C1, value: 1000n }] }], validation: false, traceTransfers: false })))
        .to.include({ rpcCode: -38014, message: 'err: insufficient funds for gas * price + value: address 0xC000000000000000000000000000000000000000 have 0 want 1000 (supplied gas 25000000)' });
      expect(await code(run({ blocks: [{ stateOverrides: { [C0]: { nonce: '0xa' } }, blockOverrides: { baseFeePerGas: '0x0' }, calls: [{ from: C0, to: C1, nonce: 0n }] }], validation: true, traceTransfers: false })))
        .to.include({ rpcCode: -38010, message: 'err: nonce too low: address 0xC000000000000000000000000000000000000000, tx: 0 state: 10 (supplied gas 25000000)' });
      expect(await code(run({ blocks: [{ blockOverrides: { gasLimit: '0x5208' }, calls: [{ from: C0, to: C1 }, { from: C0, to: C1, gas: 21_000n }] }], validation: false, traceTransfers: false })))
        .to.include({ rpcCode: -38015, message: 'block gas limit reached: remaining: 0, required: 21000' });
      expect(await code(run({ blocks: Array.from({ length: 257 }, () => ({ calls: [] })), validation: false, traceTransfers: false })))
        .to.include({ rpcCode: -38026, message: 'too many blocks' });
    });

    it('traceTransfers: the ERC-7528 Transfer log of the value, block-wide log indices; a revert has none', async () => {
      const { blocks } = await run({
        blocks: [{
          stateOverrides: { [C0]: { balance: '0x1388' }, [A]: { code: '0x5f5ffd' } },
          calls: [{ from: C0, to: C1, value: 1000n }, { from: C0, to: C2, value: 1000n }, { from: C0, to: A, value: 1n }],
        }],
        validation: false, traceTransfers: true,
      });
      const [c1, c2, c3] = blocks[0]!.calls;
      expect(c1!.logs).to.deep.equal([{
        address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
        topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', word(BigInt(C0)), word(BigInt(C1))],
        data: word(1000), logIndex: 0, transfer: true,
      }]);
      expect(c2!.logs.map((l) => l.logIndex)).to.deep.equal([1]);
      expect([c3!.status, c3!.logs, c3!.error]).to.deep.equal([0, [], { message: 'execution reverted', code: 3, data: '0x' }]);
    });
  });
});
