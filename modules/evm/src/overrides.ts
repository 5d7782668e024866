/**
 * geth's StateOverride for eth_call, eth_estimateGas, debug_traceCall and eth_simulateV1:
 * `{<address>: {balance?, nonce?, code?, state?, stateDiff?, movePrecompileToAddress?}}`. `state` replaces the
 * whole storage of the account, `stateDiff` only the slots given (the two are mutually exclusive: refused when applied, as geth). Overrides are
 * written into the store of the context they are applied to: callers apply them to a throwaway branch of the
 * query state only. As geth's `StateOverride.Apply`, in address order: `movePrecompileToAddress` makes the
 * precompile at the overridden address run at another one (which may not be overridden itself), and any override
 * of a precompile's address removes the precompile from there (so a `code` override runs that code).
 */
import type { Context } from '@chain/app';
import { fromHex, toChecksumAddress, toHex } from '@chain/crypto';
import { GrpcCode, statusError } from '@chain/errors';
import { unmetered } from './keeper.js';
import type { EvmKeeper } from './keeper.js';

/** The override of one account (parsed). */
export interface AccountOverride {
  readonly address: Uint8Array;
  readonly balance?: bigint;
  readonly nonce?: bigint;
  readonly code?: Uint8Array;
  /** the account's complete storage (slot, 32-byte value) */
  readonly state?: readonly (readonly [Uint8Array, Uint8Array])[];
  /** slots to change (slot, 32-byte value) */
  readonly stateDiff?: readonly (readonly [Uint8Array, Uint8Array])[];
  /** movePrecompileToAddress: where the precompile at `address` runs instead */
  readonly movePrecompileTo?: Uint8Array;
}

export type StateOverride = readonly AccountOverride[];

const FIELDS = new Set(['balance', 'nonce', 'code', 'state', 'stateDiff', 'movePrecompileToAddress']);
const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_UINT64 = (1n << 64n) - 1n;

const invalid = (msg: string): Error => statusError(GrpcCode.INVALID_ARGUMENT, msg);

function quantity(v: unknown, what: string, max: bigint): bigint {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(v)) throw invalid(`invalid ${what}: expected a 0x-prefixed hex quantity, got ${JSON.stringify(v)}`);
  const n = BigInt(v);
  if (n > max) throw invalid(`invalid ${what}: ${v} is too large`);
  return n;
}

function bytes(v: unknown, what: string): Uint8Array {
  if (typeof v !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(v)) throw invalid(`invalid ${what}: expected 0x-prefixed hex bytes`);
  return fromHex(v.slice(2).toLowerCase());
}

/** A storage key or value: 0x hex of at most 32 bytes, left-padded to 32. */
function word(v: unknown, what: string): Uint8Array {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(v)) throw invalid(`invalid ${what}: expected 0x-prefixed hex of at most 32 bytes, got ${JSON.stringify(v)}`);
  return fromHex(v.slice(2).toLowerCase().padStart(64, '0'));
}

function address(v: unknown, what: string): Uint8Array {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(v)) throw invalid(`invalid ${what}: expected a 20-byte 0x address, got ${JSON.stringify(v)}`);
  return fromHex(v.slice(2).toLowerCase());
}

function slots(v: unknown, what: string): [Uint8Array, Uint8Array][] {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(`invalid ${what}: expected an object of storage slot → value`);
  return Object.entries(v).map(([k, val]) => [word(k, `${what} slot ${k}`), word(val, `${what} value of slot ${k}`)]);
}

/** Parses a StateOverride object (JSON value); undefined / null is no override. Throws INVALID_ARGUMENT. */
export function parseStateOverride(json: unknown): StateOverride {
  if (json === undefined || json === null) return [];
  if (typeof json !== 'object' || Array.isArray(json)) throw invalid('invalid state override: expected an object of address → account override');
  const seen = new Set<string>();
  const out: AccountOverride[] = [];
  for (const [key, o] of Object.entries(json as Record<string, unknown>)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(key)) throw invalid(`invalid state override: ${JSON.stringify(key)} is not a 20-byte 0x address`);
    const lower = key.toLowerCase();
    if (seen.has(lower)) throw invalid(`invalid state override: address ${key} appears twice`);
    seen.add(lower);
    if (typeof o !== 'object' || o === null || Array.isArray(o)) throw invalid(`invalid state override of ${key}: expected an object`);
    const a = o as Record<string, unknown>;
    for (const f of Object.keys(a)) {
      if (!FIELDS.has(f)) throw invalid(`invalid state override of ${key}: unsupported field ${JSON.stringify(f)} (supported: balance, nonce, code, state, stateDiff, movePrecompileToAddress)`);
    }
    const given = (f: string): boolean => a[f] !== undefined && a[f] !== null;
    out.push({
      address: fromHex(lower.slice(2)),
      balance: given('balance') ? quantity(a.balance, `balance override of ${key}`, MAX_UINT256) : undefined,
      nonce: given('nonce') ? quantity(a.nonce, `nonce override of ${key}`, MAX_UINT64) : undefined,
      code: given('code') ? bytes(a.code, `code override of ${key}`) : undefined,
      state: given('state') ? slots(a.state, `state override of ${key}`) : undefined,
      stateDiff: given('stateDiff') ? slots(a.stateDiff, `stateDiff override of ${key}`) : undefined,
      movePrecompileTo: given('movePrecompileToAddress') ? address(a.movePrecompileToAddress, `movePrecompileToAddress of ${key}`) : undefined,
    });
  }
  return out;
}

/**
 * Writes the overrides into the store of `ctx` (which must be a throwaway branch), in address order as geth, and
 * applies their precompile changes to `precompiles` (address → default address of the precompile it runs,
 * unprefixed lowercase hex; see BlockEnv.precompiles), which it returns. Throws geth's errors (plain, -32000):
 * `account <addr> is not a precompile`, `account <addr> is already overridden` (a move to an overridden address),
 * `account <addr> has both 'state' and 'stateDiff'`.
 */
export function applyStateOverride(keeper: EvmKeeper, ctx: Context, overrides: StateOverride, precompiles = new Map<string, string>()): Map<string, string> {
  const u = unmetered(ctx);
  const denom = keeper.params(u).denom;
  const hexOf = (a: Uint8Array): string => toHex(a);
  const sorted = [...overrides].sort((x, y) => (hexOf(x.address) < hexOf(y.address) ? -1 : 1));
  const overridden = new Set(sorted.map((o) => hexOf(o.address)));
  const movedTo = new Set<string>();
  for (const o of sorted) {
    const addr = o.address;
    const key = hexOf(addr);
    if (movedTo.has(key)) throw new Error(`account ${toChecksumAddress(fromHex(key))} has already been overridden by a precompile`);
    const precompile = precompiles.get(key);
    if (o.movePrecompileTo !== undefined) {
      if (precompile === undefined) throw new Error(`account ${toChecksumAddress(fromHex(key))} is not a precompile`);
      const to = hexOf(o.movePrecompileTo);
      if (overridden.has(to)) throw new Error(`account ${toChecksumAddress(fromHex(to))} is already overridden`);
      precompiles.set(to, precompile);
      movedTo.add(to);
    }
    if (precompile !== undefined) precompiles.delete(key);
    if (o.nonce !== undefined) {
      const acc = keeper.ak.getAccount(u, addr) ?? keeper.ak.newAccountWithAddress(u, addr);
      acc.base.sequence = o.nonce;
      keeper.ak.setAccount(u, acc);
    }
    if (o.code !== undefined) keeper.setCode(u, addr, o.code);
    if (o.balance !== undefined) {
      const cur = keeper.bank.getBalance(u, addr, denom);
      if (o.balance > cur) keeper.bank.addCoins(u, addr, [{ denom, amount: (o.balance - cur).toString() }]);
      else if (o.balance < cur) keeper.bank.subCoins(u, addr, [{ denom, amount: (cur - o.balance).toString() }]);
    }
    if (o.state !== undefined && o.stateDiff !== undefined) throw new Error(`account ${toChecksumAddress(addr)} has both 'state' and 'stateDiff'`);
    if (o.state !== undefined) {
      const zero = new Uint8Array(32);
      for (const [slot] of [...keeper.storage(u, addr)]) keeper.setState(u, addr, slot, zero);
      for (const [slot, value] of o.state) keeper.setState(u, addr, slot, value);
    }
    for (const [slot, value] of o.stateDiff ?? []) keeper.setState(u, addr, slot, value);
  }
  return precompiles;
}
