/**
 * A test chain of the node's modules that have params (auth, bank, staking, distribution, slashing, mint,
 * evm) and the params module over their subspaces, composed from the public APIs as createChainApp composes
 * the node's app, with the default genesis of every module.
 */
import { Context, EventManager, InfiniteGasMeter } from '@chain/app';
import type { AppModule } from '@chain/app';
import { AccountKeeper, AddressCodec, AuthModule, authParamSubspace } from '@chain/auth';
import { BankKeeper, BankModule, bankParamSubspace } from '@chain/bank';
import { ProtoRegistry } from '@chain/codec';
import { DistributionKeeper, DistributionModule, distributionParamSubspace } from '@chain/distribution';
import { EvmKeeper, EvmModule, evmFeeMarketParamSubspace, evmParamSubspace } from '@chain/evm';
import { MintKeeper, MintModule, mintParamSubspace } from '@chain/mint';
import { SlashingKeeper, SlashingModule, slashingParamSubspace } from '@chain/slashing';
import { StakingKeeper, StakingModule, stakingParamSubspace } from '@chain/staking';
import { branch } from '@chain/store';
import type { CacheKVStore } from '@chain/store';
import { TestChain, testAppConfig } from '@chain/testing';
import { ParamsKeeper, ParamsModule } from '../src/index.js';

export const CHAIN_ID = 'chain_9000-1';
export const PREFIX = 'chain';
export const MODULE_ACCOUNTS: Record<string, string[]> = {
  fee_collector: [],
  distribution: [],
  mint: ['minter'],
  bonded_tokens_pool: ['burner', 'staking'],
  not_bonded_tokens_pool: ['burner', 'staking'],
};

export interface TestSetup {
  readonly chain: TestChain;
  readonly registry: ProtoRegistry;
  readonly keeper: ParamsKeeper;
  readonly ak: AccountKeeper;
  readonly bk: BankKeeper;
  readonly sk: StakingKeeper;
  readonly dk: DistributionKeeper;
  readonly slk: SlashingKeeper;
  readonly mk: MintKeeper;
  readonly ek: EvmKeeper;
  readonly logs: string[];
}

/** A fresh chain of the modules with params and the params module (`close()` it), initialized with the default genesis. */
export async function openChain(): Promise<TestSetup> {
  const registry = new ProtoRegistry();
  const codec = new AddressCodec(PREFIX);
  const ak = new AccountKeeper({ registry, addressCodec: codec, moduleAccounts: MODULE_ACCOUNTS });
  const bk = new BankKeeper({ registry, accountKeeper: ak });
  const sk = new StakingKeeper({ registry, accountKeeper: ak, bankKeeper: bk });
  const dk = new DistributionKeeper({ registry, accountKeeper: ak, bankKeeper: bk, stakingKeeper: sk });
  const slk = new SlashingKeeper({ registry, stakingKeeper: sk, bech32Prefix: PREFIX });
  const mk = new MintKeeper({ registry, bankKeeper: bk, stakingKeeper: sk, accountKeeper: ak });
  const ek = new EvmKeeper({ registry, accountKeeper: ak, bankKeeper: bk });
  sk.hooks.set(dk.stakingHooks, slk.stakingHooks);
  const logs: string[] = [];
  const keeper = new ParamsKeeper({
    subspaces: [
      authParamSubspace(ak), bankParamSubspace(bk), stakingParamSubspace(sk), distributionParamSubspace(dk), slashingParamSubspace(slk),
      mintParamSubspace(mk), evmParamSubspace(ek), evmFeeMarketParamSubspace(ek),
    ],
    logger: { info: (m) => logs.push(m) },
  });
  const modules: AppModule[] = [
    new AuthModule(ak), new BankModule(bk), new StakingModule(sk), new DistributionModule(dk), new SlashingModule(slk), new MintModule(mk),
    new EvmModule(ek), new ParamsModule(keeper),
  ];
  const chain = await TestChain.open({ registry, chainId: CHAIN_ID, modules, config: testAppConfig(modules) });
  await chain.init({});
  return { chain, registry, keeper, ak, bk, sk, dk, slk, mk, ek, logs };
}

/** A writable deliver-like context over a branch of the committed state (`state.write()` is never called). */
export function branchCtx(s: TestSetup): { ctx: Context; state: CacheKVStore } {
  const state = branch(s.chain.store.state);
  const block = { height: s.chain.app.lastHeight + 1, time: new Date('2024-01-01T00:00:00Z'), chainId: CHAIN_ID, proposer: new Uint8Array() };
  return { ctx: new Context(state, block, 'deliver', new InfiniteGasMeter(), new EventManager()), state };
}

/** The error thrown by `fn` (fails the test when nothing is thrown). */
export function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error, nothing was thrown');
}
