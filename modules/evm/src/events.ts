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
