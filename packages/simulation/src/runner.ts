/**
 * The simulation runner (the SDK's simapp `SimulateFromSeed` and its mock consensus, for any app): from one
 * seed, random accounts funded at genesis, then block after block
 *   1. the consensus part of the request (ConsensusSimulator: last commit with absent validators, proposer,
 *      misbehaviour, a block time advanced by a random amount, sometimes by hours);
 *   2. a dry run of the block (App.dryRunBlock): begin-block, then operations picked by weight, each reading
 *      the block's state so far, its tx signed, admitted by CheckTx and executed; success or the exact
 *      refusal (codespace, code) is checked, and a refused tx may change nothing but what the ante handler
 *      writes;
 *   3. the same txs through FinalizeBlock and Commit, exactly as the node runs a block: the results and the
 *      app hash must equal the dry run's (determinism);
 *   4. every invariant over the committed state.
 * Then the recorded blocks are replayed on a fresh app from the same genesis: the app hash must be the
 * same at every height. Any failure throws a `SimulationError` naming the seed and the height.
 */
import type { App, Context, ExecTxResult, FinalizeBlockRequest, ValidatorUpdate } from '@chain/app';
import type { Change } from '@chain/store';
import { branch } from '@chain/store';
import { toHex, utf8 } from '@chain/crypto';
import { createAccounts } from './accounts.js';
import { ConsensusSimulator, DEFAULT_LIVENESS, consensusAddress } from './consensus.js';
import type { LivenessParams } from './consensus.js';
import { Rand } from './rand.js';
import type { Seed } from './rand.js';
import { signTx } from './tx.js';
import { isNoOp } from './types.js';
import type { Invariant, OperationInput, OperationMsg, SimAccount, SimulationModule, WeightedOperation } from './types.js';

/** An app of the simulation on a fresh, empty store, with what its modules contribute. */
export interface SimulationApp {
  readonly app: App;
  /** the operations and invariants, over this app's keepers */
  readonly modules: readonly SimulationModule[];
  /** the account number and sequence of an account in a state, as the ante handler reads them */
  account(ctx: Context, addr: Uint8Array): { readonly accountNumber: bigint; readonly sequence: bigint } | undefined;
  close(): Promise<void>;
}

export interface SimulationGenesis {
  /** InitChain's app state */
  readonly appState: Record<string, unknown>;
  /** the genesis file's validators (the set when InitChain returns none) */
  readonly validators?: readonly ValidatorUpdate[];
  /** genesis time: the time of block 1 */
  readonly time: Date;
}

/** What the composition gives the runner: the app, the genesis, the modules' operations and invariants. */
export interface SimulationSetup {
  readonly chainId: string;
  /** bech32 prefix of account addresses */
  readonly bech32Prefix: string;
  /** a new app on an empty store (called once for the run and once for the replay; the replay's operations are not used) */
  openApp(): Promise<SimulationApp>;
  /** the genesis of the run, from its random accounts (draw only from `rand`) */
  genesis(rand: Rand, accounts: readonly SimAccount[]): SimulationGenesis;
  /** store keys the ante handler writes: a refused tx (sent without fee) may change nothing outside them */
  readonly anteStores: readonly string[];
}

export interface SimulationParams {
  readonly seed: Seed;
  readonly blocks: number;
  /** random accounts funded at genesis */
  readonly accounts: number;
  /** operations per block, inclusive range (default [0, 8]) */
  readonly opsPerBlock?: readonly [number, number];
  /** seconds between blocks, inclusive range (default [1, 10]) */
  readonly blockSeconds?: readonly [number, number];
  /**
   * Now and then a long gap between blocks (unbonding completes, jail time passes; default 3% of blocks,
   * 1 min to 1 h). Keep every gap shorter than the app's unbonding period: CometBFT keeps a validator that
   * leaves the set in the next block's set, so its vote is in the last commit two blocks later, and the SDK
   * (distribution's allocation, slashing's liveness) requires that validator to still exist then; a gap of
   * a whole unbonding period could remove it in between (on a real chain the period is weeks).
   */
  readonly timeJumps?: { readonly chance: number; readonly seconds: readonly [number, number] };
  /** probability of a misbehaviour in a block (default 0.002) */
  readonly misbehaviorChance?: number;
  /** at least one misbehaviour, at a random block of the middle third (default true) */
  readonly forceMisbehavior?: boolean;
  readonly liveness?: LivenessParams;
  /** gas limit of every tx (default 10M) */
  readonly gas?: bigint;
  /** replay the blocks on a fresh app (default true) */
  readonly replay?: boolean;
  /** where the seed, the summary and a failure are printed (default console.log) */
  readonly log?: (line: string) => void;
}

export type SimulationFailureKind = 'invariant' | 'operation' | 'nondeterminism' | 'replay' | 'consensus' | 'crash';

/** A failed simulation: what broke, at which height, and the seed that reproduces it. */
export class SimulationError extends Error {
  constructor(
    readonly kind: SimulationFailureKind,
    readonly seed: Seed,
    readonly height: number,
    /** the invariant or operation that failed, when there is one */
    readonly subject: string,
    detail: string,
  ) {
    super(`simulation failed at height ${height} (seed ${seed}; rerun with SIM_SEED=${seed}): ${kind}${subject ? ` ${subject}` : ''}: ${detail}`);
    this.name = 'SimulationError';
  }
}

/** Counts per operation. */
export interface OperationStats {
  /** delivered and succeeded, as expected */
  ok: number;
  /** delivered and refused with the expected error */
  failed: number;
  /** refused by CheckTx with the expected error (never in a block) */
  refused: number;
  /** nothing to do in the state */
  noop: number;
  /** per case label */
  labels: Record<string, number>;
}

export interface SimulationReport {
  readonly seed: Seed;
  readonly blocks: number;
  readonly txs: number;
  readonly operations: Record<string, OperationStats>;
  readonly invariantChecks: number;
  readonly validatorUpdates: number;
  readonly absentVotes: number;
  readonly nilVotes: number;
  readonly misbehaviors: number;
  /** heights whose app hash the replay reproduced */
  readonly replayed: number;
  readonly appHash: string;
  readonly durationMs: number;
}

interface RecordedBlock {
  readonly request: FinalizeBlockRequest;
  readonly appHash: Uint8Array;
  readonly results: readonly ExecTxResult[];
}

/** Runs a simulation; resolves with its report or rejects with a `SimulationError`. */
export async function runSimulation(setup: SimulationSetup, params: SimulationParams): Promise<SimulationReport> {
  const started = Date.now();
  const seed = params.seed;
  const log = params.log ?? ((l: string) => console.log(l));
  log(`simulation: seed ${seed} (rerun with SIM_SEED=${seed}), ${params.blocks} blocks, ${params.accounts} accounts`);
  try {
    return await simulate(setup, params, seed, log, started);
  } catch (e) {
    const err = e instanceof SimulationError ? e : new SimulationError('crash', seed, 0, '', e instanceof Error ? (e.stack ?? e.message) : String(e));
    log(err.message);
    throw err;
  }
}

async function simulate(setup: SimulationSetup, params: SimulationParams, seed: Seed, log: (l: string) => void, started: number): Promise<SimulationReport> {
  const rand = new Rand(seed);
  const opsRange = params.opsPerBlock ?? [0, 8];
  const secondsRange = params.blockSeconds ?? [1, 10];
  const jumps = params.timeJumps ?? { chance: 0.03, seconds: [60, 3600] as const };
  const gas = params.gas ?? 10_000_000n;
  const misbehaviorChance = params.misbehaviorChance ?? 0.002;
  const forcedMisbehaviorAt = (params.forceMisbehavior ?? true) && params.blocks >= 6
    ? rand.int(Math.max(3, Math.floor(params.blocks / 3)), Math.max(3, Math.floor((2 * params.blocks) / 3)))
    : -1;

  const accounts = createAccounts(rand.fork(), params.accounts, setup.bech32Prefix);
  const byAddr = new Map(accounts.map((a) => [toHex(a.addr), a]));
  const genesis = setup.genesis(rand.fork(), accounts);
  const anteStores = setup.anteStores.map((s) => utf8(s + '/'));

  const sim = await setup.openApp();
  const app = sim.app;
  const operations: WeightedOperation[] = sim.modules.flatMap((m) => m.operations).filter((o) => o.weight > 0);
  const invariants: Invariant[] = sim.modules.flatMap((m) => m.invariants);
  const stats: Record<string, OperationStats> = {};
  for (const o of operations) stats[o.name] ??= { ok: 0, failed: 0, refused: 0, noop: 0, labels: {} };
  const recorded: RecordedBlock[] = [];
  let txCount = 0;
  let invariantChecks = 0;
  let validatorUpdates = 0;
  let consensus: ConsensusSimulator;
  try {
    if (operations.length === 0) throw new Error('the simulation has no operations');
    const init = await app.initChain({ time: genesis.time, chainId: setup.chainId, validators: genesis.validators ?? [], appState: genesis.appState, initialHeight: 1 });
    const initial = init.validators.length > 0 ? init.validators : (genesis.validators ?? []);
    consensus = new ConsensusSimulator(
      initial.map((u) => ({ address: consensusAddress(u.pubKey.key), pubKey: u.pubKey.key, power: u.power })),
      params.liveness ?? DEFAULT_LIVENESS,
    );

    let time = genesis.time;
    for (let height = 1; height <= params.blocks; height++) {
      const fail = (kind: SimulationError['kind'], subject: string, detail: string): never => {
        throw new SimulationError(kind, seed, height, subject, detail);
      };
      if (height > 1) {
        let seconds = rand.int(secondsRange[0], secondsRange[1]);
        if (rand.bool(jumps.chance)) seconds += rand.int(jumps.seconds[0], jumps.seconds[1]);
        time = new Date(time.getTime() + seconds * 1000);
      }
      const cons = consensus.block(rand, height, misbehaviorChance, height === forcedMisbehaviorAt);
      const header: Omit<FinalizeBlockRequest, 'txs'> = {
        decidedLastCommit: cons.lastCommit,
        misbehavior: cons.misbehavior,
        hash: rand.bytes(32),
        height,
        time,
        nextValidatorsHash: cons.nextValidatorsHash,
        proposerAddress: cons.proposer,
      };

      // ---- the dry run: operations chosen against the block's state so far ----
      const dry = await app.dryRunBlock(header).catch((e: unknown) => fail('crash', 'begin block', errText(e)));
      const txs: Uint8Array[] = [];
      const dryResults: ExecTxResult[] = [];
      const used = new Set<string>();
      // block 1 carries InitChain's state, which CheckTx does not see before it commits: no txs in it
      const nOps = height === 1 ? 0 : rand.int(opsRange[0], opsRange[1]);
      for (let i = 0; i < nOps; i++) {
        const available = accounts.filter((a) => !used.has(toHex(a.addr)));
        if (available.length === 0) break;
        const chosen = operations[rand.weighted(operations.map((o) => o.weight))]!;
        const st = stats[chosen.name]!;
        const committedCtx = app.queryContext();
        const input: OperationInput = {
          rand,
          ctx: dry.context(),
          committed: committedCtx.withStore(branch(committedCtx.ms)),
          accounts,
          available,
          availableByAddr: (addr) => {
            const a = byAddr.get(toHex(addr));
            return a && !used.has(toHex(a.addr)) ? a : undefined;
          },
          accountByAddr: (addr) => byAddr.get(toHex(addr)),
          chainId: setup.chainId,
          height,
          time,
        };
        let result;
        try {
          result = await chosen.op(input);
        } catch (e) {
          return fail('operation', chosen.name, `the operation threw: ${errText(e)}`);
        }
        if (isNoOp(result)) {
          st.noop++;
          continue;
        }
        const op: OperationMsg = result;
        const label = op.label ?? (op.expect.ok ? 'ok' : 'refused');
        const subject = `${chosen.name} (${label})`;
        const key = toHex(op.signer.addr);
        if (!byAddr.has(key) || used.has(key)) fail('operation', subject, `signer ${op.signer.address} is not an available account of the run`);
        used.add(key);
        const acc = sim.account(dry.context(), op.signer.addr);
        if (!acc) fail('operation', subject, `signer ${op.signer.address} has no account`);
        const raw = signTx(app.registry, op.signer, op.msgs, {
          chainId: setup.chainId, accountNumber: acc!.accountNumber, sequence: acc!.sequence, fee: op.expect.ok ? (op.fee ?? []) : [], gas,
        });
        const describe = (r: ExecTxResult) => (r.code === 0 ? 'success' : `${r.codespace}/${r.code}: ${r.log}`);
        const wanted = op.expect.ok ? 'success' : `${op.expect.codespace}/${op.expect.code}${op.expect.log ? ` (log containing ${JSON.stringify(op.expect.log)})` : ''}`;
        const matches = (r: ExecTxResult) =>
          op.expect.ok ? r.code === 0 : r.code === op.expect.code && r.codespace === op.expect.codespace && (op.expect.log === undefined || r.log.includes(op.expect.log));

        const checked = await app.checkTx({ tx: raw, type: 'new' });
        if (checked.code !== 0) {
          if (op.expect.ok || !matches(checked)) fail('operation', subject, `CheckTx: expected ${wanted}, got ${describe(checked)}`);
          st.refused++;
          st.labels[label] = (st.labels[label] ?? 0) + 1;
          continue;
        }
        const before = dry.changes();
        const res = await dry.deliver(raw);
        if (!matches(res)) fail('operation', subject, `expected ${wanted}, got ${describe(res)} (msgs ${JSON.stringify(op.msgs, jsonBigint)})`);
        if (!op.expect.ok) {
          const outside = changedKeys(before, dry.changes()).filter((k) => !anteStores.some((p) => startsWith(k, p)));
          if (outside.length > 0) fail('operation', subject, `a refused tx changed state outside the ante stores: ${outside.map(keyText).join(', ')}`);
          st.failed++;
        } else st.ok++;
        st.labels[label] = (st.labels[label] ?? 0) + 1;
        txs.push(raw);
        dryResults.push(res);
      }
      const dryEnd = await dry.end().catch((e: unknown) => fail('crash', 'end block', errText(e)));

      // ---- the block, as the node runs it ----
      const request: FinalizeBlockRequest = { ...header, txs };
      const res = await app.finalizeBlock(request).catch((e: unknown) => fail('crash', 'finalize block', errText(e)));
      for (let i = 0; i < txs.length; i++) {
        const a = resultText(dryResults[i]!);
        const b = resultText(res.txResults[i]!);
        if (a !== b) fail('nondeterminism', `tx ${i}`, `FinalizeBlock gave another result than the dry run:\n  dry run:  ${a}\n  finalize: ${b}`);
      }
      if (toHex(res.appHash) !== toHex(dryEnd.appHash)) fail('nondeterminism', 'app hash', `FinalizeBlock app hash ${toHex(res.appHash)}, dry run ${toHex(dryEnd.appHash)}`);
      if (updatesText(res.validatorUpdates) !== updatesText(dryEnd.validatorUpdates)) fail('nondeterminism', 'validator updates', 'FinalizeBlock and the dry run returned other validator updates');
      await app.commit();
      txCount += txs.length;
      validatorUpdates += res.validatorUpdates.length;
      recorded.push({ request, appHash: res.appHash, results: res.txResults });
      try {
        consensus.finalized(height, time, res.validatorUpdates);
      } catch (e) {
        fail('consensus', 'validator updates', errText(e));
      }

      // ---- invariants, after every block ----
      const ctx = app.queryContext();
      for (const inv of invariants) {
        let r;
        try {
          r = inv.check(ctx.withStore(branch(ctx.ms)));
        } catch (e) {
          r = { broken: true, message: `the invariant threw: ${errText(e)}` };
        }
        invariantChecks++;
        if (r.broken) fail('invariant', inv.name, r.message);
      }
    }
  } finally {
    await sim.close();
  }

  // ---- replay: the same blocks on a fresh app from the same genesis ----
  let replayed = 0;
  if (params.replay ?? true) {
    const again = await setup.openApp();
    try {
      await again.app.initChain({ time: genesis.time, chainId: setup.chainId, validators: genesis.validators ?? [], appState: genesis.appState, initialHeight: 1 });
      for (const b of recorded) {
        const h = b.request.height;
        const res = await again.app.finalizeBlock(b.request).catch((e: unknown) => {
          throw new SimulationError('replay', seed, h, '', `the replayed block threw: ${errText(e)}`);
        });
        for (let i = 0; i < b.results.length; i++) {
          const x = resultText(b.results[i]!);
          const y = resultText(res.txResults[i]!);
          if (x !== y) throw new SimulationError('replay', seed, h, `tx ${i}`, `the replay gave another result:\n  run:    ${x}\n  replay: ${y}`);
        }
        if (toHex(res.appHash) !== toHex(b.appHash)) {
          throw new SimulationError('replay', seed, h, 'app hash', `the replay from genesis gave app hash ${toHex(res.appHash)}, the run ${toHex(b.appHash)}`);
        }
        await again.app.commit();
        replayed++;
      }
    } finally {
      await again.close();
    }
  }

  const report: SimulationReport = {
    seed,
    blocks: params.blocks,
    txs: txCount,
    operations: stats,
    invariantChecks,
    validatorUpdates,
    absentVotes: consensus!.absentVotes,
    nilVotes: consensus!.nilVotes,
    misbehaviors: consensus!.misbehaviors,
    replayed,
    appHash: recorded.length > 0 ? toHex(recorded[recorded.length - 1]!.appHash) : '',
    durationMs: Date.now() - started,
  };
  for (const line of formatReport(report)) log(line);
  return report;
}

/** The report as printable lines: totals, then one line per operation. */
export function formatReport(r: SimulationReport): string[] {
  const lines = [
    `simulation: seed ${r.seed}: ${r.blocks} blocks, ${r.txs} txs, ${r.invariantChecks} invariant checks, ${r.validatorUpdates} validator updates, ` +
      `${r.absentVotes} absent and ${r.nilVotes} nil votes, ${r.misbehaviors} misbehaviours, ${r.replayed} heights replayed, ${(r.durationMs / 1000).toFixed(1)} s`,
  ];
  for (const [name, s] of Object.entries(r.operations).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const labels = Object.entries(s.labels).sort(([a], [b]) => (a < b ? -1 : 1)).map(([l, n]) => `${l} ${n}`).join(', ');
    lines.push(`  ${name.padEnd(40)} ok ${String(s.ok).padStart(4)}  refused ${String(s.failed + s.refused).padStart(4)}  noop ${String(s.noop).padStart(4)}${labels ? `  [${labels}]` : ''}`);
  }
  return lines;
}

function errText(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}

function jsonBigint(_k: string, v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return toHex(v);
  return v;
}

function resultText(r: ExecTxResult): string {
  const events = r.events.map((e) => `${e.type}{${e.attributes.map((a) => `${a.key}=${a.value}`).join(',')}}`).join(' ');
  return `code ${r.code} codespace ${r.codespace} gas ${r.gasUsed}/${r.gasWanted} log ${r.log} events ${events}`;
}

function updatesText(us: readonly ValidatorUpdate[]): string {
  return us.map((u) => `${toHex(u.pubKey.key)}:${u.power}`).join(',');
}

function startsWith(key: Uint8Array, prefix: Uint8Array): boolean {
  if (key.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return false;
  return true;
}

/** Keys whose value differs between two change lists of the same branch (before ⊆ after in keys). */
function changedKeys(before: readonly Change[], after: readonly Change[]): Uint8Array[] {
  const prev = new Map(before.map((c) => [toHex(c.key), c.value === undefined ? '-' : toHex(c.value)]));
  const out: Uint8Array[] = [];
  for (const c of after) {
    const v = c.value === undefined ? '-' : toHex(c.value);
    if (prev.get(toHex(c.key)) !== v) out.push(c.key);
  }
  return out;
}

/** A store key as `<store>/<hex of the rest>`. */
function keyText(key: Uint8Array): string {
  const slash = key.indexOf(0x2f);
  return slash > 0 ? `${Buffer.from(key.subarray(0, slash)).toString('latin1')}/${toHex(key.subarray(slash + 1))}` : toHex(key);
}

