/** SIGN_MODE_DIRECT transactions of the simulation's accounts (one signer, who also pays the fee). */
import type { Coin } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { sha256, signSecp256k1Digest } from '@chain/crypto';
import type { SimAccount, SimMsg } from './types.js';

export interface SignOptions {
  readonly chainId: string;
  readonly accountNumber: bigint;
  readonly sequence: bigint;
  readonly fee: readonly Coin[];
  readonly gas: bigint;
  readonly memo?: string;
}

/** A TxRaw carrying `msgs`, signed by `signer` over its account number and sequence. */
export function signTx(registry: ProtoRegistry, signer: SimAccount, msgs: readonly SimMsg[], o: SignOptions): Uint8Array {
  const bodyBytes = registry.encode('chain.tx.v1beta1.TxBody', {
    messages: msgs.map((m) => registry.packAny(m.type, m.value)),
    memo: o.memo ?? '',
    timeout_height: 0n,
  });
  const authInfoBytes = registry.encode('chain.tx.v1beta1.AuthInfo', {
    signer_infos: [{
      public_key: registry.packAny('chain.crypto.secp256k1.PubKey', { key: signer.pub }, '/cosmos.crypto.secp256k1.PubKey'),
      mode_info: { single: { mode: 1 } },
      sequence: o.sequence,
    }],
    fee: { amount: [...o.fee], gas_limit: o.gas, payer: '', granter: '' },
  });
  const doc = registry.encode('chain.tx.v1beta1.SignDoc', {
    body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, chain_id: o.chainId, account_number: o.accountNumber,
  });
  const signature = signSecp256k1Digest(signer.priv, sha256(doc));
  return registry.encode('chain.tx.v1beta1.TxRaw', { body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, signatures: [signature] });
}
