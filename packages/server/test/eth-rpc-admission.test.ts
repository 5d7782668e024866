/**
 * The order in which eth_sendRawTransaction requests that run at once reach CheckTx: a websocket's pipelined sends
 * and a batch's items broadcast in request order whatever order their prechecks end in, and the answers come back in
 * request order. Over a stub adapter (its precheck ends late for the first txs) and a stub source that records the
 * broadcasts.
 */
import { expect } from 'chai';
import WebSocket from 'ws';
import type { App } from '@chain/app';
import { EthRpcBackend, startJsonRpcServer } from '../src/index.js';
import type { ConsensusSource, EthereumExecution, EthTxView, JsonRpcServer, JsonRpcSettings } from '../src/index.js';
import { AdmissionQueue } from '../src/eth-rpc/admission.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const TX: EthTxView = {
  raw: Uint8Array.of(1), hashHex: '0x' + 'ab'.repeat(32), type: 2, chainId: 9000n, nonce: 0n, gasLimit: 21_000n,
  gasFeeCap: 10n, gasTipCap: 1n, to: new Uint8Array(20), value: 5n, data: new Uint8Array(), accessList: [],
  sender: new Uint8Array(20).fill(1), protected: true,
};

const settings: JsonRpcSettings = {
  namespaces: new Set(['eth', 'net', 'web3']), gasCap: 25_000_000n, txFeeCapWei: 0n, filterCap: 10, filterTimeoutMs: 60_000,
  feeHistoryCap: 100, logsCap: 10_000, blockRangeCap: 10_000, httpTimeoutMs: 0, httpIdleTimeoutMs: 0, maxOpenConnections: 0,
  allowUnprotectedTxs: false, batchLimit: 100, maxBodyBytes: 1 << 20, maxSubscriptionsPerConnection: 10, clientVersion: 'test/v1',
};

/** A tx's raw bytes are [n]: its number in the client's order. Tx 0xee fails the wrap (an invalid tx). */
interface Harness {
  server: JsonRpcServer;
  url: string;
  wsUrl: string;
  /** tx numbers in the order they were broadcast */
  broadcast: number[];
  /** most broadcasts running at once, most prechecks running at once */
  maxBroadcasts: number;
  maxPrechecks: number;
}

async function harness(inCallOrder: boolean): Promise<Harness> {
  const h = { broadcast: [] as number[], maxBroadcasts: 0, maxPrechecks: 0 } as Harness;
  let prechecks = 0;
  let broadcasts = 0;
  const execution = {
    queryService: '/test.evm.v1.Query',
    chainId: () => 9000n,
    ethereumTxsOf: () => [],
    decodeTx: () => TX,
    effectiveGasPrice: () => 0n,
    // the sender recovery of the first txs ends last
    precheckTx: async (raw: Uint8Array) => {
      prechecks++;
      h.maxPrechecks = Math.max(h.maxPrechecks, prechecks);
      await sleep(Math.max(0, 30 - 3 * raw[0]!));
      prechecks--;
    },
    wrapTx: (raw: Uint8Array) => {
      if (raw[0] === 0xee) throw new Error('invalid tx');
      return { tx: raw, ethHash: new Uint8Array(32).fill(raw[0]!), decoded: TX };
    },
    isUnprotectedTxError: () => false,
  } as unknown as EthereumExecution;
  const source = {
    kind: 'stub', chainId: 'test_9000-1', admitsInCallOrder: inCallOrder,
    latestHeight: async () => 1, earliestHeight: async () => 1,
    block: async () => undefined, results: async () => undefined, heightByHash: async () => undefined,
    blockMaxGas: async () => 1_000_000, pendingTxs: async () => [],
    onPendingTx: () => () => {}, onNewBlock: () => () => {},
    broadcastSync: async (raw: Uint8Array) => {
      h.broadcast.push(raw[0]!);
      broadcasts++;
      h.maxBroadcasts = Math.max(h.maxBroadcasts, broadcasts);
      await sleep(2);
      broadcasts--;
      return { code: 0, log: '' };
    },
  } as unknown as ConsensusSource;
  const backend = new EthRpcBackend({ source, app: {} as App, execution, minGasPrice: 0n });
  h.server = await startJsonRpcServer({
    backend, settings, http: { host: '127.0.0.1', port: 0 }, ws: { host: '127.0.0.1', port: 0 }, log: { info() {}, error() {} },
  });
  h.url = `http://127.0.0.1:${h.server.port}`;
  h.wsUrl = `ws://127.0.0.1:${h.server.wsPort}`;
  return h;
}

const send = (id: number, n: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_sendRawTransaction', params: ['0x' + n.toString(16).padStart(2, '0')] });

/** Writes every frame at once, returns the answers in arrival order. */
async function pipeline(wsUrl: string, frames: string[]): Promise<any[]> {
  const ws = new WebSocket(wsUrl);
  await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
  const answers: any[] = [];
  const done = new Promise<void>((resolve) => {
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      answers.push(m);
      if (answers.length === frames.length) resolve();
    });
  });
  for (const f of frames) ws.send(f);
  await done;
  ws.close();
  return answers;
}

describe('eth-rpc: the order of concurrent broadcasts', function () {
  this.timeout(20_000);

  it('AdmissionQueue: in ticket order; a ticket that ends without broadcasting still waits its turn', async () => {
    const q = new AdmissionQueue(true);
    const order: number[] = [];
    const t = [q.ticket(), q.ticket(), q.ticket(), q.ticket()];
    t[2]!.done(); // ends at once (an invalid tx): must not let ticket 3 pass 0 and 1
    const p3 = t[3]!.admit(async () => { order.push(3); });
    const p1 = t[1]!.admit(async () => { order.push(1); });
    await sleep(5);
    expect(order).to.deep.equal([]);
    await t[0]!.admit(async () => { order.push(0); });
    await Promise.all([p1, p3]);
    expect(order).to.deep.equal([0, 1, 3]);
  });

  it('AdmissionQueue: without call-order admission the next broadcast waits for the answer', async () => {
    const q = new AdmissionQueue(false);
    const events: string[] = [];
    const a = q.ticket();
    const b = q.ticket();
    await Promise.all([
      a.admit(async () => { events.push('a start'); await sleep(10); events.push('a end'); }),
      b.admit(async () => { events.push('b start'); }),
    ]);
    expect(events).to.deep.equal(['a start', 'a end', 'b start']);
  });

  for (const inCallOrder of [true, false]) {
    describe(inCallOrder ? 'a source that admits in call order (the embedded engine)' : 'a source that does not (CometBFT over HTTP)', () => {
      let h: Harness;
      before(async () => { h = await harness(inCallOrder); });
      after(() => h.server.close());
      beforeEach(() => { h.broadcast.length = 0; h.maxBroadcasts = 0; h.maxPrechecks = 0; });

      it('a websocket\'s pipelined sends run together, broadcast in arrival order, answered in order', async () => {
        const frames = Array.from({ length: 10 }, (_, i) => send(i, i));
        const answers = await pipeline(h.wsUrl, frames);
        expect(answers.map((a) => a.id)).to.deep.equal([...Array(10).keys()]);
        expect(answers.map((a) => a.result)).to.deep.equal([...Array(10).keys()].map((i) => '0x' + i.toString(16).padStart(2, '0').repeat(32)));
        expect(h.broadcast).to.deep.equal([...Array(10).keys()]);
        expect(h.maxPrechecks).to.be.greaterThan(1);
        if (!inCallOrder) expect(h.maxBroadcasts).to.equal(1);
      });

      it('an invalid tx among them is answered with its error and holds none of the others', async () => {
        const frames = [send(0, 0), send(1, 1), send(2, 0xee), send(3, 3), send(4, 4)];
        const answers = await pipeline(h.wsUrl, frames);
        expect(answers.map((a) => a.id)).to.deep.equal([0, 1, 2, 3, 4]);
        expect(answers[2].error).to.deep.include({ code: -32000, message: 'invalid tx' });
        expect(h.broadcast).to.deep.equal([0, 1, 3, 4]);
      });

      it('another method waits for the sends before it, and the sends after it wait for it', async () => {
        const frames = [send(0, 0), send(1, 1), JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] }), send(3, 3), 'not json', send(5, 5)];
        const answers = await pipeline(h.wsUrl, frames);
        expect(answers.map((a) => a.id)).to.deep.equal([0, 1, 2, 3, null, 5]);
        expect(answers[2].result).to.equal('0x2328');
        expect(answers[4].error.code).to.equal(-32700);
        expect(h.broadcast).to.deep.equal([0, 1, 3, 5]);
      });

      it('a batch of sends broadcasts its items in the batch\'s order', async () => {
        const batch = Array.from({ length: 10 }, (_, i) => JSON.parse(send(i, i)));
        const r = await fetch(h.url, { method: 'POST', body: JSON.stringify(batch), headers: { 'content-type': 'application/json' } });
        const answers = (await r.json()) as { id: number; result: string }[];
        expect(answers.map((a) => a.id)).to.deep.equal([...Array(10).keys()]);
        expect(h.broadcast).to.deep.equal([...Array(10).keys()]);
        expect(h.maxPrechecks).to.be.greaterThan(1);
      });
    });
  }
});
