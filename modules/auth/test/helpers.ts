/**
 * Test helpers: an auth + bank chain on a CommitStore in a temp dir (composed from the packages' public
 * APIs), dev keys (secp256k1 coin type 118 and eth_secp256k1 coin type 60) and a flexible tx builder that
 * can produce every kind of broken tx the ante handler must reject.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from '@chain/app';
import type { Coin, DecCoin, ExecTxResult, QueryResponse } from '@chain/app';
import { BankKeeper, BankModule } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import type { AnyMsg, ProtoObject } from '@chain/codec';
import {
  DEV_MNEMONIC, derivePrivateKey, hdPath, secp256k1PublicKey, secp256k1Address, ethAddress, signSecp256k1Digest, sha256, keccak256,
} from '@chain/crypto';
import { CommitStore } from '@chain/store';
import { AccountKeeper, AddressCodec, AuthModule, createAnteHandler, FEE_COLLECTOR } from '../src/index.js';
import type { Account } from '../src/index.js';

export const CHAIN_ID = 'auth-test-1';
export const PREFIX = 'chain';
export const DENOM = 'achain';
export const GENESIS_TIME = new Date('2024-01-01T00:00:00Z');
export const MODULE_ACCOUNTS: Record<string, string[]> = { [FEE_COLLECTOR]: [], minter: ['minter', 'burner'] };

const codec = new AddressCodec(PREFIX);

export interface DevKey {
  readonly priv: Uint8Array;
  readonly pub: Uint8Array;
  readonly addr: Uint8Array;
  readonly address: string;
  /** signs sha256 (secp256k1) or keccak256 (eth_secp256k1) of the sign bytes */
  readonly eth: boolean;
}

/** secp256k1 key `i` of the dev mnemonic (coin type 118). */
export function devKey(i: number): DevKey {
  const priv = derivePrivateKey(DEV_MNEMONIC, hdPath(118, i));
  const pub = secp256k1PublicKey(priv);
  const addr = secp256k1Address(pub);
  return { priv, pub, addr, address: codec.encode(addr), eth: false };
}

/** eth_secp256k1 key `i` of the dev mnemonic (coin type 60, Ethereum address). */
export function devEthKey(i: number): DevKey {
  const priv = derivePrivateKey(DEV_MNEMONIC, hdPath(60, i));
  const pub = secp256k1PublicKey(priv);
  const addr = ethAddress(pub);
  return { priv, pub, addr, address: codec.encode(addr), eth: true };
}

export interface TxSigner {
  readonly key: DevKey;
  readonly accountNumber: bigint;
  readonly sequence: bigint;
  /** public key put in the signer info; defaults to the key's own, null leaves it out */
  readonly pubKey?: AnyMsg | null;
  readonly mode?: number;
  /** chain id the signature is made for */
  readonly chainId?: string;
}

export interface TxOptions {
  readonly memo?: string;
  readonly fee?: Coin[];
  readonly gas?: bigint;
  readonly payer?: string;
  readonly granter?: string;
  readonly timeoutHeight?: bigint;
  /** replaces the real signatures */
  readonly signatures?: Uint8Array[];
  /** signer infos beyond the real ones (to produce count mismatches) */
  readonly extraSignerInfos?: number;
}

export function pubKeyAny(registry: ProtoRegistry, key: DevKey): AnyMsg {
  return key.eth
    ? registry.packAny('chain.crypto.ethsecp256k1.PubKey', { key: key.pub }, '/ethermint.crypto.v1.ethsecp256k1.PubKey')
    : registry.packAny('chain.crypto.secp256k1.PubKey', { key: key.pub }, '/cosmos.crypto.secp256k1.PubKey');
}

export function buildTx(registry: ProtoRegistry, signers: readonly TxSigner[], msgs: AnyMsg[], o: TxOptions = {}): Uint8Array {
  const bodyBytes = registry.encode('chain.tx.v1beta1.TxBody', { messages: msgs, memo: o.memo ?? '', timeout_height: o.timeoutHeight ?? 0n });
  const infos = signers.map((s) => ({
    public_key: s.pubKey === undefined ? pubKeyAny(registry, s.key) : s.pubKey,
    mode_info: { single: { mode: s.mode ?? 1 } },
    sequence: s.sequence,
  }));
  for (let i = 0; i < (o.extraSignerInfos ?? 0); i++) infos.push({ ...infos[0]! });
  const authInfoBytes = registry.encode('chain.tx.v1beta1.AuthInfo', {
    signer_infos: infos,
    fee: { amount: o.fee ?? [{ denom: DENOM, amount: '100' }], gas_limit: o.gas ?? 200_000n, payer: o.payer ?? '', granter: o.granter ?? '' },
  });
  const signatures = o.signatures ?? signers.map((s) => {
    const doc = registry.encode('chain.tx.v1beta1.SignDoc', { body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, chain_id: s.chainId ?? CHAIN_ID, account_number: s.accountNumber });
    return signSecp256k1Digest(s.key.priv, s.key.eth ? keccak256(doc) : sha256(doc));
  });
  return registry.encode('chain.tx.v1beta1.TxRaw', { body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, signatures });
}

export interface ChainOptions {
  readonly minGasPrices?: readonly DecCoin[];
}

export class TestChain {
  private constructor(
    readonly registry: ProtoRegistry,
    readonly ak: AccountKeeper,
    readonly bk: BankKeeper,
    readonly app: App,
    readonly store: CommitStore,
    private readonly remove: () => void,
  ) {}

  static async create(opts: ChainOptions = {}): Promise<TestChain> {
    const dir = mkdtempSync(join(tmpdir(), 'chain-auth-'));
    const store = await CommitStore.open(dir);
    const registry = new ProtoRegistry();
    const ak = new AccountKeeper({ registry, addressCodec: new AddressCodec(PREFIX), moduleAccounts: MODULE_ACCOUNTS });
    const blocked = new Set(Object.keys(MODULE_ACCOUNTS).map((n) => codec.encode(ak.getModuleAddress(n))));
    const bk = new BankKeeper({ registry, accountKeeper: ak, blockedAddresses: blocked });
    const app = new App({
      registry, store, chainId: CHAIN_ID,
      modules: [new AuthModule(ak), new BankModule(bk)],
      anteHandler: createAnteHandler(ak, bk),
      minGasPrices: opts.minGasPrices ?? [],
    });
    return new TestChain(registry, ak, bk, app, store, () => rmSync(dir, { recursive: true, force: true }));
  }

  async close(): Promise<void> {
    await this.store.close().catch(() => undefined);
    this.remove();
  }

  /** InitChain with auth genesis `auth` (merged over defaults) and bank balances; commits height 1. */
  async init(balances: { address: string; coins: Coin[] }[], auth: Record<string, unknown> = {}): Promise<void> {
    this.app.initChain({
      time: GENESIS_TIME,
      appState: {
        auth: { ...(this.app.defaultGenesis().auth as Record<string, unknown>), ...auth },
        bank: { params: { send_enabled: [], default_send_enabled: true }, balances, supply: [], denom_metadata: [], send_enabled: [] },
      },
    });
    await this.app.finalizeBlock({ height: 1, time: GENESIS_TIME, txs: [], proposer: new Uint8Array(20) });
    await this.app.commit();
  }

  async deliver(tx: Uint8Array): Promise<ExecTxResult> {
    const height = this.app.lastHeight + 1;
    const res = await this.app.finalizeBlock({ height, time: new Date(GENESIS_TIME.getTime() + height * 1000), txs: [tx], proposer: new Uint8Array(20) });
    await this.app.commit();
    return res.txResults[0]!;
  }

  account(addr: Uint8Array): Account | undefined {
    return this.ak.getAccount(this.app.queryContext(), addr);
  }

  balance(addr: Uint8Array, denom = DENOM): bigint {
    return this.bk.getBalance(this.app.queryContext(), addr, denom);
  }

  /** A signer entry for `key` at its current account number and sequence. */
  signer(key: DevKey, over: Partial<TxSigner> = {}): TxSigner {
    const acc = this.account(key.addr);
    return { key, accountNumber: acc?.base.account_number ?? 0n, sequence: acc?.base.sequence ?? 0n, ...over };
  }

  /** A tx of one MsgSend from `key` (1achain to `to`), signed by `key` unless told otherwise. */
  send(key: DevKey, to: string, o: TxOptions & { signer?: Partial<TxSigner> } = {}): Uint8Array {
    return buildTx(this.registry, [this.signer(key, o.signer)], [this.msgSend(key.address, to, [{ denom: DENOM, amount: '1' }])], o);
  }

  msgSend(from: string, to: string, amount: Coin[]): AnyMsg {
    return this.registry.packAny('chain.bank.v1beta1.MsgSend', { from_address: from, to_address: to, amount });
  }

  async query<T = ProtoObject>(path: string, reqType: string, req: ProtoObject, respType: string): Promise<{ res: QueryResponse; value: T | undefined }> {
    const res = await this.app.query({ path, data: this.registry.encode(reqType, req) });
    return { res, value: res.code === 0 ? this.registry.decode<T>(respType, res.value) : undefined };
  }
}

export const coins = (amount: number | string, denom = DENOM): Coin[] => [{ denom, amount: String(amount) }];
