/**
 * Txs signed without an EIP-155 chain id (legacy, v = 27/28): refused by default (evm/12), accepted when
 * the evm param allow_unprotected_txs is true. The case that needs them: the keyless deployment of the
 * deterministic-deployment proxy (0x4e59b448..., used by CREATE2 deploy tools), replayed here byte for byte.
 */
import { expect } from 'chai';
import { keccak256, toBech32 } from '@chain/crypto';
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { createLegacyTx } from '@ethereumjs/tx';
import { bytesToHex, concatBytes, hexToBytes } from '@ethereumjs/util';
import { decodeEthTx, wrapEthereumTx } from '../src/index.js';
import { ETHER, ETH_CHAIN_ID, EvmTestChain, PREFIX, ethKey } from './helpers.js';

/** The proxy's published deployment tx (gas price 100 gwei, gas 100000, r = s = 0x22...22, v = 27). */
const PROXY_DEPLOY_TX = hexToBytes('0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222');
const PROXY_DEPLOYER = '0x3fab184622dc19b6109349b94811493bf2a45362';
const PROXY = '0x4e59b44847b379578588920ca78fbf26c0b4956c';

/** A legacy tx signed the pre-EIP-155 way (v = 27/28). */
function unprotectedTx(i: number, nonce: bigint): Uint8Array {
  const common = createCustomCommon({ chainId: Number(ETH_CHAIN_ID) }, Mainnet, { hardfork: Hardfork.Homestead });
  return createLegacyTx({ nonce, gasLimit: 21_000n, gasPrice: 10n ** 10n, to: ethKey(9).addr, value: 1n }, { common }).sign(ethKey(i).priv).serialize();
}

describe('unprotected (pre-EIP-155) transactions', () => {
  it('decodeEthTx refuses them unless allowed, also once one is cached', () => {
    const raw = unprotectedTx(3, 0n);
    expect(() => decodeEthTx(raw, ETH_CHAIN_ID)).to.throw(/without EIP-155 chain id/);
    const d = decodeEthTx(raw, ETH_CHAIN_ID, { allowUnprotected: true });
    expect(d.protected).to.equal(false);
    expect(bytesToHex(d.sender)).to.equal(bytesToHex(ethKey(3).addr));
    expect(() => decodeEthTx(raw, ETH_CHAIN_ID)).to.throw(/without EIP-155 chain id/);
    const p = decodeEthTx(hexToBytes(bytesToHex(PROXY_DEPLOY_TX)), ETH_CHAIN_ID, { allowUnprotected: true });
    expect(bytesToHex(p.sender)).to.equal(PROXY_DEPLOYER);
  });

  it('the chain refuses them by default (evm/12)', async () => {
    const chain = await EvmTestChain.create();
    try {
      const tx = wrapEthereumTx(chain.registry, unprotectedTx(3, 0n), { chainId: ETH_CHAIN_ID, prefix: PREFIX, allowUnprotected: true }).tx;
      const res = await chain.deliver(tx);
      expect({ codespace: res.codespace, code: res.code }).to.deep.equal({ codespace: 'evm', code: 12 });
      expect(chain.nonce(ethKey(3).addr)).to.equal(0n);
    } finally {
      await chain.close();
    }
  });

  it('with allow_unprotected_txs: the deterministic-deployment proxy deploys from its published tx and CREATE2s', async () => {
    const deployer = toBech32(PREFIX, hexToBytes(PROXY_DEPLOYER));
    const chain = await EvmTestChain.create({ evmParams: { allow_unprotected_txs: true }, balances: { [deployer]: ETHER } });
    try {
      const wrap = (raw: Uint8Array): Uint8Array => wrapEthereumTx(chain.registry, raw, { chainId: ETH_CHAIN_ID, prefix: PREFIX, allowUnprotected: true }).tx;
      const res = await chain.deliver(wrap(PROXY_DEPLOY_TX));
      expect(res.code, res.log).to.equal(0);
      const code = (await chain.query<{ code: Uint8Array }>('Code', { address: PROXY })).code;
      expect(code.length).to.be.above(0);
      // salt ++ init code (a contract returning the one-byte runtime 0x00) → CREATE2 address
      const salt = new Uint8Array(32).fill(7);
      const init = hexToBytes('0x6001600c60003960016000f300'); // CODECOPY(0, 12, 1), RETURN(0, 1): the runtime is the byte 0x00
      const expected = keccak256(concatBytes(hexToBytes('0xff'), hexToBytes(PROXY), salt, keccak256(init))).subarray(12);
      const call = await chain.call({ from: ethKey(0).hex, to: PROXY, data: concatBytes(salt, init), gas: 200_000n });
      expect(call.vm_error).to.equal('');
      expect(bytesToHex(call.ret)).to.equal(bytesToHex(expected));
      // an ordinary unprotected transfer is accepted too
      const t = await chain.deliver(wrap(unprotectedTx(3, 0n)));
      expect(t.code, t.log).to.equal(0);
      expect(chain.balance(ethKey(9).addr)).to.equal(1n);
    } finally {
      await chain.close();
    }
  });
});
