/**
 * A load-generator process of the side-by-side bench (`vs-simd.ts` forks several): it gets its share of the work
 * over IPC, waits for `go`, runs it and reports back with its own CPU time, so the report can show that the
 * generator was not the bottleneck. No project imports: only `ws` and fetch (undici, keep-alive connections).
 *
 * - `broadcast`: lanes of pre-signed txs (base64); each lane is one connection sending its txs in order with
 *   `broadcast_tx_sync` (a lane owns whole accounts, so each account's sequence numbers arrive in order).
 *   `transport: 'ws'` (default): each lane is one websocket to the RPC's `/websocket` with up to `window` requests
 *   in flight, written as pre-built JSON-RPC frames. CometBFT and chaind both run a connection's requests one
 *   after another, in the order received, so the order holds without waiting for each answer, and the
 *   generator's cost per tx is a frame write and a small parse (it saturates a node from one core).
 *   `transport: 'http'`: one keep-alive HTTP request per tx (fetch), each waiting for its answer.
 * - `eth`: lanes of pre-signed Ethereum txs (0x hex), each lane one websocket to an Ethereum JSON-RPC websocket
 *   (`wsUrl`) sending its txs in order with `eth_sendRawTransaction`, up to `window` in flight (a lane is one
 *   sender, so its nonces arrive in order).
 * - `query`: `clients` concurrent clients GET `url` until `count` requests are done; returns every latency. Before
 *   it reports ready, each client opens its keep-alive connection and makes `warmup` requests (default 20), untimed,
 *   so the figures are the node's answers under steady load, not this process's first fetch calls (undici's lazy
 *   setup, its JIT) and 25 TCP handshakes at once, which otherwise were the slowest 1% of a 5,000-query run.
 */
import WebSocket from 'ws';

interface BroadcastJob { kind: 'broadcast'; rpcUrl: string; lanes: string[][]; transport?: 'ws' | 'http'; window?: number }
interface EthJob { kind: 'eth'; wsUrl: string; lanes: string[][]; window?: number }
interface QueryJob { kind: 'query'; url: string; count: number; clients: number; warmup?: number }
type Job = BroadcastJob | EthJob | QueryJob;

export interface BroadcastResult { kind: 'broadcast'; sent: number; accepted: number; rejected: number; errors: string[]; cpuMs: number; wallMs: number }
export interface QueryResult { kind: 'query'; latencies: number[]; failed: number; cpuMs: number; wallMs: number }

let job: Job | undefined;

/**
 * One websocket per lane to `url`, up to `window` requests in flight on each: `frame(k)` is the k-th request of a
 * lane (id k), `ok(body)` tells an accepted answer.
 */
async function pipelined(url: string, lanes: string[][], window: number, frame: (id: number, tx: string) => string, ok: (body: any) => boolean): Promise<BroadcastResult> {
  let accepted = 0;
  let rejected = 0;
  const errors: string[] = [];
  await Promise.all(lanes.map((lane) => new Promise<void>((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 64 << 20 });
    let next = 0;
    let answered = 0;
    const fill = (): void => {
      while (next < lane.length && next - answered < window) {
        ws.send(frame(next, lane[next]!));
        next++;
      }
    };
    ws.on('open', fill);
    ws.on('message', (data) => {
      const body = JSON.parse(String(data)) as { result?: unknown; error?: unknown };
      if (ok(body)) accepted++;
      else {
        rejected++;
        if (errors.length < 5) errors.push(JSON.stringify(body.result ?? body.error).slice(0, 300));
      }
      answered++;
      if (answered === lane.length) {
        ws.close();
        resolve();
      } else {
        fill();
      }
    });
    ws.on('error', (e) => reject(e));
    ws.on('close', () => { if (answered < lane.length) reject(new Error(`websocket closed after ${answered}/${lane.length} answers`)); });
  })));
  return { kind: 'broadcast', sent: lanes.reduce((n, l) => n + l.length, 0), accepted, rejected, errors, cpuMs: 0, wallMs: 0 };
}

async function broadcast(j: BroadcastJob): Promise<BroadcastResult> {
  if ((j.transport ?? 'ws') === 'ws') {
    return pipelined(j.rpcUrl.replace(/^http/, 'ws') + '/websocket', j.lanes, j.window ?? 256,
      (id, tx) => `{"jsonrpc":"2.0","id":${id},"method":"broadcast_tx_sync","params":{"tx":"${tx}"}}`,
      (body) => body.result !== undefined && body.result.code === 0);
  }
  let accepted = 0;
  let rejected = 0;
  const errors: string[] = [];
  let id = 0;
  await Promise.all(j.lanes.map(async (lane) => {
    for (const tx of lane) {
      try {
        const r = await fetch(j.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'broadcast_tx_sync', params: { tx } }),
        });
        const body = (await r.json()) as { result?: { code: number; log?: string }; error?: { message?: string; data?: string } };
        if (body.result && body.result.code === 0) accepted++;
        else {
          rejected++;
          if (errors.length < 5) errors.push(JSON.stringify(body.result ?? body.error).slice(0, 300));
        }
      } catch (e) {
        rejected++;
        if (errors.length < 5) errors.push(String(e).slice(0, 300));
      }
    }
  }));
  return { kind: 'broadcast', sent: j.lanes.reduce((n, l) => n + l.length, 0), accepted, rejected, errors, cpuMs: 0, wallMs: 0 };
}

/** each client's untimed requests over its own connection (they run at the same time, so each opens one) */
async function warmQueryClients(j: QueryJob): Promise<void> {
  await Promise.all(Array.from({ length: j.clients }, async () => {
    for (let i = 0; i < (j.warmup ?? 20); i++) {
      try {
        const r = await fetch(j.url);
        await r.arrayBuffer();
      } catch {
        // counted in the timed run, if it keeps failing
      }
    }
  }));
}

async function query(j: QueryJob): Promise<QueryResult> {
  const latencies: number[] = [];
  let failed = 0;
  let issued = 0;
  await Promise.all(Array.from({ length: j.clients }, async () => {
    while (issued < j.count) {
      issued++;
      const s = performance.now();
      try {
        const r = await fetch(j.url);
        await r.arrayBuffer();
        if (!r.ok) failed++;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - s);
    }
  }));
  return { kind: 'query', latencies, failed, cpuMs: 0, wallMs: 0 };
}

process.on('message', (m: { type: 'job'; job: Job } | { type: 'go' }) => {
  if (m.type === 'job') {
    job = m.job;
    const ready = (): void => { process.send!({ type: 'ready' }); };
    if (job.kind === 'query') warmQueryClients(job).then(ready, ready);
    else ready();
    return;
  }
  if (m.type === 'go' && job) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const run = job.kind === 'broadcast' ? broadcast(job)
      : job.kind === 'eth' ? pipelined(job.wsUrl, job.lanes, job.window ?? 256,
        (id, tx) => `{"jsonrpc":"2.0","id":${id},"method":"eth_sendRawTransaction","params":["${tx}"]}`,
        (body) => typeof body.result === 'string')
      : query(job);
    run.then((r) => {
      const cpu = process.cpuUsage(cpu0);
      r.cpuMs = (cpu.user + cpu.system) / 1000;
      r.wallMs = performance.now() - t0;
      process.send!({ type: 'result', result: r }, () => process.exit(0));
    }, (e: unknown) => {
      process.send!({ type: 'error', error: String(e) }, () => process.exit(1));
    });
  }
});
