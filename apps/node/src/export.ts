/**
 * `chaind export`: the node's state at its latest height (or an earlier one) as a genesis document, as
 * the SDK's `simd export` (server/export.go, simapp/export.go): `app_state` from every module's
 * ExportGenesis in the app config's export order, `validators` = the bonded set staking last handed to
 * consensus (its last validator powers), the consensus params in effect after that height,
 * `initial_height` = the exported height + 1, and the original `chain_id` and `genesis_time`.
 *
 * A chain started from the document continues where this one stopped: staking's genesis is
 * `exported: true`, so InitChain stores the last validator powers and returns them as the validator set
 * (no hooks run, no pool moves), and the first block is `initial_height`. The node must be stopped: the
 * database is locked while it runs.
 *
 * `writeExport` (what the command runs) streams the document: each module's section is produced when it is
 * written, and the large fields (auth's accounts, bank's balances: `AppModule.exportGenesisParts`) entry by
 * entry from the store, so the whole state is never one object in memory. `exportGenesisDoc` builds the
 * same document as an object (tests, small chains).
 */
import { join } from 'node:path';
import { closeSync, existsSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { CommitStore } from '@chain/store';
import { JsonStreamWriter, LazyObject, SILENT_PROGRESS, materialize } from '@chain/app';
import type { Context, JsonSink, LazyArray, Progress, ProgressFactory } from '@chain/app';
import { BlockStore, consensusParamsJSON, consensusParamsOf, validatorAddress } from '@chain/consensus';
import type { GenesisDoc, GenesisValidatorJSON } from '@chain/consensus';
import { fromBase64, toHex } from '@chain/crypto';
import { createChainApp } from './app.js';
import { openGenesis } from './config/init.js';

export interface ExportOptions {
  readonly home: string;
  /** the height to export (default: the latest); any height the store still holds (see app.toml `pruning`) */
  readonly height?: number;
}

/** The node's genesis document without parsing its app_state (the export needs the chain id, time and params). */
function genesisHeader(home: string): GenesisDoc {
  const g = openGenesis(home);
  g.close();
  return g.doc;
}

/** Opens the node's database for an export, with a clear error when the node is running (LevelDB lock). */
export async function openNodeStore(home: string): Promise<CommitStore> {
  const path = join(home, 'data', 'chain.db');
  if (!existsSync(path)) throw new Error(`${path} does not exist: the node at ${home} has no blocks to export`);
  try {
    return await CommitStore.open(path);
  } catch (e) {
    const err = e as { code?: string; cause?: { code?: string; message?: string } };
    if (err.cause?.code === 'LEVEL_LOCKED' || /lock/i.test(err.cause?.message ?? '')) {
      throw new Error(`the database ${path} is locked by a running node: stop the node (chaind start / chaind dev --home ${home}) before exporting`);
    }
    throw e;
  }
}

/** The genesis document of the node's state at `height` (latest by default). */
export async function exportGenesisDoc(o: ExportOptions): Promise<GenesisDoc> {
  const genesis = genesisHeader(o.home);
  const store = await openNodeStore(o.home);
  try {
    return await exportFromStore(store, genesis, o.height);
  } finally {
    await store.close();
  }
}

/** The export over an open store (the node's genesis document gives the chain id, genesis time and params). */
export async function exportFromStore(store: CommitStore, genesis: GenesisDoc, height?: number): Promise<GenesisDoc> {
  return withExportDoc(store, genesis, height, async (doc) => materialize(doc) as GenesisDoc);
}

export interface ExportWriteOptions extends ExportOptions {
  /** receives the document's text in pieces, in order (a promise makes the export wait for it) */
  readonly sink: JsonSink;
  /** a display per large field (e.g. `auth.accounts`); none by default */
  readonly progress?: ProgressFactory;
}

/** What {@link writeExport} wrote. */
export interface ExportSummary {
  readonly height: number;
  readonly chainId: string;
  /** the entries of the large fields written one by one */
  readonly entries: number;
}

/**
 * Writes the genesis document of the node's state at `height` (latest by default) to `sink` as it is
 * produced: the header fields, then each module's section in the export order, the large fields entry by
 * entry. The text is exactly `JSON.stringify(doc, null, 2) + '\n'` of {@link exportGenesisDoc}'s document.
 */
export async function writeExport(o: ExportWriteOptions): Promise<ExportSummary> {
  const genesis = genesisHeader(o.home);
  const store = await openNodeStore(o.home);
  try {
    return await writeExportFromStore(store, genesis, o.sink, { height: o.height, progress: o.progress });
  } finally {
    await store.close();
  }
}

/** {@link writeExport} over an open store. */
export async function writeExportFromStore(
  store: CommitStore, genesis: GenesisDoc, sink: JsonSink, o: { height?: number; progress?: ProgressFactory } = {},
): Promise<ExportSummary> {
  const makeProgress = o.progress ?? SILENT_PROGRESS;
  return withExportDoc(store, genesis, o.height, async (doc, h) => {
    const w = new JsonStreamWriter(sink);
    const shown = new Map<LazyArray, Progress>();
    let entries = 0;
    await w.write(doc, {
      begin: (a) => { if (a.label !== undefined) shown.set(a, makeProgress(`export ${a.label}`, a.count)); },
      item: (a) => { entries++; shown.get(a)?.tick(); },
      end: (a) => { shown.get(a)?.done(); shown.delete(a); },
    });
    await w.flush();
    await sink('\n');
    return { height: h, chainId: genesis.chain_id, entries };
  });
}

/**
 * Opens the app over `store` and calls `fn` with the export document at `height` as a lazy value (each
 * module's section produced when it is consumed), on a pinned view of that height that stays open until
 * `fn` settles.
 */
async function withExportDoc<T>(store: CommitStore, genesis: GenesisDoc, height: number | undefined, fn: (doc: LazyObject, height: number) => Promise<T>): Promise<T> {
  const last = store.lastHeight;
  if (last === 0) throw new Error('the chain has no blocks yet: nothing to export');
  const h = height ?? last;
  if (!Number.isSafeInteger(h) || h < store.earliestHeight || h > last) {
    throw new Error(`cannot export height ${height}: the store holds heights ${store.earliestHeight} to ${last}`);
  }
  const { app, registry } = createChainApp({ store, chainId: genesis.chain_id, minGasPrices: '' });
  const params = (await new BlockStore(store).paramsAt(h + 1)) ?? consensusParamsOf(genesis);
  return app.atHeight(h, async (ctx: Context) => {
    // staking's section first: the document's validators (before app_state) are its last validator powers
    const staking = app.manager.exportModuleGenesis(ctx, registry, 'staking');
    const doc = new LazyObject([
      ['genesis_time', genesis.genesis_time],
      ['chain_id', genesis.chain_id],
      ['initial_height', String(h + 1)],
      ['consensus_params', consensusParamsJSON(params)],
      ['validators', bondedValidators(staking as StakingGenesisJSON)],
      ['app_hash', ''],
      ['app_state', app.manager.exportGenesisLazy(ctx, registry, new Map([['staking', staking]]))],
    ]);
    return fn(doc, h);
  });
}

/**
 * A sink that writes to `path` (through a temporary file renamed at `commit()`, so a failed export leaves no
 * partial document; a path that is not a regular file, e.g. /dev/stdout, is written directly).
 */
export function fileSink(path: string): { sink: JsonSink; commit(): void; abort(): void } {
  const direct = existsSync(path) && !statSync(path).isFile();
  const target = direct ? path : `${path}.tmp-${process.pid}`;
  const fd = openSync(target, 'w');
  let open = true;
  const close = (): void => { if (open) { open = false; closeSync(fd); } };
  return {
    sink: (text) => {
      const b = Buffer.from(text, 'utf8');
      for (let off = 0; off < b.length;) off += writeSync(fd, b, off);
    },
    commit: () => { close(); if (!direct) renameSync(target, path); },
    abort: () => { close(); if (!direct) rmSync(target, { force: true }); },
  };
}

/** A sink that writes to a stream (stdout), waiting for `drain` when its buffer is full. */
export function streamSink(stream: NodeJS.WritableStream): JsonSink {
  return (text) => {
    if (stream.write(text)) return;
    return new Promise<void>((resolve, reject) => {
      const done = (e?: unknown): void => { stream.off('drain', done); stream.off('error', done); if (e) reject(e as Error); else resolve(); };
      stream.on('drain', done);
      stream.on('error', done);
    });
  };
}

interface StakingGenesisJSON {
  last_validator_powers: { address: string; power: string }[];
  validators: { operator_address: string; consensus_pubkey: { '@type': string; key: string }; description?: { moniker?: string } }[];
}

/**
 * The SDK's `staking.WriteValidators`: the validators of the last validator powers (the set consensus
 * has), in that order, with their CometBFT address, ed25519 key, power and moniker.
 */
function bondedValidators(staking: StakingGenesisJSON): GenesisValidatorJSON[] {
  const byOperator = new Map(staking.validators.map((v) => [v.operator_address, v]));
  return staking.last_validator_powers.map((lv) => {
    const v = byOperator.get(lv.address);
    if (!v) throw new Error(`staking export: last validator power of ${lv.address}, which is not a validator`);
    const type = v.consensus_pubkey['@type'];
    if (!type.endsWith('.ed25519.PubKey')) throw new Error(`validator ${lv.address}: consensus key type ${type} is not ed25519`);
    const pub = fromBase64(v.consensus_pubkey.key);
    return {
      address: toHex(validatorAddress(pub)).toUpperCase(),
      pub_key: { type: 'tendermint/PubKeyEd25519', value: v.consensus_pubkey.key },
      power: String(lv.power),
      name: v.description?.moniker ?? '',
    };
  });
}
