/**
 * What the Ethereum JSON-RPC needs from the chain's EVM, declared here so that the host knows no module: the
 * chain's EVM module implements it (`evmRpcAdapter` of `@chain/evm`) and the node hands it to
 * `startJsonRpcServer` through the `Backend`. Everything else the server does itself: blocks, receipts and
 * logs from the consensus source's blocks and results (the `ethereum_tx`, `tx_log`, `fee_market`,
 * `block_gas`, `block_bloom` events), the JSON shapes, filters and subscriptions. Each block's Ethereum header
 * is the EVM's: the chain's EVM computes it in consensus with `@chain/crypto`'s `encodeEthHeader` (so that
 * BLOCKHASH answers its hash) and declares it at the block's end in an `ethereum_block` event (`hash`,
 * `parent_hash`, `miner`, `state_root`, `transactions_root`, `receipts_root`, `number`, `gas_limit`, `gas_used`,
 * `timestamp`, `extra_data` = the CometBFT block hash, `base_fee`; the bloom is `block_bloom`'s), which the
 * server serves as it is once it has checked that the fields hash to `hash`.
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
   * gas_price, max_fee_per_gas, max_priority_fee_per_gas, max_fee_per_blob_gas (decimal), overrides, access_list,
   * block_overrides and blob_versioned_hashes as JSON text), `BaseFee` and `Params` (`allow_unprotected_txs`,
   * `block_gas_limit`).
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
  /**
   * Optional: work on a raw tx that can run ahead of `wrapTx` off the event loop (the sender's recovery on worker
   * threads), whose result `wrapTx` then reuses. Never throws: errors are `wrapTx`'s to report.
   */
  precheckTx?(raw: Uint8Array, chainId: bigint): Promise<void>;
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
  /**
   * eth_simulateV1 (geth's semantics) on the state at `height`, on the same budgeted lane as `EthCall` (the
   * node's gas cap across all calls, one time limit, yielding to the event loop); never writes state. `seal` is
   * called with each executed block in order and answers its Ethereum hash (the server builds the block's
   * view), which the next block links to and BLOCKHASH sees. Errors carrying a numeric `rpcCode` are answered
   * with that code (geth's -38xxx, -32602, -32603). Absent: the method is not served (-32601).
   */
  simulateV1?(height: number | undefined, req: EthSimulateRequest, seal: (b: EthSimulatedBlock) => string): Promise<EthSimulatedBlock[]>;
  /**
   * The raw state keys eth_getProof proves, as Ethermint's GetProof: the account in the auth store (`acc`,
   * `0x01 || address`) and each storage slot (32 bytes) in the EVM's store. Absent: eth_getProof is not served
   * (-32601).
   */
  proofKeys?(address: Uint8Array, slots: readonly Uint8Array[]): { readonly account: StateKeyRef; readonly storage: readonly StateKeyRef[] };
}

/** A key of the raw state, as `abci_query` reads it on `/store/<store>/key`. */
export interface StateKeyRef {
  readonly store: string;
  readonly key: Uint8Array;
}

/** One call of a simulated block (geth's TransactionArgs, parsed; absent fields undefined). */
export interface EthSimulateCall {
  readonly from?: string;
  readonly to?: string;
  readonly input?: Uint8Array;
  readonly value?: bigint;
  readonly gas?: bigint;
  readonly gasPrice?: bigint;
  readonly maxFeePerGas?: bigint;
  readonly maxPriorityFeePerGas?: bigint;
  readonly nonce?: bigint;
  readonly chainId?: bigint;
  /** the EIP-2930 list as JSON `[{address, storageKeys}]` */
  readonly accessList?: unknown;
  /** EIP-4844 blobVersionedHashes (0x 32-byte hashes; geth's BlobHashes: given, even empty, makes a blob call) */
  readonly blobVersionedHashes?: readonly string[];
  /** EIP-4844 maxFeePerBlobGas */
  readonly maxFeePerBlobGas?: bigint;
}

/** What eth_simulateV1 asks of the EVM: the blocks (overrides as geth's JSON) on top of `base`. */
export interface EthSimulateRequest {
  readonly blocks: readonly {
    readonly blockOverrides?: unknown;
    readonly stateOverrides?: unknown;
    readonly calls: readonly EthSimulateCall[];
  }[];
  readonly validation: boolean;
  readonly traceTransfers: boolean;
  /** the block of the block parameter, as the JSON-RPC serves it */
  readonly base: { readonly number: bigint; readonly hash: string; readonly timestamp: bigint; readonly gasLimit: bigint; readonly miner: string };
}

/** One executed simulated block: its header fields, the unsigned txs its calls stand for, the call results. */
export interface EthSimulatedBlock {
  readonly number: bigint;
  readonly timestamp: bigint;
  readonly gasLimit: bigint;
  readonly gasUsed: bigint;
  readonly miner: string;
  readonly baseFee: bigint;
  /** 0x 32 bytes: the header's mixHash */
  readonly prevRandao: string;
  readonly parentHash: string;
  /** EIP-4844: the blob gas of the block's blob calls, and the block's excess blob gas */
  readonly blobGasUsed: bigint;
  readonly excessBlobGas: bigint;
  readonly txs: readonly {
    /** 3: a call with blobVersionedHashes (and no gasPrice) */
    readonly type: 0 | 2 | 3;
    readonly maxFeePerBlobGas?: bigint;
    readonly blobVersionedHashes?: readonly string[];
    readonly chainId: bigint;
    readonly nonce: bigint;
    readonly gas: bigint;
    readonly gasPrice: bigint;
    readonly maxFeePerGas: bigint;
    readonly maxPriorityFeePerGas: bigint;
    readonly to: string | undefined;
    readonly value: bigint;
    readonly input: Uint8Array;
    readonly accessList: readonly { readonly address: string; readonly storageKeys: readonly string[] }[];
    readonly from: string;
  }[];
  readonly calls: readonly {
    readonly returnData: Uint8Array;
    /** `transfer`: an ERC-7528 log of traceTransfers, not part of the receipt */
    readonly logs: readonly { readonly address: string; readonly topics: readonly string[]; readonly data: string; readonly logIndex: number; readonly transfer?: boolean }[];
    readonly gasUsed: bigint;
    readonly maxUsedGas: bigint;
    readonly status: 0 | 1;
    readonly error?: { readonly message: string; readonly code: number; readonly data?: string };
    readonly cumulativeGasUsed: bigint;
    readonly contractAddress?: string;
  }[];
}

/** What eth_createAccessList answers: the list, the gas used with it, the vm error when the call failed. */
export interface EthAccessListResult {
  readonly accessList: readonly { readonly address: string; readonly storageKeys: readonly string[] }[];
  readonly gasUsed: bigint;
  readonly vmError: string | undefined;
}
