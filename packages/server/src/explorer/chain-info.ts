/**
 * Wallet-ready descriptions of the chain, built from what the node is configured with (`ChainDescription`,
 * filled in by the node from its genesis, app.toml and config.toml) and the address the client reached the
 * REST server at:
 *
 * - Keplr's `ChainInfo` for `window.keplr.experimentalSuggestChain` (`@keplr-wallet/types` chain-info.ts,
 *   currency.ts, ethereum.ts: `rpc`, `rest`, `chainId`, `chainName`, `stakeCurrency`, `bip44`, `bech32Config`,
 *   `currencies`, `feeCurrencies` with `gasPriceStep`, `features`, `evm`);
 * - the cosmos chain-registry's `chain.json` and `assetlist.json` (chain.schema.json, assetlist.schema.json);
 * - the explorer page's own `config.json` (the URLs of the public surfaces it reads).
 *
 * Pure functions: the REST server calls them per request (`serve.ts`).
 */

/** A listen address as the config files write it: `tcp://host:port`, `host:port`, `:port`. */
export type ListenAddress = string;

export interface ChainDescription {
  /** the Cosmos chain id, e.g. `chain_1337-1` */
  readonly chainId: string;
  /** the chain-registry `chain_name` (lowercase letters and digits), e.g. `chain` */
  readonly chainName: string;
  /** a human name, e.g. `Chain Devnet` */
  readonly prettyName: string;
  readonly networkType: 'mainnet' | 'testnet' | 'devnet';
  /** the bech32 account prefix; `valoper`, `valcons` and `pub` forms follow the SDK's rules */
  readonly bech32Prefix: string;
  /** the BIP-44 coin type of the chain's keys (60: Ethereum-style eth_secp256k1 addresses) */
  readonly coinType: number;
  /** chain-registry key algorithms, e.g. `['ethsecp256k1', 'secp256k1']` */
  readonly keyAlgos: readonly ('secp256k1' | 'ethsecp256k1' | 'ed25519' | 'sr25519')[];
  /** the staking and fee token */
  readonly denom: {
    readonly base: string;
    readonly display: string;
    readonly decimals: number;
    readonly symbol: string;
    readonly description: string;
  };
  /** gas prices in base units per gas: `min` is the node's `minimum-gas-prices` (0 when none) */
  readonly gasPrice: { readonly min: number; readonly low: number; readonly average: number; readonly high: number };
  /** the EIP-155 chain id of the chain's EVM (undefined: no EVM) */
  readonly evmChainId?: number;
  /** the node's binary and its default home (chain-registry `daemon_name`, `node_home`) */
  readonly daemonName: string;
  readonly nodeHome: string;
  /** the listen addresses of the node's public surfaces (undefined: not served) */
  readonly listen: {
    /** the CometBFT RPC and its `/websocket` (or the URL of an external CometBFT's RPC) */
    readonly rpc: ListenAddress;
    readonly grpc?: ListenAddress;
    readonly jsonRpc?: ListenAddress;
    readonly jsonRpcWs?: ListenAddress;
  };
}

/** The URLs a client on the other end of one request reaches the node's surfaces at. */
export interface PublicEndpoints {
  readonly rest: string;
  readonly rpc: string;
  readonly rpcWebsocket: string;
  readonly grpc?: string;
  readonly jsonRpc?: string;
  readonly jsonRpcWs?: string;
  readonly explorer: string;
}

const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]', '*']);

/** `host:port` of a URL host, IPv6 hosts in brackets. */
function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The host and port clients reach a listen address at: a wildcard host (`0.0.0.0`, `::`, none) is the host the
 * client used for the REST server (it reached this machine by that name), any other host stays.
 */
export function publicHostPort(listen: ListenAddress, requestHost: string): string {
  const s = listen.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/, '');
  const i = s.lastIndexOf(':');
  if (i < 0) throw new Error(`invalid listen address ${listen}`);
  const host = s.slice(0, i).replace(/^\[|\]$/g, '');
  const port = Number(s.slice(i + 1));
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`invalid port in listen address ${listen}`);
  return hostPort(WILDCARD_HOSTS.has(host) ? requestHost : host, port);
}

/** The hostname of a `Host` header (`localhost:1317` → `localhost`, `[::1]:1317` → `::1`). */
export function hostnameOf(hostHeader: string): string {
  const m = /^\[([^\]]+)\](?::\d+)?$/.exec(hostHeader);
  if (m) return m[1]!;
  const i = hostHeader.lastIndexOf(':');
  return i >= 0 && /^\d+$/.test(hostHeader.slice(i + 1)) ? hostHeader.slice(0, i) : hostHeader;
}

/**
 * The node's public URLs as seen by a client that reached the REST server at `restOrigin`
 * (`http://localhost:1317`): wildcard listen hosts become that client's host name.
 */
export function publicEndpoints(d: ChainDescription, restOrigin: string): PublicEndpoints {
  const u = new URL(restOrigin);
  const reqHost = u.hostname.replace(/^\[|\]$/g, '');
  const rest = u.origin;
  const rpcHttp = /^https?:\/\//i.test(d.listen.rpc)
    ? d.listen.rpc.replace(/\/+$/, '')
    : `http://${publicHostPort(d.listen.rpc, reqHost)}`;
  const rpcWebsocket = `${rpcHttp.replace(/^http/i, 'ws')}/websocket`;
  return {
    rest,
    rpc: rpcHttp,
    rpcWebsocket,
    grpc: d.listen.grpc === undefined ? undefined : publicHostPort(d.listen.grpc, reqHost),
    jsonRpc: d.listen.jsonRpc === undefined ? undefined : `http://${publicHostPort(d.listen.jsonRpc, reqHost)}`,
    jsonRpcWs: d.listen.jsonRpcWs === undefined ? undefined : `ws://${publicHostPort(d.listen.jsonRpcWs, reqHost)}`,
    explorer: `${rest}/explorer/`,
  };
}

/** The SDK's bech32 prefixes derived from the account prefix. */
export function bech32Config(prefix: string) {
  return {
    bech32PrefixAccAddr: prefix,
    bech32PrefixAccPub: `${prefix}pub`,
    bech32PrefixValAddr: `${prefix}valoper`,
    bech32PrefixValPub: `${prefix}valoperpub`,
    bech32PrefixConsAddr: `${prefix}valcons`,
    bech32PrefixConsPub: `${prefix}valconspub`,
  };
}

/** Keplr's `ChainInfo`, for `window.keplr.experimentalSuggestChain(chainInfo)`. */
export function keplrChainInfo(d: ChainDescription, e: PublicEndpoints): Record<string, unknown> {
  const currency = { coinDenom: d.denom.symbol, coinMinimalDenom: d.denom.base, coinDecimals: d.denom.decimals };
  const ethKeys = d.coinType === 60 && d.keyAlgos.includes('ethsecp256k1');
  return {
    rpc: e.rpc,
    rest: e.rest,
    chainId: d.chainId,
    chainName: d.prettyName,
    stakeCurrency: currency,
    bip44: { coinType: d.coinType },
    bech32Config: bech32Config(d.bech32Prefix),
    currencies: [currency],
    feeCurrencies: [{ ...currency, gasPriceStep: { low: d.gasPrice.low, average: d.gasPrice.average, high: d.gasPrice.high } }],
    // coin type 60 with eth_secp256k1 keys: addresses are keccak256-derived (Ethereum) and signatures are over keccak256
    features: ethKeys ? ['eth-address-gen', 'eth-key-sign'] : [],
    ...(d.evmChainId !== undefined && e.jsonRpc !== undefined
      ? { evm: { chainId: d.evmChainId, rpc: e.jsonRpc, ...(e.jsonRpcWs ? { websocket: e.jsonRpcWs } : {}) } }
      : {}),
    ...(d.networkType === 'mainnet' ? {} : { beta: true }),
  };
}

/**
 * The chain-registry `chain.json` (chain.schema.json): no properties beyond the schema's (it refuses
 * additional ones). `explorers` points at this node's explorer pages with the registry's placeholders.
 */
export function chainRegistryChain(d: ChainDescription, e: PublicEndpoints): Record<string, unknown> {
  const provider = `${d.daemonName} node`;
  const apis: Record<string, { address: string; provider: string }[]> = {
    rpc: [{ address: e.rpc, provider }],
    rest: [{ address: e.rest, provider }],
  };
  if (e.grpc !== undefined) apis.grpc = [{ address: e.grpc, provider }];
  apis.wss = [{ address: e.rpcWebsocket, provider }];
  if (e.jsonRpc !== undefined) apis['evm-http-jsonrpc'] = [{ address: e.jsonRpc, provider }];
  return {
    $schema: '../chain.schema.json',
    chain_name: d.chainName,
    chain_type: 'cosmos',
    chain_id: d.chainId,
    pretty_name: d.prettyName,
    status: 'live',
    network_type: d.networkType,
    bech32_prefix: d.bech32Prefix,
    daemon_name: d.daemonName,
    node_home: d.nodeHome,
    key_algos: [...d.keyAlgos],
    slip44: d.coinType,
    fees: {
      fee_tokens: [{
        denom: d.denom.base,
        fixed_min_gas_price: d.gasPrice.min,
        low_gas_price: d.gasPrice.low,
        average_gas_price: d.gasPrice.average,
        high_gas_price: d.gasPrice.high,
      }],
    },
    staking: { staking_tokens: [{ denom: d.denom.base }] },
    apis,
    explorers: [{
      kind: d.daemonName,
      url: e.explorer,
      tx_page: `${e.explorer}#/tx/\${txHash}`,
      account_page: `${e.explorer}#/account/\${accountAddress}`,
      validator_page: `${e.explorer}#/validator/\${validatorAddress}`,
      proposal_page: `${e.explorer}#/proposal/\${proposalId}`,
      block_page: `${e.explorer}#/block/\${blockHeight}`,
    }],
    ...(d.keyAlgos.includes('ethsecp256k1') ? { extra_codecs: ['ethermint'] } : {}),
  };
}

/** The chain-registry `assetlist.json` (assetlist.schema.json): the staking and fee token. */
export function chainRegistryAssetList(d: ChainDescription): Record<string, unknown> {
  return {
    $schema: '../assetlist.schema.json',
    chain_name: d.chainName,
    assets: [{
      description: d.denom.description,
      denom_units: [
        { denom: d.denom.base, exponent: 0 },
        { denom: d.denom.display, exponent: d.denom.decimals },
      ],
      type_asset: 'sdk.coin',
      base: d.denom.base,
      name: d.prettyName.slice(0, 30),
      display: d.denom.display,
      symbol: d.denom.symbol,
    }],
  };
}

/** Where the REST server serves the wallet descriptions. */
export const WALLET_JSON_PATHS = {
  keplr: '/keplr/chain-info.json',
  chainRegistry: '/chain-registry/chain.json',
  assetList: '/chain-registry/assetlist.json',
} as const;

/** The explorer page's `config.json`: the chain's names and the URLs of the surfaces the page reads. */
export function explorerConfig(d: ChainDescription, e: PublicEndpoints): Record<string, unknown> {
  return {
    chainId: d.chainId,
    chainName: d.prettyName,
    bech32Prefix: d.bech32Prefix,
    coinType: d.coinType,
    denom: { base: d.denom.base, display: d.denom.display, decimals: d.denom.decimals, symbol: d.denom.symbol },
    evmChainId: d.evmChainId ?? null,
    rest: e.rest,
    rpc: e.rpc,
    rpcWebsocket: e.rpcWebsocket,
    jsonRpc: e.jsonRpc ?? null,
    jsonRpcWs: e.jsonRpcWs ?? null,
    wallet: { ...WALLET_JSON_PATHS },
  };
}

/**
 * Gas price steps from a minimum gas price (base units per gas): low = the minimum, average = 2×, high = 4×.
 * A node without a minimum (0) suggests 0 / 10^9 / 2·10^9 base units (1 and 2 gwei in the EVM's terms: 10^9 is
 * the evm module's initial base fee).
 */
export function gasPriceSteps(min: number): ChainDescription['gasPrice'] {
  if (!(min > 0)) return { min: 0, low: 0, average: 1e9, high: 2e9 };
  return { min, low: min, average: 2 * min, high: 4 * min };
}
