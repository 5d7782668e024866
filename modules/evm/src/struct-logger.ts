/**
 * geth's default tracer (the struct / opcode logger): one entry per executed opcode,
 * `{pc, op, gas, gasCost, depth, stack?, memory?, returnData?, storage?, refund?, error?}`, and the
 * result `{gas, failed, returnValue, structLogs}` (gas = the tx's gas used after refunds).
 *
 * Formats follow geth's JSON: stack items as 0x quantities (bottom first), memory as 32-byte words in
 * unprefixed hex, storage (only at SLOAD / SSTORE: every slot of the contract touched so far) with
 * unprefixed 32-byte keys and values, refund only when non-zero, error only on the opcode that failed.
 * `limit` caps the number of entries (execution goes on; 0 = no limit). The estimated size of the result
 * is capped ({@link TraceSize}): past it the run is aborted with TraceTooLargeError.
 */
import { bytesToString } from '@chain/crypto';
import type { EVMResult, InterpreterStep, Message as EvmMessage } from '@ethereumjs/evm';
import type { BlockEnv, ExecutionResult, Message } from './executor.js';
import { TraceSize, stepCost } from './tracer.js';
import { gethError } from './vm-errors.js';
import type { FailedRunState } from './vm-errors.js';
import type { EvmTracer } from './tracer.js';

/** Options of the struct logger (geth's TraceConfig fields). */
export interface StructLoggerConfig {
  readonly disableStack?: boolean;
  readonly disableStorage?: boolean;
  readonly enableMemory?: boolean;
  readonly enableReturnData?: boolean;
  /** maximum number of entries; 0 or absent: no limit */
  readonly limit?: number;
}

/** One struct log entry as JSON. */
export interface StructLogJSON {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
  error?: string;
  stack?: string[];
  returnData?: string;
  memory?: string[];
  storage?: Record<string, string>;
  refund?: number;
}

/** The struct logger's result. */
export interface StructLogResult {
  gas: number;
  failed: boolean;
  returnValue: string;
  structLogs: StructLogJSON[];
}

/** Errors that end a frame after its last opcode ran (not the fault of that opcode). */
const NOT_OPCODE_ERRORS = new Set([
  'revert', 'code store out of gas', 'code size to deposit exceeds maximum code size', 'invalid bytecode deployed',
  'create collision', 'insufficient balance', 'initcode exceeds max initcode size',
]);

const hex = (b: Uint8Array): string => bytesToString(b, 'hex');
const word = (v: bigint): string => v.toString(16).padStart(64, '0');

export class StructLogger implements EvmTracer {
  private readonly logs: StructLogJSON[] = [];
  /** slots touched so far, per contract (storage context address, hex) */
  private readonly storage = new Map<string, Map<string, string>>();
  /** an SLOAD entry waiting for the value it loads (the top of the stack at the frame's next step) */
  private pendingLoad: { entry: StructLogJSON | undefined; address: string; slot: string; depth: number } | undefined;
  /** per open frame (index = depth): its last entry and the return data of its last sub-call */
  private readonly frames: { last: StructLogJSON | undefined; returnData: Uint8Array }[] = [];
  private done: StructLogResult | undefined;

  constructor(private readonly cfg: StructLoggerConfig = {}, private readonly size = new TraceSize()) {}

  step(s: InterpreterStep): void {
    const p = this.pendingLoad;
    if (p) {
      this.pendingLoad = undefined;
      if (s.depth === p.depth && s.stack.length > 0) this.touch(p.address, p.slot, word(s.stack[s.stack.length - 1]!), p.entry);
    }
    const limit = this.cfg.limit ?? 0;
    const record = limit <= 0 || this.logs.length < limit;
    const op = s.opcode.code;
    const entry: StructLogJSON | undefined = record
      ? { pc: s.pc, op: s.opcode.name, gas: Number(s.gasLeft), gasCost: Number(stepCost(s)), depth: s.depth + 1 }
      : undefined;
    if (entry) {
      const c = this.cfg;
      if (!c.disableStack) entry.stack = s.stack.map((v) => '0x' + v.toString(16));
      const frame = this.frames[s.depth];
      if (c.enableReturnData && frame && frame.returnData.length > 0) entry.returnData = '0x' + hex(frame.returnData);
      if (c.enableMemory && s.memory.length > 0) {
        const words: string[] = [];
        for (let i = 0; i + 32 <= s.memory.length; i += 32) words.push(hex(s.memory.subarray(i, i + 32)));
        entry.memory = words;
      }
      if (s.gasRefund > 0n) entry.refund = Number(s.gasRefund);
      this.logs.push(entry);
      // estimated JSON size: fixed fields, then stack items, memory words, return data
      let bytes = 80 + entry.op.length;
      if (entry.stack) for (const v of entry.stack) bytes += v.length + 3;
      if (entry.memory) bytes += entry.memory.length * 67;
      if (entry.returnData) bytes += entry.returnData.length;
      this.size.add(bytes);
    }
    if (this.frames[s.depth]) this.frames[s.depth]!.last = entry;
    if (this.cfg.disableStorage || s.stack.length === 0) return;
    const address = s.address.toString();
    if (op === 0x54) {
      this.pendingLoad = { entry, address, slot: word(s.stack[s.stack.length - 1]!), depth: s.depth };
    } else if (op === 0x55 && s.stack.length >= 2) {
      this.touch(address, word(s.stack[s.stack.length - 1]!), word(s.stack[s.stack.length - 2]!), entry);
    }
  }

  private touch(address: string, slot: string, value: string, entry: StructLogJSON | undefined): void {
    let slots = this.storage.get(address);
    if (!slots) { slots = new Map(); this.storage.set(address, slots); }
    slots.set(slot, value);
    if (entry) {
      entry.storage = Object.fromEntries(slots);
      this.size.add(slots.size * 134);
    }
  }

  enter(m: EvmMessage): void {
    this.pendingLoad = undefined;
    this.frames[m.depth] = { last: undefined, returnData: new Uint8Array() };
  }

  exit(r: EVMResult): void {
    this.pendingLoad = undefined;
    const depth = this.frames.length - 1;
    const frame = this.frames.pop();
    const err = r.execResult.exceptionError?.error;
    if (frame?.last && err !== undefined && !NOT_OPCODE_ERRORS.has(err)) frame.last.error = gethError(err, r.execResult.runState as FailedRunState | undefined);
    // the caller's return data buffer: a sub-call's output, or a failed create's revert data
    const parent = this.frames[depth - 1];
    if (parent) parent.returnData = r.createdAddress && err === undefined ? new Uint8Array() : r.execResult.returnValue;
  }

  finish(_m: Message, _env: BlockEnv, r: ExecutionResult): void {
    const failed = r.vmError !== undefined;
    // geth: the return data on success, the revert data on a revert, nothing on other failures
    const ret = failed && !r.reverted ? new Uint8Array() : r.ret;
    this.done = { gas: Number(r.gasUsed), failed, returnValue: '0x' + hex(ret), structLogs: this.logs };
  }

  /** The trace (after the run finished). */
  result(): StructLogResult {
    if (!this.done) throw new Error('the traced execution did not finish');
    return this.done;
  }
}
