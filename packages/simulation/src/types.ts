/**
 * The contract between the runner and the modules: a module contributes weighted operations (each picks a
 * random valid or deliberately invalid message from the state it reads, and says what must happen) and
 * invariants (checked after every block). The runner knows no module by name.
 */
import type { Coin, Context } from '@chain/app';
import type { ProtoObject } from '@chain/codec';
import type { Rand } from './rand.js';

/** A simulated account: a secp256k1 account key and an ed25519 consensus key (for creating a validator). */
export interface SimAccount {
  /** position in the run's account list */
  readonly index: number;
  /** secp256k1 private key (32 bytes) */
  readonly priv: Uint8Array;
  /** compressed secp256k1 public key (33 bytes) */
  readonly pub: Uint8Array;
  /** account address bytes (ripemd160(sha256(pub))) */
  readonly addr: Uint8Array;
  /** bech32 account address */
  readonly address: string;
  /** ed25519 consensus key seed (32 bytes) */
  readonly consPriv: Uint8Array;
  /** ed25519 consensus public key (32 bytes) */
  readonly consPub: Uint8Array;
  /** CometBFT address of the consensus key: sha256(consPub)[:20] */
  readonly consAddr: Uint8Array;
}

/** A message of an operation: its full proto type name and value (packed into an Any by the runner). */
export interface SimMsg {
  readonly type: string;
  readonly value: ProtoObject;
}

/** What must happen to an operation's tx: success, or refusal with exactly this (codespace, code). */
export type Expectation =
  | { readonly ok: true }
  | { readonly ok: false; readonly codespace: string; readonly code: number; readonly log?: string };

/** A tx an operation wants delivered. */
export interface OperationMsg {
  readonly msgs: readonly SimMsg[];
  /** the one signer (and fee payer) */
  readonly signer: SimAccount;
  /** the fee (default none); a refused tx is expected to change nothing, so it is sent without fee */
  readonly fee?: readonly Coin[];
  readonly expect: Expectation;
  /** the case, for the report (e.g. `insufficient funds`, `unknown validator`) */
  readonly label?: string;
}

/** An operation that found nothing to do in this state (no delegation to undelegate, ...). */
export interface NoOp {
  readonly noop: string;
}

export type OperationResult = OperationMsg | NoOp;

/** What an operation is handed. */
export interface OperationInput {
  readonly rand: Rand;
  /** the block's state so far (begin-block done, the block's earlier txs delivered): read-only */
  readonly ctx: Context;
  /** the last committed state (what CheckTx pays fees from): read-only */
  readonly committed: Context;
  /** every account of the run */
  readonly accounts: readonly SimAccount[];
  /** the accounts that have not signed a tx in this block yet (one tx per signer per block) */
  readonly available: readonly SimAccount[];
  /** the available account of these address bytes, if any */
  availableByAddr(addr: Uint8Array): SimAccount | undefined;
  /** the account of these address bytes, if it is one of the run's */
  accountByAddr(addr: Uint8Array): SimAccount | undefined;
  readonly chainId: string;
  readonly height: number;
  readonly time: Date;
}

export type Operation = (input: OperationInput) => OperationResult | Promise<OperationResult>;

/** An operation with its relative weight (how often the runner picks it). */
export interface WeightedOperation {
  /** `<module>/<operation>`, e.g. `staking/delegate` */
  readonly name: string;
  readonly weight: number;
  readonly op: Operation;
}

/** The crisis module's shape: broken or not, with the SDK's message. */
export interface InvariantResult {
  readonly broken: boolean;
  readonly message: string;
}

export interface Invariant {
  /** `<module>/<route>`, e.g. `staking/module-accounts` */
  readonly name: string;
  check(ctx: Context): InvariantResult;
}

/** What one module contributes to a simulation. */
export interface SimulationModule {
  readonly name: string;
  readonly operations: readonly WeightedOperation[];
  readonly invariants: readonly Invariant[];
}

export const ok = (): Expectation => ({ ok: true });

/** A refusal with a registered error's codespace and code (and optionally a substring of the log). */
export function fails(err: { readonly codespace: string; readonly code: number }, log?: string): Expectation {
  return log === undefined ? { ok: false, codespace: err.codespace, code: err.code } : { ok: false, codespace: err.codespace, code: err.code, log };
}

export const noop = (reason: string): NoOp => ({ noop: reason });

export function isNoOp(r: OperationResult): r is NoOp {
  return (r as NoOp).noop !== undefined;
}
