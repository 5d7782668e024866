/**
 * Fast paths over @ethereumjs/evm's interpreter, installed once when this module loads (the executor imports it).
 * Each does what the code it replaces does, with fewer allocations; anything unusual takes the original code.
 *
 * - `runStep`: ethereumjs runs every opcode through an async function (a promise per step, and an array per handler
 *   call). An opcode with a static gas cost and a synchronous handler (PUSH, DUP, SWAP, JUMP, arithmetic: ~85% of the
 *   ~260 steps of an ERC-20 transfer) runs here synchronously. The rest (dynamic gas, async handlers, invalid opcodes),
 *   and every step while a `step` listener (a tracer), the profiler or debug output is on, or under EIP-6800/7864 code
 *   chunk accounting, or with an EIP-7928 out-of-gas pending, go to the original.
 * - `_getValidJumpDestinations`: the jump analysis of a contract's code (a table as long as the code, one entry per
 *   byte) is computed once per code and opcode table instead of on every call. The state adapter hands out one
 *   `Uint8Array` per code (its code cache is by hash), so the cache is keyed by that object (weakly). The tables are
 *   only read while the code runs.
 * - MSTORE and SLOAD: their key and word are padded to 32 bytes without ethereumjs's `setLengthLeft` (which builds
 *   the padded copy by spreading both arrays into a new one).
 *
 * These are ethereumjs internals (the version installed is the lockfile's): a version without them runs its own code
 * (`fastInterpreterAvailable` false). test/interpreter-fast.test.ts requires them, and checks that contracts give the
 * same results, gas, events and app hash with and without the fast paths.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EVMError } from '@ethereumjs/evm';
import type { EVM } from '@ethereumjs/evm';
import { bigIntToBytes, bytesToBigInt } from '@ethereumjs/util';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * One of the package's own files (its exports map has only the root), from the module graph the EVM comes from.
 * In chaind's bundle (`apps/node/scripts/bundle.mjs`) the bundler resolves the literal specifier to the file the
 * bundled EVM imports; Node refuses it (not exported), so unbundled the file next to the root module the resolver
 * picks is loaded. (`import.meta.resolve` is Node >= 20.6; before it, the CommonJS entry's path, whose ES module
 * build is in the sibling `esm` folder.)
 */
async function loadEvmFile(name: 'interpreter' | 'errors'): Promise<any> {
  try {
    // (`as string`: TypeScript does not resolve the specifier; the bundler still sees the literal)
    return name === 'interpreter'
      ? await import('@ethereumjs/evm/dist/esm/interpreter.js' as string)
      : await import('@ethereumjs/evm/dist/esm/errors.js' as string);
  } catch {
    const root = typeof import.meta.resolve === 'function'
      ? fileURLToPath(import.meta.resolve('@ethereumjs/evm'))
      : createRequire(import.meta.url).resolve('@ethereumjs/evm').replace(/([/\\])dist[/\\]cjs[/\\]/, '$1dist$1esm$1');
    return import(pathToFileURL(join(dirname(root), `${name}.js`)).href);
  }
}

async function loadInterpreterPrototype(): Promise<any> {
  try {
    const [mod, errors] = await Promise.all([loadEvmFile('interpreter'), loadEvmFile('errors')]);
    // a second copy of the package's files (another module graph than the EVM's): patching it would reach no EVM
    if (errors.EVMError !== EVMError) return undefined;
    const p = (mod as { Interpreter?: { prototype?: any } }).Interpreter?.prototype;
    return typeof p?.runStep === 'function' && typeof p._getValidJumpDestinations === 'function' ? p : undefined;
  } catch {
    return undefined;
  }
}

/** The interpreter's prototype; undefined if this version of the package does not have what is replaced here. */
const proto = await loadInterpreterPrototype();

/** Whether the fast paths could be installed (else ethereumjs's own code runs; the tests require them). */
export const fastInterpreterAvailable = proto !== undefined;

type RunStep = (this: any, opcodeObj?: any) => Promise<void>;
type JumpAnalysis = (this: any, code: Uint8Array) => { jumps: Uint8Array; pushes: Record<number, bigint>; opcodesCached: unknown[] };

/** The originals (what the fast paths fall back to; the tests run both). */
export const originalRunStep: RunStep | undefined = proto?.runStep;
export const originalJumpAnalysis: JumpAnalysis | undefined = proto?._getValidJumpDestinations;

function fastRunStep(this: any, opcodeObj?: any): Promise<void> | undefined {
  const rs = this._runState;
  const entry = opcodeObj ?? this._evm._opcodeMap[rs.opCode];
  const info = entry.opcodeInfo;
  const evm = this._evm;
  if (
    info.dynamicGas || info.isAsync || info.isInvalid || rs.eip7928PostTargetCallOog !== undefined || evm.DEBUG ||
    this.profilerOpts?.enabled === true || evm.events.listenerCount('step') > 0 ||
    (this._env.chargeCodeAccesses === true && (this.common.isActivatedEIP(6800) || this.common.isActivatedEIP(7864)))
  ) {
    return originalRunStep!.call(this, opcodeObj);
  }
  this.useGas(info.feeBigInt, info);
  rs.programCounter++;
  entry.opHandler(rs, this.common);
  rs.env.accessWitness?.commit();
  return undefined;
}

/** Whether the fast paths are on (installed at load; `useFastInterpreter` switches). */
let fast = true;

/** opcode table → code → its jump analysis */
const analyses = new WeakMap<object, WeakMap<Uint8Array, ReturnType<JumpAnalysis>>>();

function cachedJumpAnalysis(this: any, code: Uint8Array): ReturnType<JumpAnalysis> {
  const table = this._evm._opcodeMap as object;
  let byCode = analyses.get(table);
  if (byCode === undefined) {
    byCode = new WeakMap();
    analyses.set(table, byCode);
  }
  let a = byCode.get(code);
  if (a === undefined) {
    a = originalJumpAnalysis!.call(this, code);
    byCode.set(code, a);
  }
  return a;
}

/** `on`: the fast paths (installed at load); `off`: ethereumjs's own code (for the tests that compare both). */
export function useFastInterpreter(on: boolean): void {
  if (proto === undefined) return;
  fast = on;
  proto.runStep = on ? fastRunStep : originalRunStep;
  proto._getValidJumpDestinations = on ? cachedJumpAnalysis : originalJumpAnalysis;
}

useFastInterpreter(true);

/** `v` (0 <= v < 2^256) as 32 big-endian bytes. */
function word32(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  if (v !== 0n) {
    const b = bigIntToBytes(v);
    out.set(b, 32 - b.length);
  }
  return out;
}

/** MSTORE and SLOAD handlers as ethereumjs's, the 32-byte padding written directly. */
function mstore(runState: any): void {
  const [offset, word] = runState.stack.popN(2) as [bigint, bigint];
  runState.memory.write(Number(offset), 32, word32(word));
}

async function sload(runState: any): Promise<void> {
  const key = runState.stack.pop() as bigint;
  const value = (await runState.interpreter.storageLoad(word32(key))) as Uint8Array;
  runState.stack.push(value.length ? bytesToBigInt(value) : 0n);
}

/** Puts the MSTORE and SLOAD handlers above into an EVM's opcode table (its own copy: built per EVM), if the fast paths are on. */
export function installFastHandlers(evm: EVM): void {
  if (!fast || proto === undefined) return;
  const table = (evm as any)._opcodeMap as { opcodeInfo: { name: string }; opHandler: unknown }[];
  if (table[0x52]?.opcodeInfo.name === 'MSTORE') table[0x52] = { ...table[0x52], opHandler: mstore };
  if (table[0x54]?.opcodeInfo.name === 'SLOAD') table[0x54] = { ...table[0x54], opHandler: sload };
}
