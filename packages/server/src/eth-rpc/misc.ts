/** The `net`, `web3` and `txpool` namespaces. */
import { keccak256 } from '@chain/crypto';
import type { EthTxView as EthTx } from './adapter.js';
import { formatTx } from './format.js';
import type { Handler } from './types.js';
import { hex, parseData, qty } from './util.js';

export const netMethods: Record<string, Handler> = {
  net_version: (_p, { backend }) => backend.chainId.toString(),
  net_listening: () => true,
  // a single embedded validator: no p2p peers
  net_peerCount: () => '0x0',
};

export const web3Methods: Record<string, Handler> = {
  web3_clientVersion: (_p, { settings }) => settings.clientVersion,
  // geth semantics: keccak256 of the hex-decoded data (not of the string, as Ethermint does)
  web3_sha3: ([data]) => hex(keccak256(parseData(data))),
};

/** Mempool txs grouped by sender (lowercase 0x address) and nonce. */
function grouped(txs: EthTx[], f: (t: EthTx) => unknown): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const t of txs) {
    const from = hex(t.sender);
    (out[from] ??= {})[t.nonce.toString()] = f(t);
  }
  return out;
}

/** Every mempool tx has passed CheckTx with the exact next nonce, so all are `pending`; none are `queued`. */
export const txpoolMethods: Record<string, Handler> = {
  txpool_status: async (_p, { backend }) => ({ pending: qty((await backend.pendingTxs()).length), queued: '0x0' }),
  txpool_content: async (_p, { backend }) => ({ pending: grouped(await backend.pendingTxs(), (t) => formatTx(t, undefined)), queued: {} }),
  txpool_contentFrom: async ([addr], { backend }) => {
    const a = String(addr).toLowerCase();
    return { pending: grouped(await backend.pendingTxs(), (t) => formatTx(t, undefined))[a] ?? {}, queued: {} };
  },
  txpool_inspect: async (_p, { backend }) => ({
    pending: grouped(await backend.pendingTxs(), (t) =>
      `${t.to ? hex(t.to) : 'contract creation'}: ${t.value} wei + ${t.gasLimit} gas × ${t.gasFeeCap} wei`),
    queued: {},
  }),
};
