/**
 * BLOCKHASH reads the block hashes the evm module keeps in state (a ring of 8191 blocks, like EIP-2935's
 * history contract): at each block's end the module computes the block's Ethereum header from consensus data
 * (parent hash from the ring, the app hash the block starts from, the roots of its Ethereum txs and receipts,
 * the CometBFT hash as extraData, ...), keeps keccak256(RLP(header)) in the ring and emits the header as
 * `ethereum_block`, which the JSON-RPC serves. So a contract's blockhash(n) is the hash eth_getBlockByNumber(n)
 * serves, and no node ever reads its block store to execute a block.
 */
import { expect } from 'chai';
import type { FinalizeBlockResponse } from '@chain/app';
import { blockHashOf } from '@chain/testing';
import { ethStateRoot, keccak256, orderedTrieRoot, toHex } from '@chain/crypto';
import { RLP } from '@ethereumjs/rlp';
import { generateAddress, bigIntToBytes } from '@ethereumjs/util';
import { EvmTestChain, ethKey, eventsOf, attrValues, signEthTx } from './helpers.js';

/** Init code returning blockhash(n) as the "deployed code": eth_call with no `to` returns it. */
function blockhashInitCode(n: number): Uint8Array {
  // PUSH2 n, BLOCKHASH, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN
  return Uint8Array.of(0x61, (n >> 8) & 0xff, n & 0xff, 0x40, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3);
}

/** A contract whose every call logs (LOG0) blockhash(block.number - 1). */
const LOG_PARENT_HASH_RUNTIME = Uint8Array.of(0x60, 0x01, 0x43, 0x03, 0x40, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xa0, 0x00);
const LOG_PARENT_HASH_INIT = Uint8Array.of(0x60, LOG_PARENT_HASH_RUNTIME.length, 0x80, 0x60, 0x0b, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3, ...LOG_PARENT_HASH_RUNTIME);

const hx = (b: Uint8Array): string => '0x' + toHex(b);
const unhex = (h: string): Uint8Array => Buffer.from(h.slice(2), 'hex');
/** RLP of a quantity as geth writes it: big-endian without leading zeros */
const q = (v: string | bigint): Uint8Array => (BigInt(v) === 0n ? new Uint8Array() : bigIntToBytes(BigInt(v)));

/** keccak256(RLP(header)) of an `ethereum_block` event and its bloom, encoded here with @ethereumjs/rlp (geth's field order). */
function independentHash(h: Record<string, string>, bloom: string): string {
  const ZERO = new Uint8Array(32);
  const fields = [
    unhex(h.parent_hash!), unhex('0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347'), unhex(h.miner!), unhex(h.state_root!),
    unhex(h.transactions_root!), unhex(h.receipts_root!), unhex(bloom), q(0n), q(h.number!), q(h.gas_limit!), q(h.gas_used!), q(h.timestamp!),
    unhex(h.extra_data!), ZERO, new Uint8Array(8), q(h.base_fee!),
    unhex('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'), q(0n), q(0n), ZERO,
    unhex('0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'),
  ];
  return hx(keccak256(RLP.encode(fields)));
}

describe('evm: the Ethereum header of each block, and BLOCKHASH from state', () => {
  let chain: EvmTestChain;
  /** per height: the block's ethereum_block attributes, its bloom, and the app hash it started from */
  const blocks = new Map<number, { header: Record<string, string>; bloom: string; startAppHash: Uint8Array; res: FinalizeBlockResponse }>();
  const key = ethKey(0);
  let logger: Uint8Array;

  async function block(txs: Uint8Array[] = []): Promise<FinalizeBlockResponse> {
    const startAppHash = chain.app.lastAppHash;
    const res = await chain.block(txs);
    const [header] = eventsOf(res.events, 'ethereum_block');
    blocks.set(chain.app.lastHeight, { header: header!, bloom: attrValues(res.events, 'block_bloom', 'bloom')[0]!, startAppHash, res });
    return res;
  }

  before(async () => {
    chain = await EvmTestChain.create();
    for (let i = 0; i < 3; i++) await block();
    const nonce = chain.nonce(key.addr);
    logger = generateAddress(key.addr, bigIntToBytes(nonce));
    await block([chain.ethTx(key, { data: LOG_PARENT_HASH_INIT, gasLimit: 200_000n })]);
  });

  after(async () => {
    await chain.close();
  });

  it('emits each block\'s header and keeps keccak256(RLP(header)) in the ring; parent hashes link the blocks', () => {
    const latest = chain.app.lastHeight;
    expect(latest).to.equal(5);
    for (let h = 2; h <= latest; h++) {
      const { header, bloom, startAppHash } = blocks.get(h)!;
      expect(header.number).to.equal(String(h));
      expect(independentHash(header, bloom), `block ${h}`).to.equal(header.hash);
      expect(hx(chain.evm.blockHashAt(chain.ctx(), BigInt(h))!)).to.equal(header.hash);
      // stateRoot: the app hash the block started from (its CometBFT header's app_hash); extraData: the CometBFT hash
      expect(header.state_root).to.equal(ethStateRoot(startAppHash));
      expect(header.state_root).to.not.equal('0x' + '00'.repeat(32));
      expect(header.extra_data).to.equal(hx(blockHashOf(h)));
      expect(header.miner).to.equal(hx(new Uint8Array(20).fill(7)));
      expect(header.gas_limit).to.equal('30000000');
      if (h > 2) expect(header.parent_hash).to.equal(blocks.get(h - 1)!.header.hash);
    }
  });

  it('a block with an Ethereum tx: its tx and receipt roots, gas used and bloom', () => {
    const { header, res } = blocks.get(5)!;
    const [etx] = eventsOf(res.txResults[0]!.events, 'ethereum_tx');
    const gasUsed = BigInt(etx!.txGasUsed!);
    expect(BigInt(header.gas_used!)).to.equal(gasUsed);
    const raw = signEthTx(key, { nonce: 0n, data: LOG_PARENT_HASH_INIT, gasLimit: 200_000n });
    expect(header.transactions_root).to.equal(hx(orderedTrieRoot([raw])));
    // the 1559 receipt (type 2): status 1, cumulative gas, empty bloom, no logs (the constructor logs nothing)
    const receipt = Uint8Array.of(2, ...RLP.encode([Uint8Array.of(1), q(gasUsed), new Uint8Array(256), []]));
    expect(header.receipts_root).to.equal(hx(orderedTrieRoot([receipt])));
    expect(header.transactions_root).to.not.equal(blocks.get(4)!.header.transactions_root);
  });

  it('a tx reads blockhash(number - 1): the previous block\'s header hash', async () => {
    const res = await block([chain.ethTx(key, { to: logger, gasLimit: 100_000n })]);
    const [log] = attrValues(res.txResults[0]!.events, 'tx_log', 'txLog').map((s) => JSON.parse(s) as { data: string });
    expect(log!.data).to.equal(blocks.get(5)!.header.hash);
    // and its receipt (with that log) is in the receipts root the header commits to
    const { header, bloom } = blocks.get(6)!;
    expect(bloom).to.not.match(/^0x0+$/);
    expect(independentHash(header, bloom)).to.equal(header.hash);
  });

  it('eth_call: blockhash(n) of every earlier block is its header hash; zero for the current and future blocks', async () => {
    const latest = chain.app.lastHeight;
    for (let h = 2; h < latest; h++) {
      const { ret } = await chain.call({ data: blockhashInitCode(h) });
      expect(hx(ret), `blockhash(${h})`).to.equal(blocks.get(h)!.header.hash);
    }
    // eth_call runs in the context of the latest block (as geth): its own hash is not yet BLOCKHASH's
    for (const n of [0, latest, latest + 1, 4000]) {
      const { ret } = await chain.call({ data: blockhashInitCode(n) });
      expect(toHex(ret), `blockhash(${n})`).to.equal('00'.repeat(32));
    }
  });

  it('keeps only the last 8191 hashes: a slot reused by a later block no longer answers for the older one', () => {
    const { ctx } = chain.base.branchCtx();
    chain.evm.recordBlockHash(ctx, 8191 + 3, new Uint8Array(32).fill(9));
    expect(chain.evm.blockHashAt(ctx, 3n)).to.equal(undefined);
    expect(toHex(chain.evm.blockHashAt(ctx, 8194n)!)).to.equal('09'.repeat(32));
  });
});
