/**
 * Building, signing and encoding txs in the client (SIGN_MODE_DIRECT), as the SDK's tx factory: messages packed
 * as `Any`, a body with memo and timeout height, an auth info with the signer's public key, sequence and the fee,
 * and a signature over the SignDoc (sha256 for secp256k1, keccak256 for eth_secp256k1). The tx travels between
 * commands (`--generate-only`, `tx sign`, `tx broadcast`) as the gateway JSON of `Tx` (what the SDK prints).
 */
import { toGatewayJSON } from '@chain/codec';
import type { AnyMsg, ProtoRegistry, ProtoObject } from '@chain/codec';
import { keccak256, sha256, signSecp256k1Digest } from '@chain/crypto';
import type { KeyAlgo } from './keyring.js';

export const TX_TYPE = 'chain.tx.v1beta1.Tx';
export const SIGN_MODE_DIRECT = 1;

export interface Coin { denom: string; amount: string }

/** The plain `Tx` (body, auth_info, signatures) as the registry decodes it. */
export interface PlainTx {
  body: { messages: AnyMsg[]; memo: string; timeout_height: bigint; extension_options?: AnyMsg[]; non_critical_extension_options?: AnyMsg[] };
  auth_info: {
    signer_infos: { public_key: AnyMsg | null; mode_info: { single: { mode: number } }; sequence: bigint }[];
    fee: { amount: Coin[]; gas_limit: bigint; payer: string; granter: string };
  };
  signatures: Uint8Array[];
}

export interface UnsignedTxOptions {
  readonly memo?: string;
  readonly timeoutHeight?: bigint;
  readonly fee: Coin[];
  readonly gasLimit: bigint;
  readonly payer?: string;
  readonly granter?: string;
}

/** The `Any` of a public key in the spelling Cosmos (or Ethermint) wallets send. */
export function pubKeyAny(registry: ProtoRegistry, algo: KeyAlgo, pubkey: Uint8Array): AnyMsg {
  return algo === 'eth_secp256k1'
    ? registry.packAny('chain.crypto.ethsecp256k1.PubKey', { key: pubkey }, '/ethermint.crypto.v1.ethsecp256k1.PubKey')
    : registry.packAny('chain.crypto.secp256k1.PubKey', { key: pubkey }, '/cosmos.crypto.secp256k1.PubKey');
}

export function unsignedTx(msgs: AnyMsg[], o: UnsignedTxOptions): PlainTx {
  return {
    body: { messages: msgs, memo: o.memo ?? '', timeout_height: o.timeoutHeight ?? 0n },
    auth_info: { signer_infos: [], fee: { amount: o.fee, gas_limit: o.gasLimit, payer: o.payer ?? '', granter: o.granter ?? '' } },
    signatures: [],
  };
}

function bodyBytes(registry: ProtoRegistry, tx: PlainTx): Uint8Array {
  return registry.encode('chain.tx.v1beta1.TxBody', tx.body as unknown as ProtoObject);
}

function authInfoBytes(registry: ProtoRegistry, tx: PlainTx): Uint8Array {
  return registry.encode('chain.tx.v1beta1.AuthInfo', tx.auth_info as unknown as ProtoObject);
}

/** Sets the (only) signer info: the public key, SIGN_MODE_DIRECT and the sequence. */
export function withSigner(tx: PlainTx, pubkey: AnyMsg, sequence: bigint): PlainTx {
  return { ...tx, auth_info: { ...tx.auth_info, signer_infos: [{ public_key: pubkey, mode_info: { single: { mode: SIGN_MODE_DIRECT } }, sequence }] }, signatures: [] };
}

/** The SignDoc bytes of a tx for a chain and account number. */
export function signDocBytes(registry: ProtoRegistry, tx: PlainTx, chainId: string, accountNumber: bigint): Uint8Array {
  return registry.encode('chain.tx.v1beta1.SignDoc', {
    body_bytes: bodyBytes(registry, tx), auth_info_bytes: authInfoBytes(registry, tx), chain_id: chainId, account_number: accountNumber,
  });
}

/** Signs a tx (its signer info already set) with one key: the signature list becomes `[sig]`. */
export function signTx(registry: ProtoRegistry, tx: PlainTx, key: { algo: KeyAlgo; privkey: Uint8Array }, chainId: string, accountNumber: bigint): PlainTx {
  const doc = signDocBytes(registry, tx, chainId, accountNumber);
  const sig = signSecp256k1Digest(key.privkey, key.algo === 'eth_secp256k1' ? keccak256(doc) : sha256(doc));
  return { ...tx, signatures: [sig] };
}

/** TxRaw bytes (what the node receives). */
export function encodeTx(registry: ProtoRegistry, tx: PlainTx): Uint8Array {
  return registry.encode('chain.tx.v1beta1.TxRaw', { body_bytes: bodyBytes(registry, tx), auth_info_bytes: authInfoBytes(registry, tx), signatures: tx.signatures });
}

/** TxRaw bytes → plain Tx (the body and auth info decoded). */
export function decodeTxRaw(registry: ProtoRegistry, raw: Uint8Array): PlainTx {
  const r = registry.decode<{ body_bytes: Uint8Array; auth_info_bytes: Uint8Array; signatures: Uint8Array[] }>('chain.tx.v1beta1.TxRaw', raw);
  return {
    body: registry.decode('chain.tx.v1beta1.TxBody', r.body_bytes),
    auth_info: registry.decode('chain.tx.v1beta1.AuthInfo', r.auth_info_bytes),
    signatures: r.signatures,
  };
}

/**
 * The gateway JSON of a tx, its `Any` type URLs kept as they are (no dialect rewrite): the JSON parses back to the
 * very bytes that were (or will be) signed.
 */
export function txToJson(registry: ProtoRegistry, tx: PlainTx): unknown {
  return toGatewayJSON(registry.type(TX_TYPE), tx as unknown as ProtoObject, registry);
}

export function txFromJson(registry: ProtoRegistry, json: unknown): PlainTx {
  try {
    const tx = registry.fromJSON(TX_TYPE, json) as unknown as PlainTx;
    if (!tx.body || !tx.auth_info) throw new Error('a tx needs body and auth_info');
    if (!tx.auth_info.fee) tx.auth_info.fee = { amount: [], gas_limit: 0n, payer: '', granter: '' };
    return tx;
  } catch (e) {
    throw new Error(`not a tx in JSON: ${(e as Error).message}`);
  }
}

/** `--gas-prices` × gas, rounded up (the SDK's fee from gas prices). Prices may be decimal: `0.5achain`. */
export function feeFromGasPrices(prices: { denom: string; amount: string }[], gas: bigint): Coin[] {
  return prices.map((p) => {
    const [i, f = ''] = p.amount.split('.');
    const scale = 10n ** BigInt(f.length);
    const atoms = BigInt(i! + f);
    const amount = (atoms * gas + scale - 1n) / scale;
    return { denom: p.denom, amount: amount.toString() };
  }).filter((c) => c.amount !== '0');
}
