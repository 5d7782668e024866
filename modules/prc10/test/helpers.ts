/**
 * A test chain of auth + bank + token only (@chain/testing's TestChain, composed from the packages' public
 * APIs as createChainApp composes the node's app), dev accounts funded in the native token, and the token
 * messages. The chain has no ante handler: signatures and tx fees are not checked, so every change of a
 * balance here is the token module's (its fees included), and who sends a message is its `owner` field.
 */
import type { Coin, ExecTxResult, ModuleAccountPermission } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule, FEE_COLLECTOR } from '@chain/auth';
import { BankKeeper, BankModule } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import type { AnyMsg } from '@chain/codec';
import type { Event } from '@chain/events';
import { TestChain, buildTx, devKey as sharedDevKey, testAppConfig } from '@chain/testing';
import type { DevKey } from '@chain/testing';
import { Prc10Keeper, Prc10Module, PRC10_MODULE_NAME, defaultPrc10Params } from '../src/index.js';
import type { Prc10GenesisState, Prc10Params, Token, chain_prc10 } from '../src/index.js';

export const CHAIN_ID = 'token-test-1';
export const PREFIX = 'chain';
export const NATIVE = 'achain';
export const E18 = 10n ** 18n;
/** each dev account's genesis balance: 1,000,000 chain */
export const FUNDS = 1_000_000n * E18;

export const codec = new AddressCodec(PREFIX);
export const devKey = (i: number): DevKey => sharedDevKey(i, PREFIX);
export const ALICE = devKey(0);
export const BOB = devKey(1);
export const CAROL = devKey(2);
/** a dev account without funds */
export const POOR = devKey(5);

/** the module accounts of the test chain: the token module mints and burns */
export const MODULE_ACCOUNTS: Record<string, ModuleAccountPermission[]> = { [FEE_COLLECTOR]: [], [PRC10_MODULE_NAME]: ['minter', 'burner'] };

export interface TestSetup {
  readonly chain: TestChain;
  readonly keeper: Prc10Keeper;
  readonly bank: BankKeeper;
  readonly ak: AccountKeeper;
  readonly registry: ProtoRegistry;
}

/** A fresh auth + bank + token chain (`close()` it); not initialized yet. */
export async function openChain(): Promise<TestSetup> {
  const registry = new ProtoRegistry();
  const ak = new AccountKeeper({ registry, addressCodec: codec, moduleAccounts: MODULE_ACCOUNTS });
  const blocked = new Set(Object.keys(MODULE_ACCOUNTS).map((n) => codec.encode(ak.getModuleAddress(n))));
  const bank = new BankKeeper({ registry, accountKeeper: ak, blockedAddresses: blocked });
  const keeper = new Prc10Keeper({ registry, accountKeeper: ak, bankKeeper: bank });
  const modules = [new AuthModule(ak), new BankModule(bank), new Prc10Module(keeper)];
  const config = testAppConfig(modules, { moduleAccounts: Object.entries(MODULE_ACCOUNTS).map(([name, permissions]) => ({ name, permissions })) });
  const chain = await TestChain.open({ registry, chainId: CHAIN_ID, modules, config });
  return { chain, keeper, bank, ak, registry };
}

/** Genesis app_state: the dev accounts 0-4 funded with `FUNDS` achain, the token module's default genesis unless given. */
export function genesis(token?: unknown, extraBalances: { address: string; coins: Coin[] }[] = []): Record<string, unknown> {
  const balances = [0, 1, 2, 3, 4].map((i) => ({ address: devKey(i).address, coins: [{ denom: NATIVE, amount: FUNDS.toString() }] }));
  return {
    bank: { params: { send_enabled: [], default_send_enabled: true }, balances: [...balances, ...extraBalances], supply: [], denom_metadata: [], send_enabled: [] },
    ...(token === undefined ? {} : { token }),
  };
}

/** An opened and initialized chain (the default token genesis unless given). */
export async function startChain(token?: unknown): Promise<TestSetup> {
  const s = await openChain();
  await s.chain.init(genesis(token));
  return s;
}

/** The token genesis in gateway JSON: the native token (and `tokens`), the default params with `params` over them. */
export function tokenGenesisJson(s: TestSetup, o: { params?: Partial<Prc10Params>; tokens?: Token[] } = {}): unknown {
  const params = { ...defaultPrc10Params(), ...o.params };
  return s.registry.toJSON('chain.prc10.GenesisState', { params, tokens: [s.keeper.nativeToken(), ...(o.tokens ?? [])] });
}

/** A chain initialized with the token genesis of `tokenGenesisJson(o)`. */
export async function startChainWith(o: { params?: Partial<Prc10Params>; tokens?: Token[] }): Promise<TestSetup> {
  const s = await openChain();
  await s.chain.init(genesis(tokenGenesisJson(s, o)));
  return s;
}

/** The original chain's fee table is for a base fee of 500000000 of the min unit (500 pc in uplugcn): the same here in achain. */
export const TABLE_PARAMS: Prc10Params = { issue_token_base_fee: { denom: NATIVE, amount: '500000000' }, operate_token_fee_ratio: (10n ** 17n).toString() };

export const msg = {
  issue: (registry: ProtoRegistry, m: Partial<chain_prc10.MsgIssueToken> & { owner: string }, typeUrl?: string): AnyMsg =>
    registry.packAny('chain.prc10.MsgIssueToken', {
      symbol: 'kitty', name: 'Kitty Token', scale: 6, min_unit: 'ukitty', initial_supply: 1000n, max_supply: 10000n, mintable: true, ...m,
    }, typeUrl),
  mint: (registry: ProtoRegistry, m: chain_prc10.MsgMintToken, typeUrl?: string): AnyMsg => registry.packAny('chain.prc10.MsgMintToken', m, typeUrl),
  edit: (registry: ProtoRegistry, m: chain_prc10.MsgEditToken, typeUrl?: string): AnyMsg => registry.packAny('chain.prc10.MsgEditToken', m, typeUrl),
  burn: (registry: ProtoRegistry, m: chain_prc10.MsgBurnToken, typeUrl?: string): AnyMsg => registry.packAny('chain.prc10.MsgBurnToken', m, typeUrl),
  transfer: (registry: ProtoRegistry, m: chain_prc10.MsgTransferOwnerToken, typeUrl?: string): AnyMsg =>
    registry.packAny('chain.prc10.MsgTransferOwnerToken', m, typeUrl),
};

/** A tx carrying `msgs` (signed by `key`; this chain checks no signature). */
export function tx(s: TestSetup, key: DevKey, msgs: AnyMsg[]): Uint8Array {
  return buildTx(s.registry, [{ key, accountNumber: 0n, sequence: 0n }], msgs, { chainId: CHAIN_ID });
}

/** Delivers `msgs` from `key` in one tx of its own block. */
export function deliver(s: TestSetup, key: DevKey, ...msgs: AnyMsg[]): Promise<ExecTxResult> {
  return s.chain.deliver(tx(s, key, msgs));
}

export const balance = (s: TestSetup, address: string, denom = NATIVE): bigint => s.bank.getBalance(s.chain.ctx(), codec.decode(address), denom);
export const supply = (s: TestSetup, denom = NATIVE): bigint => s.bank.getSupply(s.chain.ctx(), denom);
export const token = (s: TestSetup, symbol: string): Token | undefined => s.keeper.getTokenBySymbol(s.chain.ctx(), symbol);

/** The whole state of the chain's modules, as their genesis export (for "nothing changed" checks). */
export const snapshot = (s: TestSetup): unknown => JSON.parse(JSON.stringify(s.chain.app.exportGenesis()));

/** Events as [type, [[key, value], ...]] (mode attributes dropped). */
export function flatEvents(events: readonly Event[]): [string, [string, string][]][] {
  return events.map((e) => [e.type, e.attributes.filter((a) => a.key !== 'mode').map((a) => [a.key, a.value] as [string, string])]);
}

/** The token module account's bech32 address. */
export const moduleAddress = (s: TestSetup): string => codec.encode(s.ak.getModuleAddress(PRC10_MODULE_NAME));

export type { Prc10GenesisState };
