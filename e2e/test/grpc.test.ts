import { expect } from 'chai';
import * as grpc from '@grpc/grpc-js';
import { SigningStargateClient } from '@cosmjs/stargate';
import { QueryAccountRequest, QueryAccountResponse } from 'cosmjs-types/cosmos/auth/v1beta1/query';
import { BaseAccount } from 'cosmjs-types/cosmos/auth/v1beta1/auth';
import { QueryAllBalancesRequest, QueryAllBalancesResponse } from 'cosmjs-types/cosmos/bank/v1beta1/query';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { GetNodeInfoRequest, GetNodeInfoResponse } from 'cosmjs-types/cosmos/base/tendermint/v1beta1/query';
import {
  BroadcastMode, BroadcastTxRequest, BroadcastTxResponse, GetTxRequest, GetTxResponse, GetTxsEventRequest, GetTxsEventResponse,
  OrderBy, SimulateRequest, SimulateResponse,
} from 'cosmjs-types/cosmos/tx/v1beta1/service';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { FileDescriptorProto } from 'cosmjs-types/google/protobuf/descriptor';
import { BinaryReader, BinaryWriter } from 'cosmjs-types/binary';
import { toBech32 } from '@chain/crypto';
import { freePort, startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devWallet, fee, CHAIN_ID, DENOM } from '../src/clients.js';

const HEIGHT = 'x-cosmos-block-height';
const id = (b: Buffer): Buffer => b;

interface Codec<T> { encode(m: T): { finish(): Uint8Array }; decode(b: Uint8Array): T; fromPartial(o: object): T }

interface Answer<T> { value?: T; err?: grpc.ServiceError; header?: grpc.Metadata }

/** A unary call on a raw path with raw bytes: what any gRPC client sends. */
function callRaw(client: grpc.Client, path: string, req: Uint8Array, md: Record<string, string> = {}): Promise<Answer<Buffer>> {
  const meta = new grpc.Metadata();
  for (const [k, v] of Object.entries(md)) meta.set(k, v);
  return new Promise((resolve) => {
    let header: grpc.Metadata | undefined;
    const call = client.makeUnaryRequest<Buffer, Buffer>(path, id, id, Buffer.from(req), meta, { deadline: Date.now() + 15_000 }, (err, value) => {
      resolve(err ? { err, header } : { value: value!, header });
    });
    call.on('metadata', (m) => { header = m; });
  });
}

async function call<Req, Resp>(client: grpc.Client, path: string, reqType: Codec<Req>, req: object, respType: Codec<Resp>, md: Record<string, string> = {}): Promise<Answer<Resp>> {
  const r = await callRaw(client, path, reqType.encode(reqType.fromPartial(req)).finish(), md);
  return r.err ? { err: r.err, header: r.header } : { value: respType.decode(r.value!), header: r.header };
}

// ---- gRPC server reflection, hand-encoded (grpc.reflection.v1[alpha]) ----------------------------------

type ReflectionReq = { list_services: string } | { file_containing_symbol: string } | { file_by_filename: string };

function encodeReflectionRequest(r: ReflectionReq): Uint8Array {
  const w = new BinaryWriter();
  w.uint32(10).string('');
  if ('list_services' in r) w.uint32(58).string(r.list_services);
  else if ('file_containing_symbol' in r) w.uint32(34).string(r.file_containing_symbol);
  else w.uint32(26).string(r.file_by_filename);
  return w.finish();
}

interface ReflectionResp { services?: string[]; files?: FileDescriptorProto[]; error?: { code: number; message: string } }

function decodeReflectionResponse(b: Uint8Array): ReflectionResp {
  const out: ReflectionResp = {};
  const r = new BinaryReader(b);
  while (r.pos < r.len) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 6) {
      out.services = [];
      const lr = new BinaryReader(r.bytes());
      while (lr.pos < lr.len) {
        const t = lr.uint32();
        if (t >>> 3 !== 1) { lr.skipType(t & 7); continue; }
        const sr = new BinaryReader(lr.bytes());
        while (sr.pos < sr.len) {
          const st = sr.uint32();
          if (st >>> 3 === 1) out.services.push(sr.string());
          else sr.skipType(st & 7);
        }
      }
    } else if (field === 4) {
      out.files = [];
      const fr = new BinaryReader(r.bytes());
      while (fr.pos < fr.len) {
        const t = fr.uint32();
        if (t >>> 3 === 1) out.files.push(FileDescriptorProto.decode(fr.bytes()));
        else fr.skipType(t & 7);
      }
    } else if (field === 7) {
      const er = new BinaryReader(r.bytes());
      const e = { code: 0, message: '' };
      while (er.pos < er.len) {
        const t = er.uint32();
        if (t >>> 3 === 1) e.code = er.int32();
        else if (t >>> 3 === 2) e.message = er.string();
        else er.skipType(t & 7);
      }
      out.error = e;
    } else {
      r.skipType(tag & 7);
    }
  }
  return out;
}

/** One reflection stream: writes the requests (raw bytes as given), returns the decoded answers or the error. */
function reflect(client: grpc.Client, version: 'v1' | 'v1alpha', reqs: Uint8Array[]): Promise<{ answers: ReflectionResp[]; err?: grpc.ServiceError }> {
  const stream = client.makeBidiStreamRequest<Buffer, Buffer>(`/grpc.reflection.${version}.ServerReflection/ServerReflectionInfo`, id, id, new grpc.Metadata(), { deadline: Date.now() + 15_000 });
  const answers: ReflectionResp[] = [];
  return new Promise((resolve) => {
    stream.on('data', (b: Buffer) => answers.push(decodeReflectionResponse(b)));
    stream.on('end', () => resolve({ answers }));
    stream.on('error', (err: grpc.ServiceError) => resolve({ answers, err }));
    for (const r of reqs) stream.write(Buffer.from(r));
    stream.end();
  });
}

describe('e2e: gRPC server', function () {
  this.timeout(120_000);
  let node: NodeHandle;
  let client: grpc.Client;
  let grpcAddress: string;

  before(async () => {
    const port = await freePort();
    grpcAddress = `127.0.0.1:${port}`;
    node = await startNode({ extraArgs: ['--grpc.address', grpcAddress] });
    client = new grpc.Client(grpcAddress, grpc.credentials.createInsecure());
  });

  after(async () => {
    client?.close();
    await node?.stop();
    node?.cleanup();
  });

  it('looks up an account under the Cosmos name: Any type /cosmos.auth.v1beta1.BaseAccount', async () => {
    const [acct] = await (await devWallet(2)).getAccounts();
    const r = await call(client, '/cosmos.auth.v1beta1.Query/Account', QueryAccountRequest, { address: acct!.address }, QueryAccountResponse);
    expect(r.err, r.err?.message).to.equal(undefined);
    expect(r.value!.account!.typeUrl).to.equal('/cosmos.auth.v1beta1.BaseAccount');
    const base = BaseAccount.decode(r.value!.account!.value);
    expect(base.address).to.equal(acct!.address);
    expect(Number(r.header!.get(HEIGHT)[0])).to.be.greaterThan(0);
    // the canonical name answers with the canonical type URL
    const c = await call(client, '/chain.auth.v1beta1.Query/Account', QueryAccountRequest, { address: acct!.address }, QueryAccountResponse);
    expect(c.value!.account!.typeUrl).to.equal('/chain.auth.v1beta1.BaseAccount');
  });

  it('balances through a generic client (Cosmos name) and the canonical /chain.bank.v1beta1.Query/AllBalances', async () => {
    const [acct] = await (await devWallet(2)).getAccounts();
    const BankQuery = grpc.makeGenericClientConstructor({
      AllBalances: {
        path: '/cosmos.bank.v1beta1.Query/AllBalances',
        requestStream: false,
        responseStream: false,
        requestSerialize: (m: QueryAllBalancesRequest) => Buffer.from(QueryAllBalancesRequest.encode(m).finish()),
        requestDeserialize: (b: Buffer) => QueryAllBalancesRequest.decode(b),
        responseSerialize: (m: QueryAllBalancesResponse) => Buffer.from(QueryAllBalancesResponse.encode(m).finish()),
        responseDeserialize: (b: Buffer) => QueryAllBalancesResponse.decode(b),
      },
    }, 'cosmos.bank.v1beta1.Query');
    const bank = new BankQuery(grpcAddress, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
      AllBalances(req: QueryAllBalancesRequest, cb: (err: grpc.ServiceError | null, resp?: QueryAllBalancesResponse) => void): grpc.ClientUnaryCall;
    };
    const viaCosmos = await new Promise<QueryAllBalancesResponse>((resolve, reject) => {
      bank.AllBalances(QueryAllBalancesRequest.fromPartial({ address: acct!.address }), (err, resp) => (err ? reject(err) : resolve(resp!)));
    });
    bank.close();
    expect(viaCosmos.balances).to.deep.equal([{ denom: DENOM, amount: (10n ** 24n).toString() }]);
    const viaChain = await call(client, '/chain.bank.v1beta1.Query/AllBalances', QueryAllBalancesRequest, { address: acct!.address }, QueryAllBalancesResponse);
    expect(viaChain.err, viaChain.err?.message).to.equal(undefined);
    expect(viaChain.value!.balances).to.deep.equal(viaCosmos.balances);
  });

  it('the tendermint service answers under cosmos.base.tendermint.v1beta1.Service', async () => {
    const r = await call(client, '/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo', GetNodeInfoRequest, {}, GetNodeInfoResponse);
    expect(r.err, r.err?.message).to.equal(undefined);
    expect(r.value!.defaultNodeInfo!.network).to.equal(CHAIN_ID);
  });

  it('simulates, broadcasts (SYNC), gets and searches a signed tx, all over gRPC', async () => {
    const wallet = await devWallet(2);
    const [sender] = await wallet.getAccounts();
    const recipient = (await (await devWallet(7)).getAccounts())[0]!.address;
    const acct = await call(client, '/cosmos.auth.v1beta1.Query/Account', QueryAccountRequest, { address: sender!.address }, QueryAccountResponse);
    const base = BaseAccount.decode(acct.value!.account!.value);
    const before = await call(client, '/cosmos.bank.v1beta1.Query/AllBalances', QueryAllBalancesRequest, { address: recipient }, QueryAllBalancesResponse);
    const beforeHeight = Number(before.header!.get(HEIGHT)[0]);
    const beforeAmount = BigInt(before.value!.balances[0]!.amount);

    const signer = await SigningStargateClient.offline(wallet);
    const msg = { typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: MsgSend.fromPartial({ fromAddress: sender!.address, toAddress: recipient, amount: [{ denom: DENOM, amount: '4242' }] }) };
    const signed = await signer.sign(sender!.address, [msg], fee(200_000n), 'over grpc', { accountNumber: base.accountNumber, sequence: Number(base.sequence), chainId: CHAIN_ID });
    const txBytes = TxRaw.encode(signed).finish();

    const sim = await call(client, '/cosmos.tx.v1beta1.Service/Simulate', SimulateRequest, { txBytes }, SimulateResponse);
    expect(sim.err, sim.err?.message).to.equal(undefined);
    expect(sim.value!.gasInfo!.gasUsed > 0n).to.equal(true);
    expect(sim.value!.result!.msgResponses[0]!.typeUrl).to.equal('/cosmos.bank.v1beta1.MsgSendResponse');

    const bc = await call(client, '/cosmos.tx.v1beta1.Service/BroadcastTx', BroadcastTxRequest, { txBytes, mode: BroadcastMode.BROADCAST_MODE_SYNC }, BroadcastTxResponse);
    expect(bc.err, bc.err?.message).to.equal(undefined);
    expect(bc.value!.txResponse!.code, bc.value!.txResponse!.rawLog).to.equal(0);
    const hash = bc.value!.txResponse!.txhash;
    expect(hash).to.match(/^[0-9A-F]{64}$/);

    let got: GetTxResponse | undefined;
    const deadline = Date.now() + 20_000;
    while (!got) {
      const r = await call(client, '/cosmos.tx.v1beta1.Service/GetTx', GetTxRequest, { hash }, GetTxResponse);
      if (r.value) got = r.value;
      else {
        expect(r.err!.code, r.err!.message).to.equal(grpc.status.NOT_FOUND);
        if (Date.now() > deadline) throw new Error('tx not found within 20 s');
        await new Promise((res) => setTimeout(res, 100));
      }
    }
    expect(got.txResponse!.code).to.equal(0);
    expect(got.txResponse!.txhash).to.equal(hash);
    expect(got.tx!.body!.memo).to.equal('over grpc');
    expect(got.tx!.body!.messages[0]!.typeUrl).to.equal('/cosmos.bank.v1beta1.MsgSend');
    const canonical = await call(client, '/chain.tx.v1beta1.Service/GetTx', GetTxRequest, { hash }, GetTxResponse);
    expect(canonical.value!.tx!.body!.messages[0]!.typeUrl).to.equal('/chain.bank.v1beta1.MsgSend');

    // GetTxsEvent: the 0.50 `query` form and the older repeated `events`, both through the index
    const byQuery = await call(client, '/cosmos.tx.v1beta1.Service/GetTxsEvent', GetTxsEventRequest,
      { query: `message.sender='${sender!.address}' AND message.action='/cosmos.bank.v1beta1.MsgSend'`, orderBy: OrderBy.ORDER_BY_DESC, limit: 5n }, GetTxsEventResponse);
    expect(byQuery.err, byQuery.err?.message).to.equal(undefined);
    expect(byQuery.value!.txResponses[0]!.txhash).to.equal(hash);
    expect(byQuery.value!.txs[0]!.body!.memo).to.equal('over grpc');
    expect(byQuery.value!.total >= 1n).to.equal(true);
    const byEvents = await call(client, '/chain.tx.v1beta1.Service/GetTxsEvent', GetTxsEventRequest,
      { events: [`tx.height=${got.txResponse!.height}`, `message.sender='${sender!.address}'`] }, GetTxsEventResponse);
    expect(byEvents.value!.txResponses.map((t) => t.txhash)).to.include(hash);
    const badQuery = await call(client, '/cosmos.tx.v1beta1.Service/GetTxsEvent', GetTxsEventRequest, { query: 'message.sender >' }, GetTxsEventResponse);
    expect(badQuery.err?.code).to.equal(grpc.status.INVALID_ARGUMENT);
    const tooMany = await call(client, '/cosmos.tx.v1beta1.Service/GetTxsEvent', GetTxsEventRequest, { query: 'tx.height>0', limit: 101n }, GetTxsEventResponse);
    expect(tooMany.err?.code).to.equal(grpc.status.INVALID_ARGUMENT);

    const after = await call(client, '/chain.bank.v1beta1.Query/AllBalances', QueryAllBalancesRequest, { address: recipient }, QueryAllBalancesResponse);
    expect(BigInt(after.value!.balances[0]!.amount) - beforeAmount).to.equal(4242n);
    // x-cosmos-block-height selects the height before the send
    const past = await call(client, '/chain.bank.v1beta1.Query/AllBalances', QueryAllBalancesRequest, { address: recipient }, QueryAllBalancesResponse, { [HEIGHT]: String(beforeHeight) });
    expect(past.header!.get(HEIGHT)).to.deep.equal([String(beforeHeight)]);
    expect(past.value!.balances[0]!.amount).to.equal(beforeAmount.toString());
  });

  it('errors: NOT_FOUND, INVALID_ARGUMENT for garbage and bad heights, UNIMPLEMENTED, RESOURCE_EXHAUSTED', async () => {
    const unknown = toBech32('chain', new Uint8Array(20).fill(9));
    const nf = await call(client, '/cosmos.auth.v1beta1.Query/Account', QueryAccountRequest, { address: unknown }, QueryAccountResponse);
    expect(nf.err?.code).to.equal(grpc.status.NOT_FOUND);
    expect(nf.err?.details).to.include(unknown);

    for (const garbage of [[0xff, 0xff, 0xff], [0x0a, 0x50, 0x01], [0x0f]]) {
      const g = await callRaw(client, '/cosmos.bank.v1beta1.Query/AllBalances', Uint8Array.from(garbage));
      expect(g.err?.code, JSON.stringify(garbage)).to.equal(grpc.status.INVALID_ARGUMENT);
    }
    const bad = await callRaw(client, '/cosmos.tx.v1beta1.Service/BroadcastTx', BroadcastTxRequest.encode(BroadcastTxRequest.fromPartial({ txBytes: new Uint8Array([1, 2, 3]), mode: BroadcastMode.BROADCAST_MODE_SYNC })).finish());
    expect(bad.err, 'undecodable tx bytes are answered by the tx service').to.equal(undefined);
    expect(BroadcastTxResponse.decode(bad.value!).txResponse!.code).to.not.equal(0);

    const [acct] = await (await devWallet(2)).getAccounts();
    const req = QueryAllBalancesRequest.encode(QueryAllBalancesRequest.fromPartial({ address: acct!.address })).finish();
    for (const h of ['x', '99999999']) {
      const r = await callRaw(client, '/cosmos.bank.v1beta1.Query/AllBalances', req, { [HEIGHT]: h });
      expect(r.err?.code, h).to.equal(grpc.status.INVALID_ARGUMENT);
    }

    for (const path of ['/cosmos.bank.v1beta1.Query/Nope', '/cosmos.authz.v1beta1.Query/Grants', '/chain.bank.v1beta1.Msg/Send']) {
      const r = await callRaw(client, path, new Uint8Array());
      expect(r.err?.code, path).to.equal(grpc.status.UNIMPLEMENTED);
    }

    const huge = await callRaw(client, '/cosmos.tx.v1beta1.Service/Simulate', new Uint8Array(11 * 1024 * 1024));
    expect(huge.err?.code).to.equal(grpc.status.RESOURCE_EXHAUSTED);

    // the server is still there
    const ok = await callRaw(client, '/cosmos.bank.v1beta1.Query/AllBalances', req);
    expect(ok.err).to.equal(undefined);
  });

  it('server reflection (v1alpha and v1) lists the services and serves their descriptors', async () => {
    for (const version of ['v1alpha', 'v1'] as const) {
      const { answers, err } = await reflect(client, version, [
        encodeReflectionRequest({ list_services: '*' }),
        encodeReflectionRequest({ file_containing_symbol: 'cosmos.bank.v1beta1.Query' }),
        encodeReflectionRequest({ file_containing_symbol: 'cosmos.auth.v1beta1.BaseAccount' }),
        encodeReflectionRequest({ file_containing_symbol: 'does.not.Exist' }),
      ]);
      expect(err, err?.message).to.equal(undefined);
      expect(answers).to.have.length(4);
      expect(answers[0]!.services).to.include.members([
        'cosmos.auth.v1beta1.Query', 'cosmos.bank.v1beta1.Query', 'cosmos.tx.v1beta1.Service', 'cosmos.base.tendermint.v1beta1.Service',
        'chain.auth.v1beta1.Query', 'chain.bank.v1beta1.Query', 'chain.tx.v1beta1.Service', 'chain.base.consensus.v1beta1.Service',
        `grpc.reflection.${version}.ServerReflection`,
      ]);
      const files = answers[1]!.files!;
      const query = files.find((f) => f.name === 'cosmos/bank/v1beta1/query.proto')!;
      expect(query.package).to.equal('cosmos.bank.v1beta1');
      expect(query.service[0]!.name).to.equal('Query');
      const allBalances = query.service[0]!.method.find((m) => m.name === 'AllBalances')!;
      expect(allBalances.inputType).to.equal('.cosmos.bank.v1beta1.QueryAllBalancesRequest');
      // every import of the file is in the answer
      const names = new Set(files.map((f) => f.name));
      for (const d of query.dependency) expect(names.has(d), d).to.equal(true);
      expect(answers[2]!.files!.map((f) => f.name)).to.include('cosmos/auth/v1beta1/auth.proto');
      expect(answers[3]!.error?.code).to.equal(grpc.status.NOT_FOUND);
    }
  });

  it('garbage on the reflection stream does not take the server down', async () => {
    const r = await reflect(client, 'v1alpha', [Uint8Array.from([0xff, 0xff, 0xff, 0xff])]);
    expect(r.err?.code ?? grpc.status.OK).to.not.equal(grpc.status.UNAVAILABLE);
    const { answers } = await reflect(client, 'v1alpha', [encodeReflectionRequest({ list_services: '' })]);
    expect(answers[0]!.services).to.include('cosmos.bank.v1beta1.Query');
    expect(node.proc.exitCode).to.equal(null);
  });
});
