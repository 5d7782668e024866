/**
 * A test chain of auth + bank + mint (@chain/testing's TestChain, composed from the public APIs as
 * createChainApp composes the node's app), with a fake of mint's expected staking keeper: the bond-denom
 * supply is bank's supply and the bonded tokens are the balance of the `bonded_tokens_pool` module account,
 * both set from the genesis balances (the SDK's `StakingTokenSupply` / `BondedRatio` over the real staking).
 */
import type { Context } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule } from '@chain/auth';
import { BankKeeper, BankModule } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import type { Event } from '@chain/events';
import { Dec } from '@chain/math';
import { TestChain, devKey, testAppConfig } from '@chain/testing';
import { MintKeeper, MintModule } from '../src/index.js';
import type { MintStakingKeeper } from '../src/index.js';

export const CHAIN_ID = 'mint-test-1';
export const PREFIX = 'chain';
export const BOND_DENOM = 'stake';
export const BONDED_POOL = 'bonded_tokens_pool';
export const FEE_COLLECTOR = 'fee_collector';
export const MODULE_ACCOUNTS: Record<string, string[]> = {
  [FEE_COLLECTOR]: [],
  mint: ['minter'],
  [BONDED_POOL]: ['burner', 'staking'],
};

/** The expected staking keeper, over bank state the test controls (genesis balances). */
export class FakeStakingKeeper implements MintStakingKeeper {
  constructor(
    private readonly bank: BankKeeper,
    private readonly bondedPool: Uint8Array,
    readonly bondDenom = BOND_DENOM,
  ) {}

  stakingTokenSupply(ctx: Context): bigint {
    return this.bank.getSupply(ctx, this.bondDenom);
  }

  /** `TotalBondedTokens().ToDec().QuoInt(supply)`, zero when the supply is not positive. */
  bondedRatio(ctx: Context): Dec {
    const supply = this.stakingTokenSupply(ctx);
    if (supply <= 0n) return Dec.zero();
    return Dec.fromInt(this.bank.getBalance(ctx, this.bondedPool, this.bondDenom)).quoInt(supply);
  }
}

export interface TestSetup {
  readonly chain: TestChain;
  readonly registry: ProtoRegistry;
  readonly codec: AddressCodec;
  readonly ak: AccountKeeper;
  readonly bk: BankKeeper;
  readonly keeper: MintKeeper;
  readonly staking: FakeStakingKeeper;
  /** bech32 addresses of the module accounts */
  readonly addr: Record<string, string>;
}

/** A fresh auth + bank + mint chain (`close()` it); not initialized yet. */
export async function openChain(): Promise<TestSetup> {
  const registry = new ProtoRegistry();
  const codec = new AddressCodec(PREFIX);
  const ak = new AccountKeeper({ registry, addressCodec: codec, moduleAccounts: MODULE_ACCOUNTS });
  const bk = new BankKeeper({ registry, accountKeeper: ak });
  const staking = new FakeStakingKeeper(bk, ak.getModuleAddress(BONDED_POOL));
  const keeper = new MintKeeper({ registry, bankKeeper: bk, stakingKeeper: staking, accountKeeper: ak });
  const modules = [new AuthModule(ak), new BankModule(bk), new MintModule(keeper)];
  const chain = await TestChain.open({ registry, chainId: CHAIN_ID, modules, config: testAppConfig(modules) });
  const addr: Record<string, string> = {};
  for (const name of Object.keys(MODULE_ACCOUNTS)) addr[name] = codec.encode(ak.getModuleAddress(name));
  return { chain, registry, codec, ak, bk, keeper, staking, addr };
}

/** Genesis app_state: bank balances (address → amount of the bond denom) and the mint genesis JSON. */
export function genesis(s: TestSetup, balances: Record<string, bigint>, mint?: Record<string, unknown>): Record<string, unknown> {
  const state: Record<string, unknown> = {
    bank: {
      params: { send_enabled: [], default_send_enabled: true },
      balances: Object.entries(balances).map(([address, amount]) => ({ address, coins: [{ denom: BOND_DENOM, amount: amount.toString() }] })),
      supply: [],
      denom_metadata: [],
      send_enabled: [],
    },
  };
  if (mint) state['mint'] = mint;
  return state;
}

export const USER = devKey(0, PREFIX);

/** Events as [type, [[key, value], ...]] tuples (the block's `mode` attribute dropped). */
export function flatEvents(events: readonly Event[]): [string, [string, string][]][] {
  return events.map((e) => [e.type, e.attributes.filter((a) => a.key !== 'mode').map((a) => [a.key, a.value] as [string, string])]);
}

/** The attributes of the first event of `type`, as an object (without the block's `mode` attribute). */
export function attrsOf(events: readonly Event[], type: string): Record<string, string> | undefined {
  const e = events.find((x) => x.type === type);
  return e ? Object.fromEntries(e.attributes.filter((a) => a.key !== 'mode').map((a) => [a.key, a.value])) : undefined;
}
