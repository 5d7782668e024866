/**
 * What the Ethereum JSON-RPC needs from the chain's EVM, declared here so that the host knows no module: the
 * chain's EVM module implements it (`evmRpcAdapter` of `@chain/evm`) and the node hands it to
 * `startJsonRpcServer` through the `Backend`. Everything else the server does itself: blocks, receipts and
 * logs from the consensus source's blocks and results (the `ethereum_tx`, `tx_log`, `fee_market`,
 * `block_gas`, `block_bloom` events), the trie roots and blooms, the JSON shapes, filters and subscriptions.
 */
import type { ProtoObject } from '@chain/codec';
import type { ReplayBlockRequest } from '@chain/app';

/** A decoded, signature-checked Ethereum tx: the fields the JSON-RPC shows. */
export interface EthTxView {
  /** the signed tx (the typed envelope `type || rlp(...)`, plain RLP for legacy) */
  readonly raw: Uint8Array;
  /** 0x keccak256(raw), lowercase */
  readonly hashHex: string;
  /** 0 legacy, 1 EIP-2930, 2 EIP-1559 */
  readonly type: number;
  readonly chainId: bigint;
  readonly nonce: bigint;
  readonly gasLimit: bigint;
  /** gasPrice for legacy / 2930 txs, maxFeePerGas for 1559 */
  readonly gasFeeCap: bigint;
  /** gasPrice for legacy / 2930 txs, maxPriorityFeePerGas for 1559 */
  readonly gasTipCap: bigint;
  readonly to: Uint8Array | undefined;
  readonly value: bigint;
  readonly data: Uint8Array;
  /** [address, slots] pairs of the EIP-2930 access list */
  readonly accessList: readonly (readonly [Uint8Array, readonly Uint8Array[]])[];
  /** the recovered sender (20 bytes) */
  readonly sender: Uint8Array;
  /** signed for a chain id (EIP-155 or typed); false for a legacy tx with v = 27/28 */
  readonly protected: boolean;
}

/** geth's TraceConfig, parsed: the tracer and its options. */
export interface EthTraceOptions {
  /** undefined or '' → the struct logger; 'callTracer' */
  readonly tracer?: string;
  readonly tracerConfig?: { readonly onlyTopCall?: boolean; readonly withLog?: boolean };
  /** time limit of each traced run (ms) */
  readonly timeoutMs?: number;
  readonly disableStack?: boolean;
  readonly disableStorage?: boolean;
  readonly enableMemory?: boolean;
  readonly enableReturnData?: boolean;
  /** maximum number of struct log entries; 0 or absent: no limit */
  readonly limit?: number;
}

/** One traced Ethereum tx of a replayed block. */
export interface EthTracedTx {
  /** 0x Ethereum tx hash */
  readonly hash: string;
  /** the tracer's result (JSON) */
  readonly result: unknown;
  /** the replayed run: gas used after refunds, and the vm error when it failed (checked against the receipt) */
  readonly execution: { readonly gasUsed: bigint; readonly vmError?: string | undefined };
}

/**
 * The chain's EVM as the Ethereum JSON-RPC uses it. Errors thrown by the methods become JSON-RPC errors
 * (-32000 with their message, unless stated otherwise).
 */
export interface EthereumExecution {
  /**
   * The EVM's query service (e.g. `/chain.evm.v1.Query`), which answers Ethermint's queries `Balance`,
   * `Account`, `Code`, `Storage`, `EthCall`, `EstimateGas` (an EthCallRequest: from, to, data, value, gas,
   * gas_price, overrides as JSON text), `BaseFee` and `Params` (`allow_unprotected_txs`, `block_gas_limit`).
   */
  readonly queryService: string;
  /** The EIP-155 chain id of a Cosmos chain id (`name_9000-1` → 9000). */
  chainId(cosmosChainId: string): bigint;
  /** The signed Ethereum txs among the messages of a decoded Cosmos tx (none for a Cosmos tx). */
  ethereumTxsOf(msgs: readonly { readonly name: string; readonly message: ProtoObject }[]): Uint8Array[];
  /** Decodes and signature-checks a signed Ethereum tx; throws when malformed or (unless allowed) unprotected. */
  decodeTx(raw: Uint8Array, chainId: bigint, opts: { readonly allowUnprotected: boolean }): EthTxView;
  /** The gas price a tx pays at a base fee. */
  effectiveGasPrice(tx: EthTxView, baseFee: bigint): bigint;
  /** Wraps a signed Ethereum tx into the Cosmos tx the chain executes (what eth_sendRawTransaction broadcasts). */
  wrapTx(raw: Uint8Array, opts: { readonly chainId: bigint; readonly allowUnprotected: boolean }): {
    readonly tx: Uint8Array;
    readonly ethHash: Uint8Array;
    readonly decoded: EthTxView;
  };
  /** Whether `e` is the error of an unprotected (pre-EIP-155) tx the decoding refused. */
  isUnprotectedTxError(e: unknown): boolean;
  /** Checks a geth StateOverride (JSON); throws with the reason when malformed (answered -32602). */
  validateStateOverride(overrides: unknown): void;
  /** The reason of `Error(string)` / `Panic(uint256)` revert data, if it decodes. */
  revertReason(ret: Uint8Array): string | undefined;
  /**
   * Replays block `req` on the state after the previous height and traces its Ethereum txs (only the one of
   * hash `only` when given). Throws on an unknown tracer or a timeout (geth's messages).
   */
  traceBlock(req: ReplayBlockRequest, opts: EthTraceOptions, only?: string): Promise<EthTracedTx[]>;
  /** Traces an EthCallRequest (as for `EthCall`) on the state at `height` (latest when undefined). */
  traceCall(height: number | undefined, req: ProtoObject, opts: EthTraceOptions): Promise<unknown>;
  /**
   * eth_createAccessList (geth's semantics) of an EthCallRequest plus `access_list` (the starting EIP-2930
   * list, JSON) on the state at `height`, on the same budgeted lane as `EthCall`. Throws as `EthCall` does
   * (gRPC status errors for bad requests and timeouts). Absent: the method is not served (-32601).
   */
  createAccessList?(height: number | undefined, req: ProtoObject): Promise<EthAccessListResult>;
}

/** What eth_createAccessList answers: the list, the gas used with it, the vm error when the call failed. */
export interface EthAccessListResult {
  readonly accessList: readonly { readonly address: string; readonly storageKeys: readonly string[] }[];
  readonly gasUsed: bigint;
  readonly vmError: string | undefined;
}
