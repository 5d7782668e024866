import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor.js';
import { toBech32 } from '@chain/crypto';
import { Node } from '../src/node.js';
import { applyFlags, loadConfig } from '../src/config/config.js';
import { initHome, devAccounts } from '../src/config/init.js';
import { createLogger } from '@chain/server';
import { grpcServiceSpecs, BLOCK_HEIGHT_METADATA } from '@chain/server';
import { cosmosServiceName } from '@chain/server';
import { buildReflectionFiles } from '@chain/server';

interface UnaryResult { bytes?: Buffer; err?: grpc.ServiceError; header?: grpc.Metadata }

const id = (b: Buffer): Buffer => b;

function unary(client: grpc.Client, path: string, req: Uint8Array, md: Record<string, string> = {}): Promise<UnaryResult> {
  const meta = new grpc.Metadata();
  for (const [k, v] of Object.entries(md)) meta.set(k, v);
  return new Promise((resolve) => {
    let header: grpc.Metadata | undefined;
    const call = client.makeUnaryRequest<Buffer, Buffer>(path, id, id, Buffer.from(req), meta, (err, bytes) => {
      resolve(err ? { err, header } : { bytes: bytes!, header });
    });
    call.on('metadata', (m) => { header = m; });
  });
}

/** One reflection exchange on a bidi stream, the messages built and read with protobufjs. */
async function reflect(client: grpc.Client, version: 'v1' | 'v1alpha', reqs: object[], types: protobuf.Root): Promise<any[]> {
  const Req = types.lookupType(`grpc.reflection.${version}.ServerReflectionRequest`);
  const Resp = types.lookupType(`grpc.reflection.${version}.ServerReflectionResponse`);
  const call = client.makeBidiStreamRequest<Buffer, Buffer>(`/grpc.reflection.${version}.ServerReflection/ServerReflectionInfo`, id, id);
  const out: any[] = [];
  const done = new Promise<void>((resolve, reject) => {
    call.on('data', (b: Buffer) => out.push(Resp.toObject(Resp.decode(b), { longs: String, bytes: Array, defaults: false, oneofs: true })));
    call.on('end', () => resolve());
    call.on('error', reject);
  });
  for (const r of reqs) call.write(Buffer.from(Req.encode(Req.fromObject(r)).finish()));
  call.end();
  await done;
  return out;
}

describe('gRPC server (in-process node)', function () {
  this.timeout(30_000);
  let home: string;
  let node: Node;
  let client: grpc.Client;
  let reflectionTypes: protobuf.Root;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'chaind-grpc-'));
    initHome({ home, dev: true });
    const cfg = applyFlags(loadConfig(home), {
      'rpc.laddr': 'tcp://127.0.0.1:0', 'api.enable': 'false', 'grpc.address': '127.0.0.1:0', 'consensus.timeout_commit': '50ms',
    });
    node = await Node.create(cfg, createLogger('error'));
    await node.start();
    while (node.engine.latestHeight < 3) await new Promise((r) => setTimeout(r, 20));
    client = new grpc.Client(`127.0.0.1:${node.grpc!.port}`, grpc.credentials.createInsecure());
    // the reflection protos, from the same descriptors the server serves
    const files = buildReflectionFiles(node.app.registry).files.filter((f) => f.package.startsWith('grpc.reflection.'));
    reflectionTypes = protobuf.Root.fromDescriptor({ file: files as never }, { keepCase: true });
  });

  after(async () => {
    client?.close();
    await node?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('serves every query route of the router under both names', () => {
    const specs = grpcServiceSpecs(node);
    const served = new Map(specs.map((s) => [s.name, s]));
    expect([...served.keys()]).to.include.members([
      'chain.auth.v1beta1.Query', 'cosmos.auth.v1beta1.Query', 'chain.bank.v1beta1.Query', 'cosmos.bank.v1beta1.Query',
      'chain.tx.v1beta1.Service', 'cosmos.tx.v1beta1.Service',
      'chain.base.consensus.v1beta1.Service', 'cosmos.base.tendermint.v1beta1.Service',
    ]);
    for (const route of node.app.router.allQueryRoutes()) {
      const [svc, method] = route.path.slice(1).split('/') as [string, string];
      expect(served.get(svc)?.methods.get(method), route.path).to.equal(route);
      expect(served.get(svc)?.dialect).to.equal('chain');
      const alias = served.get(cosmosServiceName(node.app.registry, svc)!);
      expect(alias?.methods.get(method), `cosmos ${route.path}`).to.equal(route);
      expect(alias?.dialect).to.equal('cosmos');
    }
    expect(node.grpc!.services).to.deep.equal(specs.map((s) => s.name));
  });

  it('answers in the dialect of the service name, with the height header', async () => {
    const reg = node.app.registry;
    const address = devAccounts()[0]!.address;
    const req = reg.encode('chain.auth.v1beta1.QueryAccountRequest', { address });
    for (const [svc, url] of [['chain', '/chain.auth.v1beta1.BaseAccount'], ['cosmos', '/cosmos.auth.v1beta1.BaseAccount']] as const) {
      const r = await unary(client, `/${svc}.auth.v1beta1.Query/Account`, req);
      expect(r.err, r.err?.message).to.equal(undefined);
      const resp = reg.decode<{ account: { type_url: string; value: Uint8Array } }>('chain.auth.v1beta1.QueryAccountResponse', r.bytes!);
      expect(resp.account.type_url).to.equal(url);
      expect(reg.decode<{ address: string }>('chain.auth.v1beta1.BaseAccount', resp.account.value).address).to.equal(address);
      const h = Number(r.header!.get(BLOCK_HEIGHT_METADATA)[0]);
      expect(h).to.be.greaterThan(0).and.at.most(node.app.lastHeight);
    }
  });

  it('x-cosmos-block-height selects a past height; bad heights are INVALID_ARGUMENT', async () => {
    const reg = node.app.registry;
    const req = reg.encode('chain.bank.v1beta1.QueryAllBalancesRequest', { address: devAccounts()[1]!.address });
    const past = await unary(client, '/cosmos.bank.v1beta1.Query/AllBalances', req, { [BLOCK_HEIGHT_METADATA]: '2' });
    expect(past.err, past.err?.message).to.equal(undefined);
    expect(past.header!.get(BLOCK_HEIGHT_METADATA)).to.deep.equal(['2']);
    for (const bad of ['abc', '-1', String(node.app.lastHeight + 1000)]) {
      const r = await unary(client, '/cosmos.bank.v1beta1.Query/AllBalances', req, { [BLOCK_HEIGHT_METADATA]: bad });
      expect(r.err?.code, bad).to.equal(grpc.status.INVALID_ARGUMENT);
    }
  });

  it('every method answers garbage with INVALID_ARGUMENT and empty requests with a status, and keeps serving', async () => {
    for (const spec of grpcServiceSpecs(node)) {
      for (const method of spec.methods.keys()) {
        const path = `/${spec.name}/${method}`;
        const garbage = await unary(client, path, Buffer.from([0xff, 0xff, 0xff]));
        expect(garbage.err?.code, path).to.equal(grpc.status.INVALID_ARGUMENT);
        const empty = await unary(client, path, new Uint8Array());
        if (empty.err) expect(empty.err.code, `${path}: ${empty.err.message}`).to.not.be.oneOf([grpc.status.INTERNAL, grpc.status.UNIMPLEMENTED]);
      }
    }
    const unknown = await unary(client, '/cosmos.bank.v1beta1.Query/Nope', new Uint8Array());
    expect(unknown.err?.code).to.equal(grpc.status.UNIMPLEMENTED);
    const params = await unary(client, '/chain.bank.v1beta1.Query/Params', new Uint8Array());
    expect(params.err).to.equal(undefined);
  });

  it('maps handler errors to their gRPC codes', async () => {
    const reg = node.app.registry;
    const missing = await unary(client, '/cosmos.auth.v1beta1.Query/Account', reg.encode('chain.auth.v1beta1.QueryAccountRequest', { address: toBech32('chain', new Uint8Array(20).fill(7)) }));
    expect(missing.err?.code, missing.err?.message).to.equal(grpc.status.NOT_FOUND);
    const tx = await unary(client, '/cosmos.tx.v1beta1.Service/GetTx', reg.encode('chain.tx.v1beta1.GetTxRequest', { hash: 'AB'.repeat(32) }));
    expect(tx.err?.code).to.equal(grpc.status.NOT_FOUND);
    expect(tx.err?.details).to.match(/tx not found/);
  });

  it('reflection (v1 and v1alpha) lists the served services and describes both trees', async () => {
    for (const version of ['v1', 'v1alpha'] as const) {
      const [list, file] = await reflect(client, version, [
        { host: '', list_services: '*' },
        { host: '', file_containing_symbol: 'cosmos.base.tendermint.v1beta1.Service' },
      ], reflectionTypes);
      const names = list.list_services_response.service.map((s: { name: string }) => s.name);
      expect(names).to.include.members([...node.grpc!.services, `grpc.reflection.${version}.ServerReflection`]);
      expect(names).to.not.include('chain.bank.v1beta1.Msg');
      // the returned files form a complete set: a descriptor pool built from them resolves the service
      const fds = (file.file_descriptor_response.file_descriptor_proto as number[][]).map((b) => descriptor.FileDescriptorProto.decode(Uint8Array.from(b)));
      expect(fds.map((f: any) => f.name)).to.include('cosmos/base/tendermint/v1beta1/query.proto');
      const root = protobuf.Root.fromDescriptor({ file: fds as never });
      const svc = root.lookupService('cosmos.base.tendermint.v1beta1.Service');
      svc.resolveAll();
      expect(svc.methods.GetLatestBlock!.resolvedResponseType!.fullName).to.equal('.cosmos.base.tendermint.v1beta1.GetLatestBlockResponse');
    }
    const [missing] = await reflect(client, 'v1', [{ host: '', file_containing_symbol: 'no.such.Symbol' }], reflectionTypes);
    expect(missing.error_response.error_code).to.equal(grpc.status.NOT_FOUND);
  });

  it('reflection descriptors are fully qualified and declare their imports', () => {
    const { files } = buildReflectionFiles(node.app.registry);
    const byName = new Map(files.map((f) => [f.name, f]));
    const ethermint = byName.get('ethermint/crypto/v1/ethsecp256k1/keys.proto');
    expect(ethermint?.package).to.equal('ethermint.crypto.v1.ethsecp256k1');
    for (const f of files) {
      for (const d of f.dependency) expect(byName.has(d), `${f.name} imports ${d}`).to.equal(true);
      const check = (m: any): void => {
        for (const fld of m.field ?? []) if (fld.typeName) expect(fld.typeName, `${f.name} ${m.name}.${fld.name}`).to.match(/^\./);
        for (const n of m.nestedType ?? []) check(n);
      };
      for (const m of f.messageType ?? []) check(m);
      if (f.package.startsWith('cosmos.')) {
        const text = JSON.stringify(f);
        expect(text, f.name).to.not.match(/"\.chain\./);
      }
    }
    const bank = byName.get('cosmos/bank/v1beta1/query.proto')!;
    expect(bank.dependency).to.include('cosmos/base/v1beta1/coin.proto');
  });

  it('closes with the node', async () => {
    const port = node.grpc!.port;
    await node.grpc!.close();
    const c = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const r = await unary(c, '/chain.bank.v1beta1.Query/Params', new Uint8Array());
    c.close();
    expect(r.err?.code).to.equal(grpc.status.UNAVAILABLE);
  });
});
