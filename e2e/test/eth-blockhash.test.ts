/**
 * BLOCKHASH and the Ethereum JSON-RPC agree: a contract's blockhash(n), read in a transaction and through
 * eth_call, is the hash eth_getBlockByNumber(n) serves (keccak256(RLP(header))), in both consensus modes (the
 * embedded engine and a real CometBFT), and still after a restart of the node (the hashes are consensus state
 * the evm module computes, not the node's own table). The served header's stateRoot is the CometBFT header's
 * app_hash and its extraData the CometBFT block hash.
 */
import { expect } from 'chai';
import { Contract, ContractFactory, JsonRpcProvider, Wallet, keccak256 } from 'ethers';
import { ensureCometbft } from '@chain/cometbft';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { postJson } from '../src/clients.js';
import { compileSolidity } from '../src/solidity.js';
import { headerHash } from '../src/eth-header.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract BlockHashes {
  event Parent(uint256 number, bytes32 hash);
  function range(uint256 from, uint256 to) external view returns (bytes32[] memory out) {
    out = new bytes32[](to - from + 1);
    for (uint256 n = from; n <= to; n++) out[n - from] = blockhash(n);
  }
  function record() external { emit Parent(block.number - 1, blockhash(block.number - 1)); }
}`;

for (const consensus of ['embedded', 'cometbft'] as const) {
  describe(`e2e: BLOCKHASH is the served Ethereum block hash (${consensus})`, function () {
    this.timeout(300_000);
    let node: NodeHandle;
    let provider: JsonRpcProvider;
    let wallet: Wallet;
    let contract: Contract;
    let id = 0;
    const rpc = async (method: string, params: unknown[] = []): Promise<any> => {
      const r = (await postJson(node.ethUrl, { jsonrpc: '2.0', id: ++id, method, params })).body;
      if (r.error) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
      return r.result;
    };
    const blockAt = async (n: number): Promise<Record<string, string>> => rpc('eth_getBlockByNumber', ['0x' + n.toString(16), false]);

    const connect = (): void => {
      provider?.destroy();
      provider = new JsonRpcProvider(node.ethUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
      provider.pollingInterval = 200;
      wallet = new Wallet(KEY0, provider);
    };

    /** blockhash(n) through eth_call of `range`, for n in [from, to], against eth_getBlockByNumber(n).hash */
    async function checkRange(from: number, to: number): Promise<void> {
      const got = await contract.getFunction('range')(from, to) as string[];
      expect(got).to.have.length(to - from + 1);
      for (let n = from; n <= to; n++) {
        const b = await blockAt(n);
        expect(got[n - from], `blockhash(${n})`).to.equal(b.hash);
        expect(headerHash(b), `header ${n}`).to.equal(b.hash);
      }
    }

    /** a tx reading blockhash(number - 1): the Parent log's hash is the served hash of the previous block */
    async function checkInTx(): Promise<number> {
      const rc = (await (await contract.getFunction('record')()).wait(1, 60_000))!;
      const log = contract.interface.parseLog(rc.logs[0]!)!;
      const n = Number(log.args[0]);
      expect(n).to.equal(rc.blockNumber - 1);
      expect(log.args[1]).to.equal((await blockAt(n)).hash);
      // and the block of the tx links to it
      expect((await blockAt(rc.blockNumber)).parentHash).to.equal(log.args[1]);
      return rc.blockNumber;
    }

    /** the served header's stateRoot and extraData against the CometBFT block */
    async function checkCometSide(n: number): Promise<void> {
      const b = await blockAt(n);
      const rb = (await (await fetch(`${node.rpcUrl}/block?height=${n}`)).json() as any).result;
      // the app hash the block started from (empty before the first commit: the zero hash)
      const appHash = rb.block.header.app_hash as string;
      expect(b.stateRoot).to.equal(appHash === '' ? '0x' + '00'.repeat(32) : '0x' + appHash.toLowerCase());
      expect(b.extraData).to.equal('0x' + rb.block_id.hash.toLowerCase());
      expect(b.miner).to.equal('0x' + rb.block.header.proposer_address.toLowerCase());
      expect(Number(b.timestamp)).to.equal(Math.floor(Date.parse(rb.block.header.time) / 1000));
    }

    before(async function () {
      if (consensus === 'cometbft') {
        this.timeout(20 * 60_000);
        await ensureCometbft({ log: (l) => process.stderr.write(`${l}\n`) });
      }
      node = await startNode({ consensus, timeoutCommit: '300ms', extraArgs: ['--json-rpc.enable', '--evm.rpc.api', 'eth,net,web3'] });
      connect();
      const c = compileSolidity(SOURCE).BlockHashes!;
      const deployed = await new ContractFactory(c.abi, c.bytecode, wallet).deploy();
      await deployed.waitForDeployment();
      contract = deployed as unknown as Contract;
    });

    after(async () => {
      provider?.destroy();
      await node?.stop();
      node?.cleanup();
    });

    let beforeRestart = 0;

    it('a tx and eth_call read blockhash(n) = eth_getBlockByNumber(n).hash; the header matches the CometBFT block', async () => {
      const txBlock = await checkInTx();
      const latest = Number(await rpc('eth_blockNumber'));
      await checkRange(Math.max(1, latest - 20), latest - 1);
      // the current block reads zero (eth_call at a block runs as that block; pinned, since with 300 ms blocks
      // another block may be committed between eth_blockNumber and the call)
      const cur = await contract.getFunction('range').staticCall(latest, latest, { blockTag: latest }) as string[];
      expect(cur[0]).to.equal('0x' + '00'.repeat(32));
      for (const n of [1, txBlock - 1, txBlock]) await checkCometSide(n);
      beforeRestart = txBlock;
    });

    it('after a restart: the same hashes for the blocks before it, and the blocks after it link to them', async () => {
      await node.stop();
      await node.restart();
      connect();
      contract = contract.connect(wallet) as Contract;
      const txBlock = await checkInTx();
      expect(txBlock).to.be.greaterThan(beforeRestart);
      const latest = Number(await rpc('eth_blockNumber'));
      await checkRange(Math.max(1, beforeRestart - 5), Math.min(txBlock, latest - 1));
      for (let n = beforeRestart; n <= txBlock; n++) {
        const b = await blockAt(n);
        expect(b.parentHash, `parent of ${n}`).to.equal((await blockAt(n - 1)).hash);
      }
      await checkCometSide(txBlock);
    });
  });
}
