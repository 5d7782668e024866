/**
 * Test helpers: a registry with the tx protos and the bank send messages (a fixture with the bank
 * module's field numbers: tx itself does not depend on bank), txs built with cosmjs-types, and a tiny
 * protobuf writer for hand-made (broken) encodings.
 */
import { fileURLToPath } from 'node:url';
import { TxRaw, TxBody, AuthInfo } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { MsgSend, MsgMultiSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { ProtoRegistry } from '@chain/codec';
import { DEV_MNEMONIC, derivePrivateKey, hdPath, secp256k1PublicKey, secp256k1Address, toBech32 } from '@chain/crypto';
import { TX_PROTO_DIR } from '../src/index.js';

export const BANK_PROTO_DIR = fileURLToPath(new URL('./fixtures/proto', import.meta.url));

export function makeRegistry(): ProtoRegistry {
  const r = new ProtoRegistry();
  r.addProtoDir(TX_PROTO_DIR);
  r.addProtoDir(BANK_PROTO_DIR);
  return r;
}

export interface Key { priv: Uint8Array; pub: Uint8Array; address: string }

export function devKey(i: number): Key {
  const priv = derivePrivateKey(DEV_MNEMONIC, hdPath(118, i));
  const pub = secp256k1PublicKey(priv);
  return { priv, pub, address: toBech32('chain', secp256k1Address(pub)) };
}

export interface Any { typeUrl: string; value: Uint8Array }

export const sendMsg = (from: string, to: string, amount = '5', typeUrl = '/cosmos.bank.v1beta1.MsgSend'): Any =>
  ({ typeUrl, value: MsgSend.encode(MsgSend.fromPartial({ fromAddress: from, toAddress: to, amount: [{ denom: 'achain', amount }] })).finish() });

export const multiSendMsg = (inputs: string[], outputs: string[]): Any => ({
  typeUrl: '/cosmos.bank.v1beta1.MsgMultiSend',
  value: MsgMultiSend.encode(MsgMultiSend.fromPartial({
    inputs: inputs.map((address) => ({ address, coins: [{ denom: 'achain', amount: '1' }] })),
    outputs: outputs.map((address) => ({ address, coins: [{ denom: 'achain', amount: '1' }] })),
  })).finish(),
});

export function bodyBytes(messages: Any[], memo = '', timeoutHeight = 0n): Uint8Array {
  return TxBody.encode(TxBody.fromPartial({ messages, memo, timeoutHeight })).finish();
}

export function authInfoBytes(pubKeys: Uint8Array[], sequence = 3n, gas = 200000n): Uint8Array {
  return AuthInfo.encode(AuthInfo.fromPartial({
    signerInfos: pubKeys.map((key) => ({
      publicKey: { typeUrl: '/cosmos.crypto.secp256k1.PubKey', value: PubKey.encode({ key }).finish() },
      modeInfo: { single: { mode: SignMode.SIGN_MODE_DIRECT } },
      sequence,
    })),
    fee: { amount: [{ denom: 'achain', amount: '250' }], gasLimit: gas, payer: '', granter: '' },
  })).finish();
}

export function txRaw(body: Uint8Array, authInfo: Uint8Array, signatures: Uint8Array[] = [new Uint8Array(64).fill(1)]): Uint8Array {
  return TxRaw.encode(TxRaw.fromPartial({ bodyBytes: body, authInfoBytes: authInfo, signatures })).finish();
}

// ---- a minimal protobuf writer ----

export function varint(n: number | bigint): Uint8Array {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return Uint8Array.from(out);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts.map((p) => Buffer.from(p))));
}

export const tag = (id: number, wt: number): Uint8Array => varint((id << 3) | wt);
/** A length-delimited field. */
export const lenField = (id: number, bytes: Uint8Array): Uint8Array => concat(tag(id, 2), varint(bytes.length), bytes);
/** A varint field. */
export const varintField = (id: number, n: number): Uint8Array => concat(tag(id, 0), varint(n));
/** An Any message's bytes. */
export const anyBytes = (typeUrl: string, value: Uint8Array): Uint8Array => concat(lenField(1, new TextEncoder().encode(typeUrl)), lenField(2, value));
