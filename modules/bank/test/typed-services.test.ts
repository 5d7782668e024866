/**
 * The generated service types at work. The functions under `compile-time checks` are never called: each
 * `@ts-expect-error` marks a line the root typecheck (`tsc -p tsconfig.json`) must reject, and tsc fails
 * if one of them is accepted (an unused `@ts-expect-error` is an error).
 */
import { expect } from 'chai';
import type { Context, MsgServer, QueryServer, ServiceRegistrar } from '@chain/app';
import { ProtoRegistry } from '@chain/codec';
import type { BankKeeper } from '../src/index.js';
import { BANK_PROTO_DIR, createBankMsgServer, createBankQueryServer, chain_bank_v1beta1 } from '../src/index.js';
import type { BankGenesisState } from '../src/index.js';

const { Msg, Query } = chain_bank_v1beta1;
type MsgMethods = chain_bank_v1beta1.MsgMethods;
type QueryMethods = chain_bank_v1beta1.QueryMethods;

// ---- compile-time checks (never run) ----

export function misspelledRequestField(reg: ServiceRegistrar, k: BankKeeper): void {
  reg.registerMsgService(Msg, {
    ...createBankMsgServer(k),
    Send: (_ctx, m) => {
      // @ts-expect-error `from_adress` is not a field of MsgSend
      void m.from_adress;
      return {};
    },
  });
}

export function missingHandler(reg: ServiceRegistrar): void {
  // @ts-expect-error MultiSend has no handler
  reg.registerMsgService(Msg, { Send: () => ({}) });
}

export function unknownHandler(reg: ServiceRegistrar, k: BankKeeper): void {
  // @ts-expect-error `Sned` is not a method of chain.bank.v1beta1.Msg
  reg.registerMsgService(Msg, { ...createBankMsgServer(k), Sned: () => ({}) });
}

export function wrongResponseField(k: BankKeeper): QueryServer<QueryMethods> {
  return {
    ...createBankQueryServer(k),
    // @ts-expect-error QueryBalanceResponse has `balance`, not `balanse`
    Balance: () => ({ balanse: null }),
  };
}

export function wrongResponseFieldType(k: BankKeeper): QueryServer<QueryMethods> {
  return {
    ...createBankQueryServer(k),
    // @ts-expect-error a Coin's amount is decimal text, not a bigint
    SupplyOf: (_ctx, req) => ({ amount: { denom: req.denom, amount: 5n } }),
  };
}

export function misspelledNestedField(k: BankKeeper): QueryServer<QueryMethods> {
  return {
    ...createBankQueryServer(k),
    // @ts-expect-error a Coin has `denom`, not `demon`
    SupplyOf: () => ({ amount: { demon: 'achain', amount: '5' } }),
  };
}

export function misspelledGenesisField(gen: BankGenesisState): BankGenesisState {
  // @ts-expect-error an object literal with an unknown field (`balanses`)
  return { ...gen, balanses: [] } satisfies BankGenesisState;
}

export function queryServiceAsMsgService(reg: ServiceRegistrar, k: BankKeeper): void {
  // @ts-expect-error the query handlers do not implement chain.bank.v1beta1.Msg
  reg.registerMsgService(Msg, createBankQueryServer(k));
}

/** What the module registers, accepted as is. */
export function accepted(reg: ServiceRegistrar, k: BankKeeper, ctx: Context): void {
  const msgServer: MsgServer<MsgMethods> = createBankMsgServer(k);
  reg.registerMsgService(Msg, msgServer);
  reg.registerQueryService(Query, createBankQueryServer(k));
  void msgServer.Send(ctx, { from_address: 'a', to_address: 'b', amount: [{ denom: 'achain', amount: '1' }] });
}

// ---- runtime ----

describe('bank: typed services', () => {
  it('the generated definitions name the proto services, whose methods are the handlers of the servers', () => {
    const registry = new ProtoRegistry();
    registry.addProtoDir(BANK_PROTO_DIR);
    const k = { ak: { addressCodec: { encode: () => '', decode: () => new Uint8Array() } } } as unknown as BankKeeper;
    expect(Msg.name).to.equal('chain.bank.v1beta1.Msg');
    expect(Query.name).to.equal('chain.bank.v1beta1.Query');
    expect(Object.keys(createBankMsgServer(k)).sort()).to.deep.equal(registry.service(Msg.name).methodsArray.map((m) => m.name).sort());
    expect(Object.keys(createBankQueryServer(k)).sort()).to.deep.equal(registry.service(Query.name).methodsArray.map((m) => m.name).sort());
  });

  it('a decoded MsgSend has exactly the fields of the generated type', () => {
    const registry = new ProtoRegistry();
    registry.addProtoDir(BANK_PROTO_DIR);
    const msg: chain_bank_v1beta1.MsgSend = { from_address: 'a', to_address: 'b', amount: [{ denom: 'achain', amount: '1' }] };
    const decoded = registry.decode<chain_bank_v1beta1.MsgSend>('chain.bank.v1beta1.MsgSend', registry.encode('chain.bank.v1beta1.MsgSend', msg));
    expect(decoded).to.deep.equal(msg);
    const empty = registry.decode<chain_bank_v1beta1.QueryBalanceResponse>('chain.bank.v1beta1.QueryBalanceResponse', new Uint8Array());
    expect(empty).to.deep.equal({ balance: null });
  });
});
