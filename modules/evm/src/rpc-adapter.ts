/**
 * The evm module as the Ethereum JSON-RPC of `@chain/server` uses it (its `EthereumExecution` interface, which
 * this object satisfies structurally, so that the module does not depend on the host): tx decoding and
 * wrapping, the effective gas price, the EIP-155 chain id, state-override checks, revert reasons, the error
 * identities the RPC maps, and tracing over the keeper. No transport here: the node composes this adapter with
 * the server (`apps/node/src/app-transports.ts`).
 */
import type { App, ReplayBlockRequest } from '@chain/app';
import type { ProtoObject } from '@chain/codec';
import { createAccessList } from './access-list.js';
import type { AccessListResult } from './access-list.js';
import { parseEip155ChainId } from './crypto.js';
import { EvmErrors } from './errors.js';
import { decodeEthTx, effectiveGasPrice, precheckEthTx, revertReason, wrapEthereumTx } from './ethtx.js';
import type { EthTx } from './ethtx.js';
import { Query } from './gen/chain/evm/v1.js';
import type { EvmKeeper } from './keeper.js';
import { MODULE_NAME, MSG_ETHEREUM_TX, STORE_KEY, storageKey } from './keys.js';
import type { EvmModule } from './module.js';
import { parseStateOverride } from './overrides.js';
import { simulateV1 } from './simulate.js';
import type { SimulateRequest, SimulatedBlock } from './simulate.js';
import { traceBlock, traceCall } from './trace.js';
import type { TracedTx, TracerOptions } from './trace.js';

export interface EvmRpcAdapterOptions {
  /** the chain's bech32 account prefix (the `from` of the MsgEthereumTx wrapping a raw tx) */
  readonly bech32Prefix: string;
  /** the evm keeper (default: that of the app's `evm` module) */
  readonly keeper?: EvmKeeper;
}

/** The evm module's side of the Ethereum JSON-RPC over `app` (`@chain/server`'s `EthereumExecution`). */
export class EvmRpcAdapter {
  readonly queryService = `/${Query.name}`;
  readonly keeper: EvmKeeper;
  private readonly bech32Prefix: string;

  constructor(private readonly app: App, opts: EvmRpcAdapterOptions) {
    const keeper = opts.keeper ?? app.module<EvmModule>(MODULE_NAME)?.keeper;
    if (!keeper) throw new Error(`the app has no ${MODULE_NAME} module`);
    this.keeper = keeper;
    this.bech32Prefix = opts.bech32Prefix;
  }

  chainId(cosmosChainId: string): bigint {
    return parseEip155ChainId(cosmosChainId);
  }

  ethereumTxsOf(msgs: readonly { readonly name: string; readonly message: ProtoObject }[]): Uint8Array[] {
    return msgs.filter((m) => m.name === MSG_ETHEREUM_TX).map((m) => m.message.raw as Uint8Array);
  }

  decodeTx(raw: Uint8Array, chainId: bigint, opts: { readonly allowUnprotected: boolean }): EthTx {
    return decodeEthTx(raw, chainId, opts);
  }

  effectiveGasPrice(tx: Pick<EthTx, 'gasFeeCap' | 'gasTipCap'>, baseFee: bigint): bigint {
    return effectiveGasPrice(tx, baseFee);
  }

  precheckTx(raw: Uint8Array, chainId: bigint): Promise<void> {
    return precheckEthTx(raw, chainId);
  }

  wrapTx(raw: Uint8Array, opts: { readonly chainId: bigint; readonly allowUnprotected: boolean }): { readonly tx: Uint8Array; readonly ethHash: Uint8Array; readonly decoded: EthTx } {
    return wrapEthereumTx(this.app.registry, raw, { chainId: opts.chainId, prefix: this.bech32Prefix, allowUnprotected: opts.allowUnprotected });
  }

  isUnprotectedTxError(e: unknown): boolean {
    return EvmErrors.UnprotectedTx.is(e);
  }

  validateStateOverride(overrides: unknown): void {
    parseStateOverride(overrides);
  }

  revertReason(ret: Uint8Array): string | undefined {
    return revertReason(ret);
  }

  traceBlock(req: ReplayBlockRequest, opts: TracerOptions, only?: string): Promise<TracedTx[]> {
    return traceBlock(this.app, this.keeper, req, opts, only);
  }

  traceCall(height: number | undefined, req: ProtoObject, opts: TracerOptions): Promise<unknown> {
    return this.app.atHeight(height, (q) => traceCall(this.keeper, q, req, opts));
  }

  createAccessList(height: number | undefined, req: ProtoObject): Promise<AccessListResult> {
    return this.app.atHeight(height, (q) => createAccessList(this.keeper, q, req));
  }

  simulateV1(height: number | undefined, req: SimulateRequest, seal: (b: SimulatedBlock) => string): Promise<SimulatedBlock[]> {
    return this.app.atHeight(height, (q) => simulateV1(this.keeper, q, req, seal));
  }

  /**
   * eth_getProof's keys (Ethermint's GetProof): the account under the SDK's x/auth layout (store `acc`, key
   * `0x01 || address`, which the auth module keeps as the SDK does), the slots under this module's own layout.
   */
  proofKeys(address: Uint8Array, slots: readonly Uint8Array[]): { account: { store: string; key: Uint8Array }; storage: { store: string; key: Uint8Array }[] } {
    const account = new Uint8Array(1 + address.length);
    account[0] = AUTH_ADDRESS_PREFIX;
    account.set(address, 1);
    return { account: { store: AUTH_STORE_KEY, key: account }, storage: slots.map((slot) => ({ store: STORE_KEY, key: storageKey(address, slot) })) };
  }
}

/** The SDK's x/auth store name and account key prefix (`AddressStoreKeyPrefix`). */
const AUTH_STORE_KEY = 'acc';
const AUTH_ADDRESS_PREFIX = 0x01;

/** The evm module's side of the Ethereum JSON-RPC over `app`; throws when the app has no evm module. */
export function evmRpcAdapter(app: App, opts: EvmRpcAdapterOptions): EvmRpcAdapter {
  return new EvmRpcAdapter(app, opts);
}
