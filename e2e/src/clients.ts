/** Client helpers for the e2e tests: dev wallets, raw REST calls, websocket subscriptions, eth_secp256k1 signing. */
import WebSocket from 'ws';
import { DirectSecp256k1HdWallet, makeAuthInfoBytes, makeSignDoc, makeSignBytes, encodePubkey } from '@cosmjs/proto-signing';
import type { EncodeObject } from '@cosmjs/proto-signing';
import { stringToPath } from '@cosmjs/crypto';
import { TxRaw, TxBody } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { DEV_MNEMONIC, derivePrivateKey, hdPath, secp256k1PublicKey, signSecp256k1Digest, keccak256, ethAddress, toBech32 } from '@chain/crypto';

export const CHAIN_ID = 'chain_1337-1';
export const DENOM = 'achain';
export const GAS_PRICE = 1_000_000_000n;

export function fee(gas = 200_000n): { amount: { denom: string; amount: string }[]; gas: string } {
  return { amount: [{ denom: DENOM, amount: (gas * GAS_PRICE).toString() }], gas: gas.toString() };
}

export async function devWallet(index = 0): Promise<DirectSecp256k1HdWallet> {
  return DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'chain', hdPaths: [stringToPath(hdPath(118, index))] });
}

export async function getJson(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const r = await fetch(url, { headers: { accept: 'application/json', ...headers } });
  const text = await r.text();
  let body: unknown;
  try { body = JSON.parse(text); } catch { body = text; }
  return { status: r.status, body };
}

export async function postJson(url: string, payload: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof payload === 'string' ? payload : JSON.stringify(payload) });
  const text = await r.text();
  let body: unknown;
  try { body = JSON.parse(text); } catch { body = text; }
  return { status: r.status, body };
}

/** A websocket subscription to the consensus RPC; collects every event it receives. */
export class WsSubscription {
  readonly events: any[] = [];
  readonly replies: any[] = [];
  private constructor(private readonly ws: WebSocket) {}

  static async open(url: string, query: string, id: number | string = 1): Promise<WsSubscription> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject); });
    const sub = new WsSubscription(ws);
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.result && m.result.data) sub.events.push(m.result);
      else sub.replies.push(m);
    });
    ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'subscribe', id, params: { query } }));
    const deadline = Date.now() + 5000;
    while (sub.replies.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (sub.replies[0]?.error) throw new Error(`subscribe failed: ${JSON.stringify(sub.replies[0].error)}`);
    return sub;
  }

  async waitFor(pred: (e: any) => boolean, timeoutMs = 15_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.events.find(pred);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no matching websocket event within ${timeoutMs} ms (got ${this.events.length})`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  close(): void {
    this.ws.close();
  }
}

/** A dev account under coin type 60 (eth_secp256k1), signing SIGN_MODE_DIRECT over keccak256(SignDoc). */
export function ethDevAccount(index: number): { address: string; privKey: Uint8Array; pubKey: Uint8Array } {
  const privKey = derivePrivateKey(DEV_MNEMONIC, hdPath(60, index));
  const pubKey = secp256k1PublicKey(privKey);
  return { address: toBech32('chain', ethAddress(pubKey)), privKey, pubKey };
}

export function buildEthSignedSend(o: {
  privKey: Uint8Array; pubKey: Uint8Array; from: string; to: string; amount: string; accountNumber: bigint; sequence: bigint; chainId?: string;
  pubKeyTypeUrl?: string; msgTypeUrl?: string; feeAmount?: string;
}): Uint8Array {
  const msg: EncodeObject = { typeUrl: o.msgTypeUrl ?? '/cosmos.bank.v1beta1.MsgSend', value: MsgSend.fromPartial({ fromAddress: o.from, toAddress: o.to, amount: [{ denom: DENOM, amount: o.amount }] }) };
  const bodyBytes = TxBody.encode(TxBody.fromPartial({ messages: [{ typeUrl: msg.typeUrl, value: MsgSend.encode(msg.value).finish() }], memo: 'eth key' })).finish();
  const pubkeyAny = { typeUrl: o.pubKeyTypeUrl ?? '/ethermint.crypto.v1.ethsecp256k1.PubKey', value: PubKey.encode({ key: o.pubKey }).finish() };
  const f = fee();
  if (o.feeAmount !== undefined) f.amount = [{ denom: DENOM, amount: o.feeAmount }];
  const authInfoBytes = makeAuthInfoBytes([{ pubkey: pubkeyAny, sequence: o.sequence }], f.amount, Number(f.gas), undefined, undefined, SignMode.SIGN_MODE_DIRECT);
  const signDoc = makeSignDoc(bodyBytes, authInfoBytes, o.chainId ?? CHAIN_ID, o.accountNumber);
  const sig = signSecp256k1Digest(o.privKey, keccak256(makeSignBytes(signDoc)));
  return TxRaw.encode(TxRaw.fromPartial({ bodyBytes, authInfoBytes, signatures: [sig] })).finish();
}

export { encodePubkey };
