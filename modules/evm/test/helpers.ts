/**
 * Test helpers: an auth + bank + evm chain composed only from the packages' public APIs on a CommitStore in
 * a temp dir (the way apps/node composes it), coin type 60 dev keys, and signed Ethereum txs wrapped into
 * the Cosmos tx the chain executes.
 */
import type { App, Context, DecCoin, ExecTxResult, FinalizeBlockResponse } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule, createAnteHandler, FEE_COLLECTOR } from '@chain/auth';
import { BankKeeper, BankModule } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import type { ProtoObject } from '@chain/codec';
import { DEV_MNEMONIC, derivePrivateKey, ethAddress, hdPath, secp256k1PublicKey, toChecksumAddress } from '@chain/crypto';
import type { CommitStore } from '@chain/store';
import { TestChain as BaseChain, testAppConfig, tempDir as sharedTempDir, GENESIS_TIME as SHARED_GENESIS_TIME } from '@chain/testing';
import type { Event } from '@chain/events';
import { createAccessList2930Tx, createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx';
import type { AccessList } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import type { PrefixedHexString } from '@ethereumjs/util';
import { EvmKeeper, EvmModule, commonFor, createEvmAnteHandler, routeAnte, wrapEthereumTx } from '../src/index.js';
import type { EvmParams } from '../src/index.js';

export const CHAIN_ID = 'chain_1337-1';
export const ETH_CHAIN_ID = 1337n;
export const PREFIX = 'chain';
export const DENOM = 'achain';
export const GENESIS_TIME = SHARED_GENESIS_TIME;
export const ETHER = 10n ** 18n;
export const GWEI = 10n ** 9n;
export const MODULE_ACCOUNTS: Record<string, string[]> = { [FEE_COLLECTOR]: [] };

export interface EthKey {
  readonly priv: Uint8Array;
  readonly addr: Uint8Array;
  /** bech32 */
  readonly address: string;
  /** EIP-55 */
  readonly hex: string;
}

const codec = new AddressCodec(PREFIX);

/** Key `i` of the dev mnemonic under coin type 60 (Ethereum). */
export function ethKey(i: number): EthKey {
  const priv = derivePrivateKey(DEV_MNEMONIC, hdPath(60, i));
  const addr = ethAddress(secp256k1PublicKey(priv));
  return { priv, addr, address: codec.encode(addr), hex: toChecksumAddress(addr) };
}

export interface EthTxOptions {
  type?: 0 | 1 | 2;
  to?: Uint8Array | string;
  value?: bigint;
  data?: Uint8Array;
  gasLimit?: bigint;
  nonce?: bigint;
  /** 1559 */
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  /** legacy / 2930 */
  gasPrice?: bigint;
  accessList?: AccessList;
  chainId?: bigint;
}

/** A signed raw Ethereum tx (EIP-1559 by default). */
export function signEthTx(key: EthKey, o: EthTxOptions & { nonce: bigint }): Uint8Array {
  const chainId = o.chainId ?? ETH_CHAIN_ID;
  const common = commonFor(chainId);
  const to = o.to === undefined ? undefined : typeof o.to === 'string' ? (o.to as PrefixedHexString) : bytesToHex(o.to);
  const base = { nonce: o.nonce, gasLimit: o.gasLimit ?? 100_000n, to, value: o.value ?? 0n, data: o.data ?? new Uint8Array() };
  const type = o.type ?? 2;
  if (type === 0) return createLegacyTx({ ...base, gasPrice: o.gasPrice ?? 2n * GWEI }, { common }).sign(key.priv).serialize();
  if (type === 1) return createAccessList2930Tx({ ...base, chainId, gasPrice: o.gasPrice ?? 2n * GWEI, accessList: o.accessList ?? [] }, { common }).sign(key.priv).serialize();
  return createFeeMarket1559Tx({
    ...base, chainId, maxFeePerGas: o.maxFeePerGas ?? 2n * GWEI, maxPriorityFeePerGas: o.maxPriorityFeePerGas ?? 0n, accessList: o.accessList ?? [],
  }, { common }).sign(key.priv).serialize();
}

export const tempDir = sharedTempDir;

export interface ChainOptions {
  readonly minGasPrices?: readonly DecCoin[];
  readonly evmParams?: Partial<EvmParams>;
  readonly evmGenesis?: Record<string, unknown>;
  /** extra bank balances (bech32 → amount) */
  readonly balances?: Record<string, bigint>;
  /** the keeper's eth_call / eth_estimateGas time limit */
  readonly queryTimeoutMs?: number;
  /** the keeper's eth_call / eth_estimateGas gas cap (default 25M) */
  readonly gasCap?: bigint;
}

/** One auth + bank + evm chain on a CommitStore in a temp dir, dev keys 0..4 funded with 1000 ETH. */
export class EvmTestChain {
  readonly app: App;
  readonly store: CommitStore;
  private constructor(
    readonly registry: ProtoRegistry,
    readonly ak: AccountKeeper,
    readonly bk: BankKeeper,
    readonly evm: EvmKeeper,
    readonly base: BaseChain,
  ) {
    this.app = base.app;
    this.store = base.store;
  }

  static async create(opts: ChainOptions = {}): Promise<EvmTestChain> {
    const registry = new ProtoRegistry();
    const addressCodec = new AddressCodec(PREFIX);
    const ak = new AccountKeeper({ registry, addressCodec, moduleAccounts: MODULE_ACCOUNTS });
    const blocked = new Set(Object.keys(MODULE_ACCOUNTS).map((n) => addressCodec.encode(ak.getModuleAddress(n))));
    const bk = new BankKeeper({ registry, accountKeeper: ak, blockedAddresses: blocked });
    // the app hash a block starts from, as the node composes it (`lastAppHash: () => app.lastAppHash`)
    let app: App | undefined;
    const evm = new EvmKeeper({ registry, accountKeeper: ak, bankKeeper: bk, queryTimeoutMs: opts.queryTimeoutMs, gasCap: opts.gasCap, lastAppHash: () => app!.lastAppHash });
    const modules = [new AuthModule(ak), new BankModule(bk), new EvmModule(evm)];
    const base = await BaseChain.open({
      registry,
      chainId: CHAIN_ID,
      modules,
      config: testAppConfig(modules),
      anteHandler: routeAnte(createEvmAnteHandler(evm), createAnteHandler(ak, bk)),
      minGasPrices: opts.minGasPrices ?? [],
      proposer: new Uint8Array(20).fill(7),
    });
    app = base.app;
    const chain = new EvmTestChain(registry, ak, bk, evm, base);
    const balances = [0, 1, 2, 3, 4].map((i) => ({ address: ethKey(i).address, coins: [{ denom: DENOM, amount: (1000n * ETHER).toString() }] }));
    for (const [address, amount] of Object.entries(opts.balances ?? {})) balances.push({ address, coins: [{ denom: DENOM, amount: amount.toString() }] });
    const defaults = app.defaultGenesis() as Record<string, Record<string, unknown>>;
    const evmGenesis = { ...defaults.evm!, ...(opts.evmGenesis ?? {}) };
    evmGenesis.params = { ...(defaults.evm!.params as object), ...(opts.evmParams ?? {}) };
    if (opts.evmParams?.block_gas_limit !== undefined) (evmGenesis.params as Record<string, unknown>).block_gas_limit = opts.evmParams.block_gas_limit.toString();
    await base.init({ bank: { ...defaults.bank!, balances }, evm: evmGenesis });
    return chain;
  }

  async close(): Promise<void> {
    await this.base.close();
  }

  async block(txs: Uint8Array[]): Promise<FinalizeBlockResponse> {
    return this.base.block(txs);
  }

  async deliver(tx: Uint8Array): Promise<ExecTxResult> {
    return (await this.block([tx])).txResults[0]!;
  }

  ctx(): Context {
    return this.app.queryContext();
  }

  balance(addr: Uint8Array): bigint {
    return this.bk.getBalance(this.ctx(), addr, DENOM);
  }

  /** The account sequence (= Ethereum nonce). */
  nonce(addr: Uint8Array): bigint {
    return this.ak.getAccount(this.ctx(), addr)?.base.sequence ?? 0n;
  }

  baseFee(): bigint {
    return this.evm.getBaseFee(this.ctx());
  }

  /** The Cosmos tx wrapping a signed Ethereum tx. */
  wrap(raw: Uint8Array): Uint8Array {
    return wrapEthereumTx(this.registry, raw, { chainId: ETH_CHAIN_ID, prefix: PREFIX }).tx;
  }

  /** Signs with the key's current nonce (unless given) and wraps. */
  ethTx(key: EthKey, o: EthTxOptions = {}): Uint8Array {
    return this.wrap(signEthTx(key, { ...o, nonce: o.nonce ?? this.nonce(key.addr) }));
  }

  /** ABCI query through the router (proto in, proto out); throws with the log on failure. */
  async query<T = ProtoObject>(method: string, req: ProtoObject): Promise<T> {
    const route = this.app.router.queryRoute(`/chain.evm.v1.Query/${method}`)!;
    const res = await this.app.query({ path: route.path, data: this.registry.encode(route.requestType, req) });
    if (res.code !== 0) throw new Error(`query ${method} failed: ${res.code} ${res.log}`);
    return this.registry.decode<T>(route.responseType, res.value);
  }

  /** eth_call through the query service. */
  async call(req: { from?: string; to?: string; data?: Uint8Array; value?: bigint; gas?: bigint }): Promise<{ ret: Uint8Array; vm_error: string; gas_used: bigint }> {
    return this.query('EthCall', { from: req.from ?? '', to: req.to ?? '', data: req.data ?? new Uint8Array(), value: (req.value ?? 0n).toString(), gas: req.gas ?? 0n, gas_price: '' });
  }
}

/** The attributes of the events of `type`, one record per event. */
export function eventsOf(events: readonly Event[], type: string): Record<string, string>[] {
  return events.filter((e) => e.type === type).map((e) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value])));
}

/** All values of `type.key` across events. */
export function attrValues(events: readonly Event[], type: string, key: string): string[] {
  return events.filter((e) => e.type === type).flatMap((e) => e.attributes.filter((a) => a.key === key).map((a) => a.value));
}
