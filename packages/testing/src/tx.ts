/**
 * SIGN_MODE_DIRECT transactions, built flexibly enough to produce every broken tx an ante handler must
 * reject (missing public keys, foreign chain ids, replaced signatures, extra signer infos).
 */
import type { Coin } from '@chain/app';
import type { AnyMsg, ProtoRegistry } from '@chain/codec';
import { keccak256, sha256, signSecp256k1Digest } from '@chain/crypto';
import type { DevKey } from './keys.js';

export interface TxSigner {
  readonly key: DevKey;
  readonly accountNumber: bigint;
  readonly sequence: bigint;
  /** public key put in the signer info; defaults to the key's own, null leaves it out */
  readonly pubKey?: AnyMsg | null;
  /** sign mode (1 = DIRECT) */
  readonly mode?: number;
  /** chain id the signature is made for (default: the tx options' chain id) */
  readonly chainId?: string;
}

export interface TxOptions {
  readonly chainId: string;
  readonly memo?: string;
  /** default: 100 of `denom` */
  readonly fee?: Coin[];
  readonly denom?: string;
  readonly gas?: bigint;
  readonly payer?: string;
  readonly granter?: string;
  readonly timeoutHeight?: bigint;
  /** replaces the real signatures */
  readonly signatures?: Uint8Array[];
  /** signer infos beyond the real ones (to produce count mismatches) */
  readonly extraSignerInfos?: number;
}

/** The `Any` of a dev key's public key, in the spelling cosmjs (or Ethermint) sends. */
export function pubKeyAny(registry: ProtoRegistry, key: DevKey): AnyMsg {
  return key.eth
    ? registry.packAny('chain.crypto.ethsecp256k1.PubKey', { key: key.pub }, '/ethermint.crypto.v1.ethsecp256k1.PubKey')
    : registry.packAny('chain.crypto.secp256k1.PubKey', { key: key.pub }, '/cosmos.crypto.secp256k1.PubKey');
}

/** A TxRaw carrying `msgs`, signed by `signers` in order (each over its own account number). */
export function buildTx(registry: ProtoRegistry, signers: readonly TxSigner[], msgs: AnyMsg[], o: TxOptions): Uint8Array {
  const bodyBytes = registry.encode('chain.tx.v1beta1.TxBody', { messages: msgs, memo: o.memo ?? '', timeout_height: o.timeoutHeight ?? 0n });
  const infos = signers.map((s) => ({
    public_key: s.pubKey === undefined ? pubKeyAny(registry, s.key) : s.pubKey,
    mode_info: { single: { mode: s.mode ?? 1 } },
    sequence: s.sequence,
  }));
  for (let i = 0; i < (o.extraSignerInfos ?? 0); i++) infos.push({ ...infos[0]! });
  const authInfoBytes = registry.encode('chain.tx.v1beta1.AuthInfo', {
    signer_infos: infos,
    fee: { amount: o.fee ?? [{ denom: o.denom ?? 'achain', amount: '100' }], gas_limit: o.gas ?? 200_000n, payer: o.payer ?? '', granter: o.granter ?? '' },
  });
  const signatures = o.signatures ?? signers.map((s) => {
    const doc = registry.encode('chain.tx.v1beta1.SignDoc', {
      body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, chain_id: s.chainId ?? o.chainId, account_number: s.accountNumber,
    });
    return signSecp256k1Digest(s.key.priv, s.key.eth ? keccak256(doc) : sha256(doc));
  });
  return registry.encode('chain.tx.v1beta1.TxRaw', { body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, signatures });
}
