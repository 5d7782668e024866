/** The query service `chain.evm.v1.Query`: account views, code, storage, params, base fee, eth_call, gas estimation. */
import type { Context, QueryServer } from '@chain/app';
import type { ProtoObject } from '@chain/codec';
import { fromHex, toHex } from '@chain/crypto';
import { GrpcCode, statusError } from '@chain/errors';
import { branch } from '@chain/store';
import { createLegacyTx } from '@ethereumjs/tx';
import { KECCAK256_NULL, bytesToHex, toChecksumAddress } from '@ethereumjs/util';
import { accessListGas, applyBlockOverrides, callFees, feeCheck, parseAccessList, parseBlockOverrides } from './call-env.js';
import type { AccessList, CallFees } from './call-env.js';
import { commonFor } from './crypto.js';
import { ExecutionTimeoutError, defaultPrecompiles } from './executor.js';
import type { BlockEnv, ExecutionResult, Message, RunBudget } from './executor.js';
import { hexAddress } from './ethtx.js';
import type { EstimateGasResponse, MsgEthereumTxResponse, QueryMethods } from './gen/chain/evm/v1.js';
import { unmetered } from './keeper.js';
import type { EvmKeeper } from './keeper.js';
import { applyStateOverride, parseStateOverride } from './overrides.js';

const invalid = (msg: string): Error => statusError(GrpcCode.INVALID_ARGUMENT, msg);

/** A 20-byte address from `0x…` hex or bech32. */
export function parseAddress(keeper: EvmKeeper, text: unknown): Uint8Array {
  const s = String(text ?? '').trim();
  if (!s) throw invalid('address cannot be empty');
  if (/^0x[0-9a-fA-F]{40}$/.test(s)) return fromHex(s.slice(2).toLowerCase());
  let bytes: Uint8Array;
  try {
    bytes = keeper.ak.addressCodec.decode(s);
  } catch (e) {
    throw invalid(`invalid address ${s}: ${(e as Error).message}`);
  }
  if (bytes.length !== 20) throw invalid(`invalid address ${s}: expected 20 bytes, got ${bytes.length}`);
  return bytes;
}

function parseSlot(text: unknown): Uint8Array {
  const s = String(text ?? '').trim();
  if (!/^0x[0-9a-fA-F]{0,64}$/.test(s)) throw invalid(`invalid storage key '${s}': expected 0x-prefixed hex of at most 32 bytes`);
  const hex = s.slice(2).padStart(64, '0');
  return fromHex(hex);
}

function parseAmount(field: string, text: unknown): bigint {
  const s = String(text ?? '').trim();
  if (s === '') return 0n;
  if (!/^[0-9]+$/.test(s)) throw invalid(`invalid ${field} '${s}': expected a decimal integer`);
  return BigInt(s);
}

/** A call request, parsed. */
export interface CallArgs {
  readonly from: Uint8Array;
  readonly to: Uint8Array | undefined;
  readonly data: Uint8Array;
  readonly value: bigint;
  /** the gas price the call runs at (GASPRICE); `fees` has the caps it came from */
  readonly gasPrice: bigint;
  readonly fees: CallFees;
  readonly gas: bigint;
  /** intrinsic gas, the access list's included */
  readonly intrinsicGas: bigint;
  readonly floorGas: bigint;
  readonly minGas: bigint;
  /** the request's EIP-2930 access list (`access_list`, JSON) */
  readonly accessList: AccessList;
  /** EIP-4844 `blob_versioned_hashes` (undefined: not a blob call) and `max_fee_per_blob_gas` (undefined: not given) */
  readonly blobHashes: Uint8Array[] | undefined;
  readonly blobFeeCap: bigint | undefined;
}

/** The EIP-4844 blob gas of one versioned hash. */
const GAS_PER_BLOB = 131072n;

/** `blob_versioned_hashes`: JSON text of an array of 0x 32-byte hashes ('' : none). */
function parseBlobHashes(v: unknown): Uint8Array[] | undefined {
  const text = String(v ?? '').trim();
  if (!text) return undefined;
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (e) {
    throw invalid(`invalid blobVersionedHashes: ${(e as Error).message}`);
  }
  if (list === null) return undefined;
  if (!Array.isArray(list) || !list.every((h) => typeof h === 'string' && /^0x[0-9a-fA-F]{64}$/.test(h))) {
    throw invalid('invalid blobVersionedHashes: expected an array of 0x-prefixed 32-byte hashes');
  }
  return (list as string[]).map((h) => fromHex(h.slice(2).toLowerCase()));
}

/**
 * Parses an EthCallRequest (addresses, amounts, gas capped at `gasCap` (default: the keeper's), the fees at
 * `baseFee` (default: the query state's) as geth's ToMessage, the access list, intrinsic gas). The request may
 * be partial: the Ethereum JSON-RPC builds it (`eth_call`, `debug_traceCall`), so every field is read defensively.
 */
export function callArgs(keeper: EvmKeeper, ctx: Context, req: ProtoObject, baseFee?: bigint, gasCap = keeper.gasCap): CallArgs {
  const from = req.from ? parseAddress(keeper, req.from) : new Uint8Array(20);
  const to = req.to ? parseAddress(keeper, req.to) : undefined;
  const data = (req.data as Uint8Array | undefined) ?? new Uint8Array();
  const value = parseAmount('value', req.value);
  const fees = callFees(req, baseFee ?? keeper.getBaseFee(ctx));
  const asked = BigInt((req.gas as bigint | undefined) ?? 0n);
  const gas = asked > 0n && asked < gasCap ? asked : gasCap;
  const accessList = parseAccessList(req.access_list);
  let intrinsicGas: bigint;
  let floorGas: bigint;
  try {
    const tx = createLegacyTx({ to, data, value, gasLimit: gas }, { common: commonFor(keeper.chainId(ctx)) });
    intrinsicGas = tx.getIntrinsicGas();
    const min = tx.getMinimumGasLimit();
    floorGas = min > intrinsicGas ? min : 0n;
  } catch (e) {
    throw invalid((e as Error).message.replace(/ \(tx type=.*$/s, ''));
  }
  // EIP-2930: 2400 per address and 1900 per storage key of intrinsic gas (the EIP-7623 floor is not affected)
  intrinsicGas += accessListGas(accessList);
  const minGas = floorGas > intrinsicGas ? floorGas : intrinsicGas;
  const blobHashes = parseBlobHashes(req.blob_versioned_hashes);
  const capText = String(req.max_fee_per_blob_gas ?? '').trim();
  // geth's CallDefaults: the blob fee cap is 0 for a blob call that gives none
  const blobFeeCap = capText !== '' ? parseAmount('max_fee_per_blob_gas', capText) : blobHashes !== undefined ? 0n : undefined;
  return { from, to, data, value, gasPrice: fees.gasPrice, fees, gas, intrinsicGas, floorGas, minGas, accessList, blobHashes, blobFeeCap };
}

/** The message of a call with gas limit `gas`. */
export function callMessage(a: CallArgs, gas: bigint): Message {
  return {
    caller: a.from, to: a.to, value: a.value, data: a.data, gasLimit: gas, gasPrice: a.gasPrice,
    intrinsicGas: a.intrinsicGas, floorGas: a.floorGas, accessList: a.accessList, nonceIncremented: false,
    blobVersionedHashes: a.blobHashes,
  };
}

/**
 * The block a call runs in (eth_call, eth_estimateGas): the query state's block with the request's
 * `block_overrides` (geth's BlockOverrides JSON) applied.
 */
export function callEnv(keeper: EvmKeeper, ctx: Context, req: ProtoObject): BlockEnv {
  const base = keeper.blockEnv(ctx, keeper.getBaseFee(ctx), keeper.params(ctx));
  return applyBlockOverrides(base, parseBlockOverrides(req.block_overrides));
}

/**
 * A call's request parsed for its block (geth's doCall): the args at the block's base fee, the fee checks of
 * geth's state transition with the base fee disabled (`NoBaseFee`: a call without fees is not checked), and
 * the block the EVM sees (its base fee 0 when the call's gas price is 0, as geth).
 */
export function prepareCall(keeper: EvmKeeper, ctx: Context, req: ProtoObject): { a: CallArgs; env: BlockEnv } {
  const block = callEnv(keeper, ctx, req);
  const a = callArgs(keeper, ctx, req, block.baseFee);
  const fail = (msg: string): never => { throw invalid(`err: ${msg} (supplied gas ${a.gas})`); };
  const err = feeCheck(a.from, a.fees, block.baseFee, true);
  if (err !== undefined) fail(err);
  // geth's applyMessage: a blob fee cap of 0 runs with the blob base fee 0 (BLOBBASEFEE reads 0)
  let env = a.gasPrice === 0n ? { ...block, baseFee: 0n } : block;
  if (a.blobFeeCap === 0n) env = { ...env, blobBaseFee: 0n };
  // geth's blob checks of its state transition (the fee check skipped for a cap of 0: NoBaseFee)
  const blobs = a.blobHashes;
  if (blobs !== undefined) {
    if (!a.to) fail('blob transaction of type create');
    if (blobs.length === 0) fail('blob transaction missing blob hashes');
    blobs.forEach((h, i) => { if (h[0] !== 0x01) fail(`blob ${i} has invalid hash version`); });
    const blobBaseFee = env.blobBaseFee ?? 1n;
    if (a.blobFeeCap! > 0n && a.blobFeeCap! < blobBaseFee) {
      fail(`max fee per blob gas less than block blob gas fee: address ${toChecksumAddress(bytesToHex(a.from))} blobGasFeeCap: ${a.blobFeeCap}, blobBaseFee: ${blobBaseFee}`);
    }
  }
  return { a, env };
}

/**
 * Runs the call with gas limit `gas` on a throwaway branch of the query state, within the query's
 * budget (it yields to the event loop while it runs; past the deadline: DEADLINE_EXCEEDED).
 */
async function simulate(keeper: EvmKeeper, ctx: Context, a: CallArgs, gas: bigint, budget: RunBudget, env: BlockEnv): Promise<ExecutionResult> {
  const run = ctx.withStore(branch(ctx.ms));
  buyGas(keeper, run, a, gas, env.blobBaseFee ?? 1n);
  if (gas < a.minGas) throw invalid(`intrinsic gas too low: have ${gas}, want ${a.minGas}`);
  try {
    return await keeper.execute(run, callMessage(a, gas), env, budget);
  } catch (e) {
    if (e instanceof ExecutionTimeoutError) throw statusError(GrpcCode.DEADLINE_EXCEEDED, e.message);
    throw e;
  }
}

/**
 * geth's buyGas for a call with a price (`run` is the run's throwaway branch): the sender must hold gas × fee
 * cap + value (`insufficient funds for gas * price + value`), and pays gas × price before the run (what BALANCE
 * then shows). A call without fees pays nothing.
 */
function buyGas(keeper: EvmKeeper, run: Context, a: CallArgs, gas: bigint, blobBaseFee: bigint): void {
  // a blob call also needs blob gas × blob fee cap and pays blob gas × blob base fee
  const blobGas = GAS_PER_BLOB * BigInt(a.blobHashes?.length ?? 0);
  const blobCap = blobGas * (a.blobFeeCap ?? 0n);
  const blobFee = blobGas * blobBaseFee;
  if (a.fees.feeCap === 0n && a.gasPrice === 0n && blobCap === 0n && blobFee === 0n) return;
  const u = unmetered(run);
  const denom = keeper.params(u).denom;
  const have = keeper.bank.getBalance(u, a.from, denom);
  const want = gas * a.fees.feeCap + a.value + blobCap;
  if (have < want || have - gas * a.gasPrice < blobFee) {
    throw invalid(`err: insufficient funds for gas * price + value: address ${toChecksumAddress(bytesToHex(a.from))} have ${have} want ${want > gas * a.gasPrice + blobFee ? want : gas * a.gasPrice + blobFee} (supplied gas ${gas})`);
  }
  const cost = gas * a.gasPrice + blobFee;
  if (cost > 0n) keeper.bank.subCoins(u, a.from, [{ denom, amount: cost.toString() }]);
}

/**
 * The state a call runs on and its block: the query state itself, or a throwaway branch of it with the request's
 * `overrides` (JSON of a geth StateOverride) applied, and `env` with the precompiles the overrides left
 * (`movePrecompileToAddress`, overridden precompile addresses; geth's `evm.SetPrecompiles`).
 */
export function callState(keeper: EvmKeeper, ctx: Context, overrides: unknown, env: BlockEnv): { ctx: Context; env: BlockEnv } {
  const text = String(overrides ?? '').trim();
  if (!text) return { ctx, env };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw invalid(`invalid state override: ${(e as Error).message}`);
  }
  const parsed = parseStateOverride(json);
  if (parsed.length === 0) return { ctx, env };
  const base = ctx.withStore(branch(ctx.ms));
  const precompiles = applyStateOverride(keeper, base, parsed, defaultPrecompiles(keeper.chainId(ctx)));
  return { ctx: base, env: { ...env, precompiles } };
}

/** eth_call: the result of running the call at the latest state, nothing persisted. */
export async function ethCall(keeper: EvmKeeper, query: Context, req: ProtoObject): Promise<MsgEthereumTxResponse> {
  const prepared = prepareCall(keeper, query, req);
  const a = prepared.a;
  const { ctx, env } = callState(keeper, query, req.overrides, prepared.env);
  const r = await simulate(keeper, ctx, a, a.gas, keeper.queryBudget(), env);
  return {
    hash: '',
    logs: r.logs.map(([address, topics, data], i) => ({
      address: hexAddress(address), topics: topics.map((t) => bytesToHex(t)), data, block_number: env.height,
      tx_hash: '', tx_index: 0n, block_hash: '', index: BigInt(i), removed: false,
    })),
    ret: r.ret,
    vm_error: r.vmError ?? '',
    gas_used: r.gasUsed,
    contract_address: r.createdAddress ? hexAddress(r.createdAddress) : '',
  };
}

/**
 * eth_estimateGas: the lowest gas limit with which the call succeeds (binary search between the gas the
 * call consumed at the cap and the cap). When it fails even at the cap: gas 0 and the error.
 */
export async function estimateGas(keeper: EvmKeeper, query: Context, req: ProtoObject): Promise<EstimateGasResponse> {
  const prepared = prepareCall(keeper, query, req);
  let a = prepared.a;
  const { ctx, env } = callState(keeper, query, req.overrides, prepared.env);
  // geth's estimator: with a fee cap, the gas is capped by what the sender can pay for after the value
  if (a.fees.feeCap > 0n) {
    const balance = keeper.bank.getBalance(unmetered(ctx), a.from, keeper.params(ctx).denom);
    if (a.value >= balance) return { gas: 0n, ret: new Uint8Array(), vm_error: 'insufficient funds for transfer' };
    const allowance = (balance - a.value) / a.fees.feeCap;
    if (a.gas > allowance) a = { ...a, gas: allowance };
  }
  const budget = keeper.queryBudget(); // one deadline for the whole search
  const first = await simulate(keeper, ctx, a, a.gas, budget, env);
  if (first.vmError !== undefined) {
    // geth: running out of gas at the cap means the call needs more than the node allows
    const error = first.vmError === 'out of gas' ? `gas required exceeds allowance (${a.gas})` : first.vmError;
    return { gas: 0n, ret: first.ret, vm_error: error };
  }
  const ok = async (gas: bigint): Promise<boolean> => (await simulate(keeper, ctx, a, gas, budget, env)).vmError === undefined;
  let lo = (first.gasBeforeRefund > a.minGas ? first.gasBeforeRefund : a.minGas) - 1n;
  let hi = a.gas;
  if (await ok(lo + 1n)) return { gas: lo + 1n, ret: new Uint8Array(), vm_error: '' };
  lo += 1n;
  // EIP-150 leaves 1/64 of the gas in each frame: try a little more than what was used first
  const optimistic = ((first.gasBeforeRefund + 2300n) * 64n) / 63n;
  if (optimistic < hi && (await ok(optimistic))) hi = optimistic;
  else if (optimistic < hi) lo = optimistic;
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (await ok(mid)) hi = mid;
    else lo = mid;
  }
  return { gas: hi, ret: new Uint8Array(), vm_error: '' };
}

/** The Query service of evm (`chain.evm.v1.Query`). */
export function createQueryServer(keeper: EvmKeeper): QueryServer<QueryMethods> {
  return {
    Account: (ctx, req) => {
      const info = keeper.getAccountInfo(ctx, parseAddress(keeper, req.address));
      return { balance: info.balance.toString(), code_hash: bytesToHex(info.codeHash ?? KECCAK256_NULL), nonce: info.nonce };
    },
    Balance: (ctx, req) => {
      const addr = parseAddress(keeper, req.address);
      return { balance: keeper.bank.getBalance(ctx, addr, keeper.params(ctx).denom).toString() };
    },
    Code: (ctx, req) => ({ code: keeper.getCode(ctx, parseAddress(keeper, req.address)) }),
    Storage: (ctx, req) => {
      const addr = parseAddress(keeper, req.address);
      return { value: '0x' + toHex(keeper.getState(ctx, addr, parseSlot(req.key))) };
    },
    Params: (ctx) => ({ params: keeper.getParams(ctx) }),
    BaseFee: (ctx) => ({ base_fee: keeper.getBaseFee(ctx).toString() }),
    EthCall: (ctx, req) => ethCall(keeper, ctx, req),
    EstimateGas: (ctx, req) => estimateGas(keeper, ctx, req),
  };
}
