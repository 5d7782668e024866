/**
 * The token module (prc10, module `token`) against `chaind dev` through cosmjs, with a custom registry for the
 * token messages written from the original chain's definitions (package `plugchain.prc10`, its field
 * numbers): issue a token and see it on every route in every spelling (`/chain/prc10/...`, `/cosmos/prc10/...`,
 * the original `/token/...`, ABCI and gRPC under `chain.prc10.Query` and `plugchain.prc10.Query`), its bank
 * metadata, the owner's balance in min units and the exact issue fee burned from the `achain` supply; mint to
 * another account, burn, edit, transfer the ownership (then the old owner's mint fails and the new owner's
 * works); find every message by `message.action` (canonical and original spelling) and `message.module`;
 * and every bad input refused with its code and nothing changed (the fee not taken).
 */
import { expect } from 'chai';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { Registry } from '@cosmjs/proto-signing';
import type { GeneratedType } from '@cosmjs/proto-signing';
import { SigningStargateClient, GasPrice, defaultRegistryTypes } from '@cosmjs/stargate';
import type { DeliverTxResponse, StdFee } from '@cosmjs/stargate';
import { sha256, toBech32, utf8 } from '@chain/crypto';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { DENOM, devWallet, fee, getJson, rpcCall } from '../src/clients.js';

/** The original chain's messages and query types, as a client of that chain declares them. */
const ORIGINAL_PROTO = `
syntax = "proto3";
package plugchain.prc10;
message Token { string symbol = 1; string name = 2; uint32 scale = 3; string min_unit = 4; uint64 initial_supply = 5; uint64 max_supply = 6; bool mintable = 7; string owner = 8; }
message MsgIssueToken { string symbol = 1; string name = 2; uint32 scale = 3; string min_unit = 4; uint64 initial_supply = 5; uint64 max_supply = 6; bool mintable = 7; string owner = 8; }
message MsgMintToken { string symbol = 1; string to = 2; uint64 amount = 3; string owner = 4; }
message MsgEditToken { string symbol = 1; string name = 2; uint64 max_supply = 3; string owner = 4; }
message MsgBurnToken { string symbol = 1; uint64 amount = 2; string owner = 3; }
message MsgTransferOwnerToken { string symbol = 1; string owner = 2; string to = 3; }
message Any { string type_url = 1; bytes value = 2; }
message QueryTokenRequest { string denom = 1; }
message QueryTokenResponse { Any Token = 1; }
`;
const types = protobuf.parse(ORIGINAL_PROTO, { keepCase: true }).root;
const MSGS = ['MsgIssueToken', 'MsgMintToken', 'MsgEditToken', 'MsgBurnToken', 'MsgTransferOwnerToken'] as const;
type MsgName = (typeof MSGS)[number];

/** A cosmjs GeneratedType over a protobufjs type (`fromPartial` converts decimal strings of uint64 fields). */
function generated(name: string): GeneratedType {
  const t = types.lookupType(`plugchain.prc10.${name}`);
  return {
    encode: (m: object, w?: protobuf.Writer) => t.encode(m as protobuf.Message, w),
    decode: (b: Uint8Array) => t.decode(b),
    fromPartial: (o: Record<string, unknown>) => t.fromObject(o),
  } as unknown as GeneratedType;
}

const E18 = 10n ** 18n;
/** min units per kitty (scale 6) */
const KITTY = 10n ** 6n;

describe('e2e: the token module (prc10) through cosmjs', function () {
  this.timeout(300_000);
  let node: NodeHandle;
  let owner: string;
  let other: string;
  let third: string;
  let poor: string;
  const clients: Record<string, SigningStargateClient> = {};
  const tokenModule = toBech32('chain', sha256(utf8('token')).subarray(0, 20));

  const rest = async (path: string, headers: Record<string, string> = {}): Promise<any> => {
    const r = await getJson(`${node.restUrl}${path}`, headers);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).to.equal(200);
    return r.body;
  };
  const balance = async (address: string, denom: string, height?: number): Promise<bigint> =>
    BigInt((await rest(`/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=${denom}`, height ? { 'x-cosmos-block-height': String(height) } : {})).balance.amount);
  const supply = async (denom: string, height?: number): Promise<bigint> =>
    BigInt((await rest(`/cosmos/bank/v1beta1/supply/by_denom?denom=${denom}`, height ? { 'x-cosmos-block-height': String(height) } : {})).amount.amount);
  /** a token message from `from` in the canonical (`/chain.prc10.`) or original (`/plugchain.prc10.`) spelling */
  const send = async (from: string, name: MsgName, value: Record<string, unknown>, o: { original?: boolean; fee?: StdFee } = {}): Promise<DeliverTxResponse> => {
    const typeUrl = `/${o.original ? 'plugchain' : 'chain'}.prc10.${name}`;
    return clients[from]!.signAndBroadcast(from, [{ typeUrl, value }], o.fee ?? 2);
  };
  const ok = (r: DeliverTxResponse): DeliverTxResponse => {
    expect(r.code, r.rawLog).to.equal(0);
    return r;
  };
  /** the committed tx over REST: code, codespace, raw_log */
  const txResult = async (hash: string): Promise<{ code: number; codespace: string; raw_log: string }> => (await rest(`/cosmos/tx/v1beta1/txs/${hash}`)).tx_response;
  const count = async (query: string): Promise<number> =>
    Number((await rest(`/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(query)}&pagination.count_total=true`)).pagination.total);

  before(async () => {
    node = await startNode();
    const registry = new Registry(defaultRegistryTypes);
    for (const name of MSGS) {
      registry.register(`/chain.prc10.${name}`, generated(name));
      registry.register(`/plugchain.prc10.${name}`, generated(name));
    }
    // dev accounts 1-3 are funded at genesis; 15 is not (it gets just enough for gas below)
    for (const i of [1, 2, 3, 15]) {
      const wallet = await devWallet(i);
      const [acct] = await wallet.getAccounts();
      clients[acct!.address] = await SigningStargateClient.connectWithSigner(node.rpcUrl, wallet, {
        registry, gasPrice: GasPrice.fromString(`1000000000${DENOM}`), broadcastPollIntervalMs: 200,
      });
      if (i === 1) owner = acct!.address;
      if (i === 2) other = acct!.address;
      if (i === 3) third = acct!.address;
      if (i === 15) poor = acct!.address;
    }
  });

  after(async () => {
    for (const c of Object.values(clients)) c.disconnect();
    await node?.stop();
    node?.cleanup();
  });

  it('the native token is registered at genesis (chain / achain, scale 18, owned by the token module account)', async () => {
    const want = {
      '@type': '/chain.prc10.Token', symbol: 'chain', name: 'chain', scale: 18, min_unit: 'achain', initial_supply: '0',
      max_supply: '18446744073709551615', mintable: true, owner: tokenModule,
    };
    expect((await rest('/chain/prc10/tokens/achain')).Token).to.deep.equal(want);
    expect((await rest('/token/tokens/chain')).Token).to.deep.equal({ ...want, '@type': '/plugchain.prc10.Token' });
    expect(await rest('/token/params')).to.deep.equal({
      params: { issue_token_base_fee: { denom: 'achain', amount: '500000000000000000000' }, operate_token_fee_ratio: '0.100000000000000000' }, res: null,
    });
  });

  it('issues a token: every route in every spelling, bank metadata, the owner\'s balance, the exact fee burned from the achain supply', async () => {
    const fees = await rest('/token/fee/kitty');
    expect(fees).to.deep.equal({
      exist: false, issue_fee: { denom: 'achain', amount: '39936102236421725239' }, operate_fee: { denom: 'achain', amount: '3993610223642172523' },
    });
    const issueFee = BigInt(fees.issue_fee.amount);
    const r = ok(await send(owner, 'MsgIssueToken', {
      symbol: 'kitty', name: 'Kitty Token', scale: 6, min_unit: 'ukitty', initial_supply: '1000', max_supply: '10000', mintable: true, owner,
    }));
    const h = r.height;
    const want = {
      symbol: 'kitty', name: 'Kitty Token', scale: 6, min_unit: 'ukitty', initial_supply: '1000', max_supply: '10000', mintable: true, owner,
    };
    const canonical = { '@type': '/chain.prc10.Token', ...want };
    const original = { '@type': '/plugchain.prc10.Token', ...want };
    for (const [path, token] of [
      ['/chain/prc10/tokens/kitty', canonical], ['/chain/prc10/tokens/ukitty', canonical],
      ['/cosmos/prc10/tokens/kitty', original], ['/token/tokens/kitty', original], ['/token/tokens/ukitty', original],
    ] as const) expect((await rest(path)).Token, path).to.deep.equal(token);
    for (const [path, token] of [['/chain/prc10/tokens', canonical], ['/token/tokens', original]] as const) {
      const all = await rest(`${path}?pagination.count_total=true`);
      expect(all.Tokens.map((t: any) => t.symbol), path).to.deep.equal(['chain', 'kitty']);
      expect(all.Tokens[1], path).to.deep.equal(token);
      expect(all.pagination.total).to.equal('2');
      expect((await rest(`${path}?owner=${owner}`)).Tokens).to.deep.equal([token]);
    }
    for (const path of ['/chain/prc10/fee/kitty', '/cosmos/prc10/fee/kitty', '/token/fee/kitty']) expect((await rest(path)).exist, path).to.equal(true);
    // ABCI and gRPC under both service names
    const reqBytes = types.lookupType('plugchain.prc10.QueryTokenRequest').encode({ denom: 'kitty' }).finish();
    const Resp = types.lookupType('plugchain.prc10.QueryTokenResponse');
    const TokenT = types.lookupType('plugchain.prc10.Token');
    for (const [svc, url] of [['chain.prc10.Query', '/chain.prc10.Token'], ['plugchain.prc10.Query', '/plugchain.prc10.Token']] as const) {
      const abci = (await rpcCall(node.rpcUrl, 'abci_query', { path: `/${svc}/Token`, data: Buffer.from(reqBytes).toString('hex') })).result.response;
      expect(abci.code, abci.log).to.equal(0);
      const viaAbci = Resp.toObject(Resp.decode(Buffer.from(abci.value, 'base64'))) as any;
      expect(viaAbci.Token.type_url).to.equal(url);
      expect((TokenT.toObject(TokenT.decode(viaAbci.Token.value), { longs: String }) as any).owner).to.equal(owner);
      const g = new grpc.Client(node.grpcAddress, grpc.credentials.createInsecure());
      const bytes = await new Promise<Buffer>((resolve, reject) => g.makeUnaryRequest(`/${svc}/Token`, (b: Buffer) => b, (b: Buffer) => b, Buffer.from(reqBytes), (e, b) => (e ? reject(e) : resolve(b!))));
      g.close();
      const viaGrpc = Resp.toObject(Resp.decode(bytes)) as any;
      expect(viaGrpc.Token.type_url, svc).to.equal(url);
      expect(TokenT.toObject(TokenT.decode(viaGrpc.Token.value), { longs: String })).to.deep.include({ symbol: 'kitty', initial_supply: '1000', max_supply: '10000' });
    }
    // bank: metadata, the owner's balance in min units, the supply
    expect((await rest('/cosmos/bank/v1beta1/denoms_metadata/ukitty')).metadata).to.deep.equal({
      description: 'x/prc10 module of chain token.',
      denom_units: [{ denom: 'ukitty', exponent: 0, aliases: [] }, { denom: 'kitty', exponent: 6, aliases: [] }],
      base: 'ukitty', display: 'kitty', name: 'Kitty Token', symbol: 'KITTY', uri: '', uri_hash: '',
    });
    expect(await balance(owner, 'ukitty')).to.equal(1000n * KITTY);
    expect(await supply('ukitty')).to.equal(1000n * KITTY);
    // the fee: the owner paid the gas fee and the issue fee; the supply of achain lost exactly the issue fee
    // (and gained what the mint module minted in that block)
    const tx = (await rest(`/cosmos/tx/v1beta1/txs/${r.transactionHash}`)).tx;
    const gasFee = BigInt(tx.auth_info.fee.amount[0].amount);
    expect((await balance(owner, DENOM, h - 1)) - (await balance(owner, DENOM, h))).to.equal(gasFee + issueFee);
    const results = (await rpcCall(node.rpcUrl, 'block_results', { height: String(h) })).result;
    const mint = (results.finalize_block_events as { type: string; attributes: { key: string; value: string }[] }[]).find((e) => e.type === 'mint')!;
    const minted = BigInt(mint.attributes.find((a) => a.key === 'amount')!.value);
    expect((await supply(DENOM, h)) - (await supply(DENOM, h - 1))).to.equal(minted - issueFee);
    const burn = r.events.find((e) => e.type === 'burn')!;
    expect(burn.attributes).to.deep.include.members([{ key: 'burner', value: tokenModule }, { key: 'amount', value: `${issueFee}${DENOM}` }]);
    expect(r.events.find((e) => e.type === 'issue_token')!.attributes.filter((a) => a.key !== 'msg_index').map((a) => [a.key, a.value]))
      .to.deep.equal([['symbol', 'kitty'], ['scale', '6'], ['initial_supply', '1000'], ['owner', owner]]);
  });

  it('mints to another account, burns, edits (the metadata follows), transfers the ownership: the old owner\'s mint fails, the new owner\'s works', async () => {
    const operateFee = BigInt((await rest('/chain/prc10/fee/kitty')).operate_fee.amount);
    // mint, in the original spelling
    const minted = ok(await send(owner, 'MsgMintToken', { symbol: 'kitty', to: other, amount: '250', owner }, { original: true }));
    expect(await balance(other, 'ukitty')).to.equal(250n * KITTY);
    expect(await supply('ukitty')).to.equal(1250n * KITTY);
    expect(minted.events.find((e) => e.type === 'mint_token')!.attributes.filter((a) => a.key !== 'msg_index').map((a) => [a.key, a.value]))
      .to.deep.equal([['amount', '250kitty'], ['owner', owner]]);
    // burn
    const before = await balance(owner, DENOM);
    const burned = ok(await send(owner, 'MsgBurnToken', { symbol: 'kitty', amount: '100', owner }));
    expect(await balance(owner, 'ukitty')).to.equal(900n * KITTY);
    expect(await supply('ukitty')).to.equal(1150n * KITTY);
    const gas = BigInt((await rest(`/cosmos/tx/v1beta1/txs/${burned.transactionHash}`)).tx.auth_info.fee.amount[0].amount);
    expect(before - (await balance(owner, DENOM))).to.equal(gas + operateFee);
    // edit: max supply and name; the bank metadata's name follows
    ok(await send(owner, 'MsgEditToken', { symbol: 'kitty', name: 'Cat Coin', max_supply: '5000', owner }));
    expect((await rest('/token/tokens/kitty')).Token).to.deep.include({ name: 'Cat Coin', max_supply: '5000' });
    expect((await rest('/cosmos/bank/v1beta1/denoms_metadata/ukitty')).metadata.name).to.equal('Cat Coin');
    // transfer the ownership
    ok(await send(owner, 'MsgTransferOwnerToken', { symbol: 'kitty', owner, to: third }, { original: true }));
    expect((await rest('/chain/prc10/tokens/kitty')).Token.owner).to.equal(third);
    expect((await rest(`/token/tokens?owner=${owner}`)).Tokens).to.deep.equal([]);
    expect((await rest(`/token/tokens?owner=${third}`)).Tokens.map((t: any) => t.symbol)).to.deep.equal(['kitty']);
    const refused = await send(owner, 'MsgMintToken', { symbol: 'kitty', to: '', amount: '1', owner }, { fee: fee(400_000n) });
    expect(refused.code).to.equal(11);
    const res = await txResult(refused.transactionHash);
    expect([res.codespace, res.code]).to.deep.equal(['token', 11]);
    expect(res.raw_log).to.contain(`the address ${third} is not the owner of the token kitty`);
    ok(await send(third, 'MsgMintToken', { symbol: 'kitty', to: '', amount: '7', owner: third }));
    expect(await balance(third, 'ukitty')).to.equal(7n * KITTY);
  });

  it('finds each message by message.action, canonical and original spelling, and by message.module=\'token\'', async () => {
    for (const name of MSGS) {
      const canonical = await count(`message.action='/chain.prc10.${name}'`);
      expect(canonical, name).to.be.at.least(1);
      expect(await count(`message.action='/plugchain.prc10.${name}'`), `${name} (original spelling)`).to.equal(canonical);
    }
    // issue, mint, burn, edit, transfer, mint by the new owner (the refused mint failed: its message events are not indexed)
    expect(await count(`message.module='token'`)).to.equal(6);
    expect(await count(`message.module='token' AND message.sender='${third}'`)).to.equal(1);
    // the CometBFT RPC's tx_search rewrites the original spelling too
    const search = (await rpcCall(node.rpcUrl, 'tx_search', { query: "message.action='/plugchain.prc10.MsgTransferOwnerToken'" })).result;
    expect(search.total_count).to.equal('1');
  });

  it('refuses every bad input with its code and changes nothing (the token fee is not taken, only the gas fee)', async () => {
    // a poor account: enough for gas, not for a token fee
    ok(await clients[other]!.sendTokens(other, poor, [{ denom: DENOM, amount: (E18 / 100n).toString() }], 2));
    ok(await send(third, 'MsgIssueToken', { symbol: 'fixed', name: 'Fixed', scale: 2, min_unit: 'cfixed', initial_supply: '10', max_supply: '0', mintable: false, owner: third }));
    const GAS = fee(400_000n);
    const issue = (o: Record<string, unknown>) => ({ symbol: 'doggo', name: 'Doggo', scale: 6, min_unit: 'udoggo', initial_supply: '1', max_supply: '10', mintable: true, owner: third, ...o });
    const cases: [string, string, MsgName, Record<string, unknown>, string, number, string][] = [
      ['invalid symbol', third, 'MsgIssueToken', issue({ symbol: 'Doggo' }), 'token', 4, 'invalid symbol: Doggo'],
      ['reserved symbol prefix', third, 'MsgIssueToken', issue({ symbol: 'ethdog' }), 'token', 4, 'can not begin with keyword'],
      ['invalid min unit', third, 'MsgIssueToken', issue({ min_unit: 'u' }), 'token', 3, 'invalid minUnit: u'],
      ['invalid name', third, 'MsgIssueToken', issue({ name: '' }), 'token', 2, 'invalid token name'],
      ['invalid scale', third, 'MsgIssueToken', issue({ scale: 9 }), 'token', 7, 'invalid token scale 9'],
      ['initial supply above the max supply', third, 'MsgIssueToken', issue({ initial_supply: '11' }), 'token', 6, 'invalid token max supply 10'],
      ['duplicate symbol', third, 'MsgIssueToken', issue({ symbol: 'kitty' }), 'token', 8, 'symbol already exists: kitty'],
      ['duplicate min unit', third, 'MsgIssueToken', issue({ min_unit: 'ukitty' }), 'token', 8, 'min-unit already exists: ukitty'],
      ['insufficient funds for the fee', poor, 'MsgIssueToken', issue({ owner: poor }), 'sdk', 5, 'insufficient funds'],
      ['mint beyond the max supply', third, 'MsgMintToken', { symbol: 'kitty', to: '', amount: '4000', owner: third }, 'token', 15, 'the amount exceeds the mintable token amount; expected (0, 3843], got 4000'],
      ['mint of a non-mintable token', third, 'MsgMintToken', { symbol: 'fixed', to: '', amount: '1', owner: third }, 'token', 13, 'fixed: token is not mintable'],
      ['mint to a module account', third, 'MsgMintToken', { symbol: 'kitty', to: tokenModule, amount: '1', owner: third }, 'sdk', 4, `${tokenModule} is a module account`],
      ['edit below the current supply', third, 'MsgEditToken', { symbol: 'kitty', name: '[do-not-modify]', max_supply: '1156', owner: third }, 'token', 6, 'max supply must not be less than 1157'],
      ['edit by a non-owner', owner, 'MsgEditToken', { symbol: 'kitty', name: 'Mine', max_supply: '5000', owner }, 'token', 11, 'is not the owner of the token kitty'],
      ['burn by a non-owner', other, 'MsgBurnToken', { symbol: 'kitty', amount: '1', owner: other }, 'token', 11, 'is not the owner of the token kitty'],
      ['burn of an unknown token', third, 'MsgBurnToken', { symbol: 'nokitty', amount: '1', owner: third }, 'token', 10, 'token symbol nokitty does not exist'],
      ['transfer to a module account', third, 'MsgTransferOwnerToken', { symbol: 'kitty', owner: third, to: tokenModule }, 'sdk', 4, `${tokenModule} is a module account`],
      ['transfer by a non-owner', owner, 'MsgTransferOwnerToken', { symbol: 'kitty', owner, to: owner }, 'token', 11, `the address ${owner} is not the owner of the token kitty`],
    ];
    for (const [what, from, name, value, codespace, code, log] of cases) {
      const state = async () => ({
        tokens: (await rest('/chain/prc10/tokens')).Tokens,
        metadata: (await rest('/chain/bank/v1beta1/denoms_metadata')).metadatas,
        ukitty: await supply('ukitty'),
        balances: await Promise.all([owner, other, third, poor].map((a) => rest(`/chain/bank/v1beta1/balances/${a}`))),
      });
      const before = await state();
      const achain = await balance(from, DENOM);
      const r = await send(from, name, value, { fee: GAS });
      const res = await txResult(r.transactionHash);
      expect([res.codespace, res.code], `${what}: ${res.raw_log}`).to.deep.equal([codespace, code]);
      expect(res.raw_log, what).to.contain(log);
      // only the gas fee left the sender; the token state, metadata and every other balance are as they were
      expect(achain - (await balance(from, DENOM)), `${what}: the sender paid the gas fee only`).to.equal(BigInt(GAS.amount[0]!.amount));
      const after = await state();
      const strip = (s: typeof before) => ({ ...s, balances: s.balances.map((b: any, i: number) => ([owner, other, third, poor][i] === from ? b.balances.filter((c: any) => c.denom !== DENOM) : b.balances)) });
      expect(strip(after), what).to.deep.equal(strip(before));
    }
    // and the valid version still works
    ok(await send(third, 'MsgIssueToken', issue({})));
    expect((await rest('/token/tokens/udoggo')).Token.owner).to.equal(third);
  });
});
