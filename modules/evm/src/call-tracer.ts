/**
 * geth's `callTracer`: the tree of call frames of a run,
 * `{type, from, to?, value?, gas, gasUsed, input, output?, error?, revertReason?, calls?, logs?}`.
 *
 * As in geth: the top frame's gas is the message's gas limit and its gasUsed the gas used after refunds
 * (the receipt's); nested frames report the gas they were given (stipend included) and what they used;
 * addresses are lowercase hex; `value` is absent for DELEGATECALL and STATICCALL; a failed CREATE has no
 * `to`; `output` is the return data (the deployed code for a CREATE, the revert data on a revert, absent on
 * other failures); `revertReason` decodes Error(string) / Panic(uint256); SELFDESTRUCT appears as a frame
 * of its contract. `onlyTopCall` keeps only the top frame; `withLog` adds each frame's logs with their
 * `position` among its sub-calls (logs of failed frames and of their sub-frames are dropped). The
 * estimated size of the result is capped ({@link TraceSize}).
 */
import { bytesToString } from '@chain/crypto';
import type { EVMResult, InterpreterStep, Message as EvmMessage } from '@ethereumjs/evm';
import type { Address } from '@ethereumjs/util';
import { revertReason } from './ethtx.js';
import type { BlockEnv, ExecutionResult, Message } from './executor.js';
import { FRAME_OPS, TraceSize } from './tracer.js';
import { gethError } from './vm-errors.js';
import type { FailedRunState } from './vm-errors.js';
import type { EvmTracer } from './tracer.js';

/** Options of the call tracer (geth's `tracerConfig`). */
export interface CallTracerConfig {
  readonly onlyTopCall?: boolean;
  readonly withLog?: boolean;
}

/** One log of a frame. */
export interface CallLogJSON {
  address: string;
  topics: string[];
  data: string;
  position: string;
}

/** One call frame as JSON. */
export interface CallFrameJSON {
  type: string;
  from: string;
  to?: string;
  value?: string;
  gas: string;
  gasUsed: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: CallFrameJSON[];
  logs?: CallLogJSON[];
}

const hex = (b: Uint8Array): string => '0x' + bytesToString(b, 'hex');
const qty = (n: bigint): string => '0x' + n.toString(16);
const addr = (a: Address | Uint8Array): string => hex(a instanceof Uint8Array ? a : a.bytes);
const word = (v: bigint): string => '0x' + v.toString(16).padStart(64, '0');

/** Memory bytes [offset, offset + size) of a step, zero-padded past the current memory size. */
function memorySlice(mem: Uint8Array, offset: bigint, size: bigint): Uint8Array {
  const out = new Uint8Array(Number(size));
  if (offset < BigInt(mem.length)) out.set(mem.subarray(Number(offset), Math.min(mem.length, Number(offset + size))));
  return out;
}

/** Sets output / error / revertReason of a frame from its result (geth's processOutput). */
function setOutcome(f: CallFrameJSON, ret: Uint8Array, error: string | undefined, rs?: FailedRunState): void {
  if (error === undefined) {
    if (ret.length > 0) f.output = hex(ret);
    return;
  }
  f.error = gethError(error, rs);
  if (f.type === 'CREATE' || f.type === 'CREATE2') delete f.to;
  if (error !== 'revert' || ret.length === 0) return;
  f.output = hex(ret);
  const reason = revertReason(ret);
  if (reason !== undefined) f.revertReason = reason;
}

export class CallTracer implements EvmTracer {
  /** open frames, top-level first */
  private readonly open: CallFrameJSON[] = [];
  private topResult: EVMResult | undefined;
  private topFrame: CallFrameJSON | undefined;
  /** the opcode and name of the last step (a frame's type is the opcode that opened it) */
  private lastOp = 0;
  /** a SELFDESTRUCT of the open frame at this depth, added as its sub-frame when the frame succeeds */
  private readonly selfdestructs = new Map<number, CallFrameJSON>();
  private done: CallFrameJSON | undefined;

  constructor(private readonly cfg: CallTracerConfig = {}, private readonly size = new TraceSize()) {}

  step(s: InterpreterStep): void {
    const op = s.opcode.code;
    this.lastOp = op;
    const frame = this.open[this.open.length - 1];
    if (!frame || (this.cfg.onlyTopCall && s.depth > 0)) return;
    const st = s.stack;
    if (op >= 0xa0 && op <= 0xa4 && this.cfg.withLog && st.length >= 2 + op - 0xa0) {
      const topics: string[] = [];
      for (let i = 0; i < op - 0xa0; i++) topics.push(word(st[st.length - 3 - i]!));
      const data = memorySlice(s.memory, st[st.length - 1]!, st[st.length - 2]!);
      const log = { address: addr(s.address), topics, data: hex(data), position: qty(BigInt(frame.calls?.length ?? 0)) };
      this.size.add(100 + log.data.length + 70 * topics.length);
      (frame.logs ??= []).push(log);
    } else if (op === 0xff && st.length >= 1 && !this.cfg.onlyTopCall) {
      const beneficiary = st[st.length - 1]!.toString(16).padStart(40, '0').slice(-40);
      this.selfdestructs.set(s.depth, {
        type: 'SELFDESTRUCT', from: addr(s.address), to: '0x' + beneficiary, value: qty(s.account.balance),
        gas: '0x0', gasUsed: '0x0', input: '0x',
      });
    }
  }

  enter(m: EvmMessage): void {
    if (m.depth === 0) {
      this.open.push({ type: m.to ? 'CALL' : 'CREATE', from: addr(m.caller), to: m.to ? addr(m.to) : undefined, value: qty(m.value), gas: qty(m.gasLimit), gasUsed: '0x0', input: hex(m.data) });
      return;
    }
    const type = FRAME_OPS.get(this.lastOp) ?? 'CALL';
    // DELEGATECALL / CALLCODE run the target's code in the caller's context: geth reports caller → code address
    const from = type === 'DELEGATECALL' ? addr(m.to!) : addr(m.caller);
    const to = type === 'DELEGATECALL' || type === 'CALLCODE' ? addr(m.codeAddress) : m.to ? addr(m.to) : undefined;
    const f: CallFrameJSON = { type, from, to, gas: qty(m.gasLimit), gasUsed: '0x0', input: hex(m.data) };
    if (type !== 'DELEGATECALL' && type !== 'STATICCALL') f.value = qty(m.value);
    this.size.add(250 + f.input.length + 2 * m.data.length);
    this.open.push(f);
  }

  exit(r: EVMResult): void {
    const depth = this.open.length - 1;
    const f = this.open.pop();
    if (!f) return;
    const sd = this.selfdestructs.get(depth);
    this.selfdestructs.delete(depth);
    const err = r.execResult.exceptionError?.error;
    if (sd && err === undefined) (f.calls ??= []).push(sd);
    if (depth === 0) { this.topResult = r; this.topFrame = f; return; }
    f.gasUsed = qty(r.execResult.executionGasUsed);
    if ((f.type === 'CREATE' || f.type === 'CREATE2') && r.createdAddress) f.to = addr(r.createdAddress);
    setOutcome(f, r.execResult.returnValue, err, r.execResult.runState as FailedRunState | undefined);
    this.size.add(f.output?.length ?? 0);
    if (this.cfg.onlyTopCall) return;
    const parent = this.open[this.open.length - 1];
    if (parent) (parent.calls ??= []).push(f);
  }

  finish(m: Message, _env: BlockEnv, r: ExecutionResult): void {
    // no top frame: the run stopped before the EVM started (the value exceeds the balance)
    const top = this.topFrame ?? {
      type: m.to ? 'CALL' : 'CREATE', from: hex(m.caller), to: m.to ? hex(m.to) : undefined, value: qty(m.value), gas: '0x0', gasUsed: '0x0', input: hex(m.data),
    };
    top.gas = qty(m.gasLimit);
    top.gasUsed = qty(r.gasUsed);
    if (!m.to && r.createdAddress) top.to = hex(r.createdAddress);
    const res = this.topResult;
    if (res) setOutcome(top, r.ret, res.execResult.exceptionError?.error, res.execResult.runState as FailedRunState | undefined);
    else if (r.vmError !== undefined) top.error = r.vmError;
    if (top.to === undefined) delete top.to;
    if (this.cfg.withLog) dropFailedLogs(top, false);
    this.done = top;
  }

  /** The call tree (after the run finished). */
  result(): CallFrameJSON {
    if (!this.done) throw new Error('the traced execution did not finish');
    return this.done;
  }
}

/** geth's clearFailedLogs: a failed frame's logs and those of all its sub-frames never happened. */
function dropFailedLogs(f: CallFrameJSON, parentFailed: boolean): void {
  const failed = parentFailed || f.error !== undefined;
  if (failed) delete f.logs;
  for (const c of f.calls ?? []) dropFailedLogs(c, failed);
}
