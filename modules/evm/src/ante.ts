/**
 * The ante handler of Ethereum txs (Cosmos txs with the ExtensionOptionsEthereumTx option and only
 * MsgEthereumTx messages), and `routeAnte`, which sends every other tx to the Cosmos ante handler.
 *
 * Per MsgEthereumTx: decode (chain id, type, EIP-155), recover the sender (= `from`), gas limit ≥ intrinsic
 * gas and ≤ block gas limit, fee cap ≥ base fee, effective gas price ≥ min gas price, sender is not a
 * contract (EIP-3607), nonce = account sequence, balance ≥ gasLimit × feeCap + value; then, like Ethermint,
 * it deducts gasLimit × effective gas price to the fee collector and increments the sequence. The unused
 * part is refunded after execution by the msg handler.
 */
import type { AnteHandler, Context } from '@chain/app';
import { DEC_SCALE, coinsToString } from '@chain/app';
import type { ProtoObject } from '@chain/codec';
import { Errors } from '@chain/errors';
import { EvmErrors } from './errors.js';
import { decodeEthTx, effectiveGasPrice, hexAddress } from './ethtx.js';
import type { EthTx } from './ethtx.js';
import { unmetered } from './keeper.js';
import type { EvmKeeper } from './keeper.js';
import { ETHERMINT_EXTENSION_OPTION_URL, EXTENSION_OPTION_ETH_TX_URL, MSG_ETHEREUM_TX } from './keys.js';
import type { ParsedParams } from './params.js';

type AnteTx = Parameters<AnteHandler>[1];

/** What the ante handler established about one MsgEthereumTx, for its msg handler. */
export interface VerifiedEthTx {
  readonly tx: EthTx;
  /** base fee of the block the tx runs in */
  readonly baseFee: bigint;
  /** min(feeCap, baseFee + tip) */
  readonly gasPrice: bigint;
  /** deducted up front: gasLimit × gasPrice */
  readonly feeCharged: bigint;
  /** Cosmos gas the ante handler consumed for this message (its intrinsic gas) */
  readonly gasCharged: bigint;
  /** sha256 of the Cosmos TxRaw */
  readonly cosmosTxHash: Uint8Array;
}

/** Decoded message object → what the ante handler verified (the App hands the same object to the handler). */
const verified = new WeakMap<object, VerifiedEthTx>();

/** The verification of a MsgEthereumTx by the evm ante handler in this tx run, if any. */
export function verifiedEthTx(msg: ProtoObject): VerifiedEthTx | undefined {
  return verified.get(msg);
}

/** Whether a tx carries the Ethereum extension option (canonical or Ethermint type URL). */
export function isEthereumTx(tx: AnteTx): boolean {
  return tx.body.extension_options.some((o) => o.type_url === EXTENSION_OPTION_ETH_TX_URL || o.type_url === ETHERMINT_EXTENSION_OPTION_URL);
}

/**
 * Picks the ante handler by extension option: Ethereum txs go to `ethAnte`; everything else to
 * `cosmosAnte`, except that a MsgEthereumTx outside an Ethereum tx is rejected (it would run unverified).
 */
export function routeAnte(ethAnte: AnteHandler, cosmosAnte: AnteHandler): AnteHandler {
  const handler: AnteHandler = (ctx, tx, simulate) => {
    if (isEthereumTx(tx)) return ethAnte(ctx, tx, simulate);
    if (tx.msgs.some((m) => m.name === MSG_ETHEREUM_TX)) {
      throw EvmErrors.InvalidWrapper.wrap(`${MSG_ETHEREUM_TX} must be sent in a tx with the ${EXTENSION_OPTION_ETH_TX_URL} extension option`);
    }
    return cosmosAnte(ctx, tx, simulate);
  };
  // the routed handler's precheck (signatures checked on worker threads before CheckTx), where it has one
  if (ethAnte.precheck !== undefined || cosmosAnte.precheck !== undefined) {
    handler.precheck = async (ctx, tx) => {
      const pre = isEthereumTx(tx) ? ethAnte.precheck : cosmosAnte.precheck;
      if (pre !== undefined) await pre(ctx, tx);
    };
  }
  return handler;
}

/** Stateless checks of the Cosmos wrapper; returns the decoded Ethereum txs. */
function checkWrapper(keeper: EvmKeeper, ctx: Context, tx: AnteTx, params: ParsedParams): EthTx[] {
  const denom = params.denom;
  const body = tx.body;
  if (body.extension_options.length !== 1) throw Errors.UnknownExtensionOptions.wrap('an Ethereum tx has exactly one extension option');
  if (body.non_critical_extension_options.length > 0) throw EvmErrors.InvalidWrapper.wrap('an Ethereum tx has no non-critical extension options');
  if (tx.signatures.length > 0 || tx.authInfo.signer_infos.length > 0) throw EvmErrors.InvalidWrapper.wrap('an Ethereum tx carries no Cosmos signatures or signer infos');
  if (body.memo !== '') throw EvmErrors.InvalidWrapper.wrap('an Ethereum tx has no memo');
  if (body.timeout_height !== 0n) throw EvmErrors.InvalidWrapper.wrap('an Ethereum tx has no timeout height');
  const fee = tx.authInfo.fee!;
  if (fee.payer || fee.granter) throw EvmErrors.InvalidWrapper.wrap('an Ethereum tx has no fee payer or granter');
  const chainId = keeper.chainId(ctx);
  const txs: EthTx[] = [];
  let gas = 0n;
  let feeCaps = 0n;
  for (const m of tx.msgs) {
    if (m.name !== MSG_ETHEREUM_TX) throw EvmErrors.InvalidWrapper.wrap(`an Ethereum tx contains only ${MSG_ETHEREUM_TX} messages, got ${m.typeUrl}`);
    const msg = m.message as { raw: Uint8Array; from: string };
    const etx = decodeEthTx(msg.raw, chainId, { allowUnprotected: params.allowUnprotectedTxs });
    const from = keeper.ak.addressCodec.encode(etx.sender);
    if (msg.from !== from) throw EvmErrors.SenderMismatch.wrap(`from ${msg.from || '(empty)'} but the transaction is signed by ${from} (${hexAddress(etx.sender)})`);
    gas += etx.gasLimit;
    feeCaps += etx.gasLimit * etx.gasFeeCap;
    txs.push(etx);
  }
  if (fee.gas_limit !== gas) throw Errors.InvalidGasLimit.wrap(`the tx gas limit ${fee.gas_limit} must equal the sum of the Ethereum gas limits ${gas}`);
  const want = feeCaps > 0n ? `${feeCaps}${denom}` : '';
  if (coinsToString(fee.amount) !== want) throw EvmErrors.InvalidWrapper.wrap(`the tx fee '${coinsToString(fee.amount)}' must be the sum of gas limit × max fee per gas '${want}'`);
  return txs;
}

export function createEvmAnteHandler(keeper: EvmKeeper): AnteHandler {
  const { ak, bank } = keeper;
  return (ctx: Context, tx: AnteTx): void => {
    // keeper calls are not charged: the Cosmos gas of an Ethereum tx is its Ethereum gas
    const u = unmetered(ctx);
    const params = keeper.params(u);
    const denom = params.denom;
    const txs = checkWrapper(keeper, u, tx, params);
    const baseFee = keeper.getBaseFee(u);
    const localMin = ctx.isCheckTx ? ctx.minGasPrices.find((p) => p.denom === denom)?.amount ?? 0n : 0n;
    for (let i = 0; i < txs.length; i++) {
      const etx = txs[i]!;
      const sender = etx.sender;
      const senderHex = hexAddress(sender);
      if (etx.gasLimit < etx.minGasLimit) {
        throw EvmErrors.IntrinsicGas.wrap(`gas limit ${etx.gasLimit} is below the intrinsic gas ${etx.minGasLimit}${etx.floorGas > etx.intrinsicGas ? ` (EIP-7623 calldata floor; intrinsic ${etx.intrinsicGas})` : ''}`);
      }
      if (etx.gasLimit > params.blockGasLimit) throw EvmErrors.GasLimitTooHigh.wrap(`gas limit ${etx.gasLimit} > block gas limit ${params.blockGasLimit}`);
      if (etx.gasFeeCap < baseFee) {
        throw EvmErrors.FeeCapTooLow.wrap(`address ${senderHex}, maxFeePerGas: ${etx.gasFeeCap}, baseFee: ${baseFee}`);
      }
      const gasPrice = effectiveGasPrice(etx, baseFee);
      if (gasPrice < params.minGasPrice) throw EvmErrors.GasPriceTooLow.wrap(`effective gas price ${gasPrice} < min gas price ${params.minGasPrice}`);
      if (localMin > 0n && gasPrice * DEC_SCALE < localMin) {
        throw Errors.InsufficientFee.wrap(`insufficient fees; effective gas price ${gasPrice}${denom} is below this node's minimum gas price`);
      }
      if (keeper.getCodeHash(u, sender)) throw EvmErrors.SenderNotEOA.wrap(`sender ${senderHex} has code (EIP-3607)`);
      const acc = ak.getAccount(u, sender) ?? ak.newAccountWithAddress(u, sender);
      const seq = acc.base.sequence;
      if (etx.nonce !== seq) {
        throw EvmErrors.InvalidNonce.wrap(`nonce too ${etx.nonce < seq ? 'low' : 'high'}: address ${senderHex}, tx: ${etx.nonce} state: ${seq}`);
      }
      const balance = bank.getBalance(u, sender, denom);
      const cost = etx.gasLimit * etx.gasFeeCap + etx.value;
      if (balance < cost) {
        throw EvmErrors.InsufficientFunds.wrap(`insufficient funds for gas * price + value: address ${senderHex} have ${balance} want ${cost}`);
      }
      const fee = etx.gasLimit * gasPrice;
      if (fee > 0n) bank.sendCoinsFromAccountToModule(u, sender, keeper.feeCollector, [{ denom, amount: fee.toString() }]);
      // re-read: the fee transfer may have created or rewritten the account
      const fresh = ak.getAccount(u, sender) ?? acc;
      fresh.base.sequence = seq + 1n;
      ak.setAccount(u, fresh);
      const from = ak.addressCodec.encode(sender);
      ctx.events.emit('tx', [['fee', fee > 0n ? `${fee}${denom}` : ''], ['fee_payer', from]]);
      ctx.events.emit('tx', [['acc_seq', `${from}/${seq}`]]);
      ctx.gasMeter.consume(Number(etx.intrinsicGas), 'ethereum tx intrinsic gas');
      verified.set(tx.msgs[i]!.message, {
        tx: etx, baseFee, gasPrice, feeCharged: fee, gasCharged: etx.intrinsicGas, cosmosTxHash: tx.hash,
      });
    }
  };
}
