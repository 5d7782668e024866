/** Client helpers for the e2e tests: dev wallets, raw REST calls, websocket subscriptions, eth_secp256k1 signing. */
import WebSocket from 'ws';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initHome } from '@chain/node';
import { SigningStargateClient } from '@cosmjs/stargate';
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

// ---- raw transport helpers and configured homes (comet-rpc, rest-routes, fuzz tests) ----------------

export interface RawResponse { status: number; headers: Headers; text: string; body: any }

/** Any HTTP request; the body is parsed as JSON when it is JSON. Never throws on HTTP errors. */
export async function rawHttp(url: string, init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array } = {}): Promise<RawResponse> {
  const r = await fetch(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body as BodyInit | undefined });
  const text = await r.text();
  let body: unknown;
  try { body = JSON.parse(text); } catch { body = text; }
  return { status: r.status, headers: r.headers, text, body };
}

/** One JSON-RPC 2.0 call over HTTP POST; returns the whole response body. */
export async function rpcCall(rpcUrl: string, method: string, params: unknown = {}, id: number | string = 1): Promise<any> {
  return (await rawHttp(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) })).body;
}

/** A raw websocket to the node that records every message; `call` sends a request and waits for its reply. */
export class RawWs {
  readonly messages: any[] = [];
  private constructor(readonly ws: WebSocket) {}

  static async open(url: string): Promise<RawWs> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject); });
    const c = new RawWs(ws);
    ws.on('message', (d) => { try { c.messages.push(JSON.parse(d.toString())); } catch { c.messages.push(d.toString()); } });
    ws.on('error', () => undefined);
    return c;
  }

  send(payload: unknown): void {
    this.ws.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
  }

  /** Waits for the first message matching `pred` (searching the ones already received too). */
  async waitFor(pred: (m: any) => boolean, timeoutMs = 10_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.messages.find(pred);
      if (hit !== undefined) return hit;
      if (Date.now() > deadline) throw new Error(`no matching websocket message within ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(-5)).slice(0, 800)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Sends a request with `id` and resolves with the first reply to it that is not an event. */
  async call(method: string, params: unknown, id: number | string): Promise<any> {
    this.send({ jsonrpc: '2.0', id, method, params });
    return this.waitFor((m) => m && m.id === id && (m.error !== undefined || (m.result !== undefined && m.result.data === undefined)));
  }

  close(): void {
    this.ws.close();
  }
}

type TomlValue = string | number | boolean | string[];

function tomlLiteral(v: TomlValue): string {
  if (Array.isArray(v)) return `[${v.map((x) => JSON.stringify(x)).join(', ')}]`;
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/** Sets `section.key` (or a top-level `key`) in a TOML file written by `chaind init`; the key must exist. */
export function setTomlKeys(path: string, values: Record<string, TomlValue>): void {
  const lines = readFileSync(path, 'utf8').split('\n');
  for (const [dotted, value] of Object.entries(values)) {
    const i = dotted.lastIndexOf('.');
    const section = i < 0 ? '' : dotted.slice(0, i);
    const key = i < 0 ? dotted : dotted.slice(i + 1);
    let current = '';
    let done = false;
    for (let n = 0; n < lines.length; n++) {
      const l = lines[n]!;
      const sec = /^\s*\[([^\]]+)\]\s*$/.exec(l);
      if (sec) { current = sec[1]!; continue; }
      if (current === section && new RegExp(`^\\s*${key.replace(/[.-]/g, '\\$&')}\\s*=`).test(l)) {
        lines[n] = `${key} = ${tomlLiteral(value)}`;
        done = true;
        break;
      }
    }
    if (!done) throw new Error(`${path}: no key ${dotted}`);
  }
  writeFileSync(path, lines.join('\n'));
}

/**
 * A fresh dev home (`chaind init --dev`) with app.toml / config.toml keys changed, for `startNode({ home })`.
 * Keys are `section.key`, e.g. `{ app: { 'api.swagger': false }, config: { 'rpc.max_body_bytes': 1000 } }`.
 */
export function devHome(o: { app?: Record<string, TomlValue>; config?: Record<string, TomlValue> } = {}): string {
  const home = mkdtempSync(join(tmpdir(), 'chaind-e2e-'));
  initHome({ home, dev: true });
  if (o.app) setTomlKeys(join(home, 'config', 'app.toml'), o.app);
  if (o.config) setTomlKeys(join(home, 'config', 'config.toml'), o.config);
  return home;
}

/** Address of coin-type-118 dev account `i`. */
export async function devAddress(i: number): Promise<string> {
  return (await (await devWallet(i)).getAccounts())[0]!.address;
}

/**
 * A signed MsgSend (SIGN_MODE_DIRECT, bytes of TxRaw) from coin-type-118 dev account `from`, signed offline
 * with the account number and sequence read over REST (`sequenceOffset` shifts the sequence).
 */
export async function signedSend(restUrl: string, from: number, to: string, amount: string, o: { sequenceOffset?: number; memo?: string; gas?: bigint } = {}): Promise<Uint8Array> {
  const wallet = await devWallet(from);
  const [acct] = await wallet.getAccounts();
  const info = (await getJson(`${restUrl}/chain/auth/v1beta1/accounts/${acct!.address}`)).body.account;
  const signer = await SigningStargateClient.offline(wallet);
  const msg = { typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: { fromAddress: acct!.address, toAddress: to, amount: [{ denom: DENOM, amount }] } };
  const raw = await signer.sign(acct!.address, [msg], fee(o.gas), o.memo ?? '', {
    accountNumber: BigInt(info.account_number), sequence: Number(info.sequence) + (o.sequenceOffset ?? 0), chainId: CHAIN_ID,
  });
  return TxRaw.encode(raw).finish();
}

/** Polls REST until the tx of `hash` is committed (GetTx answers 200); throws after `timeoutMs`. */
export async function waitTxCommitted(restUrl: string, hash: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while ((await getJson(`${restUrl}/chain/tx/v1beta1/txs/${hash}`)).status !== 200) {
    if (Date.now() > end) throw new Error(`tx ${hash} not committed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
