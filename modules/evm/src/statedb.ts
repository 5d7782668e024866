/**
 * The state-manager adapter: ethereumjs' StateManagerInterface over a Context.
 *
 * - One account space: nonce = auth account sequence, balance = bank balance of the EVM denom, code hash,
 *   code and storage in the evm store (see keys.ts).
 * - checkpoint / commit / revert are a stack of `branch()` layers over the bound context's store: a
 *   checkpoint pushes a write buffer, commit flushes it into the layer below, revert drops it. Nothing is
 *   ever copied; with no checkpoint open, writes go straight to the bound store.
 * - Keeper calls go through an unmetered Context over the top layer whose events are dropped (EVM-internal
 *   balance moves emit no bank events; the tx's value is in `ethereum_tx.amount`). Gas is the EVM's own.
 * - Accounts read in a tx are cached (cleared on revert); code is cached by hash (content-addressed).
 */
import type { AccountFields, StateManagerInterface } from '@ethereumjs/common';
import { Account, KECCAK256_NULL, KECCAK256_RLP, bytesToUnprefixedHex, unpadBytes } from '@ethereumjs/util';
import type { Address } from '@ethereumjs/util';
import { Context, EventManager, InfiniteGasMeter } from '@chain/app';
import { keccak256 } from '@chain/crypto';
import { branch, prefixEnd } from '@chain/store';
import type { CacheKVStore, KVStore } from '@chain/store';
import type { EvmAccountKeeper, EvmBankKeeper } from './expected-keepers.js';
import { STORE_KEY, codeHashKey, codeKey, readBlockHash, storageKey, storagePrefix } from './keys.js';

const EMPTY = new Uint8Array(0);
const ZERO_ROOT = new Uint8Array(32);

/** An EventManager that drops everything (keeper events of EVM-internal state changes). */
class DroppedEvents extends EventManager {
  override emit(): void { /* dropped */ }
  override emitEvent(): void { /* dropped */ }
  override emitAll(): void { /* dropped */ }
}

/** Code by hash, shared by all executions (safe: a hash always names the same bytes). */
export class CodeCache {
  private readonly map = new Map<string, Uint8Array>();
  constructor(private readonly max = 2048) {}
  get(hashHex: string): Uint8Array | undefined { return this.map.get(hashHex); }
  set(hashHex: string, code: Uint8Array): void {
    if (this.map.size >= this.max) {
      const first = this.map.keys().next().value;
      if (first !== undefined) this.map.delete(first);
    }
    this.map.set(hashHex, code);
  }
}

interface CachedAccount {
  nonce: bigint;
  balance: bigint;
  codeHash: Uint8Array | undefined;
  /** an auth account is stored for the address */
  authExists: boolean;
}

function isEmpty(a: CachedAccount): boolean {
  return a.nonce === 0n && a.balance === 0n && a.codeHash === undefined;
}

export interface StateManagerDeps {
  readonly ak: EvmAccountKeeper;
  readonly bank: EvmBankKeeper;
  /** module account credited with value the EVM burns (see ContextStateManager.settle) */
  readonly feeCollector: string;
  readonly codeCache: CodeCache;
}

export class ContextStateManager implements StateManagerInterface {
  readonly originalStorageCache: { get(address: Address, key: Uint8Array): Promise<Uint8Array>; clear(): void };
  private base: Context | undefined;
  private baseEvm: KVStore | undefined;
  private layers: CacheKVStore[] = [];
  /** net balance change (wei) of the bound state and of each open checkpoint */
  private nets: bigint[] = [0n];
  private top!: Context;
  private evmStore!: KVStore;
  private denom = '';
  private readonly accounts = new Map<string, CachedAccount>();
  private readonly original = new Map<string, Uint8Array>();

  constructor(private readonly deps: StateManagerDeps) {
    this.originalStorageCache = {
      get: async (address, key) => this.originalStorage(address.bytes, key),
      clear: () => this.original.clear(),
    };
  }

  /** Binds the adapter to the state of `ctx`; its store is the base under all checkpoints. */
  bind(ctx: Context, denom: string): void {
    this.base = new Context(ctx.ms, ctx.block, 'block', new InfiniteGasMeter(), new DroppedEvents(), ctx.minGasPrices);
    this.baseEvm = this.base.kv(STORE_KEY);
    this.denom = denom;
    this.layers = [];
    this.nets = [0n];
    this.accounts.clear();
    this.original.clear();
    this.setTop(this.base);
  }

  /** Drops every open checkpoint and the references to the bound state. */
  unbind(): void {
    this.layers = [];
    this.nets = [0n];
    this.accounts.clear();
    this.original.clear();
    this.base = undefined;
    this.baseEvm = undefined;
  }

  /** The hash of block `height` kept in the bound state (BLOCKHASH), if within the kept window. */
  blockHash(height: bigint): Uint8Array | undefined {
    return this.baseEvm ? readBlockHash(this.baseEvm, height) : undefined;
  }

  /** Open checkpoints. */
  get depth(): number { return this.layers.length; }

  private setTop(ctx: Context): void {
    this.top = ctx;
    this.evmStore = ctx.kv(STORE_KEY);
  }

  private layerCtx(store: KVStore): Context {
    const b = this.base!;
    return new Context(store, b.block, 'block', b.gasMeter, b.events, b.minGasPrices);
  }

  // ---- accounts ----

  private load(addr: Uint8Array): CachedAccount {
    const k = bytesToUnprefixedHex(addr);
    let a = this.accounts.get(k);
    if (!a) {
      const acc = this.deps.ak.getAccount(this.top, addr);
      a = {
        nonce: acc?.base.sequence ?? 0n,
        balance: this.deps.bank.getBalance(this.top, addr, this.denom),
        codeHash: this.evmStore.get(codeHashKey(addr)),
        authExists: acc !== undefined,
      };
      this.accounts.set(k, a);
    }
    return a;
  }

  /** Empty accounts (no nonce, balance or code) do not exist for the EVM (EIP-161 semantics). */
  async getAccount(address: Address): Promise<Account | undefined> {
    const a = this.load(address.bytes);
    if (isEmpty(a)) return undefined;
    return new Account(a.nonce, a.balance, KECCAK256_RLP, a.codeHash ?? KECCAK256_NULL);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address);
    const addr = address.bytes;
    const a = this.load(addr);
    if (account.nonce !== a.nonce) {
      this.writeSequence(addr, account.nonce);
      a.nonce = account.nonce;
      a.authExists = true;
    }
    if (account.balance !== a.balance) {
      this.writeBalance(addr, a, account.balance);
      a.balance = account.balance;
    }
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const acc = (await this.getAccount(address)) ?? new Account();
    if (fields.nonce !== undefined) acc.nonce = fields.nonce;
    if (fields.balance !== undefined) acc.balance = fields.balance;
    await this.putAccount(address, acc);
  }

  /**
   * Clears code, storage, balance and nonce. Auth accounts are never removed (the account keeper has no
   * removal): the sequence goes to 0, so the account reads as empty, i.e. non-existent. A remaining balance
   * is destroyed like any other EVM burn (see settle()).
   */
  async deleteAccount(address: Address): Promise<void> {
    const addr = address.bytes;
    const a = this.load(addr);
    if (isEmpty(a)) return;
    if (a.codeHash) this.evmStore.delete(codeHashKey(addr));
    await this.clearStorage(address);
    if (a.balance > 0n) this.writeBalance(addr, a, 0n);
    if (a.nonce > 0n) this.writeSequence(addr, 0n);
    this.accounts.set(bytesToUnprefixedHex(addr), { nonce: 0n, balance: 0n, codeHash: undefined, authExists: a.authExists });
  }

  private writeSequence(addr: Uint8Array, nonce: bigint): void {
    const ak = this.deps.ak;
    const acc = ak.getAccount(this.top, addr) ?? ak.newAccountWithAddress(this.top, addr);
    acc.base.sequence = nonce;
    ak.setAccount(this.top, acc);
  }

  /** Moves the bank balance from `a.balance` to `to`; a funded address gets an auth account, as a bank send would create one. */
  private writeBalance(addr: Uint8Array, a: CachedAccount, to: bigint): void {
    const bank = this.deps.bank;
    const from = a.balance;
    this.nets[this.nets.length - 1]! += to - from;
    if (to > from) bank.addCoins(this.top, addr, [{ denom: this.denom, amount: (to - from).toString() }]);
    else bank.subCoins(this.top, addr, [{ denom: this.denom, amount: (from - to).toString() }]);
    if (to > 0n && !a.authExists) {
      this.deps.ak.setAccount(this.top, this.deps.ak.newAccountWithAddress(this.top, addr));
      a.authExists = true;
    }
  }

  /**
   * Balances the books after an execution (no checkpoint open). EVM value only moves, except that Ethereum
   * burns the balance of a contract created and self-destructed in one tx (SELFDESTRUCT to itself, or value
   * received after SELFDESTRUCT). The bank supply cannot shrink through raw balance writes, so burned value
   * is credited to the fee collector; value created from nothing would be a bug and throws.
   */
  settle(): void {
    if (this.layers.length > 0) throw new Error('settle with open checkpoints');
    const net = this.nets[0]!;
    this.nets[0] = 0n;
    if (net > 0n) throw new Error(`EVM execution created ${net}${this.denom} from nothing`);
    if (net < 0n) this.deps.bank.addCoins(this.top, this.deps.ak.getModuleAddress(this.deps.feeCollector), [{ denom: this.denom, amount: (-net).toString() }]);
  }

  // ---- code ----

  async putCode(address: Address, code: Uint8Array): Promise<void> {
    const addr = address.bytes;
    const a = this.load(addr);
    if (code.length === 0) {
      this.evmStore.delete(codeHashKey(addr));
      a.codeHash = undefined;
      return;
    }
    const hash = keccak256(code);
    const ck = codeKey(hash);
    if (!this.evmStore.has(ck)) this.evmStore.set(ck, code);
    this.evmStore.set(codeHashKey(addr), hash);
    this.deps.codeCache.set(bytesToUnprefixedHex(hash), code);
    a.codeHash = hash;
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const hash = this.load(address.bytes).codeHash;
    if (!hash) return EMPTY;
    const hex = bytesToUnprefixedHex(hash);
    let code = this.deps.codeCache.get(hex);
    if (!code) {
      code = this.evmStore.get(codeKey(hash)) ?? EMPTY;
      if (code.length > 0) this.deps.codeCache.set(hex, code);
    }
    return code;
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  // ---- storage ----

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    return this.evmStore.get(storageKey(address.bytes, key)) ?? EMPTY;
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    const v = unpadBytes(value);
    const k = storageKey(address.bytes, key);
    if (v.length === 0) this.evmStore.delete(k);
    else this.evmStore.set(k, v);
  }

  async clearStorage(address: Address): Promise<void> {
    const prefix = storagePrefix(address.bytes);
    for (const [k] of this.evmStore.iterator(prefix, prefixEnd(prefix))) this.evmStore.delete(k);
  }

  /** Storage at the start of the tx: read from the bound store under every checkpoint, memoized. */
  private originalStorage(addr: Uint8Array, key: Uint8Array): Uint8Array {
    const k = bytesToUnprefixedHex(addr) + bytesToUnprefixedHex(key);
    let v = this.original.get(k);
    if (v === undefined) {
      v = this.baseEvm?.get(storageKey(addr, key)) ?? EMPTY;
      this.original.set(k, v);
    }
    return v;
  }

  // ---- checkpoints ----

  async checkpoint(): Promise<void> {
    const layer = branch(this.top.ms);
    this.layers.push(layer);
    this.nets.push(0n);
    this.setTop(this.layerCtx(layer));
  }

  async commit(): Promise<void> {
    const layer = this.layers.pop();
    if (!layer) throw new Error('commit without checkpoint');
    layer.write();
    const net = this.nets.pop()!;
    this.nets[this.nets.length - 1]! += net;
    this.setTop(this.layers.length > 0 ? this.layerCtx(this.layers[this.layers.length - 1]!) : this.base!);
  }

  async revert(): Promise<void> {
    const layer = this.layers.pop();
    if (!layer) throw new Error('revert without checkpoint');
    layer.discard();
    this.nets.pop();
    this.accounts.clear();
    this.setTop(this.layers.length > 0 ? this.layerCtx(this.layers[this.layers.length - 1]!) : this.base!);
  }

  // ---- state root ----

  /**
   * There is no Ethereum state trie: the state commitment is the app hash of the block. The adapter
   * reports a constant zero root (BLOCKHASH/STATEROOT-style consumers never see it: the EVM does not read it).
   */
  async getStateRoot(): Promise<Uint8Array> { return ZERO_ROOT; }
  async setStateRoot(root: Uint8Array): Promise<void> {
    if (!root.every((b) => b === 0)) throw new Error('setStateRoot is not supported: state lives in the chain store');
  }
  async hasStateRoot(root: Uint8Array): Promise<boolean> { return root.length === 32 && root.every((b) => b === 0); }

  clearCaches(): void {
    this.accounts.clear();
  }

  shallowCopy(): StateManagerInterface {
    const copy = new ContextStateManager(this.deps);
    if (this.base) copy.bind(this.top, this.denom);
    return copy;
  }
}
