/**
 * Runs one EVM message (a tx's execution, an eth_call) on a Context with @ethereumjs/evm at Prague:
 * warm addresses (EIP-2929/2930/3651), runCall, refund cap (EIP-3529), calldata floor (EIP-7623),
 * SELFDESTRUCT of contracts created in the tx (EIP-6780), touched-empty-account cleanup (EIP-161).
 *
 * EVM instances are pooled per chain id and reused (building one costs ~0.6 ms); each run binds the pooled
 * state-manager adapter to the caller's Context, so concurrent runs (a query during a block) never share one.
 */
import { EVMError, createEVM } from '@ethereumjs/evm';
import type { EVM, EVMMockBlockchainInterface, EVMResult, Log, PrecompileFunc } from '@ethereumjs/evm';
import { Address, bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util';
import type { Context } from '@chain/app';
import { commonFor } from './crypto.js';
import { revertReason } from './ethtx.js';
import { ContextStateManager } from './statedb.js';
import type { StateManagerDeps } from './statedb.js';

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
}

export interface BlockEnv {
  readonly height: bigint;
  /** unix seconds */
  readonly timestamp: bigint;
  readonly coinbase: Uint8Array;
  readonly baseFee: bigint;
  readonly gasLimit: bigint;
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

interface Lane { readonly evm: EVM; readonly sm: ContextStateManager }

const ZERO_HASH = new Uint8Array(32);
const ZERO_ADDRESS = new Uint8Array(20);

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

/** The EVM error text (geth's wording where it differs). */
function vmErrorText(error: string, ret: Uint8Array): string {
  if (error === 'revert') {
    const reason = revertReason(ret);
    return reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`;
  }
  if (error === 'insufficient balance') return 'insufficient balance for transfer';
  return error;
}

export class Executor {
  private readonly lanes = new Map<bigint, Lane[]>();

  constructor(
    private readonly deps: StateManagerDeps,
    /** BLOCKHASH source; zero hashes when absent */
    private readonly blockHash?: (height: bigint) => Uint8Array | undefined,
  ) {}

  private async acquire(chainId: bigint): Promise<Lane> {
    const idle = this.lanes.get(chainId)?.pop();
    if (idle) return idle;
    const sm = new ContextStateManager(this.deps);
    const lookup = this.blockHash;
    const blockchain: EVMMockBlockchainInterface = {
      async getBlock(n: number) { const h = lookup?.(BigInt(n)) ?? ZERO_HASH; return { hash: () => h }; },
      async putBlock() { /* unused */ },
      shallowCopy() { return this; },
    };
    const evm = await createEVM({
      common: commonFor(chainId).copy(),
      stateManager: sm,
      blockchain,
      customPrecompiles: [{ address: POINT_EVALUATION_ADDRESS, function: pointEvaluationUnavailable }],
    });
    return { evm, sm };
  }

  private release(chainId: bigint, lane: Lane): void {
    let list = this.lanes.get(chainId);
    if (!list) { list = []; this.lanes.set(chainId, list); }
    if (list.length < 8) list.push(lane);
  }

  /** Executes `m` against the state of `ctx` (writes land in ctx's store). */
  async run(ctx: Context, chainId: bigint, denom: string, env: BlockEnv, m: Message): Promise<ExecutionResult> {
    const lane = await this.acquire(chainId);
    const { evm, sm } = lane;
    sm.bind(ctx, denom);
    const journal = evm.journal;
    try {
      journal.cleanJournal();
      evm.transientStorage.clear();
      for (const [addr] of evm.precompiles) journal.addAlwaysWarmAddress(addr);
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
            prevRandao: ZERO_HASH,
            gasLimit: env.gasLimit,
            baseFeePerGas: env.baseFee,
            getBlobGasPrice: () => 1n,
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
        vmError: err ? vmErrorText(err.error, exec.returnValue) : undefined,
        reverted: err?.error === 'revert',
        logs: exec.logs ?? [],
        createdAddress: err === undefined ? res.createdAddress?.bytes : undefined,
      };
    } finally {
      journal.cleanJournal();
      sm.originalStorageCache.clear();
      sm.unbind();
      this.release(chainId, lane);
    }
  }
}
