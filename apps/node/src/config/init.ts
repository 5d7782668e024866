/** `chaind init` / `chaind dev`: writes a home folder with config files, validator key and genesis. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEV_MNEMONIC, derivePrivateKey, hdPath, secp256k1PublicKey, secp256k1Address, ethAddress, randomBytes, toBech32, toHex, toChecksumAddress } from '@chain/crypto';
import { defaultConsensusParamsJSON, privValidatorKeyJSON } from '@chain/consensus';
import type { GenesisDoc, PrivValidatorKeyJSON } from '@chain/consensus';
import { appTomlTemplate, configTomlTemplate } from './templates.js';
import { configDir } from './config.js';

export const DEV_CHAIN_ID = 'chain_1337-1';
export const BECH32_PREFIX = 'chain';
export const BASE_DENOM = 'achain';
export const DEV_BALANCE = '1000000000000000000000000'; // 10^24 achain = 10^6 chain
export const DEV_MIN_GAS_PRICES = '1000000000achain';
export const DEV_ACCOUNT_COUNT = 10;

export interface DevAccount {
  readonly index: number;
  readonly coinType: 60 | 118;
  readonly path: string;
  readonly address: string;
  readonly hexAddress: string;
  readonly privateKey: string;
  readonly keyType: 'eth_secp256k1' | 'secp256k1';
}

/** The funded dev accounts: the first 10 of the dev mnemonic under coin types 60 and 118. */
export function devAccounts(count = DEV_ACCOUNT_COUNT): DevAccount[] {
  const out: DevAccount[] = [];
  for (const coinType of [60, 118] as const) {
    for (let i = 0; i < count; i++) {
      const path = hdPath(coinType, i);
      const pk = derivePrivateKey(DEV_MNEMONIC, path);
      const pub = secp256k1PublicKey(pk);
      const addr = coinType === 60 ? ethAddress(pub) : secp256k1Address(pub);
      out.push({
        index: i, coinType, path, address: toBech32(BECH32_PREFIX, addr), hexAddress: toChecksumAddress(addr), privateKey: toHex(pk),
        keyType: coinType === 60 ? 'eth_secp256k1' : 'secp256k1',
      });
    }
  }
  return out;
}

export function chainMetadata(): Record<string, unknown> {
  return {
    description: 'The native staking and fee token of chain.',
    denom_units: [
      { denom: BASE_DENOM, exponent: 0, aliases: ['attochain'] },
      { denom: 'chain', exponent: 18, aliases: [] },
    ],
    base: BASE_DENOM,
    display: 'chain',
    name: 'chain',
    symbol: 'CHAIN',
    uri: '',
    uri_hash: '',
  };
}

export interface InitOptions {
  readonly home: string;
  readonly chainId?: string;
  readonly moniker?: string;
  /** fund the dev accounts and use dev defaults (REST on, swagger on) */
  readonly dev?: boolean;
  readonly overwrite?: boolean;
}

export function isInitialized(home: string): boolean {
  return existsSync(join(configDir(home), 'genesis.json'));
}

/** Writes config.toml, app.toml, priv_validator_key.json, node_key.json and genesis.json. */
export function initHome(o: InitOptions): { genesis: GenesisDoc; validatorKey: PrivValidatorKeyJSON } {
  const dir = configDir(o.home);
  if (isInitialized(o.home) && !o.overwrite) throw new Error(`${join(dir, 'genesis.json')} already exists; use another --home or --overwrite`);
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(o.home, 'data'), { recursive: true });
  const dev = o.dev ?? false;
  writeFileSync(join(dir, 'app.toml'), appTomlTemplate({ minGasPrices: dev ? DEV_MIN_GAS_PRICES : '', apiEnable: dev, swagger: dev, jsonRpcEnable: dev }));
  writeFileSync(join(dir, 'config.toml'), configTomlTemplate({ moniker: o.moniker ?? 'node0', timeoutCommit: '1s' }));
  const valKey = privValidatorKeyJSON(randomBytes(32));
  writeFileSync(join(dir, 'priv_validator_key.json'), JSON.stringify(valKey, null, 2), { mode: 0o600 });
  writeFileSync(join(dir, 'node_key.json'), JSON.stringify({ priv_key: { type: 'tendermint/PrivKeyEd25519', value: Buffer.from(randomBytes(64)).toString('base64') } }, null, 2), { mode: 0o600 });
  const accounts = dev ? devAccounts() : [];
  const genesis: GenesisDoc = {
    genesis_time: new Date().toISOString(),
    chain_id: o.chainId ?? DEV_CHAIN_ID,
    initial_height: '1',
    consensus_params: defaultConsensusParamsJSON(),
    validators: [{ address: valKey.address, pub_key: valKey.pub_key, power: '10', name: o.moniker ?? 'node0' }],
    app_hash: '',
    app_state: {
      auth: {
        params: { max_memo_characters: '256', tx_sig_limit: '7', tx_size_cost_per_byte: '10', sig_verify_cost_ed25519: '590', sig_verify_cost_secp256k1: '1000' },
        accounts: accounts.map((a, i) => ({ '@type': '/chain.auth.v1beta1.BaseAccount', address: a.address, pub_key: null, account_number: String(i), sequence: '0' })),
      },
      bank: {
        params: { send_enabled: [], default_send_enabled: true },
        balances: accounts.map((a) => ({ address: a.address, coins: [{ denom: BASE_DENOM, amount: DEV_BALANCE }] })),
        supply: [],
        denom_metadata: [chainMetadata()],
        send_enabled: [],
      },
    },
  };
  writeFileSync(join(dir, 'genesis.json'), JSON.stringify(genesis, null, 2));
  return { genesis, validatorKey: valKey };
}

export function readGenesis(home: string): GenesisDoc {
  const p = join(configDir(home), 'genesis.json');
  try {
    return JSON.parse(readFileSync(p, 'utf8')) as GenesisDoc;
  } catch (e) {
    throw new Error(`cannot read ${p}: ${(e as Error).message}`);
  }
}

export function readValidatorKey(home: string): PrivValidatorKeyJSON {
  const p = join(configDir(home), 'priv_validator_key.json');
  try {
    return JSON.parse(readFileSync(p, 'utf8')) as PrivValidatorKeyJSON;
  } catch (e) {
    throw new Error(`cannot read ${p}: ${(e as Error).message}`);
  }
}
