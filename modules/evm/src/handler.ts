/**
 * The MsgEthereumTx handler: executes the verified Ethereum tx, refunds the unused gas from the fee
 * collector, charges the Cosmos gas meter with the Ethereum gas used, and emits the events.
 *
 * A reverted (or otherwise failed) execution is not a failed Cosmos message (Ethermint's behaviour): the tx
 * is included with ABCI code 0, its gas is charged, the EVM state changes are rolled back (the nonce
 * increment and the fee stay), and `ethereum_tx.ethereumTxFailed` / `MsgEthereumTxResponse.vm_error` say why.
 */
import type { Context, MsgServer } from '@chain/app';
import { toHex } from '@chain/crypto';
import { bigIntToBytes, bytesToHex, generateAddress } from '@ethereumjs/util';
import { verifiedEthTx } from './ante.js';
import type { VerifiedEthTx } from './ante.js';
import { EvmErrors } from './errors.js';
import { emit, ethereumEvent, ethereumTxEvent, txLogEvent } from './events.js';
import type { TxLogJSON } from './events.js';
import type { ExecutionResult, Message } from './executor.js';
import { hexAddress } from './ethtx.js';
import type { MsgEthereumTxResponse, MsgMethods } from './gen/chain/evm/v1.js';
import { unmetered } from './keeper.js';
import type { EvmKeeper } from './keeper.js';

/** The Msg service of evm (`chain.evm.v1.Msg`): EthereumTx, for txs the evm ante handler verified. */
export function createMsgServer(keeper: EvmKeeper): MsgServer<MsgMethods> {
  return {
    EthereumTx: async (ctx, msg) => {
      const v = verifiedEthTx(msg);
      if (!v) throw EvmErrors.NotVerified.wrap('send it in a tx with the ExtensionOptionsEthereumTx extension option through the evm ante handler');
      return applyEthereumTx(keeper, ctx, v);
    },
  };
}

export async function applyEthereumTx(keeper: EvmKeeper, ctx: Context, v: VerifiedEthTx): Promise<MsgEthereumTxResponse> {
  const etx = v.tx;
  // a tx of a block replayed for tracing runs with its tracer (and the trace's time limit)
  const trace = keeper.txTracing(ctx, etx.hashHex);
  const msg: Message = {
    caller: etx.sender,
    to: etx.to,
    value: etx.value,
    data: etx.data,
    gasLimit: etx.gasLimit,
    gasPrice: v.gasPrice,
    intrinsicGas: etx.intrinsicGas,
    floorGas: etx.floorGas,
    accessList: etx.accessList,
    nonceIncremented: true,
  };
  let res: ExecutionResult;
  try {
    // a simulation (the tx service's Simulate) is a query: it runs on a budgeted lane that yields to the
    // event loop and stops at the evm-timeout, so an endless simulated tx cannot stall the node
    const budget = trace?.budget ?? (ctx.isSimulate ? keeper.queryBudget() : undefined);
    res = await keeper.execute(ctx, msg, undefined, budget, trace?.tracer);
  } catch (e) {
    if (trace) trace.error = e;
    throw e;
  }

  // refund the unused gas at the price it was paid
  const u = unmetered(ctx);
  const denom = keeper.params(u).denom;
  const refund = (etx.gasLimit - res.gasUsed) * v.gasPrice;
  if (refund > 0n) keeper.bank.sendCoinsFromModuleToAccount(u, keeper.feeCollector, etx.sender, [{ denom, amount: refund.toString() }]);
  // the Cosmos gas used of the tx is its Ethereum gas used (the ante handler charged the intrinsic part)
  const extra = res.gasUsed - v.gasCharged;
  if (extra > 0n) ctx.gasMeter.consume(Number(extra), 'ethereum tx execution');

  const { txIndex, firstLogIndex } = keeper.trackTx(ctx, etx, res.vmError === undefined, res.gasUsed, res.logs);
  const height = ctx.block.height;
  const logs = res.logs.map(([address, topics, data], i) => ({
    address: hexAddress(address),
    topics: topics.map((t) => bytesToHex(t)),
    data,
    block_number: BigInt(height),
    tx_hash: etx.hashHex,
    tx_index: BigInt(txIndex),
    block_hash: '',
    index: BigInt(firstLogIndex + i),
    removed: false,
  }));
  const contract = etx.to === undefined ? hexAddress(generateAddress(etx.sender, bigIntToBytes(etx.nonce))) : '';
  const sender = hexAddress(etx.sender);
  const recipient = etx.to !== undefined ? hexAddress(etx.to) : '';

  emit(ctx, ethereumTxEvent({
    amount: etx.value.toString(),
    ethereumTxHash: etx.hashHex,
    txIndex: String(txIndex),
    txGasUsed: res.gasUsed.toString(),
    txHash: toHex(v.cosmosTxHash).toUpperCase(),
    txType: String(etx.type),
    sender,
    recipient,
    contractAddress: contract,
    failed: res.vmError,
  }));
  emit(ctx, ethereumEvent(sender, recipient || contract, etx.hashHex));
  if (logs.length > 0) {
    emit(ctx, txLogEvent(logs.map((l): TxLogJSON => ({
      address: l.address,
      topics: l.topics,
      data: bytesToHex(l.data),
      blockNumber: height,
      transactionHash: etx.hashHex,
      transactionIndex: txIndex,
      logIndex: Number(l.index),
      removed: false,
    }))));
  }
  return { hash: etx.hashHex, logs, ret: res.ret, vm_error: res.vmError ?? '', gas_used: res.gasUsed, contract_address: contract };
}
