/**
 * eth_simulateV1 as geth runs it (`internal/ethapi/simulate.go`): a chain of simulated blocks on top of a base
 * block, each with optional block overrides (number, time, gas limit, fee recipient, prevRandao, base fee, blob
 * base fee), state overrides applied before its calls, and calls run in order as transactions (the nonce taken
 * from the state when absent, the gas from what is left of the block when absent, fees bought and paid as a tx's,
 * the state carried from call to call and block to block). Gaps in block numbers are filled with empty blocks;
 * numbers and timestamps must increase (-38020, -38021); at most 256 blocks past the base and 5000 calls per
 * block, 10000 in all (-38026). With `validation` the calls are checked as txs (nonce -38010/-38011, fee caps
 * against the base fee -38012, which then follows the fee market instead of being 0); without it the base fee
 * is 0 unless overridden. A call that cannot be a tx (intrinsic gas -38013, funds -38014, the block's gas
 * -38015) fails the whole request; one that runs and fails (revert: code 3 with the data; other vm errors:
 * -32015) is a call result with status 0. `traceTransfers` adds the ERC-7528 Transfer logs of ether moved (tx
 * value, call value, SELFDESTRUCT) from 0xEeee…EeEE, in execution order with the logs.
 *
 * It runs like eth_call: on a throwaway branch of the query state (nothing is ever written), every call's gas
 * capped by what is left of the node's gas cap across the whole simulation, one time limit for all of it
 * (`evm-timeout`), on the budgeted lanes that yield to the event loop. The Ethereum view of each block (hashes,
 * roots, JSON) is the caller's: `seal` gets each executed block and answers its hash, which the next block
 * links to and BLOCKHASH sees.
 */
import type { Context } from '@chain/app';
import { fromHex } from '@chain/crypto';
import { branch } from '@chain/store';
import type { EVMResult, InterpreterStep, Message as EvmMessage } from '@ethereumjs/evm';
import { createLegacyTx } from '@ethereumjs/tx';
import { toChecksumAddress } from '@ethereumjs/util';
import { accessListGas, callFees, feeCheck, parseAccessList, parseBlockOverrides } from './call-env.js';
import type { AccessList, BlockOverrides } from './call-env.js';
import { commonFor } from './crypto.js';
import { revertReason } from './ethtx.js';
import { ExecutionTimeoutError } from './executor.js';
import type { BlockEnv, Message, RunBudget } from './executor.js';
import type { EvmKeeper } from './keeper.js';
import { unmetered } from './keeper.js';
import { applyStateOverride, parseStateOverride } from './overrides.js';
import { nextBaseFee } from './params.js';
import { FRAME_OPS } from './tracer.js';
import type { EvmTracer } from './tracer.js';

/** geth's limits */
export const MAX_SIMULATE_BLOCKS = 256;
export const MAX_SIMULATE_CALLS_PER_BLOCK = 5000;
export const MAX_SIMULATE_TOTAL_CALLS = 10000;
/** seconds between simulated blocks whose time is not given */
export const SIMULATE_TIMESTAMP_INCREMENT = 12n;

/** geth's error codes of eth_simulateV1 (execution-apis) */
export const SimulateCodes = {
  NonceTooLow: -38010,
  NonceTooHigh: -38011,
  BaseFeeTooLow: -38012,
  IntrinsicGas: -38013,
  InsufficientFunds: -38014,
  BlockGasLimitReached: -38015,
  BlockNumberInvalid: -38020,
  BlockTimestampInvalid: -38021,
  ClientLimitExceeded: -38026,
  InvalidParams: -32602,
  InternalError: -32603,
  VmError: -32015,
  Reverted: 3,
  ServerError: -32000,
} as const;

/** An error the JSON-RPC answers with its `rpcCode` (geth's code for it) and message. */
export class SimulateError extends Error {
  constructor(readonly rpcCode: number, message: string) {
    super(message);
  }
}

/** One call of a simulated block (geth's TransactionArgs, parsed by the JSON-RPC; absent fields undefined). */
export interface SimulateCall {
  /** 0x address; the zero address when absent */
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
  /** EIP-2930 list `[{address, storageKeys}]` (JSON value) */
  readonly accessList?: unknown;
}

/** One block of the request: geth's BlockOverrides and StateOverride (JSON values, checked here) and the calls. */
export interface SimulateBlock {
  readonly blockOverrides?: unknown;
  readonly stateOverrides?: unknown;
  readonly calls: readonly SimulateCall[];
}

/** The base block the simulation builds on, as the JSON-RPC shows it. */
export interface SimulateBase {
  readonly number: bigint;
  /** 0x Ethereum hash */
  readonly hash: string;
  readonly timestamp: bigint;
  readonly gasLimit: bigint;
  /** 0x address */
  readonly miner: string;
}

export interface SimulateRequest {
  readonly blocks: readonly SimulateBlock[];
  readonly validation: boolean;
  readonly traceTransfers: boolean;
  readonly base: SimulateBase;
}

/** A log of a simulated call (block-wide index, as geth's simulation tracer counts). */
export interface SimulatedLog {
  readonly address: string;
  readonly topics: string[];
  readonly data: string;
  readonly logIndex: number;
  /** an ERC-7528 Transfer log of traceTransfers (not in the receipt: no part of the bloom or receipts root) */
  readonly transfer?: boolean;
}

/** The unsigned tx a call stands for (geth's `ToTransaction(DynamicFeeTxType)`: legacy when gasPrice was given). */
export interface SimulatedTx {
  readonly type: 0 | 2;
  readonly chainId: bigint;
  readonly nonce: bigint;
  readonly gas: bigint;
  /** legacy: the gas price; 1559: the price paid (min(tip + base fee, max fee)) */
  readonly gasPrice: bigint;
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
  /** 0x address; undefined for a creation */
  readonly to: string | undefined;
  readonly value: bigint;
  readonly input: Uint8Array;
  readonly accessList: { address: string; storageKeys: string[] }[];
  /** 0x sender */
  readonly from: string;
}

export interface SimulatedCall {
  readonly returnData: Uint8Array;
  readonly logs: SimulatedLog[];
  readonly gasUsed: bigint;
  /** the most gas the call had in use (before the refund) */
  readonly maxUsedGas: bigint;
  readonly status: 0 | 1;
  readonly error?: { readonly message: string; readonly code: number; readonly data?: string };
  readonly cumulativeGasUsed: bigint;
  /** 0x address of the contract a successful creation made */
  readonly contractAddress?: string;
}

export interface SimulatedBlock {
  readonly number: bigint;
  readonly timestamp: bigint;
  readonly gasLimit: bigint;
  readonly gasUsed: bigint;
  /** 0x address */
  readonly miner: string;
  readonly baseFee: bigint;
  /** 0x 32 bytes (the header's mixHash) */
  readonly prevRandao: string;
  /** 0x Ethereum hash of the previous (simulated or base) block */
  readonly parentHash: string;
  readonly txs: SimulatedTx[];
  readonly calls: SimulatedCall[];
}

const ZERO32 = '0x' + '00'.repeat(32);
const ZERO_ADDRESS = '0x' + '00'.repeat(20);
/** keccak256("Transfer(address,address,uint256)") */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** ERC-7528: the address of ether */
const ETHER_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

const hexOf = (b: Uint8Array): string => '0x' + Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const word = (v: bigint): string => '0x' + v.toString(16).padStart(64, '0');
const addrWord = (a: string): string => '0x' + a.slice(2).padStart(64, '0');
const checksum = (a: Uint8Array): string => toChecksumAddress(hexOf(a));

/** Memory bytes [offset, offset + size) of a step, zero-padded past the current memory size. */
function memorySlice(mem: Uint8Array, offset: bigint, size: bigint): Uint8Array {
  const out = new Uint8Array(Number(size));
  if (offset < BigInt(mem.length)) out.set(mem.subarray(Number(offset), Math.min(mem.length, Number(offset + size))));
  return out;
}

interface PendingLog { address: string; topics: string[]; data: string; logIndex: number; transfer?: boolean }

/**
 * geth's simulation tracer (`internal/ethapi/logtracer.go`) with traceTransfers: the logs of each frame and the
 * Transfer logs of the ether it moves, a failed frame's dropped with those of its sub-frames; the index counts
 * every captured log of the block (so a dropped one leaves a gap, as in geth).
 */
class TransferLogTracer implements EvmTracer {
  private readonly frames: PendingLog[][] = [];
  private lastOp = 0;
  /** per open frame: its creation's Transfer log, whose recipient is known only when the frame ends */
  private readonly createTransfers: (PendingLog | undefined)[] = [];
  logs: PendingLog[] = [];

  constructor(private readonly counter: { n: number }) {}

  private capture(frame: PendingLog[], address: string, topics: string[], data: string): PendingLog {
    const l = { address, topics, data, logIndex: this.counter.n++ };
    frame.push(l);
    return l;
  }

  private transfer(frame: PendingLog[], from: string, to: string, value: bigint): PendingLog {
    const l = this.capture(frame, ETHER_ADDRESS, [TRANSFER_TOPIC, addrWord(from), addrWord(to)], word(value));
    l.transfer = true;
    return l;
  }

  step(s: InterpreterStep): void {
    const op = s.opcode.code;
    this.lastOp = op;
    const frame = this.frames[this.frames.length - 1];
    if (!frame) return;
    const st = s.stack;
    if (op >= 0xa0 && op <= 0xa4 && st.length >= 2 + op - 0xa0) {
      const topics: string[] = [];
      for (let i = 0; i < op - 0xa0; i++) topics.push(word(st[st.length - 3 - i]!));
      const data = memorySlice(s.memory, st[st.length - 1]!, st[st.length - 2]!);
      this.capture(frame, s.address.toString().toLowerCase(), topics, hexOf(data));
    } else if (op === 0xff && st.length >= 1 && s.account.balance > 0n) {
      const beneficiary = '0x' + st[st.length - 1]!.toString(16).padStart(40, '0').slice(-40);
      this.transfer(frame, s.address.toString().toLowerCase(), beneficiary, s.account.balance);
    }
  }

  enter(m: EvmMessage): void {
    const frame: PendingLog[] = [];
    const type = m.depth === 0 ? (m.to ? 'CALL' : 'CREATE') : FRAME_OPS.get(this.lastOp) ?? 'CALL';
    let create: PendingLog | undefined;
    if (type !== 'DELEGATECALL' && type !== 'CALLCODE' && m.value > 0n) {
      const from = hexOf(m.caller.bytes);
      const l = this.transfer(frame, from, m.to ? hexOf(m.to.bytes) : ZERO_ADDRESS, m.value);
      if (!m.to) create = l;
    }
    this.frames.push(frame);
    this.createTransfers.push(create);
  }

  exit(r: EVMResult): void {
    const frame = this.frames.pop();
    const create = this.createTransfers.pop();
    if (!frame) return;
    if (create && r.createdAddress) create.topics[2] = addrWord(hexOf(r.createdAddress.bytes));
    const failed = r.execResult.exceptionError !== undefined;
    const parent = this.frames[this.frames.length - 1];
    if (!parent) this.logs = failed ? [] : frame;
    else if (!failed) parent.push(...frame);
  }
}

/** The gas left of the node's cap across the whole simulation (geth's gasBudget). */
class GasBudget {
  constructor(public remaining: bigint) {}
  cap(gas: bigint): bigint { return gas > this.remaining ? this.remaining : gas; }
  consume(amount: bigint): void {
    if (amount > this.remaining) throw new SimulateError(SimulateCodes.ServerError, `RPC gas cap exhausted: need ${amount}, remaining ${this.remaining}`);
    this.remaining -= amount;
  }
}

interface PlannedBlock { readonly overrides: BlockOverrides; readonly number: bigint; readonly time: bigint; readonly source: SimulateBlock | undefined }

/** geth's checks of the request's size (before any state is read). */
export function checkSimulateLimits(blocks: readonly { readonly calls: readonly unknown[] }[]): void {
  if (blocks.length === 0) throw new SimulateError(SimulateCodes.InvalidParams, 'empty input');
  if (blocks.length > MAX_SIMULATE_BLOCKS) throw new SimulateError(SimulateCodes.ClientLimitExceeded, 'too many blocks');
  let total = 0;
  for (const b of blocks) {
    if (b.calls.length > MAX_SIMULATE_CALLS_PER_BLOCK) {
      throw new SimulateError(SimulateCodes.ClientLimitExceeded, `too many calls in block: ${b.calls.length} > ${MAX_SIMULATE_CALLS_PER_BLOCK}`);
    }
    total += b.calls.length;
    if (total > MAX_SIMULATE_TOTAL_CALLS) throw new SimulateError(SimulateCodes.ClientLimitExceeded, `too many calls: ${total} > ${MAX_SIMULATE_TOTAL_CALLS}`);
  }
}

function overridesOf(v: unknown): BlockOverrides {
  try {
    return parseBlockOverrides(v) ?? {};
  } catch (e) {
    throw new SimulateError(SimulateCodes.InvalidParams, (e as Error).message);
  }
}

/** geth's sanitizeChain: numbers and times increasing, defaults (+1, +12 s), gaps filled with empty blocks. */
function planChain(base: SimulateBase, blocks: readonly SimulateBlock[]): PlannedBlock[] {
  const out: PlannedBlock[] = [];
  let prevNumber = base.number;
  let prevTime = base.timestamp;
  for (const b of blocks) {
    const o = overridesOf(b.blockOverrides);
    const number = o.number ?? prevNumber + 1n;
    if (number <= prevNumber) throw new SimulateError(SimulateCodes.BlockNumberInvalid, `block numbers must be in order: ${number} <= ${prevNumber}`);
    if (number - base.number > BigInt(MAX_SIMULATE_BLOCKS)) throw new SimulateError(SimulateCodes.ClientLimitExceeded, 'too many blocks');
    for (let n = prevNumber + 1n; n < number; n++) {
      prevTime += SIMULATE_TIMESTAMP_INCREMENT;
      out.push({ overrides: {}, number: n, time: prevTime, source: undefined });
    }
    prevNumber = number;
    let time: bigint;
    if (o.time === undefined) time = prevTime + SIMULATE_TIMESTAMP_INCREMENT;
    else {
      time = o.time;
      if (time <= prevTime) throw new SimulateError(SimulateCodes.BlockTimestampInvalid, `block timestamps must be in order: ${time} <= ${prevTime}`);
    }
    prevTime = time;
    out.push({ overrides: o, number, time, source: b });
  }
  return out;
}

/** The sender-facing parts of a call, with geth's CallDefaults and ToMessage. */
interface PreparedCall {
  readonly from: Uint8Array;
  readonly to: Uint8Array | undefined;
  readonly input: Uint8Array;
  readonly value: bigint;
  readonly nonce: bigint;
  readonly gas: bigint;
  readonly gasCapped: boolean;
  readonly gasPrice: bigint;
  readonly feeCap: bigint;
  readonly tipCap: bigint;
  readonly legacy: boolean;
  readonly accessList: AccessList;
}

const addressBytes = (a: string | undefined): Uint8Array | undefined => (a ? fromHex(a.slice(2).toLowerCase()) : undefined);

/**
 * Runs eth_simulateV1 on the query state `query` (the base block's state). `seal` turns each executed block into
 * its Ethereum hash (the JSON-RPC builds the block's view); nothing is written to `query`'s store.
 */
export async function simulateV1(
  keeper: EvmKeeper, query: Context, req: SimulateRequest, seal: (b: SimulatedBlock) => string, budget: RunBudget = keeper.queryBudget(),
): Promise<SimulatedBlock[]> {
  checkSimulateLimits(req.blocks);
  const plan = planChain(req.base, req.blocks);
  const sim = unmetered(query.withStore(branch(query.ms)));
  const params = keeper.params(sim);
  const denom = params.denom;
  const chainId = keeper.chainId(sim);
  const common = commonFor(chainId);
  const gas = new GasBudget(keeper.gasCap > 0n ? keeper.gasCap : (1n << 64n) - 1n);
  const out: SimulatedBlock[] = [];
  let parentHash = req.base.hash;
  let parentBaseFee: bigint | undefined;
  let parentGasUsed = 0n;
  let gasLimit = req.base.gasLimit;
  let coinbase = addressBytes(req.base.miner) ?? new Uint8Array(20);
  let callsRun = 0;
  for (const pb of plan) {
    const o = pb.overrides;
    // geth's makeHeaders: gas limit and fee recipient carry over from the previous block
    gasLimit = o.gasLimit ?? gasLimit;
    coinbase = o.feeRecipient ?? coinbase;
    let baseFee: bigint;
    if (o.baseFeePerGas !== undefined) baseFee = o.baseFeePerGas;
    else if (req.validation) baseFee = parentBaseFee === undefined ? keeper.getBaseFee(sim) : nextBaseFee(parentBaseFee, parentGasUsed, params);
    else baseFee = 0n;
    const env: BlockEnv = {
      height: pb.number, timestamp: pb.time, gasLimit, coinbase, baseFee, prevRandao: o.prevRandao, blobBaseFee: o.blobBaseFee,
    };
    if (pb.source?.stateOverrides !== undefined && pb.source.stateOverrides !== null) {
      let parsed;
      try {
        parsed = parseStateOverride(pb.source.stateOverrides);
      } catch (e) {
        throw new SimulateError(SimulateCodes.InvalidParams, (e as Error).message);
      }
      applyStateOverride(keeper, sim, parsed);
    }
    let pool = gasLimit;
    const counter = { n: 0 };
    const txs: SimulatedTx[] = [];
    const calls: SimulatedCall[] = [];
    for (const call of pb.source?.calls ?? []) {
      if (performance.now() > budget.deadline) throw new SimulateError(SimulateCodes.InternalError, new ExecutionTimeoutError(budget.timeoutMs).message);
      // let other work run between calls (the EVM also yields inside long calls)
      if (++callsRun % 16 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const p = prepare(keeper, sim, call, env, pool, gas, chainId);
      const fail = (code: number, msg: string): never => { throw new SimulateError(code, `err: ${msg} (supplied gas ${p.gas})`); };
      // geth's preCheck: the nonce (validation only), the fee caps (skipped for a fee-less call without validation)
      if (req.validation) {
        const stNonce = keeper.getAccountInfo(sim, p.from).nonce;
        if (stNonce < p.nonce) fail(SimulateCodes.NonceTooHigh, `nonce too high: address ${checksum(p.from)}, tx: ${p.nonce} state: ${stNonce}`);
        if (stNonce > p.nonce) fail(SimulateCodes.NonceTooLow, `nonce too low: address ${checksum(p.from)}, tx: ${p.nonce} state: ${stNonce}`);
      }
      const feeErr = feeCheck(p.from, { gasPrice: p.gasPrice, feeCap: p.feeCap, tipCap: p.tipCap }, baseFee, !req.validation);
      if (feeErr !== undefined) fail(feeErr.startsWith('max fee per gas less') ? SimulateCodes.BaseFeeTooLow : SimulateCodes.InvalidParams, feeErr);
      // buyGas: gas × fee cap + value must be there; gas × price is taken
      const balance = keeper.bank.getBalance(sim, p.from, denom);
      const want = p.gas * p.feeCap + p.value;
      if (balance < want) fail(SimulateCodes.InsufficientFunds, `insufficient funds for gas * price + value: address ${checksum(p.from)} have ${balance} want ${want}`);
      const bought = p.gas * p.gasPrice;
      if (bought > 0n) keeper.bank.subCoins(sim, p.from, [{ denom, amount: bought.toString() }]);
      // intrinsic gas (the access list's included) and the EIP-7623 floor
      let intrinsic: bigint;
      let floor: bigint;
      try {
        const tx = createLegacyTx({ to: p.to, data: p.input, value: p.value, gasLimit: p.gas }, { common });
        intrinsic = tx.getIntrinsicGas() + accessListGas(p.accessList);
        const min = tx.getMinimumGasLimit();
        floor = min > tx.getIntrinsicGas() ? min : 0n;
      } catch (e) {
        throw new SimulateError(SimulateCodes.InvalidParams, (e as Error).message.replace(/ \(tx type=.*$/s, ''));
      }
      if (p.gas < intrinsic) fail(SimulateCodes.IntrinsicGas, `intrinsic gas too low: have ${p.gas}, want ${intrinsic}`);
      if (p.gas < floor) fail(SimulateCodes.InternalError, `insufficient gas for floor data gas cost: have ${p.gas}, want ${floor}`);
      const msg: Message = {
        caller: p.from, to: p.to, value: p.value, data: p.input, gasLimit: p.gas, gasPrice: p.gasPrice,
        intrinsicGas: intrinsic, floorGas: floor, accessList: p.accessList, nonceIncremented: false,
      };
      // the nonce the tx carries: given, or the sender's (read before the run increments it)
      const txNonce = p.nonce;
      const tracer = req.traceTransfers ? new TransferLogTracer(counter) : undefined;
      let r;
      try {
        r = await keeper.execute(sim, msg, env, budget, tracer);
      } catch (e) {
        if (e instanceof ExecutionTimeoutError) throw new SimulateError(SimulateCodes.InternalError, e.message);
        throw e;
      }
      // refund what was not used; the tip goes to the fee recipient (none for a fee-less call without validation)
      const refund = (p.gas - r.gasUsed) * p.gasPrice;
      if (refund > 0n) keeper.bank.addCoins(sim, p.from, [{ denom, amount: refund.toString() }]);
      if (!(!req.validation && p.feeCap === 0n && p.tipCap === 0n)) {
        const tip = (p.gasPrice - baseFee) * r.gasUsed;
        if (tip > 0n) keeper.bank.addCoins(sim, env.coinbase, [{ denom, amount: tip.toString() }]);
      }
      pool -= r.gasUsed;
      gas.consume(r.gasUsed);
      let logs: SimulatedLog[];
      if (tracer) logs = tracer.logs;
      else {
        logs = r.vmError !== undefined ? [] : r.logs.map(([address, topics, data]) => ({
          address: hexOf(address), topics: topics.map(hexOf), data: hexOf(data), logIndex: counter.n++,
        }));
      }
      let error: SimulatedCall['error'];
      if (r.vmError !== undefined) {
        if (r.reverted) {
          const reason = revertReason(r.ret);
          error = { message: reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, code: SimulateCodes.Reverted, data: hexOf(r.ret) };
        } else {
          error = { message: r.vmError + (p.gasCapped ? " (gas limit was capped by the RPC server's global gas cap)" : ''), code: SimulateCodes.VmError };
        }
      }
      calls.push({
        // geth's ExecutionResult.Return(): nothing for a failed call (the revert data is in the error)
        returnData: r.vmError === undefined ? r.ret : new Uint8Array(), logs, gasUsed: r.gasUsed, maxUsedGas: r.gasBeforeRefund, status: r.vmError === undefined ? 1 : 0,
        ...(error ? { error } : {}), cumulativeGasUsed: gasLimit - pool,
        ...(r.createdAddress ? { contractAddress: hexOf(r.createdAddress) } : {}),
      });
      txs.push({
        type: p.legacy ? 0 : 2, chainId, nonce: txNonce, gas: p.gas, gasPrice: p.gasPrice, maxFeePerGas: p.feeCap, maxPriorityFeePerGas: p.tipCap,
        to: p.to ? hexOf(p.to) : undefined, value: p.value, input: p.input,
        accessList: p.accessList.map(([a, keys]) => ({ address: hexOf(a), storageKeys: keys.map(hexOf) })), from: hexOf(p.from),
      });
    }
    const block: SimulatedBlock = {
      number: pb.number, timestamp: pb.time, gasLimit, gasUsed: gasLimit - pool, miner: hexOf(coinbase), baseFee,
      prevRandao: o.prevRandao ? hexOf(o.prevRandao) : ZERO32, parentHash, txs, calls,
    };
    parentHash = seal(block);
    // BLOCKHASH of the next blocks sees this one
    if (pb.number <= BigInt(Number.MAX_SAFE_INTEGER)) keeper.recordBlockHash(sim, Number(pb.number), fromHex(parentHash.slice(2)));
    parentBaseFee = baseFee;
    parentGasUsed = block.gasUsed;
    out.push(block);
  }
  return out;
}

/**
 * geth's sanitizeCall + CallDefaults + ToMessage for one call: the nonce from the state when absent, the gas
 * from what is left of the block (-38015 when more is asked) capped by the simulation's gas budget, the fees
 * at the block's base fee.
 */
function prepare(keeper: EvmKeeper, sim: Context, c: SimulateCall, env: BlockEnv, pool: bigint, budget: GasBudget, chainId: bigint): PreparedCall {
  const from = addressBytes(c.from) ?? new Uint8Array(20);
  const nonce = c.nonce ?? keeper.getAccountInfo(sim, from).nonce;
  const asked = c.gas ?? pool;
  if (pool < asked) throw new SimulateError(SimulateCodes.BlockGasLimitReached, `block gas limit reached: remaining: ${pool}, required: ${asked}`);
  const gas = budget.cap(asked);
  if (c.gasPrice !== undefined && (c.maxFeePerGas !== undefined || c.maxPriorityFeePerGas !== undefined)) {
    throw new SimulateError(SimulateCodes.ServerError, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  }
  if (c.chainId !== undefined && c.chainId !== chainId) {
    throw new SimulateError(SimulateCodes.ServerError, `chainId does not match node's (have=${c.chainId}, want=${chainId})`);
  }
  let accessList: AccessList;
  try {
    accessList = parseAccessList(c.accessList);
  } catch (e) {
    throw new SimulateError(SimulateCodes.InvalidParams, (e as Error).message);
  }
  const fees = callFees({
    gas_price: c.gasPrice?.toString(), max_fee_per_gas: c.maxFeePerGas?.toString(), max_priority_fee_per_gas: c.maxPriorityFeePerGas?.toString(),
  }, env.baseFee);
  return {
    from, to: addressBytes(c.to), input: c.input ?? new Uint8Array(), value: c.value ?? 0n, nonce, gas, gasCapped: gas < asked,
    gasPrice: fees.gasPrice, feeCap: fees.feeCap, tipCap: fees.tipCap, legacy: c.gasPrice !== undefined, accessList,
  };
}
