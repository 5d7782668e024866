/**
 * `createChainApp`: the one place the chain's app is composed (the file another chain copies). Three
 * steps, in this order:
 *   1. the registry and the router (built first: a keeper that dispatches messages can be handed it);
 *   2. the keepers, in dependency order (auth → bank → staking → distribution, slashing → evidence, mint →
 *      token, evm → params, upgrade → gov), each given only the keepers it declares;
 *   3. the hooks between modules, then the App over the declared config (`app-config.ts`).
 */
import { App, blockedModuleAccounts, createRouter, moduleAccountPermissions, parseDecCoins } from '@chain/app';
import type { AppConfig, Router } from '@chain/app';
import { ProtoRegistry } from '@chain/codec';
import type { CommitStore } from '@chain/store';
import { CONSENSUS_PROTO_DIR } from '@chain/consensus';
import { AccountKeeper, AddressCodec, AuthModule, authParamSubspace, createAnteHandler } from '@chain/auth';
import { BankKeeper, BankModule, bankParamSubspace } from '@chain/bank';
import { EvmKeeper, EvmModule, createEvmAnteHandler, evmFeeMarketParamSubspace, evmParamSubspace, routeAnte } from '@chain/evm';
import { StakingKeeper, StakingModule, stakingParamSubspace } from '@chain/staking';
import { DistributionKeeper, DistributionModule, createCommunityPoolSpendProposalRoute, distributionParamSubspace } from '@chain/distribution';
import { SlashingKeeper, SlashingModule, slashingParamSubspace } from '@chain/slashing';
import { EvidenceKeeper, EvidenceModule } from '@chain/evidence';
import { MintKeeper, MintModule, mintParamSubspace } from '@chain/mint';
import { Prc10Keeper, Prc10Module, prc10ParamSubspace } from '@chain/prc10';
import { LiquidityKeeper, LiquidityModule, liquidityParamSubspace } from '@chain/liquidity';
import { GovKeeper, GovModule, govParamSubspace } from '@chain/gov';
import { ParamsKeeper, ParamsModule, createParamChangeProposalRoute } from '@chain/params';
import { UpgradeKeeper, UpgradeModule, createCancelSoftwareUpgradeProposalRoute, createSoftwareUpgradeProposalRoute } from '@chain/upgrade';
import { SERVER_PROTO_DIR } from '@chain/server/node';
import { CHAIN_APP_CONFIG } from './app-config.js';
import { BECH32_PREFIX } from './config/init.js';

import { VERSION } from './version.js';
export { VERSION };

export interface ChainAppOptions {
  readonly store: CommitStore;
  readonly chainId: string;
  /** `minimum-gas-prices` of app.toml (e.g. `1000000000achain`) */
  readonly minGasPrices: string;
  /** the declared app (default: the chain's, `app-config.ts`) */
  readonly config?: AppConfig;
  /** gas cap of eth_call / eth_estimateGas (`[json-rpc] gas-cap`; 0 = the default) */
  readonly evmGasCap?: bigint;
  /** time limit of eth_call / eth_estimateGas (`[json-rpc] evm-timeout`; 0 = none) */
  readonly evmQueryTimeoutMs?: number;
  /** the node's home: the upgrade keeper writes `<homeDir>/data/upgrade-info.json` when it halts the chain */
  readonly homeDir?: string;
  /** heights whose upgrade plan this node skips instead of halting (`--unsafe-skip-upgrades`) */
  readonly skipUpgradeHeights?: readonly number[];
  /** where the upgrade keeper logs its halt, skip and apply messages */
  readonly upgradeLogger?: { info(msg: string): void; error(msg: string): void };
  /** InitChain moves its writes to disk once this many are held (a large genesis; `AppOptions.genesisSpillEntries`) */
  readonly genesisSpillEntries?: number;
}

export interface ChainApp {
  /** bech32 address of the governance authority (the `config.authority` module account, `gov` by default) */
  readonly authority: string;
  readonly registry: ProtoRegistry;
  readonly router: Router;
  readonly app: App;
  readonly accountKeeper: AccountKeeper;
  readonly bankKeeper: BankKeeper;
  readonly evmKeeper: EvmKeeper;
  readonly stakingKeeper: StakingKeeper;
  readonly distributionKeeper: DistributionKeeper;
  readonly slashingKeeper: SlashingKeeper;
  readonly evidenceKeeper: EvidenceKeeper;
  readonly mintKeeper: MintKeeper;
  /** the token module (prc10, module `token`) */
  readonly prc10Keeper: Prc10Keeper;
  /** the liquidity module (Gravity DEX pools; the creation fee goes to distribution's community pool) */
  readonly liquidityKeeper: LiquidityKeeper;
  readonly govKeeper: GovKeeper;
  /** every module's params, one subspace per module (`/chain/params/v1beta1/params`, ParameterChangeProposal) */
  readonly paramsKeeper: ParamsKeeper;
  /** plans, applied upgrades and this binary's upgrade handlers (`upgradeKeeper.setUpgradeHandler(name, ...)`) */
  readonly upgradeKeeper: UpgradeKeeper;
}

/** Builds the registry, router, keepers, hooks and app on a store (usable without the node, e.g. in tests). */
export function createChainApp(opts: ChainAppOptions): ChainApp {
  const config = opts.config ?? CHAIN_APP_CONFIG;
  // 1. registry and router
  const registry = new ProtoRegistry();
  registry.addProtoDir(CONSENSUS_PROTO_DIR);
  registry.addProtoDir(SERVER_PROTO_DIR); // the node-level services (chain.base.consensus.v1beta1.Service)
  const router = createRouter(registry);

  // 2. keepers in dependency order
  const addressCodec = new AddressCodec(BECH32_PREFIX);
  const accountKeeper = new AccountKeeper({ registry, addressCodec, moduleAccounts: moduleAccountPermissions(config) });
  // keepers of governance-gated messages (MsgUpdateParams) take this address as their authority
  const authority = addressCodec.encode(accountKeeper.getModuleAddress(config.authority ?? 'gov'));
  const blocked = new Set(blockedModuleAccounts(config).map((n) => addressCodec.encode(accountKeeper.getModuleAddress(n))));
  const bankKeeper = new BankKeeper({ registry, accountKeeper, blockedAddresses: blocked });
  const stakingKeeper = new StakingKeeper({ registry, accountKeeper, bankKeeper });
  const distributionKeeper = new DistributionKeeper({ registry, accountKeeper, bankKeeper, stakingKeeper });
  const slashingKeeper = new SlashingKeeper({ registry, stakingKeeper, bech32Prefix: BECH32_PREFIX });
  const evidenceKeeper = new EvidenceKeeper({ registry, stakingKeeper, slashingKeeper, bech32Prefix: BECH32_PREFIX });
  const mintKeeper = new MintKeeper({ registry, bankKeeper, stakingKeeper, accountKeeper });
  const prc10Keeper = new Prc10Keeper({ registry, accountKeeper, bankKeeper });
  const liquidityKeeper = new LiquidityKeeper({ registry, accountKeeper, bankKeeper, distributionKeeper });
  const evmKeeper = new EvmKeeper({
    registry, accountKeeper, bankKeeper,
    gasCap: opts.evmGasCap ? opts.evmGasCap : undefined,
    queryTimeoutMs: opts.evmQueryTimeoutMs === 0 ? Infinity : opts.evmQueryTimeoutMs,
    // the stateRoot of each block's Ethereum header: the app hash the block starts from (its CometBFT app_hash)
    lastAppHash: () => app.lastAppHash,
  });
  // governance: params reads and changes each module's params through the module's own subspace (of the
  // modules in the config); upgrade keeps the plans; gov routes the proposal contents those modules own
  const subspaces = [
    ['auth', authParamSubspace(accountKeeper)], ['bank', bankParamSubspace(bankKeeper)], ['staking', stakingParamSubspace(stakingKeeper)],
    ['distribution', distributionParamSubspace(distributionKeeper)], ['slashing', slashingParamSubspace(slashingKeeper)],
    ['mint', mintParamSubspace(mintKeeper)], ['evm', evmParamSubspace(evmKeeper)], ['evm', evmFeeMarketParamSubspace(evmKeeper)],
    ['token', prc10ParamSubspace(prc10Keeper)], ['liquidity', liquidityParamSubspace(liquidityKeeper)],
  ] as const;
  const paramsKeeper = new ParamsKeeper({ subspaces: subspaces.filter(([m]) => config.modules.includes(m)).map(([, sub]) => sub) });
  const upgradeKeeper = new UpgradeKeeper({
    registry, moduleVersions: () => app.manager.versionMap(), homeDir: opts.homeDir, skipUpgradeHeights: opts.skipUpgradeHeights, logger: opts.upgradeLogger,
  });
  const govKeeper = new GovKeeper({
    registry, accountKeeper, bankKeeper, stakingKeeper,
    contentRoutes: [
      createParamChangeProposalRoute(paramsKeeper), createSoftwareUpgradeProposalRoute(upgradeKeeper), createCancelSoftwareUpgradeProposalRoute(upgradeKeeper),
      createCommunityPoolSpendProposalRoute(distributionKeeper),
    ],
  });
  if (config.modules.includes('gov')) paramsKeeper.addSubspace(govParamSubspace(govKeeper));

  // 3. hooks: staking tells distribution (F1 periods) and slashing (signing infos), in that order
  stakingKeeper.hooks.set(distributionKeeper.stakingHooks, slashingKeeper.stakingHooks);
  // then the app over the declared config
  const app = new App({
    registry,
    store: opts.store,
    chainId: opts.chainId,
    bech32AccountPrefix: BECH32_PREFIX,
    router,
    config,
    genesisSpillEntries: opts.genesisSpillEntries,
    // the modules the config names (a smaller config, e.g. without proof of stake, composes a smaller app)
    modules: [
      new AuthModule(accountKeeper), new BankModule(bankKeeper), new StakingModule(stakingKeeper), new DistributionModule(distributionKeeper),
      new SlashingModule(slashingKeeper), new EvidenceModule(evidenceKeeper), new MintModule(mintKeeper), new EvmModule(evmKeeper),
      new Prc10Module(prc10Keeper), new LiquidityModule(liquidityKeeper), new GovModule(govKeeper), new ParamsModule(paramsKeeper), new UpgradeModule(upgradeKeeper),
    ].filter((m) => config.modules.includes(m.name)),
    // Ethereum txs (marked by the ExtensionOptionsEthereumTx option) go through the evm ante, others through auth's
    anteHandler: routeAnte(createEvmAnteHandler(evmKeeper), createAnteHandler(accountKeeper, bankKeeper)),
    minGasPrices: parseDecCoins(opts.minGasPrices),
    name: 'chain',
    version: VERSION,
  });
  router.registerPathAlias('/cosmos.base.tendermint.', '/chain.base.consensus.');
  return {
    authority, registry, router, app, accountKeeper, bankKeeper, evmKeeper, stakingKeeper, distributionKeeper, slashingKeeper, evidenceKeeper, mintKeeper, prc10Keeper,
    liquidityKeeper, govKeeper, paramsKeeper, upgradeKeeper,
  };
}
