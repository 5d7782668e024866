/**
 * `npm run bench`: starts a dev chaind (or uses --rpc/--rest of a running one) and prints
 *  - committed bank-send transactions per second at saturation (pre-signed txs from the 10 coin-type-118
 *    dev accounts, broadcast with broadcast_tx_sync, one client per sender);
 *  - REST balance-query latency p50/p99 under 50 concurrent clients;
 *  - tx search latency p50/p99 with 100k indexed txs (in-process, see search.ts);
 *  - committed ERC-20 transfers per second and eth_call latency p50/p99 over the Ethereum JSON-RPC, on a dev
 *    chaind and on the reference dev node hardhat 2 (see evm.ts);
 *  - with `--only localnet`: the same committed bank sends/s on node 0 of a 4-validator CometBFT localnet
 *    (`chaind localnet start`), next to the embedded engine's figure in the same run;
 *  - proof of stake, in process (see pos.ts): staking EndBlock and distribution / slashing BeginBlock cost per
 *    block with 100 and 300 validators and 50k delegations, and bank sends/s with and without those modules;
 *  - with `--only vs-simd`: chaind side by side with the Go reference node, simd of ibc-go v8.5.2's testing/simapp
 *    (Cosmos SDK v0.50), built once from the Go module proxy into .cache/simd (see vs-simd.ts, simd.ts): committed
 *    bank sends/s, FinalizeBlock+Commit of the biggest block, REST balance p99 and req/s, RSS after the load,
 *    each with the ratio; with `--scale N` instead: start, restart, RSS and disk figures of an N-account genesis.
 *
 * Options (`npm run bench -- --key value ...`):
 *   --only node|search|evm|pos|localnet|vs-simd   run only the node measurements (tx/s, REST), only tx search, only
 *                              the EVM ones, only the proof-of-stake ones, the localnet comparison or the comparison
 *                              with simd (the last two are not in the default run)
 *   --txs N                    (vs-simd) bank sends to submit (default 20000)
 *   --accounts N               (vs-simd) funded sender accounts in both genesis files (default 1000)
 *   --workers N                (vs-simd) generator processes (default 2)
 *   --connections N            (vs-simd) concurrent broadcast connections in all (default 64)
 *   --transport ws|http        (vs-simd) ws (default): txs pipelined over websockets, up to --window N (default 256)
 *                              in flight per connection; http: one broadcast_tx_sync request per tx, waiting for each
 *   --clients N                (vs-simd) concurrent REST clients (default 50); --queries sets the number of queries
 *                              (default 20000; each client makes 20 untimed requests first)
 *   --scale N                  (vs-simd) instead of the load: a genesis with N funded accounts on both nodes; prints
 *                              start to first block, peak RSS, restart to next block, RSS and disk size (implies
 *                              --only vs-simd; default N when given without a number: 10000)
 *   --vs-nodes chaind,simd     (vs-simd) which nodes to run (default both)
 *   --keep-homes yes           (vs-simd) keep the temporary homes
 *   --start-timeout S          (vs-simd) seconds a start may take (default 1800)
 *   --rounds N                 (vs-simd load) each node runs the load N times, alternating which goes first; the
 *                              table shows each figure's median, a line per round its sends/s ratio (default 1)
 *   --localnet-validators N    validators of the localnet comparison (default 4)
 *   --pos-validators 100,300   validator counts of the block-hook measurement
 *   --pos-delegations N        delegations at genesis (default 50000)
 *   --pos-blocks N             blocks measured per scenario (default 20)
 *   --pos-sends N              bank sends per block in the with/without comparison (default 1000, 5 blocks)
 *   --search-txs N             txs to index for the search measurement (default 100000)
 *   --search-block-size N      txs per block (default 1000)
 *   --search-runs N            timed runs per query shape (default 200)
 *   --txs-per-account, --queries, --rpc, --rest, --home   node measurements (see below)
 *   --evm-transfers-per-sender N   ERC-20 transfers signed per sender (default 1000)
 *   --evm-generator ws|http    ws (default): each sender's transfers pipelined over one websocket (up to --window N,
 *                              default 256, in flight) by --workers N (default 2) forked processes; http: one client per
 *                              sender waiting for each answer
 *   --evm-senders N            coin-type-60 dev accounts sending at once, 1-10 (default 10)
 *   --evm-calls N              eth_call requests in the latency run (default 5000)
 *   --evm-clients N            concurrent eth_call clients (default 20)
 *   --eth URL [--eth-ws URL]   measure a running node's Ethereum JSON-RPC (and websocket) instead of a fresh dev chaind
 *   --evm-reference hardhat|none   also measure hardhat (default hardhat)
 */
import { toBase64 } from '@cosmjs/encoding';
import { makeAuthInfoBytes, makeSignDoc, makeSignBytes } from '@cosmjs/proto-signing';
import { TxRaw, TxBody } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { DEV_MNEMONIC, derivePrivateKey, hdPath, secp256k1PublicKey, secp256k1Address, signSecp256k1Digest, sha256, toBech32 } from '@chain/crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNode } from '@chain/e2e';
import { chaind, readNodes } from '@chain/e2e/localnet';
import { evmBench } from './evm.js';
import { searchBench } from './search.js';
import { posBench } from './pos.js';
import { vsSimdBench } from './vs-simd.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const TXS_PER_ACCOUNT = Number(args.get('txs-per-account') ?? 300);
const QUERIES = Number(args.get('queries') ?? 5000);
const ONLY = args.get('only');
const SEARCH_TXS = Number(args.get('search-txs') ?? 100_000);
const SEARCH_BLOCK_SIZE = Number(args.get('search-block-size') ?? 1000);
const SEARCH_RUNS = Number(args.get('search-runs') ?? 200);

async function rpc(url: string, method: string, params: Record<string, unknown>): Promise<any> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await r.json() as any);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  if (ONLY !== undefined && !['node', 'search', 'evm', 'pos', 'localnet', 'vs-simd'].includes(ONLY)) throw new Error(`--only must be node, search, evm, pos, localnet or vs-simd, not ${ONLY}`);
  if (ONLY === 'vs-simd' || (ONLY === undefined && args.has('scale'))) {
    const n = (k: string, d: number): number => {
      const v = args.get(k);
      if (v === undefined) return d;
      if (!/^\d+$/.test(v) || Number(v) <= 0) throw new Error(`--${k} expects a positive integer, got ${JSON.stringify(v)}`);
      return Number(v);
    };
    const nodes = (args.get('vs-nodes') ?? 'chaind,simd').split(',').map((x) => x.trim());
    for (const x of nodes) if (x !== 'chaind' && x !== 'simd') throw new Error(`--vs-nodes takes chaind and/or simd, not ${x}`);
    await vsSimdBench({
      txs: n('txs', 20_000),
      accounts: n('accounts', 1000),
      workers: n('workers', 2),
      connections: n('connections', 64),
      transport: ((): 'ws' | 'http' => {
        const t = args.get('transport') ?? 'ws';
        if (t !== 'ws' && t !== 'http') throw new Error(`--transport takes ws or http, not ${t}`);
        return t;
      })(),
      window: n('window', 256),
      queries: n('queries', 20_000),
      clients: n('clients', 50),
      scale: args.has('scale') ? (args.get('scale') === '' ? 10_000 : n('scale', 10_000)) : undefined,
      nodes: nodes as ('chaind' | 'simd')[],
      keep: args.has('keep-homes') && args.get('keep-homes') !== 'no',
      startTimeoutMs: n('start-timeout', 1800) * 1000,
      rounds: n('rounds', 1),
    });
    return;
  }
  if (ONLY === 'localnet') {
    await localnetBench(Number(args.get('localnet-validators') ?? 4));
    return;
  }
  if (ONLY === undefined || ONLY === 'node') await nodeBench();
  if (ONLY === undefined || ONLY === 'search') await searchBench({ txs: SEARCH_TXS, blockSize: SEARCH_BLOCK_SIZE, runs: SEARCH_RUNS });
  if (ONLY === undefined || ONLY === 'pos') {
    await posBench({
      validators: (args.get('pos-validators') ?? '100,300').split(',').map(Number),
      delegations: Number(args.get('pos-delegations') ?? 50_000),
      blocks: Number(args.get('pos-blocks') ?? 20),
      sendsPerBlock: Number(args.get('pos-sends') ?? 1000),
      sendBlocks: 5,
    });
  }
  if (ONLY === undefined || ONLY === 'evm') {
    const reference = args.get('evm-reference') ?? 'hardhat';
    if (reference !== 'hardhat' && reference !== 'none') throw new Error(`--evm-reference must be hardhat or none, not ${reference}`);
    const evmGenerator = args.get('evm-generator') ?? 'ws';
    if (evmGenerator !== 'ws' && evmGenerator !== 'http') throw new Error(`--evm-generator must be ws or http, not ${evmGenerator}`);
    await evmBench({
      transfersPerSender: Number(args.get('evm-transfers-per-sender') ?? 1000),
      generator: evmGenerator,
      workers: Number(args.get('workers') ?? 2),
      window: Number(args.get('window') ?? 256),
      senders: Number(args.get('evm-senders') ?? 10),
      calls: Number(args.get('evm-calls') ?? 5000),
      clients: Number(args.get('evm-clients') ?? 20),
      ethUrl: args.get('eth'),
      ethWsUrl: args.get('eth-ws'),
      reference: reference === 'hardhat',
    });
  }
}

/**
 * Committed bank sends/s on the embedded engine (a dev chaind) and on node 0 of an N-validator CometBFT localnet
 * (every validator signs; blocks need 2/3 of them), the same pre-signed load on both.
 */
async function localnetBench(validators: number): Promise<void> {
  console.log('embedded engine (chaind dev):');
  await nodeBench({ restQueries: false });
  const dir = mkdtempSync(join(tmpdir(), 'chain-bench-localnet-'));
  try {
    await chaind(['localnet', 'start', '--validators', String(validators), '--home', dir, '--timeout-commit', '1s']);
    const [n0] = readNodes(dir);
    console.log(`CometBFT localnet, ${validators} validators (load through node 0):`);
    await nodeBench({ rpc: n0!.rpc, rest: n0!.rest, restQueries: false });
  } finally {
    await chaind(['localnet', 'stop', '--home', dir]).catch((e) => console.error(String(e)));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function nodeBench(o: { rpc?: string; rest?: string; restQueries?: boolean } = {}): Promise<void> {
  const external = o.rpc ?? args.get('rpc');
  const node = external ? undefined : await startNode({ timeoutCommit: '1s', home: args.get('home') });
  const rpcUrl = external ?? node!.rpcUrl;
  const restUrl = o.rest ?? args.get('rest') ?? node!.restUrl;
  try {
    const status = (await rpc(rpcUrl, 'status', {})).result;
    const chainId = status.node_info.network;
    // pre-sign
    const t0 = Date.now();
    const txs: Uint8Array[][] = [];
    const recipient = toBech32('chain', new Uint8Array(20).fill(7));
    for (let a = 0; a < 10; a++) {
      const pk = derivePrivateKey(DEV_MNEMONIC, hdPath(118, a));
      const pub = secp256k1PublicKey(pk);
      const from = toBech32('chain', secp256k1Address(pub));
      const acc = await (await fetch(`${restUrl}/chain/auth/v1beta1/accounts/${from}`)).json() as any;
      const accountNumber = BigInt(acc.account.account_number);
      let seq = BigInt(acc.account.sequence);
      const list: Uint8Array[] = [];
      for (let i = 0; i < TXS_PER_ACCOUNT; i++, seq++) {
        const bodyBytes = TxBody.encode(TxBody.fromPartial({ messages: [{ typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: MsgSend.encode({ fromAddress: from, toAddress: recipient, amount: [{ denom: 'achain', amount: '1' }] }).finish() }] })).finish();
        const authInfoBytes = makeAuthInfoBytes([{ pubkey: { typeUrl: '/cosmos.crypto.secp256k1.PubKey', value: PubKey.encode({ key: pub }).finish() }, sequence: seq }], [{ denom: 'achain', amount: String(200000n * 1000000000n) }], 200000, undefined, undefined, SignMode.SIGN_MODE_DIRECT);
        const sig = signSecp256k1Digest(pk, sha256(makeSignBytes(makeSignDoc(bodyBytes, authInfoBytes, chainId, accountNumber))));
        list.push(TxRaw.encode(TxRaw.fromPartial({ bodyBytes, authInfoBytes, signatures: [sig] })).finish());
      }
      txs.push(list);
    }
    const total = txs.reduce((n, l) => n + l.length, 0);
    console.log(`pre-signed ${total} bank sends in ${Date.now() - t0} ms`);

    // broadcast: one client per sender keeps each account's txs in sequence order
    const startHeight = Number((await rpc(rpcUrl, 'status', {})).result.sync_info.latest_block_height);
    const start = Date.now();
    let rejected = 0;
    await Promise.all(txs.map(async (list) => {
      for (const tx of list) {
        const r = await rpc(rpcUrl, 'broadcast_tx_sync', { tx: toBase64(tx) });
        if (!r.result || r.result.code !== 0) rejected++;
      }
    }));
    const broadcastMs = Date.now() - start;
    // wait until the mempool drains
    for (;;) {
      const n = Number((await rpc(rpcUrl, 'num_unconfirmed_txs', {})).result.n_txs);
      if (n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const end = Date.now();
    const endHeight = Number((await rpc(rpcUrl, 'status', {})).result.sync_info.latest_block_height);
    let committed = 0;
    for (let h = startHeight + 1; h <= endHeight; h++) {
      const b = (await rpc(rpcUrl, 'block', { height: String(h) })).result;
      committed += b.block.data.txs.length;
    }
    console.log(`broadcast ${total} txs in ${broadcastMs} ms (${rejected} rejected by CheckTx)`);
    console.log(`committed bank sends: ${committed} in ${end - start} ms over ${endHeight - startHeight} blocks => ${(committed / ((end - start) / 1000)).toFixed(0)} tx/s`);

    if (o.restQueries === false) return;
    // REST balance query latency
    const lat: number[] = [];
    let q = 0;
    const qStart = Date.now();
    await Promise.all(Array.from({ length: 50 }, async () => {
      while (q < QUERIES) {
        q++;
        const s = performance.now();
        const r = await fetch(`${restUrl}/chain/bank/v1beta1/balances/${recipient}`);
        await r.arrayBuffer();
        lat.push(performance.now() - s);
      }
    }));
    lat.sort((a, b) => a - b);
    const qs = QUERIES / ((Date.now() - qStart) / 1000);
    console.log(`REST balance query, 50 concurrent clients: p50 ${percentile(lat, 50).toFixed(2)} ms, p99 ${percentile(lat, 99).toFixed(2)} ms, ${qs.toFixed(0)} req/s`);
  } finally {
    await node?.stop();
    if (node && !args.get('home')) node.cleanup();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
