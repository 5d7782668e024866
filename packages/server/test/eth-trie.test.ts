/**
 * Ethereum trie roots of the JSON-RPC blocks (src/eth-rpc/trie.ts) against independent values: roots of
 * generated tries computed with @ethereumjs/mpt 10.1.3 (`MerklePatriciaTrie.put(RLP.encode(i), v)`), and roots
 * hardhat 2.29.1 reported for blocks with one tx (the same txs the e2e cross-check sends).
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { encodeReceipt, orderedTrieRoot, rlp, uintBytes } from '../src/eth-rpc/trie.js';

const hex = (b: Uint8Array): string => '0x' + Buffer.from(b).toString('hex');
const bytes = (h: string): Uint8Array => Buffer.from(h.replace(/^0x/, ''), 'hex');

describe('eth-rpc trie roots', () => {
  it('RLP of strings and nested lists', () => {
    expect(hex(rlp(new Uint8Array()))).to.equal('0x80');
    expect(hex(rlp(Uint8Array.of(0x7f)))).to.equal('0x7f');
    expect(hex(rlp(Uint8Array.of(0x80)))).to.equal('0x8180');
    expect(hex(rlp(new Uint8Array(56))).slice(0, 6)).to.equal('0xb838');
    expect(hex(rlp([]))).to.equal('0xc0');
    expect(hex(rlp([[], [[]], [[], [[]]]]))).to.equal('0xc7c0c1c0c3c0c1c0');
    expect(hex(uintBytes(0))).to.equal('0x');
    expect(hex(uintBytes(0x400))).to.equal('0x0400');
  });

  it('the empty trie and generated tries match @ethereumjs/mpt', () => {
    expect(hex(orderedTrieRoot([]))).to.equal('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
    // value i: the first 1 + (i % 40) bytes of sha256(String(i)); sizes cross the 1-byte / 2-byte key boundary at 128
    const value = (i: number): Uint8Array => createHash('sha256').update(String(i)).digest().subarray(0, 1 + (i % 40));
    const expected: Record<number, string> = {
      1: '0x75e97b0dda813591dad088b2d03e1479c938548d82679b9124bf3b8f3f6c9de4',
      3: '0x0f73e8d89e96281646ed259414ed8970d219dee3a62af4f20c8ce37044e14133',
      17: '0x9535d1a3b031e9d9423048373c096bf517f067dc7efba00e98ad4ab1347fa492',
      129: '0x451c9f760f4ecd4ea065662900c4b804a62d5da6cbd2cf48e37560e3f2d315c4',
      300: '0x99940ec4698526ff1a6ac31b9b89365af6871f41874438127e9f63d693abcbd5',
    };
    for (const [n, root] of Object.entries(expected)) {
      expect(hex(orderedTrieRoot(Array.from({ length: Number(n) }, (_, i) => value(i)))), `${n} items`).to.equal(root);
    }
  });

  it("a block's transactionsRoot and receiptsRoot as hardhat computes them", () => {
    // legacy tx: nonce 1, gasPrice 2 gwei, gas 21000, to 0x7099...79c8, value 5, EIP-155 v for chain 1337
    const legacy = rlp([uintBytes(1), uintBytes(2_000_000_000), uintBytes(21_000), bytes('0x70997970c51812dc3a010c7d01b50e0d17dc79c8'),
      uintBytes(5), new Uint8Array(), uintBytes(0xa95), bytes('0x9a63404b2c47bbd2584ce974df14efc95bb2bc362007ebf6864f304b0eaa6bff'),
      bytes('0x1cd2f60411876df13c79ffc81457ad9540b35bc2075a634182631ea623d23dca')]);
    expect(hex(orderedTrieRoot([legacy]))).to.equal('0xe8833985fd497e2e7c6c01e094f01c9cfe3f88c9a51d6a04af11818d603cb2b3');
    expect(hex(orderedTrieRoot([encodeReceipt(0, true, 21_000n, [])]))).to.equal('0x056b23fbba480696b65fe5a59b8f2148a1299103c4f57df839233af2cf4ca2d2');
    // an EIP-1559 ERC-20 deployment with its Transfer(0 → sender, 10^6) log
    const deploy = encodeReceipt(2, true, 0x393f4n, [{
      address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
      topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', '0x' + '00'.repeat(32),
        '0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266'],
      data: '0x00000000000000000000000000000000000000000000000000000000000f4240',
    }]);
    expect(hex(orderedTrieRoot([deploy]))).to.equal('0x1c2aed45a325964d932c34a453bc45170757744a3057d9fa559c69755708ced6');
    // a failed tx encodes status as the empty string
    expect(hex(encodeReceipt(0, false, 1n, [])).slice(0, 10)).to.equal('0xf9010680');
  });
});
