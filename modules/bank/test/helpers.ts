/**
 * Test helpers: a small auth + bank chain composed only from the public APIs of the packages (the way
 * apps/node composes it), dev keys from the dev mnemonic, and SIGN_MODE_DIRECT tx signing.
 */
import { Context, EventManager } from '@chain/app';
import type { Coin, DecCoin, ExecTxResult, FinalizeBlockResponse, QueryResponse } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule, createAnteHandler, FEE_COLLECTOR } from '@chain/auth';
import type { Account } from '@chain/auth';
import { ProtoRegistry } from '@chain/codec';
import type { AnyMsg, ProtoObject } from '@chain/codec';
import { TestChain as BaseChain, buildTx, devKey as sharedDevKey, testAppConfig, tempDir as sharedTempDir, GENESIS_TIME as SHARED_GENESIS_TIME } from '@chain/testing';
import type { App } from '@chain/app';
import type { CommitStore, CacheKVStore } from '@chain/store';
import type { Event } from '@chain/events';
import { BankKeeper, BankModule } from '../src/index.js';

export const CHAIN_ID = 'bank-test-1';
export const PREFIX = 'chain';
export const DENOM = 'achain';
export const GENESIS_TIME = SHARED_GENESIS_TIME;
/** module accounts of the test chain: the fee collector plus a minter/burner and a minter-only module */
export const MODULE_ACCOUNTS: Record<string, string[]> = {
  [FEE_COLLECTOR]: [],
  faucet: ['minter', 'burner'],
  mintonly: ['minter'],
};

export type { DevKey } from '@chain/testing';
import type { DevKey } from '@chain/testing';

/** Key `i` of the dev mnemonic under coin type 118. */
export function devKey(i: number): DevKey {
  return sharedDevKey(i, PREFIX);
}

export const tempDir = sharedTempDir;

export interface ChainOptions {
  readonly minGasPrices?: readonly DecCoin[];
  readonly chainId?: string;
}

/** One auth + bank chain on a CommitStore in a temp dir (the shared test chain of @chain/testing). */
export class TestChain {
  readonly app: App;
  readonly store: CommitStore;
  private constructor(
    readonly registry: ProtoRegistry,
    readonly codec: AddressCodec,
    readonly ak: AccountKeeper,
    readonly bk: BankKeeper,
    readonly base: BaseChain,
  ) {
    this.app = base.app;
    this.store = base.store;
  }

  static async create(opts: ChainOptions = {}): Promise<TestChain> {
    const registry = new ProtoRegistry();
    const addressCodec = new AddressCodec(PREFIX);
    const ak = new AccountKeeper({ registry, addressCodec, moduleAccounts: MODULE_ACCOUNTS });
    const blocked = new Set(Object.keys(MODULE_ACCOUNTS).map((n) => addressCodec.encode(ak.getModuleAddress(n))));
    const bk = new BankKeeper({ registry, accountKeeper: ak, blockedAddresses: blocked });
    const modules = [new AuthModule(ak), new BankModule(bk)];
    const base = await BaseChain.open({
      registry,
      chainId: opts.chainId ?? CHAIN_ID,
      modules,
      config: testAppConfig(modules),
      anteHandler: createAnteHandler(ak, bk),
      minGasPrices: opts.minGasPrices ?? [],
    });
    return new TestChain(registry, addressCodec, ak, bk, base);
  }

  async close(): Promise<void> {
    await this.base.close();
  }

  /** InitChain with `appState` and commit the genesis block (height 1); returns the app hash. */
  async init(appState: Record<string, unknown>): Promise<Uint8Array> {
    await this.base.init(appState);
    return this.app.lastAppHash;
  }

  /** Finalizes and commits one block with `txs`. */
  async block(txs: Uint8Array[]): Promise<FinalizeBlockResponse> {
    return this.base.block(txs);
  }

  /** Delivers one tx in its own block. */
  async deliver(tx: Uint8Array): Promise<ExecTxResult> {
    return this.base.deliver(tx);
  }

  /** A context over the committed state (read only by convention). */
  ctx(): Context {
    return this.base.ctx();
  }

  /** A writable block context over a branch of the committed state. */
  branchCtx(): { ctx: Context; state: CacheKVStore; events: EventManager } {
    return this.base.branchCtx();
  }

  balance(addr: Uint8Array | string, denom = DENOM): bigint {
    const a = typeof addr === 'string' ? this.codec.decode(addr) : addr;
    return this.bk.getBalance(this.ctx(), a, denom);
  }

  supply(denom = DENOM): bigint {
    return this.bk.getSupply(this.ctx(), denom);
  }

  account(addr: Uint8Array): Account | undefined {
    return this.ak.getAccount(this.ctx(), addr);
  }

  /** ABCI query; decodes the response with `respType` when code is 0. */
  async query<T = ProtoObject>(path: string, reqType: string, req: ProtoObject, respType: string): Promise<{ res: QueryResponse; value: T | undefined }> {
    const res = await this.app.query({ path, data: this.registry.encode(reqType, req) });
    return { res, value: res.code === 0 ? this.registry.decode<T>(respType, res.value) : undefined };
  }

  /** Signs `msgs` with `key`, using the key's current account number and sequence unless given. */
  sign(key: DevKey, msgs: AnyMsg[], o: Partial<SignOptions> = {}): Uint8Array {
    const acc = this.account(key.addr);
    return signTx(this.registry, key, msgs, {
      accountNumber: acc?.base.account_number ?? 0n,
      sequence: acc?.base.sequence ?? 0n,
      ...o,
    });
  }

  /** Signs with several keys at their current account numbers and sequences. */
  signMulti(keys: DevKey[], msgs: AnyMsg[], o: Partial<SignOptions> = {}): Uint8Array {
    const signers = keys.map((key) => {
      const acc = this.account(key.addr);
      return { key, accountNumber: acc?.base.account_number ?? 0n, sequence: acc?.base.sequence ?? 0n };
    });
    return signTxMulti(this.registry, signers, msgs, o);
  }

  msgSend(from: string, to: string, amount: Coin[], typeUrl = '/chain.bank.v1beta1.MsgSend'): AnyMsg {
    return { type_url: typeUrl, value: this.registry.encode('chain.bank.v1beta1.MsgSend', { from_address: from, to_address: to, amount }) };
  }

  msgMultiSend(inputs: { address: string; coins: Coin[] }[], outputs: { address: string; coins: Coin[] }[]): AnyMsg {
    return this.registry.packAny('chain.bank.v1beta1.MsgMultiSend', { inputs, outputs });
  }
}

export interface SignOptions {
  accountNumber: bigint;
  sequence: bigint;
  chainId: string;
  fee: Coin[];
  gas: bigint;
  memo: string;
}

export interface Signer {
  readonly key: DevKey;
  readonly accountNumber: bigint;
  readonly sequence: bigint;
}

/** A SIGN_MODE_DIRECT secp256k1-signed TxRaw. */
export function signTx(registry: ProtoRegistry, key: DevKey, msgs: AnyMsg[], o: Partial<SignOptions> & { accountNumber: bigint; sequence: bigint }): Uint8Array {
  return signTxMulti(registry, [{ key, accountNumber: o.accountNumber, sequence: o.sequence }], msgs, o);
}

/** A TxRaw signed by several signers (in signer order), each over its own account number. */
export function signTxMulti(registry: ProtoRegistry, signers: readonly Signer[], msgs: AnyMsg[], o: Partial<SignOptions> = {}): Uint8Array {
  return buildTx(registry, signers, msgs, { chainId: o.chainId ?? CHAIN_ID, memo: o.memo, fee: o.fee, gas: o.gas, denom: DENOM });
}

export const coins = (amount: number | bigint | string, denom = DENOM): Coin[] => [{ denom, amount: String(amount) }];

/** Genesis app_state: auth defaults and bank balances for the given (address, coins) pairs. */
export function genesisState(balances: { address: string; coins: Coin[] }[], bank: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    bank: {
      params: { send_enabled: [], default_send_enabled: true },
      balances: balances.map((b) => ({ address: b.address, coins: b.coins })),
      supply: [],
      denom_metadata: [],
      send_enabled: [],
      ...bank,
    },
  };
}

/** Events as [type, [[key, value], ...]] tuples (mode attributes dropped) for deep-equality checks. */
export function flatEvents(events: readonly Event[]): [string, [string, string][]][] {
  return events.map((e) => [e.type, e.attributes.map((a) => [a.key, a.value] as [string, string])]);
}
