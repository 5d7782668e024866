/**
 * eth_call / eth_estimateGas with an EIP-2930 access list, the 1559 fee fields and block overrides (the query
 * service's `access_list`, `max_fee_per_gas`, `max_priority_fee_per_gas`, `block_overrides`), and eth_simulateV1
 * (simulateV1 over the keeper): geth's semantics, nothing written.
 */
import { expect } from 'chai';
import { keccak256 } from '@chain/crypto';
import { simulateV1 } from '../src/index.js';
import type { SimulateRequest, SimulatedBlock } from '../src/index.js';
import { toChecksumAddress } from '@ethereumjs/util';
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

  it("eth_call with blob fields as geth (TestCall blobhash-opcode, invalid-blob-tx): BLOBHASH, BLOBBASEFEE 0 with a 0 fee cap, the blob checks", async () => {
    const h = '0x0122' + '00'.repeat(30);
    const overrides = (code: string) => JSON.stringify({ [A]: { code }, [C0]: { balance: '0xf4240' } });
    const r = await ethCall({ overrides: overrides('0x60004960005260206000f3'), blob_versioned_hashes: JSON.stringify([h]) });
    expect([r.vm_error, hex(r.ret)]).to.deep.equal(['', h]);
    // BLOBBASEFEE: 0 with a blob fee cap of 0 (given or defaulted), the block's (1) otherwise
    const fee = async (req: Record<string, unknown>) => BigInt(hex((await ethCall({ overrides: overrides(returnWords([0x4a])), ...req })).ret));
    expect(await fee({})).to.equal(1n);
    expect(await fee({ blob_versioned_hashes: JSON.stringify([h]) })).to.equal(0n);
    expect(await fee({ max_fee_per_blob_gas: '0' })).to.equal(0n);
    expect(await fee({ blob_versioned_hashes: JSON.stringify([h]), max_fee_per_blob_gas: '5' })).to.equal(1n);
    // a blob fee cap: blob gas × cap must be there, blob gas × blob base fee is paid (BALANCE after it)
    const bal = await ethCall({ overrides: JSON.stringify({ [A]: { code: '0x333160005260206000f3' }, [C0]: { balance: '0xf4240' } }), blob_versioned_hashes: JSON.stringify([h, h]), max_fee_per_blob_gas: '3' });
    expect(BigInt(hex(bal.ret))).to.equal(1_000_000n - 2n * 131072n);
    const failure = async (req: Record<string, unknown>): Promise<string> => {
      try { await ethCall({ overrides: overrides('0x00'), ...req }); } catch (e) { return String(e); }
      return '';
    };
    expect(await failure({ to: '', data: Uint8Array.of(0), blob_versioned_hashes: '[]' })).to.include('err: blob transaction of type create (supplied gas 100000)');
    expect(await failure({ blob_versioned_hashes: '[]' })).to.include('err: blob transaction missing blob hashes (supplied gas 100000)');
    expect(await failure({ blob_versioned_hashes: JSON.stringify(['0x00' + '11'.repeat(31)]) })).to.include('err: blob 0 has invalid hash version (supplied gas 100000)');
    expect(await failure({ blob_versioned_hashes: JSON.stringify([h]), max_fee_per_blob_gas: '10' })).to.include(`err: insufficient funds for gas * price + value: address ${toChecksumAddress(C0)} have 1000000 want 1310720 (supplied gas 100000)`);
    expect(await failure({ blob_versioned_hashes: JSON.stringify([h]), max_fee_per_blob_gas: '1', block_overrides: JSON.stringify({ blobBaseFee: '0x2' }) }))
      .to.include(`err: max fee per blob gas less than block blob gas fee: address ${toChecksumAddress(C0)} blobGasFeeCap: 1, blobBaseFee: 2 (supplied gas 100000)`);
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

    it("log indices as geth's simulation tracer counts them, without traceTransfers too: a dropped log keeps its index", async () => {
      const D = '0xd000000000000000000000000000000000000000';
      const E = '0xe000000000000000000000000000000000000000';
      // B: LOG0 then REVERT; A: CALL B (ignoring its failure), then LOG0; D: CALL B with 1 wei it does not have, then LOG0
      const logRevert = '0x60006000a060006000fd';
      const callThenLog = (value: number): string => '0x' + '6000600060006000' + '60' + value.toString(16).padStart(2, '0') + '73' + B.slice(2) + '5af150' + '60006000a0' + '00';
      const overrides = { [B]: { code: logRevert }, [A]: { code: callThenLog(0) }, [D]: { code: callThenLog(1) }, [E]: { code: logRevert } };
      for (const traceTransfers of [false, true]) {
        const { blocks } = await run({ blocks: [{ stateOverrides: overrides, calls: [{ from: C0, to: A }, { from: C0, to: E }, { from: C0, to: A }] }], validation: false, traceTransfers });
        const [c1, c2, c3] = blocks[0]!.calls;
        expect(c1!.logs, `traceTransfers ${traceTransfers}`).to.deep.equal([{ address: A, topics: [], data: '0x', logIndex: 1 }]);
        expect([c2!.status, c2!.logs]).to.deep.equal([0, []]);
        expect(c3!.logs).to.deep.equal([{ address: A, topics: [], data: '0x', logIndex: 4 }]);
        expect(c2!.error).to.deep.equal({ message: 'execution reverted', code: 3, data: '0x' });
      }
      // a value CALL the EVM refuses (no balance): geth captured (and dropped) its Transfer log, whose index is taken
      const withTransfers = await run({ blocks: [{ stateOverrides: overrides, calls: [{ from: C0, to: D }] }], validation: false, traceTransfers: true });
      expect(withTransfers.blocks[0]!.calls[0]!.logs).to.deep.equal([{ address: D, topics: [], data: '0x', logIndex: 1 }]);
      const without = await run({ blocks: [{ stateOverrides: overrides, calls: [{ from: C0, to: D }] }], validation: false, traceTransfers: false });
      expect(without.blocks[0]!.calls[0]!.logs).to.deep.equal([{ address: D, topics: [], data: '0x', logIndex: 0 }]);
    });

    it('movePrecompileToAddress (geth TestSimulateV1 precompile-move): sha256 runs at the new address, code at 0x02; each block starts from the defaults', async () => {
      const SHA256 = '0x0000000000000000000000000000000000000002';
      const R2 = '0x00000000000000000000000000000000000000f2';
      const input = Buffer.from('00'.repeat(31) + '01', 'hex');
      const { blocks } = await run({
        blocks: [
          {
            // Yul code returning the calldata at 0x02, its precompile moved to R2
            stateOverrides: { [SHA256]: { code: '0x365981600082378181f3', movePrecompileToAddress: R2 } },
            calls: [{ from: C0, to: R2, input }, { from: C0, to: SHA256, input }],
          },
          // the next block: sha256 is back at 0x02 (its code override stays in the state but the precompile runs), R2 is empty
          { calls: [{ from: C0, to: SHA256, input }, { from: C0, to: R2, input }] },
        ],
        validation: false, traceTransfers: false,
      });
      const [m1, m2] = blocks[0]!.calls;
      // geth's expected results (its test chain predates Prague: gas 0x52dc and 0x52b0); at Prague both pay the
      // EIP-7623 calldata floor, 21000 + 10 × (31 + 4 × 1) = 21350, which is also their maxUsedGas
      expect([hex(m1!.returnData), m1!.gasUsed, m1!.maxUsedGas, m1!.status]).to.deep.equal(['0xec4916dd28fc4c10d78e287ca5d9cc51ee1ae73cbfde08c6b37324cbfaac8bc5', 21350n, 21350n, 1]);
      expect([hex(m2!.returnData), m2!.gasUsed, m2!.maxUsedGas, m2!.status]).to.deep.equal(['0x' + '00'.repeat(31) + '01', 21350n, 21350n, 1]);
      const [n1, n2] = blocks[1]!.calls;
      expect(hex(n1!.returnData)).to.equal('0xec4916dd28fc4c10d78e287ca5d9cc51ee1ae73cbfde08c6b37324cbfaac8bc5');
      expect(hex(n2!.returnData)).to.equal('0x');
      // geth's errors of StateOverride.Apply (plain: -32000)
      expect(await code(run({ blocks: [{ stateOverrides: { [A]: { movePrecompileToAddress: R2 } }, calls: [] }], validation: false, traceTransfers: false })))
        .to.include({ rpcCode: -32000, message: `account ${toChecksumAddress(A)} is not a precompile` });
      expect(await code(run({ blocks: [{ stateOverrides: { [SHA256]: { movePrecompileToAddress: A }, [A]: { balance: '0x1' } }, calls: [] }], validation: false, traceTransfers: false })))
        .to.include({ rpcCode: -32000, message: `account ${toChecksumAddress(A)} is already overridden` });
    });

    it('blob calls (blobVersionedHashes, maxFeePerBlobGas) as geth: a type-3 tx, BLOBHASH, blob gas and its fee, excess blob gas; its errors', async () => {
      const h1 = '0x0122' + '00'.repeat(30);
      const h2 = '0x01' + 'ab'.repeat(31);
      // A returns BLOBHASH(0) and BLOBHASH(1) (geth's blobhash-opcode test: 60004960005260206000f3, and index 1); B returns the caller's balance
      const overrides = { [A]: { code: '0x600049600052600149602052604060' + '00f3' }, [B]: { code: '0x333160005260206000f3' }, [C0]: { balance: '0xf4240' } };
      const { blocks } = await run({
        blocks: [{ stateOverrides: overrides, calls: [{ from: C0, to: A, blobVersionedHashes: [h1, h2] }, { from: C0, to: B }] }],
        validation: false, traceTransfers: false,
      });
      const b = blocks[0]!;
      const [c1, c2] = b.calls;
      expect(hex(c1!.returnData)).to.equal(h1 + h2.slice(2));
      // the blob fee at the blob base fee (1: no excess) is taken, not refunded: 2 × 131072
      expect(BigInt(hex(c2!.returnData))).to.equal(1_000_000n - 2n * 131072n);
      expect([b.blobGasUsed, b.excessBlobGas]).to.deep.equal([262144n, 0n]);
      expect(b.txs[0]).to.deep.include({ type: 3, maxFeePerBlobGas: 0n, blobVersionedHashes: [h1, h2] });
      expect(b.txs[1]!.type).to.equal(2);
      // 40 blobs leave an excess of 40 × 131072 − 6 × 131072 to the next block, whose blob base fee (BLOBBASEFEE) grows to 2
      const many = Array.from({ length: 40 }, () => h1);
      const next = await run({
        blocks: [
          { stateOverrides: { ...overrides, [C0]: { balance: '0x' + (10n ** 18n).toString(16) } }, calls: [{ from: C0, to: A, blobVersionedHashes: many }] },
          { stateOverrides: { [B]: { code: '0x4a60005260206000f3' } }, calls: [{ from: C0, to: B }] },
        ],
        validation: false, traceTransfers: false,
      });
      expect(next.blocks[1]!.excessBlobGas).to.equal(34n * 131072n);
      expect(BigInt(hex(next.blocks[1]!.calls[0]!.returnData))).to.equal(2n);
      // geth's checks (-32603, as its txValidationError answers them)
      const fail = (call: Record<string, unknown>, validation = false) => code(run({ blocks: [{ stateOverrides: overrides, blockOverrides: { baseFeePerGas: '0x0' }, calls: [{ from: C0, gas: 100_000n, ...call }] }], validation, traceTransfers: false }));
      expect(await fail({ blobVersionedHashes: [h1] })).to.include({ rpcCode: -32603, message: 'err: blob transaction of type create (supplied gas 100000)' });
      expect(await fail({ to: A, blobVersionedHashes: [] })).to.include({ rpcCode: -32603, message: 'err: blob transaction missing blob hashes (supplied gas 100000)' });
      expect(await fail({ to: A, blobVersionedHashes: [h1, '0x02' + '00'.repeat(31)] })).to.include({ rpcCode: -32603, message: 'err: blob 1 has invalid hash version (supplied gas 100000)' });
      expect(await fail({ to: A, blobVersionedHashes: [h1], nonce: 0n }, true)).to.include({
        rpcCode: -32603, message: `err: max fee per blob gas less than block blob gas fee: address ${toChecksumAddress(C0)} blobGasFeeCap: 0, blobBaseFee: 1 (supplied gas 100000)`,
      });
      // EIP-3860 (geth: -38025)
      expect(await fail({ input: new Uint8Array(49153) })).to.include({ rpcCode: -38025, message: 'err: max initcode size exceeded: code size 49153 limit 49152 (supplied gas 100000)' });
      // the fee cap is checked in the balance: gas × fee cap + value + blob gas × blob fee cap
      expect(await fail({ to: A, blobVersionedHashes: [h1], maxFeePerBlobGas: 10n })).to.include({
        rpcCode: -38014, message: `err: insufficient funds for gas * price + value: address ${toChecksumAddress(C0)} have 1000000 want 1310720 (supplied gas 100000)`,
      });
    });

    it("geth's VM error messages in call results: invalid opcode, stack underflow, invalid jump, write protection; out of gas with the capped-gas note", async () => {
      const cases: [string, string][] = [
        ['0xfe', 'invalid opcode: INVALID'],
        ['0x0c', 'invalid opcode: opcode 0xc not defined'],
        ['0x1e', 'invalid opcode: CLZ'],
        ['0x6001' + '01', 'stack underflow (1 <=> 2)'],
        ['0x600356', 'invalid jump destination'],
        // an endless loop (JUMPDEST, PUSH1 0, JUMP) runs out of the call's 100000 gas
        ['0x5b600056', 'out of gas'],
        ['0x' + '5f'.repeat(1025), 'stack limit reached 1024 (1023)'],
        ['0x60016000a1', 'stack underflow (2 <=> 3)'],
        ['0x6001a1', 'stack underflow (1 <=> 3)'],
        ['0x600060006000a2', 'stack underflow (3 <=> 4)'],
        ['0x60003e', 'stack underflow (1 <=> 3)'],
        ['0x6001600060003e', 'return data out of bounds'],
      ];
      for (const [code_, message] of cases) {
        const { blocks } = await run({ blocks: [{ stateOverrides: { [A]: { code: code_ } }, calls: [{ from: C0, to: A, gas: 100_000n }] }], validation: false, traceTransfers: false });
        const c = blocks[0]!.calls[0]!;
        expect([c.status, c.error], code_).to.deep.equal([0, { message, code: -32015 }]);
      }
      // write protection: a STATICCALL whose callee SSTOREs fails the callee (the caller gets 0 and returns it)
      const { blocks } = await run({
        blocks: [{ stateOverrides: { [B]: { code: '0x600160005500' }, [A]: { code: '0x6000600060006000' + '73' + B.slice(2) + '5afa' + '60005260206000f3' } }, calls: [{ from: C0, to: A }] }],
        validation: false, traceTransfers: false,
      });
      expect(hex(blocks[0]!.calls[0]!.returnData)).to.equal(word(0));
      // the gas capped by the node's gas cap (25M) is named in the error of a call that runs out of it
      const capped = await run({ blocks: [{ blockOverrides: { gasLimit: '0x3b9aca00' }, stateOverrides: { [A]: { code: '0x63ffffffff51' } }, calls: [{ from: C0, to: A, gas: 30_000_000n }] }], validation: false, traceTransfers: false });
      expect(capped.blocks[0]!.calls[0]!.error).to.deep.equal({ message: "out of gas (gas limit was capped by the RPC server's global gas cap)", code: -32015 });
    });
  });
});
