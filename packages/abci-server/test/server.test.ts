import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { AppModule } from '@chain/app';
import { ProtoRegistry } from '@chain/codec';
import { TestChain, tempDir } from '@chain/testing';
import { fromUtf8, utf8 } from '@chain/crypto';
import { AbciClient, AbciServer, FrameDecoder, encodeFrame, encodeResponse } from '../src/index.js';
import { finalizeBlockToPb, initChainToPb } from '../src/convert.js';

const PROTO = fileURLToPath(new URL('./fixtures/proto', import.meta.url));
const MSG = 'test.counter.v1.MsgIncrement';
const vectors = JSON.parse(readFileSync(new URL('./vectors/abci-v038.json', import.meta.url), 'utf8')) as {
  validator_pub_key: string; vectors: { name: string; kind: string; frame: string }[];
};
const goFrame = (kind: string, name: string): string => vectors.vectors.find((v) => v.kind === kind && v.name === name)!.frame;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));

function counterModule(): AppModule {
  return {
    name: 'counter',
    consensusVersion: 1,
    protoDirs: [PROTO],
    registerTypes(registry) { registry.registerAlias('/' + MSG, MSG); },
    registerServices(r) {
      r.registerMsgService('test.counter.v1.Msg', {
        Increment: (ctx, msg) => {
          const m = msg as { sender: string; by?: bigint };
          const kv = ctx.kv('counter');
          const cur = kv.get(utf8(m.sender));
          const value = (cur ? BigInt(fromUtf8(cur)) : 0n) + (BigInt(m.by ?? 0) || 1n);
          kv.set(utf8(m.sender), utf8(value.toString()));
          ctx.events.emit('counter', [['sender', m.sender], ['value', value.toString()]]);
          return { value };
        },
      });
      r.registerQueryService('test.counter.v1.Query', {
        Count: (ctx, req) => {
          const v = ctx.kv('counter').get(utf8((req as { sender: string }).sender));
          return { value: v ? BigInt(fromUtf8(v)) : 0n };
        },
      });
    },
  };
}

let nonce = 0;
function counterTx(registry: ProtoRegistry, sender: string, by = 1n): Uint8Array {
  const body = registry.encode('chain.tx.v1beta1.TxBody', { messages: [registry.packAny(MSG, { sender, by, fail: false })], memo: `n${nonce++}` });
  const authInfo = registry.encode('chain.tx.v1beta1.AuthInfo', { signer_infos: [], fee: { amount: [], gas_limit: 200_000n, payer: '', granter: '' } });
  return registry.encode('chain.tx.v1beta1.TxRaw', { body_bytes: body, auth_info_bytes: authInfo, signatures: [Uint8Array.of(1)] });
}

const time = (ms: number): { seconds: string; nanos: number } => ({ seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 });

describe('AbciServer driving an App over the socket protocol', function () {
  this.timeout(30_000);
  let chain: TestChain;
  let server: AbciServer;
  const clients: AbciClient[] = [];
  const connect = async (addr = server.address): Promise<AbciClient> => { const c = await AbciClient.connect(addr); clients.push(c); return c; };

  beforeEach(async () => {
    chain = await TestChain.open({ chainId: 'abci-test-1', registry: new ProtoRegistry(), modules: [counterModule()], anteHandler: () => {} });
    server = await AbciServer.listen({ app: chain.app, address: 'tcp://127.0.0.1:0' });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await server.close();
    await chain.close();
  });

  it('answers echo, flush and info on a fresh chain (height 0: CometBFT will send InitChain)', async () => {
    const c = await connect();
    expect((await c.call('echo', { message: 'hi' })).body.message).to.equal('hi');
    const info = await c.call('info', { version: '0.38.26', block_version: '11', p2p_version: '8', abci_version: '2.0.0' });
    expect(info.kind).to.equal('info');
    expect(info.body.last_block_height).to.equal('0');
  });

  it('runs InitChain, CheckTx, PrepareProposal, ProcessProposal, FinalizeBlock, Commit and Query as CometBFT sends them', async () => {
    const consensus = await connect();
    const mempool = await connect();
    const query = await connect();
    const t0 = Date.UTC(2024, 0, 1);
    const init = await consensus.call('init_chain', {
      time: time(t0), chain_id: 'abci-test-1', initial_height: '1', app_state_bytes: utf8('{}'),
      validators: [{ pub_key: { ed25519: unhex(vectors.validator_pub_key) }, power: '10' }],
      consensus_params: { block: { max_bytes: '22020096', max_gas: '-1' }, evidence: { max_age_num_blocks: '100000', max_age_duration: { seconds: '172800', nanos: 0 }, max_bytes: '1048576' }, validator: { pub_key_types: ['ed25519'] }, version: {}, abci: {} },
    });
    expect(init.kind).to.equal('init_chain');
    expect(init.body.consensus_params.block.max_gas).to.equal('-1');
    expect(init.body.consensus_params.evidence.max_age_duration.seconds).to.equal('172800');

    const tx1 = counterTx(chain.registry, 'alice', 5n);
    const tx2 = counterTx(chain.registry, 'bob');
    const ct = await mempool.call('check_tx', { tx: tx1, type: 0 });
    expect(ct.body.code).to.equal(0);
    expect(Number(ct.body.gas_wanted)).to.equal(200_000);
    const bad = await mempool.call('check_tx', { tx: Uint8Array.of(1, 2, 3), type: 0 });
    expect(bad.body.code).to.not.equal(0);
    expect(bad.body.codespace).to.equal('sdk');

    const pp = await consensus.call('prepare_proposal', { max_tx_bytes: '1048576', txs: [tx1, tx2], height: '1', time: time(t0), local_last_commit: {} });
    expect(pp.body.txs.map(hex)).to.deep.equal([hex(tx1), hex(tx2)]);
    const proc = await consensus.call('process_proposal', { txs: [tx1, tx2], height: '1', time: time(t0), hash: new Uint8Array(32).fill(1), proposed_last_commit: {} });
    expect(proc.body.status).to.equal(1);

    const fb = await consensus.call('finalize_block', {
      txs: [tx1, tx2], height: '1', time: time(t0), hash: new Uint8Array(32).fill(1), decided_last_commit: { round: 0, votes: [] },
      next_validators_hash: new Uint8Array(32), proposer_address: new Uint8Array(20),
    });
    expect(fb.kind).to.equal('finalize_block');
    expect(fb.body.tx_results).to.have.length(2);
    expect(fb.body.tx_results.map((r: { code: number }) => r.code)).to.deep.equal([0, 0]);
    const ev = fb.body.tx_results[0].events.find((e: { type: string }) => e.type === 'counter');
    expect(ev.attributes.map((a: { key: string; value: string }) => `${a.key}=${a.value}`)).to.include('value=5');
    expect(fb.body.app_hash).to.have.length(32);
    const commit = await consensus.call('commit');
    expect(commit.kind).to.equal('commit');

    const info = await query.call('info', {});
    expect(info.body.last_block_height).to.equal('1');
    expect(hex(info.body.last_block_app_hash)).to.equal(hex(fb.body.app_hash));

    const q = await query.call('query', { path: '/test.counter.v1.Query/Count', data: chain.registry.encode('test.counter.v1.QueryCountRequest', { sender: 'alice' }) });
    expect(q.body.code).to.equal(0);
    expect(q.body.height).to.equal('1');
    expect(chain.registry.decode<{ value: bigint }>('test.counter.v1.QueryCountResponse', q.body.value).value).to.equal(5n);
    const unknown = await query.call('query', { path: '/nope', data: new Uint8Array() });
    expect(unknown.body.code).to.not.equal(0);
    expect(unknown.body.log).to.match(/unknown query path/);

    // snapshot and vote-extension calls: empty, accept
    expect((await consensus.call('list_snapshots')).body.snapshots).to.deep.equal([]);
    expect((await consensus.call('extend_vote', { height: '2' })).kind).to.equal('extend_vote');
    expect((await consensus.call('verify_vote_extension', { height: '2' })).body.status).to.equal(1);
  });

  it('answers an app error with Response.exception and closes that connection', async () => {
    const c = await connect();
    const res = await c.send('commit').catch((e: Error) => e);
    // commit without a finalized block: the app throws
    expect(res).to.not.be.instanceOf(Error);
    expect((res as { kind: string }).kind).to.equal('exception');
    expect((res as unknown as { body: { error: string } }).body.error).to.match(/commit without a finalized block/);
    await new Promise((r) => setTimeout(r, 100));
    expect(server.connections).to.equal(0);
  });

  it('keeps each connection\'s responses in request order, and never runs a call inside FinalizeBlock..Commit of another', async () => {
    const consensus = await connect();
    const mempool = await connect();
    await consensus.call('init_chain', { time: time(Date.UTC(2024, 0, 1)), chain_id: 'abci-test-1', initial_height: '1', app_state_bytes: utf8('{}') });
    // record the order in which the app sees calls
    const seen: string[] = [];
    const app = chain.app as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    for (const m of ['checkTx', 'finalizeBlock', 'commit']) {
      const orig = app[m]!.bind(chain.app);
      app[m] = async (...a: unknown[]) => { seen.push(`${m}:start`); await new Promise((r) => setTimeout(r, 5)); const r = await orig(...a); seen.push(`${m}:end`); return r; };
    }
    const txs = Array.from({ length: 20 }, (_, i) => counterTx(chain.registry, `s${i}`, BigInt(i + 1)));
    const fbP = consensus.send('finalize_block', { txs: [txs[0]], height: '1', time: time(Date.UTC(2024, 0, 1)), hash: new Uint8Array(32).fill(2), decided_last_commit: {} });
    const commitP = consensus.send('commit');
    const checks = txs.map((tx, i) => mempool.send(i % 2 ? 'check_tx' : 'echo', i % 2 ? { tx } : { message: `m${i}` }));
    const [fb, commit, ...rest] = await Promise.all([fbP, commitP, ...checks]);
    expect(fb!.kind).to.equal('finalize_block');
    expect(commit!.kind).to.equal('commit');
    rest.forEach((r, i) => expect(r.kind).to.equal(i % 2 ? 'check_tx' : 'echo'));
    rest.forEach((r, i) => { if (i % 2 === 0) expect(r.body.message).to.equal(`m${i}`); });
    // calls never overlap: every start is followed by its own end
    for (let i = 0; i < seen.length; i += 2) expect(seen[i]!.replace(':start', ':end')).to.equal(seen[i + 1]);
    expect(seen.slice(0, 4)).to.deep.equal(['finalizeBlock:start', 'finalizeBlock:end', 'commit:start', 'commit:end']);
  });

  it('serves a unix socket address', async () => {
    const tmp = tempDir('abci-unix');
    try {
      const s2 = await AbciServer.listen({ app: chain.app, address: `unix://${join(tmp.dir, 'abci.sock')}` });
      const c = await connect(s2.address);
      expect((await c.call('echo', { message: 'unix' })).body.message).to.equal('unix');
      c.close();
      await s2.close();
    } finally {
      tmp.remove();
    }
  });

  it('encodes the app\'s responses exactly as CometBFT\'s Go types do', () => {
    const pub = unhex(vectors.validator_pub_key);
    const hash = new Uint8Array(32).fill(0xab);
    const fb = finalizeBlockToPb({
      events: [{ type: 'mint', attributes: [{ key: 'amount', value: '1', index: true }, { key: 'mode', value: 'BeginBlock', index: false }] }],
      txResults: [
        { code: 0, codespace: '', log: 'ok', info: '', data: Uint8Array.of(1), gasWanted: 100, gasUsed: 90, events: [] },
        { code: 5, codespace: 'sdk', log: 'insufficient funds', info: '', data: new Uint8Array(), gasWanted: 100, gasUsed: 20, events: [] },
      ],
      validatorUpdates: [{ pubKey: { type: 'ed25519', key: pub }, power: 10n }],
      appHash: hash,
    });
    expect(hex(encodeFrame(encodeResponse('finalize_block', fb)))).to.equal(goFrame('response', 'finalize_block'));
    const ic = initChainToPb({
      validators: [{ pubKey: { type: 'ed25519', key: pub }, power: 10n }],
      appHash: hash,
      consensusParams: {
        block: { maxBytes: 22020096, maxGas: -1 },
        evidence: { maxAgeNumBlocks: 100000, maxAgeDuration: 48n * 3600n * 1_000_000_000n, maxBytes: 1048576 },
        validator: { pubKeyTypes: ['ed25519'] }, version: { app: 0 }, abci: { voteExtensionsEnableHeight: 0 },
      },
    });
    expect(hex(encodeFrame(encodeResponse('init_chain', ic)))).to.equal(goFrame('response', 'init_chain'));
    expect(new FrameDecoder().push(unhex(goFrame('response', 'init_chain')))).to.have.length(1);
  });
});
