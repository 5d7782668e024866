/**
 * Test helpers: an auth + bank chain on a CommitStore in a temp dir (composed from the packages' public
 * APIs), dev keys (secp256k1 coin type 118 and eth_secp256k1 coin type 60) and a flexible tx builder that
 * can produce every kind of broken tx the ante handler must reject.
 */
import type { App, AppModule } from '@chain/app';
import type { Coin, DecCoin, ExecTxResult, QueryResponse } from '@chain/app';
import { BankKeeper, BankModule } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import type { AnyMsg, ProtoObject } from '@chain/codec';
import type { CommitStore } from '@chain/store';
import {
  TestChain as BaseChain, buildTx as sharedBuildTx, devEthKey as sharedDevEthKey, devKey as sharedDevKey, pubKeyAny, testAppConfig,
  GENESIS_TIME as SHARED_GENESIS_TIME,
} from '@chain/testing';
import type { DevKey, TxSigner, TxOptions as SharedTxOptions } from '@chain/testing';
import { AccountKeeper, AddressCodec, AuthModule, createAnteHandler, FEE_COLLECTOR } from '../src/index.js';
import type { Account } from '../src/index.js';

export const CHAIN_ID = 'auth-test-1';
export const PREFIX = 'chain';
export const DENOM = 'achain';
export const GENESIS_TIME = SHARED_GENESIS_TIME;
export const MODULE_ACCOUNTS: Record<string, string[]> = { [FEE_COLLECTOR]: [], minter: ['minter', 'burner'] };

const codec = new AddressCodec(PREFIX);

export type { DevKey, TxSigner } from '@chain/testing';
export { pubKeyAny };

/** secp256k1 key `i` of the dev mnemonic (coin type 118). */
export function devKey(i: number): DevKey {
  return sharedDevKey(i, PREFIX);
}

/** eth_secp256k1 key `i` of the dev mnemonic (coin type 60, Ethereum address). */
export function devEthKey(i: number): DevKey {
  return sharedDevEthKey(i, PREFIX);
}

export type TxOptions = Omit<SharedTxOptions, 'chainId'>;

export function buildTx(registry: ProtoRegistry, signers: readonly TxSigner[], msgs: AnyMsg[], o: TxOptions = {}): Uint8Array {
  return sharedBuildTx(registry, signers, msgs, { chainId: CHAIN_ID, denom: DENOM, ...o });
}

export interface ChainOptions {
  readonly minGasPrices?: readonly DecCoin[];
  /** modules besides auth and bank (test fixtures) */
  readonly extraModules?: readonly AppModule[];
}

export class TestChain {
  readonly app: App;
  readonly store: CommitStore;
  private constructor(
    readonly registry: ProtoRegistry,
    readonly ak: AccountKeeper,
    readonly bk: BankKeeper,
    readonly base: BaseChain,
  ) {
    this.app = base.app;
    this.store = base.store;
  }

  static async create(opts: ChainOptions = {}): Promise<TestChain> {
    const registry = new ProtoRegistry();
    const ak = new AccountKeeper({ registry, addressCodec: new AddressCodec(PREFIX), moduleAccounts: MODULE_ACCOUNTS });
    const blocked = new Set(Object.keys(MODULE_ACCOUNTS).map((n) => codec.encode(ak.getModuleAddress(n))));
    const bk = new BankKeeper({ registry, accountKeeper: ak, blockedAddresses: blocked });
    const modules: AppModule[] = [new AuthModule(ak), new BankModule(bk), ...(opts.extraModules ?? [])];
    const base = await BaseChain.open({
      registry, chainId: CHAIN_ID, modules, config: testAppConfig(modules),
      anteHandler: createAnteHandler(ak, bk),
      minGasPrices: opts.minGasPrices ?? [],
    });
    return new TestChain(registry, ak, bk, base);
  }

  async close(): Promise<void> {
    await this.base.close();
  }

  /** The genesis app_state of `init`. */
  appState(balances: { address: string; coins: Coin[] }[], auth: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      auth: { ...(this.app.defaultGenesis().auth as Record<string, unknown>), ...auth },
      bank: { params: { send_enabled: [], default_send_enabled: true }, balances, supply: [], denom_metadata: [], send_enabled: [] },
    };
  }

  /** InitChain with auth genesis `auth` (merged over defaults) and bank balances; commits height 1. */
  async init(balances: { address: string; coins: Coin[] }[], auth: Record<string, unknown> = {}): Promise<void> {
    await this.base.init(this.appState(balances, auth));
  }

  async deliver(tx: Uint8Array): Promise<ExecTxResult> {
    return this.base.deliver(tx);
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
