/**
 * A test chain of auth + bank + liquidity (@chain/testing's TestChain, composed from the packages' public APIs
 * as createChainApp composes the node's app). The pool creation fee goes to the community pool through the
 * module's declared `LiquidityDistributionKeeper`; here that is the real bank path distribution's
 * `fundCommunityPool` takes (sender → `distribution` module account), without distribution's fee-pool
 * bookkeeping. No ante handler: who sends a message is its signer field.
 */
import { Context, InfiniteGasMeter } from '@chain/app';
import type { Coin, ExecTxResult, ModuleAccountPermission } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule, FEE_COLLECTOR } from '@chain/auth';
import { BankKeeper, BankModule } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import type { AnyMsg } from '@chain/codec';
import type { Event } from '@chain/events';
import { Dec } from '@chain/math';
import { TestChain, buildTx, devKey as sharedDevKey, testAppConfig } from '@chain/testing';
import type { DevKey } from '@chain/testing';
import { LiquidityKeeper, LiquidityModule, LIQUIDITY_MODULE_NAME, defaultLiquidityParams, liquiditySwap } from '../src/index.js';
import type { LiquidityParams, Pool } from '../src/index.js';

export const CHAIN_ID = 'liquidity-test-1';
export const PREFIX = 'chain';
export const codec = new AddressCodec(PREFIX);
export const devKey = (i: number): DevKey => sharedDevKey(i, PREFIX);
export const DISTRIBUTION = 'distribution';

export const MODULE_ACCOUNTS: Record<string, ModuleAccountPermission[]> = {
  [FEE_COLLECTOR]: [], [DISTRIBUTION]: [], [LIQUIDITY_MODULE_NAME]: ['minter', 'burner'],
};

export interface TestSetup {
  readonly chain: TestChain;
  readonly keeper: LiquidityKeeper;
  readonly bank: BankKeeper;
  readonly ak: AccountKeeper;
  readonly registry: ProtoRegistry;
}

export async function openChain(): Promise<TestSetup> {
  const registry = new ProtoRegistry();
  const ak = new AccountKeeper({ registry, addressCodec: codec, moduleAccounts: MODULE_ACCOUNTS });
  const blocked = new Set(Object.keys(MODULE_ACCOUNTS).filter((n) => n !== DISTRIBUTION).map((n) => codec.encode(ak.getModuleAddress(n))));
  const bank = new BankKeeper({ registry, accountKeeper: ak, blockedAddresses: blocked });
  const distributionKeeper = { fundCommunityPool: (ctx: Parameters<BankKeeper['getBalance']>[0], amount: Coin[], sender: Uint8Array) => bank.sendCoinsFromAccountToModule(ctx, sender, DISTRIBUTION, amount) };
  const keeper = new LiquidityKeeper({ registry, accountKeeper: ak, bankKeeper: bank, distributionKeeper });
  const modules = [new AuthModule(ak), new BankModule(bank), new LiquidityModule(keeper)];
  const config = testAppConfig(modules, { moduleAccounts: Object.entries(MODULE_ACCOUNTS).map(([name, permissions]) => ({ name, permissions })) });
  const chain = await TestChain.open({ registry, chainId: CHAIN_ID, modules, config });
  return { chain, keeper, bank, ak, registry };
}

/** Genesis: `balances` per dev key index; liquidity params over the defaults. */
export function genesis(s: TestSetup, balances: Record<number, Coin[]>, params: Partial<LiquidityParams> = {}): Record<string, unknown> {
  const sorted = (cs: Coin[]) => [...cs].sort((a, b) => (a.denom < b.denom ? -1 : 1));
  return {
    bank: {
      params: { send_enabled: [], default_send_enabled: true },
      balances: Object.entries(balances).map(([i, coins]) => ({ address: devKey(Number(i)).address, coins: sorted(coins) })),
      supply: [], denom_metadata: [], send_enabled: [],
    },
    liquidity: s.registry.toJSON('chain.liquidity.v1beta1.GenesisState', {
      params: { ...defaultLiquidityParams(), ...params }, pool_records: [], deposit_success_msgs: [], swap_success_msgs: [], withdraw_success_msgs: [],
    }),
  };
}

export async function startChain(balances: Record<number, Coin[]>, params: Partial<LiquidityParams> = {}): Promise<TestSetup> {
  const s = await openChain();
  await s.chain.init(genesis(s, balances, params));
  return s;
}

export const c = (amount: bigint | number | string, denom: string): Coin => ({ denom, amount: BigInt(amount).toString() });
export const dec = (text: string): string => Dec.fromString(text).atomics();

export const msg = {
  create: (s: TestSetup, creator: string, coins: Coin[], typeUrl?: string): AnyMsg =>
    s.registry.packAny('chain.liquidity.v1beta1.MsgCreatePool', { pool_creator_address: creator, pool_type_id: 1, deposit_coins: coins }, typeUrl),
  deposit: (s: TestSetup, depositor: string, poolId: bigint, coins: Coin[]): AnyMsg =>
    s.registry.packAny('chain.liquidity.v1beta1.MsgDepositWithinBatch', { depositor_address: depositor, pool_id: poolId, deposit_coins: coins }),
  withdraw: (s: TestSetup, withdrawer: string, poolId: bigint, poolCoin: Coin): AnyMsg =>
    s.registry.packAny('chain.liquidity.v1beta1.MsgWithdrawWithinBatch', { withdrawer_address: withdrawer, pool_id: poolId, pool_coin: poolCoin }),
  swap: (s: TestSetup, requester: string, poolId: bigint, offer: Coin, demandDenom: string, price: string, fee: Coin): AnyMsg =>
    s.registry.packAny('chain.liquidity.v1beta1.MsgSwapWithinBatch', {
      swap_requester_address: requester, pool_id: poolId, swap_type_id: 1, offer_coin: offer, demand_coin_denom: demandDenom, offer_coin_fee: fee, order_price: dec(price),
    }),
};

export function tx(s: TestSetup, key: DevKey, msgs: AnyMsg[]): Uint8Array {
  return buildTx(s.registry, [{ key, accountNumber: 0n, sequence: 0n }], msgs, { chainId: CHAIN_ID });
}

/** Delivers `msgs` from `key` in one tx of its own block; `blockEvents`: the block's (BeginBlock/EndBlock) events. */
export async function deliver(s: TestSetup, key: DevKey, ...msgs: AnyMsg[]): Promise<ExecTxResult & { blockEvents: Event[] }> {
  const res = await s.chain.block([tx(s, key, msgs)]);
  return { ...res.txResults[0]!, blockEvents: res.events };
}

export const balance = (s: TestSetup, address: string | Uint8Array, denom: string): bigint =>
  s.bank.getBalance(s.chain.ctx(), typeof address === 'string' ? codec.decode(address) : address, denom);
export const supply = (s: TestSetup, denom: string): bigint => s.bank.getSupply(s.chain.ctx(), denom);
export const escrow = (s: TestSetup): Uint8Array => s.ak.getModuleAddress(LIQUIDITY_MODULE_NAME);
export const reserves = (s: TestSetup, pool: Pool): [bigint, bigint] => {
  const r = s.keeper.getReserveCoins(s.chain.ctx(), pool);
  return [BigInt(r[0]!.amount), BigInt(r[1]!.amount)];
};

/** Events as [type, [[key, value], ...]] (mode attributes dropped). */
export function flatEvents(events: readonly Event[]): [string, [string, string][]][] {
  return events.map((e) => [e.type, e.attributes.filter((a) => a.key !== 'mode').map((a) => [a.key, a.value] as [string, string])]);
}

export function eventsOf(events: readonly Event[], type: string): Record<string, string>[] {
  return flatEvents(events).filter(([t]) => t === type).map(([, attrs]) => Object.fromEntries(attrs));
}

/**
 * The Go tests' style: one writable context over a branch of the committed state on which the test calls the
 * keeper, `BeginBlocker` (`deleteAndInitPoolBatches`) and `EndBlocker` (`executePoolBatches`) itself, and moves
 * the height (`ctx.WithBlockHeight`). Nothing is committed; read balances with `g.balance`.
 */
export class GoCtx {
  ctx: Context;
  private readonly base: Context;
  constructor(readonly s: TestSetup) {
    const { ctx } = s.chain.branchCtx();
    this.base = ctx;
    this.ctx = ctx;
  }
  get height(): number {
    return this.ctx.block.height;
  }
  setHeight(h: number): void {
    this.ctx = new Context(this.base.ms, { ...this.base.block, height: h }, 'block', new InfiniteGasMeter(), this.base.events);
  }
  next(): void {
    this.setHeight(this.height + 1);
  }
  begin(): void {
    this.s.keeper.deleteAndInitPoolBatches(this.ctx);
  }
  end(): void {
    this.s.keeper.executePoolBatches(this.ctx);
  }
  balance(address: string | Uint8Array, denom: string): bigint {
    return this.s.bank.getBalance(this.ctx, typeof address === 'string' ? codec.decode(address) : address, denom);
  }
  supply(denom: string): bigint {
    return this.s.bank.getSupply(this.ctx, denom);
  }
  reserves(pool: Pool): [bigint, bigint] {
    const r = this.s.keeper.getReserveCoins(this.ctx, pool);
    return [BigInt(r[0]!.amount), BigInt(r[1]!.amount)];
  }
  /** `app.SaveAccount` style top-up: sends `coins` from `from` (a funded genesis account) to `to`. */
  send(from: string, to: string | Uint8Array, coins: Coin[]): void {
    this.s.bank.sendCoins(this.ctx, codec.decode(from), typeof to === 'string' ? codec.decode(to) : to, coins);
  }
}

/** The keeper's msg objects (what the Go tests pass to the keeper). */
export const kmsg = {
  create: (creator: string, coins: Coin[]) => ({ pool_creator_address: creator, pool_type_id: 1, deposit_coins: coins }),
  deposit: (depositor: string, poolId: bigint, coins: Coin[]) => ({ depositor_address: depositor, pool_id: poolId, deposit_coins: coins }),
  withdraw: (withdrawer: string, poolId: bigint, poolCoin: Coin) => ({ withdrawer_address: withdrawer, pool_id: poolId, pool_coin: poolCoin }),
  /** `types.NewMsgSwapWithinBatch`: the offer coin fee from the swap fee rate (default 0.003). */
  swap: (requester: string, poolId: bigint, offer: Coin, demandDenom: string, price: string, feeRate = '0.003') => ({
    swap_requester_address: requester, pool_id: poolId, swap_type_id: 1, offer_coin: offer, demand_coin_denom: demandDenom,
    offer_coin_fee: { denom: offer.denom, amount: offerFee(BigInt(offer.amount), feeRate).toString() }, order_price: dec(price),
  }),
};

/** `GetOfferCoinFee`: ceil(offer × rate / 2). */
export function offerFee(offer: bigint, rate = '0.003'): bigint {
  return liquiditySwap.offerCoinFee(offer, Dec.fromString(rate));
}

/** The registered error (`codespace:code`) a call throws, or 'ok'. */
export function codeOf(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (e) {
    const err = e as { codespace?: string; code?: number; message?: string };
    return err.codespace !== undefined ? `${err.codespace}:${err.code}` : `error: ${err.message}`;
  }
}
