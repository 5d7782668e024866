/**
 * Runs one EVM message (a tx's execution, an eth_call) on a Context with @ethereumjs/evm at Prague:
 * warm addresses (EIP-2929/2930/3651), runCall, refund cap (EIP-3529), calldata floor (EIP-7623),
 * SELFDESTRUCT of contracts created in the tx (EIP-6780), touched-empty-account cleanup (EIP-161).
 *
 * EVM instances are pooled per chain id and reused (building one costs ~0.6 ms); each run binds the pooled
 * state-manager adapter to the caller's Context, so concurrent runs (a query during a block) never share one.
 */
import { EVMError, createEVM, getActivePrecompiles } from '@ethereumjs/evm';
import type { EVM, EVMMockBlockchainInterface, EVMResult, Log, PrecompileFunc } from '@ethereumjs/evm';
import { Address, bytesToHex, bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util';
import type { Context } from '@chain/app';
import { commonFor } from './crypto.js';
import { gethVmError } from './vm-errors.js';
import type { FailedRunState } from './vm-errors.js';
import { ContextStateManager } from './statedb.js';
import type { StateManagerDeps } from './statedb.js';
import { attachTracer } from './tracer.js';
import { installFastHandlers } from './interpreter-fast.js';
import type { EvmTracer } from './tracer.js';

export type EvmLog = Log;

export interface Message {
  readonly caller: Uint8Array;
  readonly to: Uint8Array | undefined;
  readonly value: bigint;
  readonly data: Uint8Array;
  readonly gasLimit: bigint;
  readonly gasPrice: bigint;
  readonly intrinsicGas: bigint;
  /** EIP-7623 calldata floor; 0 when none */
  readonly floorGas: bigint;
  readonly accessList: readonly (readonly [Uint8Array, readonly Uint8Array[]])[];
  /** txs: the ante handler already incremented the nonce; eth_call: the EVM increments it */
  readonly nonceIncremented: boolean;
  /** EIP-4844 versioned hashes BLOBHASH reads (eth_simulateV1 calls with blobVersionedHashes) */
  readonly blobVersionedHashes?: readonly Uint8Array[];
}

export interface BlockEnv {
  readonly height: bigint;
  /** unix seconds */
  readonly timestamp: bigint;
  readonly coinbase: Uint8Array;
  readonly baseFee: bigint;
  readonly gasLimit: bigint;
  /** PREVRANDAO (32 bytes); zero when absent (eth_call / eth_simulateV1 block overrides set it) */
  readonly prevRandao?: Uint8Array;
  /** BLOBBASEFEE; 1 (the minimum: this chain has no blobs) when absent */
  readonly blobBaseFee?: bigint;
  /**
   * The precompiles of the block when state overrides changed them (geth's `evm.SetPrecompiles` after
   * `StateOverride.Apply`: `movePrecompileToAddress`, overridden precompile addresses): address → the default
   * address of the precompile it runs (unprefixed lowercase hex); absent: the hardfork's precompiles. Warm
   * addresses stay the hardfork's precompiles either way, as geth warms them.
   */
  readonly precompiles?: ReadonlyMap<string, string>;
}

export interface ExecutionResult {
  /** gas charged: intrinsic + execution − capped refund, at least the calldata floor */
  readonly gasUsed: bigint;
  /** intrinsic + execution gas before the refund (what the gas limit must cover) */
  readonly gasBeforeRefund: bigint;
  readonly ret: Uint8Array;
  /** undefined on success; `execution reverted[: reason]`, `out of gas`, ... */
  readonly vmError: string | undefined;
  readonly reverted: boolean;
  readonly logs: readonly EvmLog[];
  readonly createdAddress: Uint8Array | undefined;
}

interface Lane {
  readonly evm: EVM;
  readonly sm: ContextStateManager;
  /** the hardfork's precompiles (ethereumjs' map, by unprefixed lowercase address) */
  readonly precompiles: Map<string, PrecompileFunc>;
}

/** ethereumjs keeps the active precompiles in a private field, read through `getPrecompile` */
type PrecompileSlot = { _precompiles: Map<string, PrecompileFunc> };

const ZERO_HASH = new Uint8Array(32);
const ZERO_ADDRESS = new Uint8Array(20);

/**
 * Limits of a run that must not hold the event loop (eth_call, gas estimation): the run yields to the
 * event loop every `sliceMs` of execution, so blocks keep being produced and other requests served, and
 * is aborted once `deadline` (a `performance.now()` time) has passed.
 */
export interface RunBudget {
  readonly deadline: number;
  /** the timeout the deadline came from, for the error message */
  readonly timeoutMs: number;
  readonly sliceMs?: number;
}

/** A run aborted by its {@link RunBudget} deadline (geth: `execution aborted (timeout = 5s)`). */
export class ExecutionTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`execution aborted (timeout = ${formatSeconds(timeoutMs)})`);
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

interface BudgetState { readonly budget: RunBudget; sliceEnd: number; jumps: number }

/** Budgets of the runs in progress, by EVM instance (a lane runs one message at a time). */
const budgets = new WeakMap<EVM, BudgetState>();
/** JUMPDESTs between clock reads: every loop iteration passes one, so no long run escapes the check. */
const JUMPS_PER_CHECK = 512;

/**
 * JUMPDEST (0x5b, 1 gas, no effect) with a budget check: every loop of EVM code passes a JUMPDEST, so a
 * run under a budget reads the clock every JUMPS_PER_CHECK of them, yields when its slice is used up and
 * throws past its deadline. Only the lanes of budgeted runs (queries) have it; transactions run the
 * built-in JUMPDEST.
 */
const budgetedJumpdest = {
  opcode: 0x5b,
  opcodeName: 'JUMPDEST',
  baseFee: 1,
  logicFunction: async (runState: { interpreter: { _evm: EVM } }): Promise<void> => {
    const st = budgets.get(runState.interpreter._evm);
    if (st === undefined || ++st.jumps % JUMPS_PER_CHECK !== 0) return;
    const now = performance.now();
    if (now > st.budget.deadline) throw new ExecutionTimeoutError(st.budget.timeoutMs);
    if (now > st.sliceEnd) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      st.sliceEnd = performance.now() + (st.budget.sliceMs ?? DEFAULT_SLICE_MS);
    }
  },
};

/** Execution time a budgeted run takes before it lets the event loop run. */
const DEFAULT_SLICE_MS = 20;

/** Address of the EIP-4844 point evaluation precompile. */
export const POINT_EVALUATION_ADDRESS = '0x000000000000000000000000000000000000000a';

/**
 * 0x0a without a KZG trusted setup (none is bundled): every call fails like an invalid proof and consumes
 * the gas it was given, instead of ethereumjs throwing `kzg not initialized` out of the execution.
 */
const pointEvaluationUnavailable: PrecompileFunc = (input) => ({
  returnValue: new Uint8Array(0),
  executionGasUsed: input.gasLimit,
  exceptionError: new EVMError(EVMError.errorMessages.INVALID_PROOF),
});

/** The addresses of the hardfork's precompiles (unprefixed lowercase hex), each running its own precompile. */
export function defaultPrecompiles(chainId: bigint): Map<string, string> {
  const out = new Map<string, string>();
  for (const addr of getActivePrecompiles(commonFor(chainId)).keys()) out.set(addr, addr);
  out.set(POINT_EVALUATION_ADDRESS.slice(2), POINT_EVALUATION_ADDRESS.slice(2));
  return out;
}

export class Executor {
  /** Idle lanes by chain id and kind: budgeted ones (queries) run the yielding JUMPDEST, the others not. */
  private readonly lanes = new Map<string, Lane[]>();

  constructor(private readonly deps: StateManagerDeps) {}

  private async acquire(pool: string, chainId: bigint, budgeted: boolean): Promise<Lane> {
    const idle = this.lanes.get(pool)?.pop();
    if (idle) return idle;
    const sm = new ContextStateManager(this.deps);
    // BLOCKHASH reads the hashes kept in the bound state (evm keys.ts), never the node's block store
    const blockchain: EVMMockBlockchainInterface = {
      async getBlock(n: number) { const h = sm.blockHash(BigInt(n)) ?? ZERO_HASH; return { hash: () => h }; },
      async putBlock() { /* unused */ },
      shallowCopy() { return this; },
    };
    const evm = await createEVM({
      common: commonFor(chainId).copy(),
      stateManager: sm,
      blockchain,
      customPrecompiles: [{ address: POINT_EVALUATION_ADDRESS, function: pointEvaluationUnavailable }],
      // an awaited JUMPDEST costs ~20% on loops: only lanes of budgeted runs have it
      customOpcodes: budgeted ? [budgetedJumpdest] : undefined,
    });
    installFastHandlers(evm);
    return { evm, sm, precompiles: evm.precompiles };
  }

  private release(pool: string, lane: Lane): void {
    let list = this.lanes.get(pool);
    if (!list) { list = []; this.lanes.set(pool, list); }
    if (list.length < 8) list.push(lane);
  }

  /**
   * Executes `m` against the state of `ctx` (writes land in ctx's store). With a `budget` the run yields
   * to the event loop regularly and throws {@link ExecutionTimeoutError} past its deadline (ctx's store
   * must then be discarded); `ctx` must then be a view that other work cannot change meanwhile.
   * A `tracer` is attached to the lane's EVM for this run only (runs without one attach nothing).
   */
  async run(ctx: Context, chainId: bigint, denom: string, env: BlockEnv, m: Message, budget?: RunBudget, tracer?: EvmTracer): Promise<ExecutionResult> {
    const pool = `${chainId}${budget ? '/budgeted' : ''}`;
    const lane = await this.acquire(pool, chainId, budget !== undefined);
    const { evm, sm } = lane;
    sm.bind(ctx, denom);
    let aborted = false;
    if (budget) budgets.set(evm, { budget, sliceEnd: performance.now() + (budget.sliceMs ?? DEFAULT_SLICE_MS), jumps: 0 });
    const detach = tracer ? attachTracer(evm, tracer) : undefined;
    if (env.precompiles) {
      const moved = new Map<string, PrecompileFunc>();
      for (const [addr, from] of env.precompiles) {
        const f = lane.precompiles.get(from);
        if (f) moved.set(addr, f);
      }
      (evm as unknown as PrecompileSlot)._precompiles = moved;
    }
    try {
      const res = await this.execute(lane, env, m);
      tracer?.finish?.(m, env, res);
      return res;
    } catch (e) {
      aborted = true;
      throw e;
    } finally {
      detach?.();
      (evm as unknown as PrecompileSlot)._precompiles = lane.precompiles;
      budgets.delete(evm);
      evm.journal.cleanJournal();
      sm.originalStorageCache.clear();
      sm.unbind();
      // a run thrown out of mid-execution may leave frames behind in the EVM: never reuse that lane
      if (!aborted) this.release(pool, lane);
    }
  }

  /** One message on a bound lane. */
  private async execute({ evm, sm, precompiles }: Lane, env: BlockEnv, m: Message): Promise<ExecutionResult> {
    const journal = evm.journal;
    journal.cleanJournal();
    evm.transientStorage.clear();
    for (const [addr] of precompiles) journal.addAlwaysWarmAddress(addr);
    journal.addAlwaysWarmAddress(bytesToUnprefixedHex(m.caller));
    if (m.to) journal.addAlwaysWarmAddress(bytesToUnprefixedHex(m.to));
    journal.addAlwaysWarmAddress(bytesToUnprefixedHex(env.coinbase.length === 20 ? env.coinbase : ZERO_ADDRESS));
    for (const [addr, slots] of m.accessList) {
      const a = bytesToUnprefixedHex(addr);
      journal.addAlwaysWarmAddress(a);
      for (const s of slots) journal.addAlwaysWarmSlot(a, bytesToUnprefixedHex(s));
    }
    const caller = new Address(m.caller);
    const balance = (await sm.getAccount(caller))?.balance ?? 0n;
    if (balance < m.value) {
      const gasUsed = m.intrinsicGas > m.floorGas ? m.intrinsicGas : m.floorGas;
      return { gasUsed, gasBeforeRefund: gasUsed, ret: new Uint8Array(), vmError: 'insufficient balance for transfer', reverted: false, logs: [], createdAddress: undefined };
    }
    const res: EVMResult = await evm.runCall({
      block: {
        header: {
          number: env.height,
          coinbase: new Address(env.coinbase.length === 20 ? env.coinbase : ZERO_ADDRESS),
          timestamp: env.timestamp,
          difficulty: 0n,
          prevRandao: env.prevRandao ?? ZERO_HASH,
          gasLimit: env.gasLimit,
          baseFeePerGas: env.baseFee,
          getBlobGasPrice: () => env.blobBaseFee ?? 1n,
        },
      },
      gasPrice: m.gasPrice,
      caller,
      origin: caller,
      gasLimit: m.gasLimit - m.intrinsicGas,
      to: m.to ? new Address(m.to) : undefined,
      value: m.value,
      data: m.data,
      skipNonceIncrement: m.nonceIncremented,
      blobVersionedHashes: m.blobVersionedHashes?.map((h) => bytesToHex(h)),
    });
    const exec = res.execResult;
    const gasBeforeRefund = m.intrinsicGas + exec.executionGasUsed;
    const refund = exec.gasRefund ?? 0n;
    const maxRefund = gasBeforeRefund / evm.common.param('maxRefundQuotient');
    let gasUsed = gasBeforeRefund - (refund < maxRefund ? refund : maxRefund);
    if (m.floorGas > gasUsed) gasUsed = m.floorGas;
    // EIP-6780: only contracts created in this tx are removed by SELFDESTRUCT
    if (exec.selfdestruct) {
      for (const hex of exec.selfdestruct.keys()) {
        if (exec.createdAddresses?.has(hex)) await journal.deleteAccount(new Address(hexToBytes(hex)));
      }
    }
    await journal.cleanup();
    sm.settle();
    const err = exec.exceptionError;
    return {
      gasUsed,
      gasBeforeRefund,
      ret: exec.returnValue,
      vmError: err ? gethVmError(err.error, exec.returnValue, exec.runState as FailedRunState | undefined) : undefined,
      reverted: err?.error === 'revert',
      logs: exec.logs ?? [],
      createdAddress: err === undefined ? res.createdAddress?.bytes : undefined,
    };
  }
}
