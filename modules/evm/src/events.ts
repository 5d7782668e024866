/** Events of the evm module: types, attribute keys, and one constructor per event (see README, "Events"). */
import type { Context } from '@chain/app';

/** Emitted by MsgEthereumTx. */
export const EVENT_ETHEREUM_TX = 'ethereum_tx';
export const EVENT_ETHEREUM = 'ethereum';
export const EVENT_TX_LOG = 'tx_log';
/** Emitted by the block hooks (the fee market). */
export const EVENT_FEE_MARKET = 'fee_market';
export const EVENT_BLOCK_GAS = 'block_gas';
export const EVENT_BLOCK_BLOOM = 'block_bloom';
/** Emitted at EndBlock: the block's Ethereum header (the one BLOCKHASH and the JSON-RPC see). */
export const EVENT_ETHEREUM_BLOCK = 'ethereum_block';

/** Attribute keys of the MsgEthereumTx events. */
export const ATTR = {
  amount: 'amount',
  ethereumTxHash: 'ethereumTxHash',
  txIndex: 'txIndex',
  txGasUsed: 'txGasUsed',
  txHash: 'txHash',
  txType: 'txType',
  recipient: 'recipient',
  contractAddress: 'contractAddress',
  sender: 'sender',
  failed: 'ethereumTxFailed',
  txLog: 'txLog',
} as const;

/** Attribute keys of the block events. */
export const BLOCK_ATTR = {
  baseFee: 'base_fee',
  height: 'height',
  amount: 'amount',
  bloom: 'bloom',
} as const;

/** Attribute keys of `ethereum_block` (every header field that varies; the bloom is `block_bloom`'s). */
export const ETH_BLOCK_ATTR = {
  hash: 'hash',
  parentHash: 'parent_hash',
  miner: 'miner',
  stateRoot: 'state_root',
  transactionsRoot: 'transactions_root',
  receiptsRoot: 'receipts_root',
  number: 'number',
  gasLimit: 'gas_limit',
  gasUsed: 'gas_used',
  timestamp: 'timestamp',
  extraData: 'extra_data',
  baseFee: 'base_fee',
} as const;

/** JSON of one log in a `tx_log.txLog` attribute. */
export interface TxLogJSON {
  address: string;
  topics: string[];
  data: string;
  blockNumber: number;
  transactionHash: string;
  transactionIndex: number;
  logIndex: number;
  removed: boolean;
}

/** An event before it is emitted: its type and its attributes in order. */
export interface EvmEvent {
  readonly type: string;
  readonly attributes: [string, string][];
}

export function emit(ctx: Context, e: EvmEvent): void {
  ctx.events.emit(e.type, e.attributes);
}

/** What `ethereum_tx` reports of one executed Ethereum tx. */
export interface EthereumTxEventFields {
  /** wei, decimal */
  readonly amount: string;
  readonly ethereumTxHash: string;
  readonly txIndex: string;
  readonly txGasUsed: string;
  /** hex of the Cosmos tx hash, upper case */
  readonly txHash: string;
  readonly txType: string;
  readonly sender: string;
  /** the callee, or '' for a contract creation (then `contractAddress` is reported) */
  readonly recipient: string;
  readonly contractAddress: string;
  /** the EVM error of a failed execution */
  readonly failed: string | undefined;
}

export function ethereumTxEvent(f: EthereumTxEventFields): EvmEvent {
  const attributes: [string, string][] = [
    [ATTR.amount, f.amount],
    [ATTR.ethereumTxHash, f.ethereumTxHash],
    [ATTR.txIndex, f.txIndex],
    [ATTR.txGasUsed, f.txGasUsed],
    [ATTR.txHash, f.txHash],
    [ATTR.txType, f.txType],
    [ATTR.sender, f.sender],
  ];
  if (f.recipient) attributes.push([ATTR.recipient, f.recipient]);
  else attributes.push([ATTR.contractAddress, f.contractAddress]);
  if (f.failed !== undefined) attributes.push([ATTR.failed, f.failed]);
  return { type: EVENT_ETHEREUM_TX, attributes };
}

/** `ethereum{sender, recipient, ethereumTxHash}`: `recipient` is the created contract for a creation. */
export const ethereumEvent = (sender: string, recipient: string, ethereumTxHash: string): EvmEvent => ({
  type: EVENT_ETHEREUM,
  attributes: [[ATTR.sender, sender], [ATTR.recipient, recipient], [ATTR.ethereumTxHash, ethereumTxHash]],
});

/** `tx_log` with one `txLog` attribute (JSON) per log. */
export const txLogEvent = (logs: readonly TxLogJSON[]): EvmEvent => ({
  type: EVENT_TX_LOG,
  attributes: logs.map((l): [string, string] => [ATTR.txLog, JSON.stringify(l)]),
});

export const feeMarketEvent = (baseFee: bigint): EvmEvent => ({
  type: EVENT_FEE_MARKET,
  attributes: [[BLOCK_ATTR.baseFee, baseFee.toString()]],
});

export const blockGasEvent = (height: number, gasUsed: bigint): EvmEvent => ({
  type: EVENT_BLOCK_GAS,
  attributes: [[BLOCK_ATTR.height, String(height)], [BLOCK_ATTR.amount, gasUsed.toString()]],
});

/** `block_bloom{bloom}`: `bloom` is 0x hex. */
export const blockBloomEvent = (bloom: string): EvmEvent => ({
  type: EVENT_BLOCK_BLOOM,
  attributes: [[BLOCK_ATTR.bloom, bloom]],
});

/**
 * `ethereum_block{hash, parent_hash, miner, state_root, transactions_root, receipts_root, number, gas_limit,
 * gas_used, timestamp, extra_data, base_fee}`: the block's Ethereum header (0x hex; quantities in decimal),
 * whose keccak256(RLP) with `block_bloom`'s bloom is `hash`.
 */
export function ethereumBlockEvent(h: {
  readonly hash: string; readonly parentHash: string; readonly miner: string; readonly stateRoot: string; readonly transactionsRoot: string;
  readonly receiptsRoot: string; readonly number: bigint; readonly gasLimit: bigint; readonly gasUsed: bigint; readonly timestamp: bigint;
  readonly extraData: string; readonly baseFee: bigint;
}): EvmEvent {
  const a = ETH_BLOCK_ATTR;
  return {
    type: EVENT_ETHEREUM_BLOCK,
    attributes: [
      [a.hash, h.hash], [a.parentHash, h.parentHash], [a.miner, h.miner], [a.stateRoot, h.stateRoot], [a.transactionsRoot, h.transactionsRoot],
      [a.receiptsRoot, h.receiptsRoot], [a.number, h.number.toString()], [a.gasLimit, h.gasLimit.toString()], [a.gasUsed, h.gasUsed.toString()],
      [a.timestamp, h.timestamp.toString()], [a.extraData, h.extraData], [a.baseFee, h.baseFee.toString()],
    ],
  };
}
