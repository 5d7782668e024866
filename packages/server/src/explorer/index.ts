export {
  bech32Config, chainRegistryAssetList, chainRegistryChain, explorerConfig, gasPriceSteps, hostnameOf, keplrChainInfo, publicEndpoints,
  publicHostPort, WALLET_JSON_PATHS,
} from './chain-info.js';
export type { ChainDescription, ListenAddress, PublicEndpoints } from './chain-info.js';
export { createExplorerHandler, EXPLORER_STATIC_DIR } from './serve.js';
export type { ExplorerServeOptions } from './serve.js';
