/**
 * Test helpers: a test-only key/value module (fixture proto `chain.apptest.v1`), a counting ante handler,
 * and an App on a CommitStore in a temp dir. Only @chain/app and the packages below it are used.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProtoRegistry } from '@chain/codec';
import type { ProtoObject } from '@chain/codec';
import { Errors } from '@chain/errors';
import { CommitStore, type CommitStoreOptions } from '@chain/store';
import type { KVStore } from '@chain/store';
import { App, paginate } from '../src/index.js';
import { Msg as KvMsg, Query as KvQuery } from './fixtures/gen/chain/apptest/v1.js';
import type { AnteHandler, AppModule, Context, DecCoin, ExecTxResult, FinalizeBlockRequest, FinalizeBlockResponse, InitChainRequest, ServiceRegistrar, ValidatorUpdate } from '../src/index.js';

export const FIXTURE_PROTO_DIR = fileURLToPath(new URL('./fixtures/proto', import.meta.url));
export const CHAIN_ID = 'app-test-1';
export const T0 = new Date('2024-01-01T00:00:00Z');
export const SIGNER = 'signer-1';

const enc = new TextEncoder();
const dec = new TextDecoder();
export const utf8 = (s: string): Uint8Array => enc.encode(s);
export const str = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : dec.decode(b));

/** The test module: `kv` store, messages Set / Fail / Burn, queries Get / List, begin/end block events. */
export class KvModule implements AppModule {
  readonly name = 'kv';
  readonly consensusVersion = 1;
  readonly returnsValidatorUpdates = true;
  readonly protoDirs = [FIXTURE_PROTO_DIR];
  readonly genesisType = 'chain.apptest.v1.GenesisState';
  validatorUpdates: ValidatorUpdate[] = [];

  defaultGenesis(): ProtoObject {
    return { entries: [] };
  }

  initGenesis(ctx: Context, g: ProtoObject): void {
    for (const e of g.entries as { key: string; value: string }[]) ctx.kv('kv').set(utf8(e.key), utf8(e.value));
  }

  exportGenesis(ctx: Context): ProtoObject {
    return { entries: [...ctx.kv('kv').iterator()].map(([k, v]) => ({ key: str(k), value: str(v) })) };
  }

  registerServices(r: ServiceRegistrar): void {
    // typed by the types generated from fixtures/proto (tools/proto-gen)
    r.registerMsgService(KvMsg, {
      Set: (ctx, m) => {
        const s = ctx.kv('kv');
        const previous = str(s.get(utf8(m.key))) ?? '';
        s.set(utf8(m.key), utf8(m.value));
        ctx.events.emit('kv_set', [['key', m.key], ['value', m.value]]);
        return { previous };
      },
      Fail: (ctx, m) => {
        ctx.kv('kv').set(utf8(m.key), utf8('should not persist'));
        ctx.events.emit('kv_fail', [['key', m.key]]);
        if (m.code === 10) throw Errors.InvalidCoins.wrap('boom');
        throw new Error('plain failure');
      },
      Burn: (ctx, m) => {
        for (let i = 0n; i < m.reads; i++) ctx.kv('kv').get(utf8('x'));
        return {};
      },
    });
    r.registerQueryService(KvQuery, {
      Get: (ctx, q) => {
        const v = ctx.kv('kv').get(utf8(q.key));
        if (v === undefined) throw Errors.KeyNotFound.wrap(`no key ${q.key}`);
        return { value: dec.decode(v) };
      },
      List: (ctx, q) => {
        const { items, pagination } = paginate(ctx.kv('kv'), q.pagination, (k, v) => ({ key: dec.decode(k), value: dec.decode(v) }));
        return { entries: items, pagination };
      },
    });
  }

  beginBlock(ctx: Context): void {
    ctx.events.emit('begin', [['height', String(ctx.block.height)]]);
  }

  endBlock(ctx: Context): ValidatorUpdate[] {
    ctx.events.emit('end', [['height', String(ctx.block.height)]]);
    return this.validatorUpdates;
  }
}

/** Counts txs in the `ante` store (the stand-in for fee + sequence), charges 10 gas per tx byte. */
export const countingAnte: AnteHandler = (ctx, tx) => {
  ctx.gasMeter.consume(10 * tx.raw.length, 'txSize');
  if (tx.body.memo === 'ante-fail') throw Errors.Unauthorized.wrap('ante says no');
  const s = ctx.kv('ante');
  const n = Number(str(s.get(utf8('count'))) ?? '0') + 1;
  s.set(utf8('count'), utf8(String(n)));
  ctx.events.emit('tx', [['ante', String(n)]]);
};

export interface Msg { type: string; value: ProtoObject }
export const set = (key: string, value: string): Msg => ({ type: 'chain.apptest.v1.MsgSet', value: { signer: SIGNER, key, value } });
export const fail = (key: string, code = 10): Msg => ({ type: 'chain.apptest.v1.MsgFail', value: { signer: SIGNER, key, code } });
export const burn = (reads: number): Msg => ({ type: 'chain.apptest.v1.MsgBurn', value: { signer: SIGNER, reads: BigInt(reads) } });

export function initChainRequest(appState: Record<string, unknown>): InitChainRequest {
  return { time: T0, chainId: CHAIN_ID, validators: [], appState, initialHeight: 1 };
}

export function finalizeRequest(height: number, txs: Uint8Array[], o: Partial<FinalizeBlockRequest> = {}): FinalizeBlockRequest {
  return {
    txs, decidedLastCommit: { round: 0, votes: [] }, misbehavior: [], hash: new Uint8Array(32).fill(height & 0xff), height,
    time: height === 1 ? T0 : new Date(T0.getTime() + height * 1000), nextValidatorsHash: new Uint8Array(32), proposerAddress: new Uint8Array(20), ...o,
  };
}

export class TestApp {
  private constructor(readonly app: App, readonly registry: ProtoRegistry, readonly store: CommitStore, readonly kv: KvModule, private readonly dir: string) {}

  static async create(o: { ante?: AnteHandler | null; minGasPrices?: DecCoin[]; maxTxBytes?: number; store?: CommitStoreOptions } = {}): Promise<TestApp> {
    const dir = mkdtempSync(join(tmpdir(), 'chain-app-'));
    const store = await CommitStore.open(dir, o.store);
    const registry = new ProtoRegistry();
    const kv = new KvModule();
    const app = new App({
      registry, store, chainId: CHAIN_ID, modules: [kv],
      config: { modules: ['kv'], moduleAccounts: [], order: { preBlock: [], beginBlock: ['kv'], endBlock: ['kv'], initGenesis: ['kv'] } },
      anteHandler: o.ante === null ? undefined : (o.ante ?? countingAnte),
      minGasPrices: o.minGasPrices, maxTxBytes: o.maxTxBytes,
    });
    return new TestApp(app, registry, store, kv, dir);
  }

  async close(): Promise<void> {
    await this.store.close().catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** InitChain + the genesis block (height 1). */
  async init(entries: { key: string; value: string }[] = []): Promise<Uint8Array> {
    await this.app.initChain(initChainRequest({ kv: { entries } }));
    await this.app.finalizeBlock(finalizeRequest(1, []));
    await this.app.commit();
    return this.app.lastAppHash;
  }

  tx(msgs: Msg[], o: { memo?: string; gas?: bigint; signatures?: Uint8Array[] } = {}): Uint8Array {
    const r = this.registry;
    const body = r.encode('chain.tx.v1beta1.TxBody', { messages: msgs.map((m) => r.packAny(m.type, m.value)), memo: o.memo ?? '' });
    const auth = r.encode('chain.tx.v1beta1.AuthInfo', { signer_infos: [], fee: { amount: [], gas_limit: o.gas ?? 1_000_000n, payer: '', granter: '' } });
    return r.encode('chain.tx.v1beta1.TxRaw', { body_bytes: body, auth_info_bytes: auth, signatures: o.signatures ?? [new Uint8Array(64)] });
  }

  async block(txs: Uint8Array[]): Promise<FinalizeBlockResponse & { committed: Uint8Array }> {
    const height = this.app.lastHeight + 1;
    const res = await this.app.finalizeBlock(finalizeRequest(height, txs));
    await this.app.commit();
    return { ...res, committed: this.app.lastAppHash };
  }

  async deliver(tx: Uint8Array): Promise<ExecTxResult> {
    return (await this.block([tx])).txResults[0]!;
  }

  /** Committed value of a kv key. */
  get(key: string): string | undefined {
    return str(this.store.state.get(utf8('kv/' + key)));
  }

  /** Committed ante counter. */
  anteCount(): number {
    return Number(str(this.store.state.get(utf8('ante/count'))) ?? '0');
  }

  /** Committed state entries (prefix → count) for quick no-trace checks. */
  dump(): string[] {
    return [...(this.store.state as KVStore).iterator()].map(([k, v]) => `${str(k)}=${str(v)}`);
  }
}
