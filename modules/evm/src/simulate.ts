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
import { bytesToString, fromHex } from '@chain/crypto';
import { branch } from '@chain/store';
import type { EVMResult, InterpreterStep, Message as EvmMessage } from '@ethereumjs/evm';
import { createLegacyTx } from '@ethereumjs/tx';
import { toChecksumAddress } from '@ethereumjs/util';
import { accessListGas, callFees, feeCheck, parseAccessList, parseBlockOverrides } from './call-env.js';
import type { AccessList, BlockOverrides } from './call-env.js';
import { commonFor } from './crypto.js';
import { revertReason } from './ethtx.js';
import { ExecutionTimeoutError, defaultPrecompiles } from './executor.js';
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
  MaxInitCodeSizeExceeded: -38025,
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
  /** EIP-4844 blobVersionedHashes (0x 32-byte hashes): given, even empty, the call is a blob tx (geth's BlobHashes) */
  readonly blobVersionedHashes?: readonly string[];
  /** EIP-4844 maxFeePerBlobGas; 0 when absent */
  readonly maxFeePerBlobGas?: bigint;
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

/**
 * The unsigned tx a call stands for (geth's `ToTransaction(DynamicFeeTxType)`: legacy when gasPrice was given,
 * else a blob tx (3) with blobVersionedHashes, else 1559).
 */
export interface SimulatedTx {
  readonly type: 0 | 2 | 3;
  /** type 3 */
  readonly maxFeePerBlobGas?: bigint;
  readonly blobVersionedHashes?: readonly string[];
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
  /** EIP-4844: blob gas of the block's blob calls (131072 per hash) and the block's excess blob gas */
  readonly blobGasUsed: bigint;
  readonly excessBlobGas: bigint;
  readonly txs: SimulatedTx[];
  readonly calls: SimulatedCall[];
}

const ZERO32 = '0x' + '00'.repeat(32);
const ZERO_ADDRESS = '0x' + '00'.repeat(20);
/** EIP-3860: the largest initcode of a creation */
const MAX_INITCODE_SIZE = 49152;

/** EIP-4844 at Prague (EIP-7691): blob gas per blob, the target per block, the base fee update fraction, the minimum fee */
export const GAS_PER_BLOB = 131072n;
export const BLOB_TARGET_GAS_PER_BLOCK = 6n * GAS_PER_BLOB;
export const BLOB_BASE_FEE_UPDATE_FRACTION = 5007716n;
const MIN_BLOB_BASE_FEE = 1n;

/** EIP-4844's fake_exponential(factor, numerator, denominator) */
function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let i = 1n;
  let output = 0n;
  let acc = factor * denominator;
  while (acc > 0n) {
    output += acc;
    acc = (acc * numerator) / (denominator * i);
    i++;
  }
  return output / denominator;
}

/** geth's eip4844.CalcBlobFee at Prague: the blob base fee of a block with `excess` blob gas */
export function blobBaseFeeOf(excess: bigint): bigint {
  return fakeExponential(MIN_BLOB_BASE_FEE, excess, BLOB_BASE_FEE_UPDATE_FRACTION);
}

/** geth's eip4844.CalcExcessBlobGas at Prague: from the parent's excess and blob gas used */
export function excessBlobGasAfter(parentExcess: bigint, parentUsed: bigint): bigint {
  const sum = parentExcess + parentUsed;
  return sum < BLOB_TARGET_GAS_PER_BLOCK ? 0n : sum - BLOB_TARGET_GAS_PER_BLOCK;
}

/** keccak256("Transfer(address,address,uint256)") */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** ERC-7528: the address of ether */
const ETHER_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

const hexOf = (b: Uint8Array): string => '0x' + bytesToString(b, 'hex');
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
 * geth's simulation tracer (`internal/ethapi/logtracer.go`), which collects every simulated call's logs: the logs of
 * each frame (with traceTransfers also the Transfer logs of the ether it moves: call value, SELFDESTRUCT), a failed
 * frame's dropped with those of its sub-frames; the index counts every log captured in the block, kept or dropped
 * (so a dropped one leaves a gap, as in geth, with or without traceTransfers). A LOG or SELFDESTRUCT is captured
 * once it has executed (geth's OnLog / OnEnter come after the op's checks): at the frame's next step, or at the
 * frame's successful end; an op that failed its frame captures nothing.
 */
class SimLogTracer implements EvmTracer {
  private readonly frames: PendingLog[][] = [];
  private lastOp = 0;
  /** per open frame: its creation's Transfer log, whose recipient is known only when the frame ends */
  private readonly createTransfers: (PendingLog | undefined)[] = [];
  /**
   * the LOG or SELFDESTRUCT of the current frame's last step, until it is known to have executed; no `log`: a
   * value transfer of a CALL / CREATE the EVM refuses before it opens a frame (too little balance, too deep),
   * whose Transfer log geth captures and drops (its index is taken)
   */
  private pending: { frame: PendingLog[]; log?: Omit<PendingLog, 'logIndex'> } | undefined;
  logs: PendingLog[] = [];

  constructor(private readonly counter: { n: number }, private readonly traceTransfers: boolean) {}

  private capture(frame: PendingLog[], l: Omit<PendingLog, 'logIndex'>): PendingLog {
    const log = { ...l, logIndex: this.counter.n++ };
    frame.push(log);
    return log;
  }

  private commitPending(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    if (p.log) this.capture(p.frame, p.log);
    else this.counter.n++;
  }

  private transferLog(from: string, to: string, value: bigint): Omit<PendingLog, 'logIndex'> {
    return { address: ETHER_ADDRESS, topics: [TRANSFER_TOPIC, addrWord(from), addrWord(to)], data: word(value), transfer: true };
  }

  step(s: InterpreterStep): void {
    // the previous step (a LOG of this frame) executed
    this.commitPending();
    const op = s.opcode.code;
    this.lastOp = op;
    const frame = this.frames[this.frames.length - 1];
    if (!frame) return;
    const st = s.stack;
    if (op >= 0xa0 && op <= 0xa4 && st.length >= 2 + op - 0xa0) {
      const topics: string[] = [];
      for (let i = 0; i < op - 0xa0; i++) topics.push(word(st[st.length - 3 - i]!));
      const data = memorySlice(s.memory, st[st.length - 1]!, st[st.length - 2]!);
      this.pending = { frame, log: { address: s.address.toString().toLowerCase(), topics, data: hexOf(data) } };
    } else if (op === 0xff && this.traceTransfers && st.length >= 1 && s.account.balance > 0n) {
      const beneficiary = '0x' + st[st.length - 1]!.toString(16).padStart(40, '0').slice(-40);
      this.pending = { frame, log: this.transferLog(s.address.toString().toLowerCase(), beneficiary, s.account.balance) };
    } else if (this.traceTransfers && (op === 0xf1 || op === 0xf0 || op === 0xf5)) {
      const value = op === 0xf1 ? st[st.length - 3] : st[st.length - 1];
      if (value !== undefined && value > 0n && (value > s.account.balance || s.depth >= 1024)) this.pending = { frame };
    }
  }

  enter(m: EvmMessage): void {
    // a CALL/CREATE step that opens a frame has executed
    this.commitPending();
    const frame: PendingLog[] = [];
    const type = m.depth === 0 ? (m.to ? 'CALL' : 'CREATE') : FRAME_OPS.get(this.lastOp) ?? 'CALL';
    let create: PendingLog | undefined;
    if (this.traceTransfers && type !== 'DELEGATECALL' && type !== 'CALLCODE' && m.value > 0n) {
      const from = hexOf(m.caller.bytes);
      const l = this.capture(frame, this.transferLog(from, m.to ? hexOf(m.to.bytes) : ZERO_ADDRESS, m.value));
      if (!m.to) create = l;
    }
    this.frames.push(frame);
    this.createTransfers.push(create);
  }

  exit(r: EVMResult): void {
    const failed = r.execResult.exceptionError !== undefined;
    // the frame's last op: executed if the frame ended well (ran off the end, or SELFDESTRUCT), else it failed it
    if (failed) this.pending = undefined;
    else this.commitPending();
    const frame = this.frames.pop();
    const create = this.createTransfers.pop();
    if (!frame) return;
    if (create && r.createdAddress) create.topics[2] = addrWord(hexOf(r.createdAddress.bytes));
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
  /** the blob hashes (undefined: not a blob call) and maxFeePerBlobGas (0 when absent: geth's CallDefaults) */
  readonly blobHashes: Uint8Array[] | undefined;
  readonly blobFeeCap: bigint;
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
  // the base block has no blobs (this chain has no blob txs): its excess and blob gas are 0
  let parentExcessBlobGas = 0n;
  let parentBlobGasUsed = 0n;
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
    // geth's processBlock: the excess blob gas from the parent, the blob base fee from it unless overridden
    const excessBlobGas = excessBlobGasAfter(parentExcessBlobGas, parentBlobGasUsed);
    const blobBaseFee = o.blobBaseFee ?? blobBaseFeeOf(excessBlobGas);
    let blobGasUsed = 0n;
    let env: BlockEnv = {
      height: pb.number, timestamp: pb.time, gasLimit, coinbase, baseFee, prevRandao: o.prevRandao, blobBaseFee,
    };
    // geth's processBlock: each block starts from the hardfork's precompiles, which its state overrides may move
    if (pb.source?.stateOverrides !== undefined && pb.source.stateOverrides !== null) {
      let parsed;
      try {
        parsed = parseStateOverride(pb.source.stateOverrides);
      } catch (e) {
        throw new SimulateError(SimulateCodes.InvalidParams, (e as Error).message);
      }
      let precompiles;
      try {
        precompiles = applyStateOverride(keeper, sim, parsed, defaultPrecompiles(chainId));
      } catch (e) {
        throw new SimulateError(SimulateCodes.ServerError, (e as Error).message);
      }
      env = { ...env, precompiles };
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
      // geth's blob checks (then its blob fee check, skipped for a fee-less call without validation)
      const blobs = p.blobHashes;
      if (blobs !== undefined) {
        if (!p.to) fail(SimulateCodes.InternalError, 'blob transaction of type create');
        if (blobs.length === 0) fail(SimulateCodes.InternalError, 'blob transaction missing blob hashes');
        blobs.forEach((h, i) => { if (h[0] !== 0x01) fail(SimulateCodes.InternalError, `blob ${i} has invalid hash version`); });
      }
      const blobGas = GAS_PER_BLOB * BigInt(blobs?.length ?? 0);
      if (blobGas > 0n && !(!req.validation && p.blobFeeCap === 0n) && p.blobFeeCap < blobBaseFee) {
        fail(SimulateCodes.InternalError, `max fee per blob gas less than block blob gas fee: address ${checksum(p.from)} blobGasFeeCap: ${p.blobFeeCap}, blobBaseFee: ${blobBaseFee}`);
      }
      // EIP-3860 (geth's CheckMaxInitCodeSize, before buyGas)
      if (!p.to && p.input.length > MAX_INITCODE_SIZE) fail(SimulateCodes.MaxInitCodeSizeExceeded, `max initcode size exceeded: code size ${p.input.length} limit ${MAX_INITCODE_SIZE}`);
      // buyGas: gas × fee cap + value (+ blob gas × blob fee cap) must be there; gas × price (+ blob gas × blob base fee) is taken
      const balance = keeper.bank.getBalance(sim, p.from, denom);
      const want = p.gas * p.feeCap + p.value + blobGas * p.blobFeeCap;
      if (balance < want) fail(SimulateCodes.InsufficientFunds, `insufficient funds for gas * price + value: address ${checksum(p.from)} have ${balance} want ${want}`);
      const blobFee = blobGas * blobBaseFee;
      if (blobFee > balance - p.gas * p.gasPrice) fail(SimulateCodes.InsufficientFunds, `insufficient funds for gas * price + value: address ${checksum(p.from)} have ${balance} want ${p.gas * p.gasPrice + blobFee}`);
      blobGasUsed += blobGas;
      const bought = p.gas * p.gasPrice + blobFee;
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
        intrinsicGas: intrinsic, floorGas: floor, accessList: p.accessList, nonceIncremented: false, blobVersionedHashes: blobs,
      };
      // the nonce the tx carries: given, or the sender's (read before the run increments it)
      const txNonce = p.nonce;
      // geth collects the logs with its simulation tracer, transfers or not (a dropped log still takes an index)
      const tracer = new SimLogTracer(counter, req.traceTransfers);
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
      const logs: SimulatedLog[] = tracer.logs;
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
        returnData: r.vmError === undefined ? r.ret : new Uint8Array(), logs, gasUsed: r.gasUsed, maxUsedGas: r.gasBeforeRefund > floor ? r.gasBeforeRefund : floor, status: r.vmError === undefined ? 1 : 0,
        ...(error ? { error } : {}), cumulativeGasUsed: gasLimit - pool,
        ...(r.createdAddress ? { contractAddress: hexOf(r.createdAddress) } : {}),
      });
      txs.push({
        type: p.legacy ? 0 : blobs !== undefined ? 3 : 2, chainId, nonce: txNonce,
        ...(blobs !== undefined && !p.legacy ? { maxFeePerBlobGas: p.blobFeeCap, blobVersionedHashes: blobs.map(hexOf) } : {}), gas: p.gas, gasPrice: p.gasPrice, maxFeePerGas: p.feeCap, maxPriorityFeePerGas: p.tipCap,
        to: p.to ? hexOf(p.to) : undefined, value: p.value, input: p.input,
        accessList: p.accessList.map(([a, keys]) => ({ address: hexOf(a), storageKeys: keys.map(hexOf) })), from: hexOf(p.from),
      });
    }
    const block: SimulatedBlock = {
      number: pb.number, timestamp: pb.time, gasLimit, gasUsed: gasLimit - pool, miner: hexOf(coinbase), baseFee,
      prevRandao: o.prevRandao ? hexOf(o.prevRandao) : ZERO32, parentHash, blobGasUsed, excessBlobGas, txs, calls,
    };
    parentHash = seal(block);
    // BLOCKHASH of the next blocks sees this one
    if (pb.number <= BigInt(Number.MAX_SAFE_INTEGER)) keeper.recordBlockHash(sim, Number(pb.number), fromHex(parentHash.slice(2)));
    parentBaseFee = baseFee;
    parentGasUsed = block.gasUsed;
    parentExcessBlobGas = excessBlobGas;
    parentBlobGasUsed = blobGasUsed;
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
    blobHashes: c.blobVersionedHashes?.map((h) => fromHex(h.slice(2).toLowerCase())), blobFeeCap: c.maxFeePerBlobGas ?? 0n,
  };
}
