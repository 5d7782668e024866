/**
 * The EVM's errors in geth's words (`core/vm/errors.go`): what eth_call, eth_estimateGas, eth_simulateV1, the
 * tracers and `ethereum_tx.ethereumTxFailed` report for a failed execution. @ethereumjs/evm names its errors
 * differently (`static state change`, `invalid JUMP at ...`, `create collision`, ...) and gives no details;
 * the details geth prints (the opcode of `invalid opcode: <NAME>`, the stack sizes of `stack underflow (<len>
 * <=> <required>)`) are read from the failed frame's run state.
 */
import { revertReason } from './ethtx.js';

/** geth's `opCodeToString` names of the bytes that are no Prague opcode but have a name in geth (`invalid opcode: <NAME>`) */
const NAMES: Record<number, string> = {
  0x1e: 'CLZ', 0x4b: 'SLOTNUM', 0xd0: 'DATALOAD', 0xd1: 'DATALOADN', 0xd2: 'DATASIZE', 0xd3: 'DATACOPY', 0xe0: 'RJUMP', 0xe1: 'RJUMPI',
  0xe2: 'RJUMPV', 0xe3: 'CALLF', 0xe4: 'RETF', 0xe5: 'JUMPF', 0xe6: 'DUPN', 0xe7: 'SWAPN', 0xe8: 'EXCHANGE', 0xec: 'EOFCREATE',
  0xee: 'RETURNCONTRACT', 0xf7: 'RETURNDATALOAD', 0xf8: 'EXTCALL', 0xf9: 'EXTDELEGATECALL', 0xfb: 'EXTSTATICCALL', 0xfe: 'INVALID',
};

/** geth's OpCode.String() of an invalid opcode byte */
function opName(op: number): string {
  return NAMES[op] ?? `opcode 0x${op.toString(16)} not defined`;
}

/** The stack items each Prague opcode takes (geth's `minStack`). */
function stackInputs(op: number): number {
  if (op >= 0x60 && op <= 0x7f) return 0; // PUSH1..32
  if (op >= 0x80 && op <= 0x8f) return op - 0x7f; // DUPn: n
  if (op >= 0x90 && op <= 0x9f) return op - 0x8e; // SWAPn: n + 1
  if (op >= 0xa0 && op <= 0xa4) return op - 0xa0 + 2; // LOGn: n + 2
  const three = [0x08, 0x09, 0x37, 0x39, 0x3e, 0x5e, 0xf0];
  const two = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x0b, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1a, 0x1b, 0x1c, 0x1d,
    0x20, 0x52, 0x53, 0x55, 0x57, 0x5d, 0xf3, 0xfd];
  const one = [0x15, 0x19, 0x31, 0x35, 0x3b, 0x3f, 0x40, 0x49, 0x50, 0x51, 0x54, 0x56, 0x5c, 0xff];
  if (op === 0xf1 || op === 0xf2) return 7; // CALL, CALLCODE
  if (op === 0xf4 || op === 0xfa) return 6; // DELEGATECALL, STATICCALL
  if (op === 0x3c || op === 0xf5) return 4; // EXTCODECOPY, CREATE2
  if (three.includes(op)) return 3;
  if (two.includes(op)) return 2;
  if (one.includes(op)) return 1;
  return 0;
}

/** What geth's stack limit check reports: the stack held 1024 items and the op may leave at most 1023 before it (it pushes one more than it pops). */
const STACK_LIMIT = 1024;

/** The part of @ethereumjs/evm's run state of a failed frame the messages need. */
export interface FailedRunState {
  readonly opCode?: number;
  readonly stack?: { readonly length: number };
  readonly returnBytes?: Uint8Array;
  readonly programCounter?: number;
  readonly code?: Uint8Array;
}

/** Whether the failed op `op` got past its gas charge (the interpreter advances the program counter then). */
function pastOp(rs: FailedRunState, op: number): boolean {
  const pc = rs.programCounter;
  if (pc === undefined || !rs.code) return false;
  return rs.code[pc - 1] === op && rs.code[pc] !== op;
}

/**
 * geth's message for the error of a failed execution (eth_call, eth_simulateV1, `ethereumTxFailed`): a revert with
 * its reason (`execution reverted: <reason>`, as geth's revertError), else {@link gethError}. `error` is ethereumjs'
 * EVMError.error of the top frame, `ret` its output, `rs` its run state.
 */
export function gethVmError(error: string, ret: Uint8Array, rs?: FailedRunState): string {
  if (error === 'revert') {
    const reason = revertReason(ret);
    return reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`;
  }
  return gethError(error, rs);
}

/**
 * geth's `err.Error()` of a frame's error (what its tracers show: `execution reverted` without the reason), from
 * ethereumjs' EVMError.error and the frame's run state (`execResult.runState`).
 */
export function gethError(error: string, rs?: FailedRunState): string {
  const op = rs?.opCode;
  switch (error) {
    case 'revert': return 'execution reverted';
    case 'insufficient balance': return 'insufficient balance for transfer';
    case 'code store out of gas': return 'contract creation code storage out of gas';
    case 'code size to deposit exceeds maximum code size': return 'max code size exceeded';
    case 'initcode exceeds max initcode size': return 'max initcode size exceeded';
    case 'invalid bytecode deployed': return 'invalid code: must not begin with 0xef';
    case 'create collision': return 'contract address collision';
    case 'static state change': return 'write protection';
    case 'invalid opcode': return op === undefined ? 'invalid opcode' : `invalid opcode: ${opName(op)}`;
    case 'stack overflow': return `stack limit reached ${STACK_LIMIT} (${STACK_LIMIT - 1})`;
    case 'stack underflow': {
      if (op === undefined || !rs?.stack) return 'stack underflow';
      const required = stackInputs(op);
      let len = rs.stack.length;
      // LOGn (n > 0) pops its offset and size before its topics: when the underflow came from its handler (the
      // program counter already past the op; its gas check peeks at those two), the two were popped
      if (op >= 0xa1 && op <= 0xa4 && pastOp(rs, op)) len += 2;
      return `stack underflow (${len} <=> ${required})`;
    }
    case 'out of gas': {
      // RETURNDATACOPY past the return data: ethereumjs stops it as out of gas, geth as out of bounds
      if (op === 0x3e && rs?.stack && rs.returnBytes && outOfReturnData(rs)) return 'return data out of bounds';
      return 'out of gas';
    }
    default:
      if (error.startsWith('invalid JUMP')) return 'invalid jump destination';
      return error;
  }
}

/** RETURNDATACOPY's offset + size beyond the return data (the stack still holds the op's three inputs). */
function outOfReturnData(rs: FailedRunState): boolean {
  const stack = rs.stack as unknown as { peek?: (n: number) => bigint[] };
  if (typeof stack.peek !== 'function' || rs.stack!.length < 3) return false;
  const [, offset, size] = stack.peek(3) as [bigint, bigint, bigint];
  return offset + size > BigInt(rs.returnBytes!.length);
}
