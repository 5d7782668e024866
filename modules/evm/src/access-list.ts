/**
 * eth_createAccessList as geth computes it (`internal/ethapi.AccessList` with `logger.AccessListTracer`): the
 * call runs with an access-list tracer that records the storage slots read or written (SLOAD, SSTORE) and the
 * addresses touched (BALANCE, EXTCODE*, SELFDESTRUCT, CALL*), leaving out the sender, the recipient (or the
 * created contract) and the precompiles as addresses; the call runs again with that list until the list no
 * longer changes. The result is the last list, the gas the call used with it (its intrinsic cost included:
 * 2400 per address, 1900 per slot) and the vm error if the call failed. Runs as eth_call does: on a throwaway
 * branch of the query state (with state overrides), the gas capped at the node's gas cap, within the query's
 * time budget (it yields to the event loop).
 */
import type { Context } from '@chain/app';
import type { ProtoObject } from '@chain/codec';
import { GrpcCode, statusError } from '@chain/errors';
import { branch } from '@chain/store';
import type { InterpreterStep } from '@ethereumjs/evm';
import { bigIntToBytes, createContractAddress, Address, setLengthLeft } from '@ethereumjs/util';
import { ExecutionTimeoutError } from './executor.js';
import type { EvmKeeper } from './keeper.js';
import { callMessage, callState, prepareCall } from './query.js';
import type { EvmTracer } from './tracer.js';

/** EIP-2930 costs */
const ADDRESS_COST = 2400n;
const SLOT_COST = 1900n;
/** the precompiles of Prague (0x01 … 0x11) */
const PRECOMPILES = Array.from({ length: 0x11 }, (_, i) => '0x' + (i + 1).toString(16).padStart(40, '0'));

/** address (0x lowercase) → slots (0x 32-byte lowercase), in insertion order */
export type AccessListMap = Map<string, Set<string>>;

const word = (v: bigint): string => '0x' + v.toString(16).padStart(64, '0');
const addrOf = (v: bigint): string => '0x' + (v & ((1n << 160n) - 1n)).toString(16).padStart(40, '0');

class AccessListTracer implements EvmTracer {
  readonly list: AccessListMap = new Map();
  constructor(init: AccessListMap, private readonly excluded: ReadonlySet<string>) {
    for (const [a, slots] of init) {
      if (!excluded.has(a)) this.addAddress(a);
      for (const s of slots) this.addSlot(a, s);
    }
  }
  private addAddress(a: string): void { if (!this.list.has(a)) this.list.set(a, new Set()); }
  private addSlot(a: string, s: string): void { this.addAddress(a); this.list.get(a)!.add(s); }

  step(s: InterpreterStep): void {
    const op = s.opcode.name;
    const st = s.stack;
    const n = st.length;
    if ((op === 'SLOAD' || op === 'SSTORE') && n >= 1) this.addSlot(s.address.toString().toLowerCase(), word(st[n - 1]!));
    else if ((op === 'EXTCODECOPY' || op === 'EXTCODEHASH' || op === 'EXTCODESIZE' || op === 'BALANCE' || op === 'SELFDESTRUCT') && n >= 1) {
      const a = addrOf(st[n - 1]!);
      if (!this.excluded.has(a)) this.addAddress(a);
    } else if ((op === 'DELEGATECALL' || op === 'CALL' || op === 'STATICCALL' || op === 'CALLCODE') && n >= 5) {
      const a = addrOf(st[n - 2]!);
      if (!this.excluded.has(a)) this.addAddress(a);
    }
  }
}

function equal(a: AccessListMap, b: AccessListMap): boolean {
  if (a.size !== b.size) return false;
  for (const [addr, slots] of a) {
    const o = b.get(addr);
    if (!o || o.size !== slots.size) return false;
    for (const s of slots) if (!o.has(s)) return false;
  }
  return true;
}

export interface AccessListResult {
  readonly accessList: { address: string; storageKeys: string[] }[];
  readonly gasUsed: bigint;
  readonly vmError: string | undefined;
}

/** The request's `access_list` (JSON of an EIP-2930 list, as the JSON-RPC sends it), parsed. */
function initialList(v: unknown): AccessListMap {
  const out: AccessListMap = new Map();
  if (v === undefined || v === null || v === '') return out;
  const list = typeof v === 'string' ? JSON.parse(v) as unknown : v;
  if (!Array.isArray(list)) throw statusError(GrpcCode.INVALID_ARGUMENT, 'invalid access list: expected an array');
  for (const e of list as { address?: unknown; storageKeys?: unknown }[]) {
    if (typeof e?.address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(e.address)) throw statusError(GrpcCode.INVALID_ARGUMENT, 'invalid access list address');
    const a = e.address.toLowerCase();
    const slots = out.get(a) ?? new Set<string>();
    out.set(a, slots);
    for (const k of (e.storageKeys ?? []) as unknown[]) {
      if (typeof k !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(k)) throw statusError(GrpcCode.INVALID_ARGUMENT, 'invalid access list storage key');
      slots.add(k.toLowerCase());
    }
  }
  return out;
}

/** eth_createAccessList over an EthCallRequest (with `access_list`, the optional starting list). */
export async function createAccessList(keeper: EvmKeeper, query: Context, req: ProtoObject): Promise<AccessListResult> {
  // the starting list is the tracer's: the call's args carry none (its cost is added per iteration)
  const prepared = prepareCall(keeper, query, { ...req, access_list: '' });
  const a = prepared.a;
  const { ctx, env } = callState(keeper, query, req.overrides, prepared.env);
  const from = new Address(a.from).toString().toLowerCase();
  let to: string;
  if (a.to) to = new Address(a.to).toString().toLowerCase();
  else {
    const nonce = keeper.getAccountInfo(ctx, a.from).nonce;
    to = createContractAddress(new Address(a.from), BigInt(nonce)).toString().toLowerCase();
  }
  const excluded = new Set([from, to, ...PRECOMPILES]);
  const budget = keeper.queryBudget();
  let prev = new AccessListTracer(initialList(req.access_list), excluded).list;
  for (;;) {
    const tracer = new AccessListTracer(prev, excluded);
    let cost = 0n;
    const accessList: [Uint8Array, Uint8Array[]][] = [];
    for (const [addr, slots] of prev) {
      cost += ADDRESS_COST + SLOT_COST * BigInt(slots.size);
      accessList.push([Buffer.from(addr.slice(2), 'hex'), [...slots].map((s) => setLengthLeft(bigIntToBytes(BigInt(s)), 32))]);
    }
    if (a.gas < a.minGas + cost) throw statusError(GrpcCode.INVALID_ARGUMENT, `intrinsic gas too low: have ${a.gas}, want ${a.minGas + cost}`);
    const msg = { ...callMessage(a, a.gas), intrinsicGas: a.intrinsicGas + cost, accessList };
    let r;
    try {
      r = await keeper.execute(ctx.withStore(branch(ctx.ms)), msg, env, budget, tracer);
    } catch (e) {
      if (e instanceof ExecutionTimeoutError) throw statusError(GrpcCode.DEADLINE_EXCEEDED, e.message);
      throw e;
    }
    if (equal(tracer.list, prev)) {
      return {
        accessList: [...prev].map(([address, slots]) => ({ address, storageKeys: [...slots] })),
        gasUsed: r.gasUsed,
        vmError: r.vmError,
      };
    }
    prev = tracer.list;
  }
}
