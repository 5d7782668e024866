/**
 * Tx search latency with a large tx index, measured in-process: a CommitStore in a temp dir is filled
 * with synthetic bank-send txs (the events the app emits for a MsgSend: ante fee events, tx fee /
 * acc_seq / signature, message action/sender/module, coin_spent, coin_received, transfer) in blocks of
 * 1000 through `TxIndexer.indexOps` + `store.commit`, exactly as the engine writes them; then each query
 * shape is timed (p50 / p99 over many runs, one client). Populating through a live node at ~500 tx/s
 * would take minutes per 100k txs.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitStore } from '@chain/store';
import type { BatchOp } from '@chain/store';
import { parseQuery } from '@chain/events';
import type { Event } from '@chain/events';
import { TxIndexer } from '@chain/indexer';
import { toBech32 } from '@chain/crypto';

export interface SearchBenchOptions {
  /** number of txs to index (default 100k) */
  readonly txs: number;
  readonly blockSize: number;
  /** timed runs per query shape */
  readonly runs: number;
  readonly log?: (line: string) => void;
}

const SENDERS = 1000;
const RECIPIENTS = 10_000;
const MSG_SEND = '/chain.bank.v1beta1.MsgSend';

const sha = (alg: string, s: string): Buffer => createHash(alg).update(s).digest();
const address = (tag: string): string => toBech32('chain', new Uint8Array(sha('sha256', tag).subarray(0, 20)));
/** A deterministic 32-bit mix of n (so the generator is a pure function of the tx number). */
function mix(n: number, salt: number): number {
  let x = (n ^ salt) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

const a = (key: string, value: string): { key: string; value: string; index: boolean } => ({ key, value, index: true });

/** The synthetic chain: tx number n (0-based) is tx n % blockSize of block floor(n / blockSize) + 1. */
class SyntheticChain {
  readonly senders = Array.from({ length: SENDERS }, (_, i) => address(`sender-${i}`));
  readonly recipients = Array.from({ length: RECIPIENTS }, (_, i) => address(`recipient-${i}`));
  readonly feeCollector = address('fee_collector');
  /** the account sequence each tx used (the generator tracks one per sender) */
  private readonly seqs: Uint32Array;
  private readonly nextSeq = new Uint32Array(SENDERS);

  constructor(readonly total: number, readonly blockSize: number) {
    this.seqs = new Uint32Array(total);
  }

  senderIndex(n: number): number { return mix(n, 0x5e) % SENDERS; }
  recipientIndex(n: number): number { return mix(n, 0x7e) % RECIPIENTS; }
  hash(n: number): Uint8Array { return new Uint8Array(sha('sha256', `tx-${n}`)); }
  heightOf(n: number): number { return Math.floor(n / this.blockSize) + 1; }
  numberOf(height: number, index: number): number { return (height - 1) * this.blockSize + index; }

  /** Assigns the sequence of tx n (call once per tx, in order). */
  assign(n: number): void { this.seqs[n] = this.nextSeq[this.senderIndex(n)]!++; }

  events(n: number): Event[] {
    const sender = this.senders[this.senderIndex(n)]!;
    const recipient = this.recipients[this.recipientIndex(n)]!;
    const fee = '200000achain';
    const amount = `${1 + (mix(n, 0xa1) % 1000)}achain`;
    return [
      { type: 'coin_spent', attributes: [a('spender', sender), a('amount', fee)] },
      { type: 'coin_received', attributes: [a('receiver', this.feeCollector), a('amount', fee)] },
      { type: 'transfer', attributes: [a('recipient', this.feeCollector), a('sender', sender), a('amount', fee)] },
      { type: 'message', attributes: [a('sender', sender)] },
      { type: 'tx', attributes: [a('fee', fee), a('fee_payer', sender)] },
      { type: 'tx', attributes: [a('acc_seq', `${sender}/${this.seqs[n]}`)] },
      { type: 'tx', attributes: [a('signature', sha('sha512', `sig-${n}`).toString('base64'))] },
      { type: 'message', attributes: [a('action', MSG_SEND), a('sender', sender), a('module', 'bank')] },
      { type: 'coin_spent', attributes: [a('spender', sender), a('amount', amount)] },
      { type: 'coin_received', attributes: [a('receiver', recipient), a('amount', amount)] },
      { type: 'transfer', attributes: [a('recipient', recipient), a('sender', sender), a('amount', amount)] },
      { type: 'message', attributes: [a('sender', sender)] },
    ];
  }

  blockEvents(height: number): Event[] {
    return [
      { type: 'mint', attributes: [a('amount', String(1000 + (height % 97))), a('mode', 'BeginBlock')] },
      { type: 'coin_received', attributes: [a('receiver', this.feeCollector), a('amount', `${height % 13}achain`), a('mode', 'BeginBlock')] },
    ];
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function dirSize(dir: string): number {
  let n = 0;
  for (const f of readdirSync(dir)) {
    const s = statSync(join(dir, f));
    n += s.isDirectory() ? dirSize(join(dir, f)) : s.size;
  }
  return n;
}

/** Deterministic pseudo-random sequence for picking query arguments. */
function picker(seed: number): (n: number) => number {
  let i = 0;
  return (n) => mix(i++, seed) % n;
}

export async function searchBench(opts: SearchBenchOptions): Promise<void> {
  const log = opts.log ?? ((s: string) => console.log(s));
  const dir = mkdtempSync(join(tmpdir(), 'chain-search-bench-'));
  const chain = new SyntheticChain(opts.txs, opts.blockSize);
  const store = await CommitStore.open(dir);
  const indexer = new TxIndexer(store, async (height, index) => {
    const n = chain.numberOf(height, index);
    if (n < 0 || n >= chain.total) return undefined;
    return chain.events(n);
  });
  try {
    // ---- populate ----
    const t0 = performance.now();
    let indexMs = 0;
    let ops = 0;
    const blocks = Math.ceil(opts.txs / opts.blockSize);
    for (let b = 0; b < blocks; b++) {
      const height = b + 1;
      const txs = [];
      for (let n = b * opts.blockSize; n < Math.min(opts.txs, (b + 1) * opts.blockSize); n++) {
        chain.assign(n);
        txs.push({ hash: chain.hash(n), height, index: n - b * opts.blockSize, events: chain.events(n) });
      }
      const ti = performance.now();
      const batch: BatchOp[] = [...indexer.indexOps(txs), ...indexer.blockIndexOps(height, chain.blockEvents(height))];
      indexMs += performance.now() - ti;
      ops += batch.length;
      await store.commit(height, [], batch);
      if (blocks >= 100 && (b + 1) % Math.floor(blocks / 10) === 0) {
        log(`  indexed ${Math.min(opts.txs, (b + 1) * opts.blockSize)} txs (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
      }
    }
    const fillS = (performance.now() - t0) / 1000;
    log(`indexed ${opts.txs} synthetic bank sends in ${blocks} blocks of ${opts.blockSize}: ${fillS.toFixed(1)} s `
      + `(${(opts.txs / fillS).toFixed(0)} tx/s; indexOps ${(indexMs / blocks).toFixed(1)} ms/block), `
      + `${(ops / opts.txs).toFixed(1)} index writes/tx, database ${(dirSize(dir) / 1e6).toFixed(0)} MB`);

    // ---- measure ----
    const pick = picker(0xbe7c);
    const perPage = 100;
    const anyTx = (): number => pick(opts.txs);
    const senderOf = (n: number): string => chain.senders[chain.senderIndex(n)]!;
    const shapes: { name: string; query: () => string; page?: number; orderDesc?: boolean; blocks?: boolean }[] = [
      { name: `message.action='MsgSend', first page`, query: () => `message.action='${MSG_SEND}'` },
      { name: `message.action='MsgSend', first page, desc`, query: () => `message.action='${MSG_SEND}'`, orderDesc: true },
    ];
    const deepOffsets = [...new Set([Math.min(50_000, opts.txs - perPage), Math.floor(opts.txs / 2)])].filter((o) => o > perPage);
    for (const off of deepOffsets) {
      const page = Math.floor(off / perPage) + 1;
      shapes.push({ name: `message.action='MsgSend', offset ${off}`, query: () => `message.action='${MSG_SEND}'`, page });
      shapes.push({ name: `message.action='MsgSend', offset ${off}, desc`, query: () => `message.action='${MSG_SEND}'`, page, orderDesc: true });
    }
    shapes.push(
      { name: `message.sender=X (random of ${SENDERS})`, query: () => `message.sender='${senderOf(anyTx())}'` },
      { name: `message.sender=X, desc`, query: () => `message.sender='${senderOf(anyTx())}'`, orderDesc: true },
      {
        name: 'transfer.sender=X AND transfer.recipient=Y (one event)',
        query: () => { const n = anyTx(); return `transfer.sender='${senderOf(n)}' AND transfer.recipient='${chain.recipients[chain.recipientIndex(n)]}'`; },
      },
      { name: "message.action='MsgSend' AND message.sender=X", query: () => `message.action='${MSG_SEND}' AND message.sender='${senderOf(anyTx())}'` },
      { name: 'message.sender=X AND transfer.sender=X (walk + probe)', query: () => { const x = senderOf(anyTx()); return `message.sender='${x}' AND transfer.sender='${x}'`; } },
      { name: 'tx.height=N', query: () => `tx.height=${chain.heightOf(anyTx())}` },
      { name: 'tx.height>=N AND tx.height<=N+9, offset 5000', query: () => { const h = Math.max(1, chain.heightOf(anyTx()) - 9); return `tx.height>=${h} AND tx.height<=${h + 9}`; }, page: 51 },
      { name: "tx.hash='..'", query: () => `tx.hash='${Buffer.from(chain.hash(anyTx())).toString('hex').toUpperCase()}'` },
      { name: 'message.sender=X AND transfer.amount>500 (loads events)', query: () => `message.sender='${senderOf(anyTx())}' AND transfer.amount > 500` },
      { name: "block_search coin_received.receiver=fee_collector (desc)", query: () => `coin_received.receiver='${chain.feeCollector}'`, blocks: true },
    );
    log(`tx search latency with ${opts.txs} indexed txs (${opts.runs} runs each, limit ${perPage}, in-process, one client):`);
    for (const s of shapes) {
      const lat: number[] = [];
      let total = 0;
      let returned = 0;
      for (let i = 0; i < opts.runs + 5; i++) {
        const q = parseQuery(s.query());
        const t = performance.now();
        if (s.blocks) {
          const r = await indexer.searchBlocks(q, { page: s.page ?? 1, perPage, orderDesc: s.orderDesc ?? true });
          total = r.total; returned = r.heights.length;
        } else {
          const r = await indexer.search(q, { page: s.page ?? 1, perPage, orderDesc: s.orderDesc ?? false });
          total = r.total; returned = r.txs.length;
        }
        if (i >= 5) lat.push(performance.now() - t); // 5 warm-up runs
      }
      lat.sort((x, y) => x - y);
      log(`  ${s.name.padEnd(58)} p50 ${percentile(lat, 50).toFixed(2).padStart(7)} ms  p99 ${percentile(lat, 99).toFixed(2).padStart(7)} ms  (total ${total}, ${returned} returned)`);
    }
  } finally {
    await store.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
