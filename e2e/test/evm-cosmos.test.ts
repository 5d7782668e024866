import { expect } from 'chai';
import { toBase64 } from '@cosmjs/encoding';
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { ProtoRegistry } from '@chain/codec';
import { TX_PROTO_DIR } from '@chain/tx';
import { EVM_PROTO_DIR, wrapEthereumTx, commonFor } from '@chain/evm';
import { DEV_MNEMONIC, derivePrivateKey, hdPath, secp256k1PublicKey, ethAddress, toChecksumAddress, toHex, toBech32 } from '@chain/crypto';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { getJson, postJson, WsSubscription, DENOM } from '../src/clients.js';

const GWEI = 1_000_000_000n;

describe('e2e: an Ethereum tx (MsgEthereumTx) through the Cosmos surfaces', function () {
  this.timeout(120_000);
  let node: NodeHandle;
  const registry = new ProtoRegistry();
  registry.addProtoDir(TX_PROTO_DIR);
  registry.addProtoDir(EVM_PROTO_DIR);

  before(async () => { node = await startNode(); });
  after(async () => { await node?.stop(); node?.cleanup(); });

  it('is executed by the EVM, found by message.action / message.module, and matches ethereum.recipient subscriptions', async () => {
    const priv = derivePrivateKey(DEV_MNEMONIC, hdPath(60, 6));
    const from = toBech32('chain', ethAddress(secp256k1PublicKey(priv)));
    const toBytes = ethAddress(secp256k1PublicKey(derivePrivateKey(DEV_MNEMONIC, hdPath(60, 7))));
    const toEip55 = toChecksumAddress(toBytes);
    const toBech = toBech32('chain', toBytes);
    const sub = await WsSubscription.open(node.wsUrl, `tm.event='Tx' AND ethereum.recipient='${toEip55}'`);
    const acc = await getJson(`${node.restUrl}/chain/auth/v1beta1/accounts/${from}`);
    const nonce = BigInt(acc.body.account.sequence);
    const before = BigInt((await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${toBech}/by_denom?denom=${DENOM}`)).body.balance.amount);

    const signed = createFeeMarket1559Tx({
      chainId: 1337n, nonce, to: `0x${toHex(toBytes)}`, value: 12345n, gasLimit: 21000n, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI, data: '0x',
    }, { common: commonFor(1337n) }).sign(priv).serialize();
    const wrapped = wrapEthereumTx(registry, signed, { chainId: 1337n, prefix: 'chain' });
    const r = await postJson(node.rpcUrl, { jsonrpc: '2.0', id: 1, method: 'broadcast_tx_sync', params: { tx: toBase64(wrapped.tx) } });
    expect(r.body.result.code, r.body.result.log).to.equal(0);
    const hash = r.body.result.hash as string;

    const ev = await sub.waitFor((e) => e.events['tx.hash']?.[0] === hash);
    expect(ev.events['ethereum.recipient']).to.deep.equal([toEip55]);
    expect(ev.events['message.action']).to.include('/chain.evm.v1.MsgEthereumTx');
    expect(ev.events['ethereum_tx.ethereumTxHash']).to.deep.equal([`0x${toHex(wrapped.ethHash)}`]);
    sub.close();

    const after = BigInt((await getJson(`${node.restUrl}/chain/bank/v1beta1/balances/${toBech}/by_denom?denom=${DENOM}`)).body.balance.amount);
    expect(after - before).to.equal(12345n);
    const seq = await getJson(`${node.restUrl}/chain/auth/v1beta1/accounts/${from}`);
    expect(BigInt(seq.body.account.sequence)).to.equal(nonce + 1n);

    for (const q of ["message.action='/chain.evm.v1.MsgEthereumTx'", "message.module='evm'", `ethereum.recipient='${toEip55}'`]) {
      const s = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs?events=${encodeURIComponent(q)}`);
      expect(s.status, q).to.equal(200);
      expect(s.body.tx_responses.map((t: any) => t.txhash), q).to.include(hash);
    }
  });
});
