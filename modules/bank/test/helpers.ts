/**
 * Test helpers: a small auth + bank chain composed only from the public APIs of the packages (the way
 * apps/node composes it), dev keys from the dev mnemonic, and SIGN_MODE_DIRECT tx signing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Context, EventManager, InfiniteGasMeter } from '@chain/app';
import type { Coin, DecCoin, ExecTxResult, FinalizeBlockResponse, QueryResponse } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule, createAnteHandler, FEE_COLLECTOR } from '@chain/auth';
import type { Account } from '@chain/auth';
import { ProtoRegistry } from '@chain/codec';
import type { AnyMsg, ProtoObject } from '@chain/codec';
import {
  DEV_MNEMONIC, derivePrivateKey, hdPath, secp256k1PublicKey, secp256k1Address, signSecp256k1Digest, sha256,
} from '@chain/crypto';
import { CommitStore, branch } from '@chain/store';
import type { CacheKVStore } from '@chain/store';
import type { Event } from '@chain/events';
import { BankKeeper, BankModule } from '../src/index.js';

export const CHAIN_ID = 'bank-test-1';
export const PREFIX = 'chain';
export const DENOM = 'achain';
export const GENESIS_TIME = new Date('2024-01-01T00:00:00Z');
/** module accounts of the test chain: the fee collector plus a minter/burner and a minter-only module */
export const MODULE_ACCOUNTS: Record<string, string[]> = {
  [FEE_COLLECTOR]: [],
  faucet: ['minter', 'burner'],
  mintonly: ['minter'],
};

export interface DevKey {
  readonly priv: Uint8Array;
  readonly pub: Uint8Array;
  readonly addr: Uint8Array;
  readonly address: string;
}

const codec = new AddressCodec(PREFIX);

/** Key `i` of the dev mnemonic under coin type 118. */
export function devKey(i: number): DevKey {
  const priv = derivePrivateKey(DEV_MNEMONIC, hdPath(118, i));
  const pub = secp256k1PublicKey(priv);
  const addr = secp256k1Address(pub);
  return { priv, pub, addr, address: codec.encode(addr) };
}

export function tempDir(tag: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `chain-${tag}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ChainOptions {
  readonly minGasPrices?: readonly DecCoin[];
  readonly chainId?: string;
}

/** One auth + bank chain on a CommitStore in a temp dir. */
export class TestChain {
  private constructor(
    readonly registry: ProtoRegistry,
    readonly codec: AddressCodec,
    readonly ak: AccountKeeper,
    readonly bk: BankKeeper,
    readonly app: App,
    readonly store: CommitStore,
    private readonly tmp: { dir: string; remove: () => void },
  ) {}

  static async create(opts: ChainOptions = {}): Promise<TestChain> {
    const tmp = tempDir('bank');
    const store = await CommitStore.open(tmp.dir);
    const registry = new ProtoRegistry();
    const addressCodec = new AddressCodec(PREFIX);
    const ak = new AccountKeeper({ registry, addressCodec, moduleAccounts: MODULE_ACCOUNTS });
    const blocked = new Set(Object.keys(MODULE_ACCOUNTS).map((n) => addressCodec.encode(ak.getModuleAddress(n))));
    const bk = new BankKeeper({ registry, accountKeeper: ak, blockedAddresses: blocked });
    const app = new App({
      registry,
      store,
      chainId: opts.chainId ?? CHAIN_ID,
      modules: [new AuthModule(ak), new BankModule(bk)],
      anteHandler: createAnteHandler(ak, bk),
      minGasPrices: opts.minGasPrices ?? [],
      order: { initGenesis: ['auth', 'bank'] },
    });
    return new TestChain(registry, addressCodec, ak, bk, app, store, tmp);
  }

  async close(): Promise<void> {
    await this.store.close().catch(() => undefined);
    this.tmp.remove();
  }

  /** InitChain with `appState` and commit the genesis block (height 1). */
  async init(appState: Record<string, unknown>): Promise<Uint8Array> {
    this.app.initChain({ time: GENESIS_TIME, appState });
    await this.app.finalizeBlock({ height: 1, time: GENESIS_TIME, txs: [], proposer: new Uint8Array(20) });
    return this.app.commit();
  }

  /** Finalizes and commits one block with `txs`. */
  async block(txs: Uint8Array[]): Promise<FinalizeBlockResponse> {
    const height = this.app.lastHeight + 1;
    const res = await this.app.finalizeBlock({ height, time: new Date(GENESIS_TIME.getTime() + height * 1000), txs, proposer: new Uint8Array(20) });
    await this.app.commit();
    return res;
  }

  /** Delivers one tx in its own block. */
  async deliver(tx: Uint8Array): Promise<ExecTxResult> {
    return (await this.block([tx])).txResults[0]!;
  }

  /** A context over the committed state (read only by convention). */
  ctx(): Context {
    return this.app.queryContext();
  }

  /** A writable block context over a branch of the committed state. */
  branchCtx(): { ctx: Context; state: CacheKVStore; events: EventManager } {
    const state = branch(this.store.state);
    const events = new EventManager();
    const ctx = new Context(state, { height: this.app.lastHeight + 1, time: GENESIS_TIME, chainId: CHAIN_ID, proposer: new Uint8Array() }, 'block', new InfiniteGasMeter(), events);
    return { ctx, state, events };
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
  const bodyBytes = registry.encode('chain.tx.v1beta1.TxBody', { messages: msgs, memo: o.memo ?? '' });
  const authInfoBytes = registry.encode('chain.tx.v1beta1.AuthInfo', {
    signer_infos: signers.map((s) => ({
      public_key: registry.packAny('chain.crypto.secp256k1.PubKey', { key: s.key.pub }, '/cosmos.crypto.secp256k1.PubKey'),
      mode_info: { single: { mode: 1 } },
      sequence: s.sequence,
    })),
    fee: { amount: o.fee ?? [{ denom: DENOM, amount: '100' }], gas_limit: o.gas ?? 200_000n, payer: '', granter: '' },
  });
  const signatures = signers.map((s) => {
    const signDoc = registry.encode('chain.tx.v1beta1.SignDoc', {
      body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, chain_id: o.chainId ?? CHAIN_ID, account_number: s.accountNumber,
    });
    return signSecp256k1Digest(s.key.priv, sha256(signDoc));
  });
  return registry.encode('chain.tx.v1beta1.TxRaw', { body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, signatures });
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
