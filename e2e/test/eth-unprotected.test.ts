/**
 * A chain whose genesis sets the evm param allow_unprotected_txs: the deterministic-deployment proxy
 * (0x4e59b448..., what CREATE2 deploy tools expect) is deployed from its published pre-EIP-155 tx through
 * eth_sendRawTransaction, then used with ethers to deploy a contract at its CREATE2 address.
 * (The default, refusal over RPC, is checked in eth-jsonrpc.)
 */
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonRpcProvider, Wallet, concat, getCreate2Address, keccak256, parseEther, zeroPadValue } from 'ethers';
import { DEFAULT_EVM_PARAMS } from '@chain/evm';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devHome } from '../src/clients.js';

const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const PROXY_DEPLOY_TX = '0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222';
const PROXY_DEPLOYER = '0x3fab184622dc19b6109349b94811493bf2a45362';
const PROXY = '0x4e59b44847b379578588920ca78fbf26c0b4956c';

describe('e2e: unprotected txs allowed by the chain (deterministic-deployment proxy)', function () {
  this.timeout(60_000);
  let node: NodeHandle;
  let provider: JsonRpcProvider;

  before(async () => {
    const home = devHome();
    const file = join(home, 'config', 'genesis.json');
    const genesis = JSON.parse(readFileSync(file, 'utf8'));
    genesis.app_state.evm = {
      params: { ...DEFAULT_EVM_PARAMS, block_gas_limit: DEFAULT_EVM_PARAMS.block_gas_limit.toString(), allow_unprotected_txs: true },
      accounts: [], base_fee: '',
    };
    writeFileSync(file, JSON.stringify(genesis, null, 2));
    node = await startNode({ home });
    provider = new JsonRpcProvider(node.ethUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 200;
  });

  after(async () => {
    provider?.destroy();
    await node?.stop();
    node?.cleanup();
  });

  it('the chain reports the param over REST', async () => {
    const r = await (await fetch(`${node.restUrl}/chain/evm/v1/params`)).json() as any;
    expect(r.params.allow_unprotected_txs).to.equal(true);
  });

  it('deploys the proxy from its published tx, then CREATE2-deploys through it with ethers', async () => {
    const wallet = new Wallet(KEY0, provider);
    await (await wallet.sendTransaction({ to: PROXY_DEPLOYER, value: parseEther('0.1') })).wait();
    const tx = await provider.broadcastTransaction(PROXY_DEPLOY_TX);
    const receipt = await tx.wait();
    expect(receipt!.status).to.equal(1);
    expect(receipt!.from.toLowerCase()).to.equal(PROXY_DEPLOYER);
    expect(receipt!.contractAddress!.toLowerCase()).to.equal(PROXY);
    expect(await provider.getCode(PROXY)).to.not.equal('0x');
    // served as geth serves a pre-EIP-155 tx: no chainId, v = 27
    const fetched = await provider.send('eth_getTransactionByHash', [tx.hash]);
    expect(fetched).to.not.have.property('chainId');
    expect(fetched.v).to.equal('0x1b');
    expect(fetched.from).to.equal(PROXY_DEPLOYER);

    // CREATE2 through the proxy: a contract whose runtime is the single byte 0x00
    const salt = zeroPadValue('0x07', 32);
    const init = '0x6001600c60003960016000f300';
    const expected = getCreate2Address(PROXY, salt, keccak256(init));
    const deployed = await wallet.call({ to: PROXY, data: concat([salt, init]) });
    expect(deployed.toLowerCase()).to.equal(expected.toLowerCase());
    await (await wallet.sendTransaction({ to: PROXY, data: concat([salt, init]) })).wait();
    expect(await provider.getCode(expected)).to.equal('0x00');
  });
});
