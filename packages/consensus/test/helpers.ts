/**
 * Test helpers: a tiny app (only a counter module from test/fixtures/proto, an ante handler that
 * accepts everything) driven by a real Engine on a CommitStore in a temp dir, composed from the
 * packages' public APIs the way apps/node composes the real node.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App } from '@chain/app';
import type { AnteHandler, AppModule } from '@chain/app';
import { ProtoRegistry } from '@chain/codec';
import { Errors } from '@chain/errors';
import { EventBus } from '@chain/events';
import type { BusMessage, Event, Subscription } from '@chain/events';
import { parseQuery } from '@chain/events';
import { IndexWorker, TxIndexer, txEventMap } from '@chain/indexer';
import type { TxIndex } from '@chain/indexer';
import { CommitStore } from '@chain/store';
import { ed25519Verify, fromUtf8, sha256, toHex, utf8 } from '@chain/crypto';
import { expect } from 'chai';
import {
  Engine, Mempool, blockId, canonicalVoteSignBytes, dataHash, defaultConsensusParamsJSON, fromTimestamp, headerHash,
  privValidatorKeyJSON, seedOfPrivValidatorKey, validatorSetHash,
} from '../src/index.js';
import type { Commit, GenesisDoc, MempoolOptions, PrivValidatorKeyJSON, StoredBlock, StoredResults } from '../src/index.js';
import { commitHash, consensusParamsHash, lastResultsHash } from '../src/hashing.js';

export const COUNTER_PROTO_DIR = fileURLToPath(new URL('./fixtures/proto', import.meta.url));
export const MSG_INCREMENT = 'test.counter.v1.MsgIncrement';
export const CHAIN_ID = 'engine-test-1';

export const hex = (b: Uint8Array): string => toHex(b);
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function tempDir(tag: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `chain-${tag}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The counter module: MsgIncrement adds `by` (or 1) to the sender's counter and emits `counter` events. */
export function counterModule(): AppModule {
  return {
    name: 'counter',
    consensusVersion: 1,
    protoDirs: [COUNTER_PROTO_DIR],
    // type URLs outside `chain.*` resolve only when registered
    registerTypes(registry) { registry.registerAlias('/' + MSG_INCREMENT, MSG_INCREMENT); },
    registerServices(r) {
      r.registerMsgService('test.counter.v1.Msg', {
        Increment: (ctx, msg) => {
          const m = msg as { sender: string; by?: bigint | number; fail?: boolean };
          if (m.fail) throw Errors.InvalidRequest.wrap('forced failure');
          const kv = ctx.kv('counter');
          const cur = kv.get(utf8(m.sender));
          const value = (cur ? BigInt(fromUtf8(cur)) : 0n) + (BigInt(m.by ?? 0) || 1n);
          kv.set(utf8(m.sender), utf8(value.toString()));
          ctx.events.emit('counter', [['sender', m.sender], ['value', value.toString()]]);
          ctx.events.emitEvent({ type: 'counter', attributes: [{ key: 'secret', value: 'hidden', index: false }] });
          return { value };
        },
      });
    },
  };
}

/** The committed counter of `sender` (0 when unset). */
export function counterOf(app: App, sender: string): bigint {
  const v = app.queryContext().kv('counter').get(utf8(sender));
  return v ? BigInt(fromUtf8(v)) : 0n;
}

export interface IncrementMsg { sender: string; by?: number; fail?: boolean }

let nonce = 0;

/** A TxRaw with MsgIncrement messages, one dummy signature and a fee with a gas limit. */
export function counterTx(registry: ProtoRegistry, msgs: IncrementMsg[], o: { memo?: string; gas?: bigint } = {}): Uint8Array {
  const bodyBytes = registry.encode('chain.tx.v1beta1.TxBody', {
    messages: msgs.map((m) => registry.packAny(MSG_INCREMENT, { sender: m.sender, by: BigInt(m.by ?? 1), fail: m.fail ?? false })),
    memo: o.memo ?? `n${nonce++}`,
  });
  const authInfoBytes = registry.encode('chain.tx.v1beta1.AuthInfo', {
    signer_infos: [],
    fee: { amount: [], gas_limit: o.gas ?? 200_000n, payer: '', granter: '' },
  });
  return registry.encode('chain.tx.v1beta1.TxRaw', { body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, signatures: [Uint8Array.of(1, 2, 3)] });
}

/** A fixed validator key (so tests are reproducible). */
export const VALIDATOR_KEY: PrivValidatorKeyJSON = privValidatorKeyJSON(sha256(utf8('engine-test-validator')));

export function makeGenesis(o: { maxGas?: number; chainId?: string; key?: PrivValidatorKeyJSON; time?: Date; initialHeight?: number } = {}): GenesisDoc {
  const key = o.key ?? VALIDATOR_KEY;
  const params = defaultConsensusParamsJSON();
  if (o.maxGas !== undefined) params.block.max_gas = String(o.maxGas);
  return {
    genesis_time: (o.time ?? new Date(Date.now() - 60_000)).toISOString(),
    chain_id: o.chainId ?? CHAIN_ID,
    initial_height: String(o.initialHeight ?? 1),
    consensus_params: params,
    validators: [{ address: key.address, pub_key: key.pub_key, power: '10', name: 'val0' }],
    app_hash: '',
    app_state: {},
  };
}

export interface TestNodeOptions {
  readonly genesis?: GenesisDoc;
  readonly timeoutCommitMs?: number;
  readonly anteHandler?: AnteHandler;
  readonly mempool?: MempoolOptions;
  /** reuse this data dir (a restart); a new temp dir otherwise */
  readonly dir?: string;
  /** modules besides the counter module */
  readonly modules?: readonly AppModule[];
  /** the tx index on a worker thread in this database (as the node runs it); in the chain's database otherwise */
  readonly indexDir?: string;
}

/** Store + app + bus + indexer + engine, wired like apps/node. */
export class TestNode {
  private constructor(
    /** errors logged by the engine (block production failures) */
    readonly errors: string[],
    readonly dir: string,
    readonly store: CommitStore,
    readonly registry: ProtoRegistry,
    readonly app: App,
    readonly bus: EventBus,
    readonly engine: Engine,
    readonly genesis: GenesisDoc,
    private readonly opts: TestNodeOptions,
    private readonly ownsDir: { remove: () => void } | undefined,
  ) {}

  static async create(opts: TestNodeOptions = {}, owned?: { remove: () => void }): Promise<TestNode> {
    let tmp = owned;
    let dir = opts.dir;
    if (dir === undefined) {
      const t = tempDir('engine');
      dir = t.dir;
      tmp = t;
    }
    const genesis = opts.genesis ?? makeGenesis();
    const store = await CommitStore.open(dir);
    const registry = new ProtoRegistry();
    const modules = [counterModule(), ...(opts.modules ?? [])];
    const having = (f: (m: AppModule) => boolean): string[] => modules.filter(f).map((m) => m.name);
    const app = new App({
      registry, store, chainId: genesis.chain_id, modules, anteHandler: opts.anteHandler ?? (() => {}),
      config: {
        modules: modules.map((m) => m.name),
        moduleAccounts: [],
        order: {
          preBlock: having((m) => !!m.preBlock), beginBlock: having((m) => !!m.beginBlock), endBlock: having((m) => !!m.endBlock),
          initGenesis: having((m) => !!(m.genesisType && m.initGenesis)),
        },
      },
    });
    const bus = new EventBus({ bufferSize: 100_000 });
    let engineRef: Engine | undefined;
    const loadEvents = async (height: number, index: number): Promise<Event[] | undefined> => (await engineRef!.blocks.results(height))?.txResults[index]?.events;
    let indexer: TxIndex;
    try {
      indexer = opts.indexDir ? await IndexWorker.open(opts.indexDir, loadEvents) : new TxIndexer(store, loadEvents);
    } catch (e) {
      await store.close();
      throw e;
    }
    const errors: string[] = [];
    let engine: Engine;
    try {
      engine = new Engine({
        app, store, bus, indexer, genesis,
        validatorKey: seedOfPrivValidatorKey(VALIDATOR_KEY),
        timeoutCommitMs: opts.timeoutCommitMs ?? 20,
        mempool: new Mempool(opts.mempool),
        logger: { info: () => undefined, error: (msg, ctx) => errors.push(`${msg} ${JSON.stringify(ctx)}`) },
      });
    } catch (e) {
      await indexer.close();
      await store.close();
      tmp?.remove();
      throw e;
    }
    engineRef = engine;
    return new TestNode(errors, dir, store, registry, app, bus, engine, genesis, { ...opts, genesis, dir }, tmp);
  }

  /** Stops the engine and closes the store, then builds everything anew on the same data dir. */
  async restart(overrides: Partial<TestNodeOptions> = {}): Promise<TestNode> {
    await this.engine.stop();
    this.bus.close();
    await this.engine.indexer.close();
    await this.store.close();
    return TestNode.create({ ...this.opts, ...overrides, dir: this.dir }, this.ownsDir);
  }

  tx(msgs: IncrementMsg[], o: { memo?: string; gas?: bigint } = {}): Uint8Array {
    return counterTx(this.registry, msgs, o);
  }

  async waitForHeight(h: number, timeoutMs = 5000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (this.engine.latestHeight < h) {
      if (Date.now() > end) throw new Error(`height ${h} not reached (at ${this.engine.latestHeight}); errors: ${this.errors.join('; ')}`);
      await sleep(5);
    }
  }

  /** Subscribes and collects messages in the background. */
  collect(query: string, clientId = 'test'): { messages: BusMessage[]; sub: Subscription } {
    const sub = this.bus.subscribe(clientId, parseQuery(query));
    const messages: BusMessage[] = [];
    void (async () => { for await (const m of sub) messages.push(m); })();
    return { messages, sub };
  }

  async close(): Promise<void> {
    await this.engine.stop().catch(() => undefined);
    this.bus.close();
    await this.engine.indexer.close().catch(() => undefined);
    await this.store.close().catch(() => undefined);
    this.ownsDir?.remove();
  }
}

/**
 * Checks the stored chain from height `from` (1, or the genesis initial height) to `to`: every block,
 * results and seen commit is there; block ids recompute; each header links to the previous block (last_block_id, last_commit_hash, app_hash,
 * last_results_hash, time = previous precommit time); the seen commit is a valid ed25519 precommit.
 */
export async function verifyChain(node: TestNode, to: number, from = 1): Promise<void> {
  const { blocks, chainId, validatorPubKey, validatorAddr, validators, params } = node.engine;
  let prev: { block: StoredBlock; results: StoredResults; commit: Commit } | undefined;
  for (let h = from; h <= to; h++) {
    const stored = await blocks.block(h);
    const results = await blocks.results(h);
    const commit = await blocks.seenCommit(h);
    expect(stored && results && commit, `block ${h} stored`).to.not.equal(undefined);
    const { header } = stored!.block;
    expect(header.height).to.equal(h);
    expect(header.chainId).to.equal(chainId);
    expect(header.version).to.deep.equal({ block: 11, app: 0 });
    expect(hex(header.proposerAddress)).to.equal(hex(validatorAddr));
    expect(hex(header.validatorsHash)).to.equal(hex(validatorSetHash(validators)));
    expect(hex(header.nextValidatorsHash)).to.equal(hex(header.validatorsHash));
    expect(hex(header.consensusHash)).to.equal(hex(consensusParamsHash(params)));
    expect(hex(header.evidenceHash)).to.equal(hex(sha256(new Uint8Array())));
    expect(hex(header.dataHash), `data hash ${h}`).to.equal(hex(dataHash(stored!.block.data.txs)));
    const id = blockId(stored!.block);
    expect(hex(id.hash), `block id ${h}`).to.equal(hex(stored!.blockId.hash));
    expect(hex(id.hash)).to.equal(hex(headerHash(header)));
    expect(id.partSetHeader.total).to.equal(stored!.blockId.partSetHeader.total);
    expect(hex(id.partSetHeader.hash)).to.equal(hex(stored!.blockId.partSetHeader.hash));
    expect(await blocks.heightByHash(id.hash)).to.equal(h);
    expect(results!.height).to.equal(h);
    expect(results!.txResults.length).to.equal(stored!.block.data.txs.length);
    expect(hex(stored!.block.header.lastCommitHash)).to.equal(hex(commitHash(stored!.block.lastCommit!)));
    if (prev === undefined) {
      expect(header.lastBlockId.hash.length).to.equal(0);
      expect(header.lastBlockId.partSetHeader.total).to.equal(0);
      expect(stored!.block.lastCommit!.signatures).to.deep.equal([]);
      expect(header.appHash.length).to.equal(0);
      expect(hex(header.lastResultsHash)).to.equal(hex(sha256(new Uint8Array())));
      expect(new Date(node.genesis.genesis_time).getTime()).to.equal(fromTimestamp(header.time).getTime());
    } else {
      expect(hex(header.lastBlockId.hash), `last_block_id ${h}`).to.equal(hex(prev.block.blockId.hash));
      expect(header.lastBlockId.partSetHeader.total).to.equal(prev.block.blockId.partSetHeader.total);
      expect(hex(header.appHash), `app_hash ${h}`).to.equal(hex(prev.results.appHash));
      expect(hex(header.lastResultsHash)).to.equal(hex(lastResultsHash(prev.results.txResults)));
      expect(stored!.block.lastCommit).to.deep.equal(prev.commit);
      expect(header.time).to.deep.equal(prev.commit.signatures[0]!.timestamp);
      expect(fromTimestamp(header.time).getTime()).to.be.greaterThan(fromTimestamp(prev.block.block.header.time).getTime());
    }
    // the seen commit: one precommit by our validator for this block, over the canonical vote bytes
    expect(commit!.height).to.equal(h);
    expect(commit!.round).to.equal(0);
    expect(hex(commit!.blockId.hash)).to.equal(hex(id.hash));
    expect(commit!.signatures.length).to.equal(1);
    const sig = commit!.signatures[0]!;
    expect(sig.blockIdFlag).to.equal(2);
    expect(hex(sig.validatorAddress)).to.equal(hex(validatorAddr));
    const signBytes = canonicalVoteSignBytes(chainId, { type: 2, height: h, round: 0, blockId: commit!.blockId, timestamp: sig.timestamp });
    expect(ed25519Verify(validatorPubKey, signBytes, sig.signature), `commit signature ${h}`).to.equal(true);
    const wrong = canonicalVoteSignBytes(chainId, { type: 2, height: h + 1, round: 0, blockId: commit!.blockId, timestamp: sig.timestamp });
    expect(ed25519Verify(validatorPubKey, wrong, sig.signature)).to.equal(false);
    prev = { block: stored!, results: results!, commit: commit! };
  }
}
