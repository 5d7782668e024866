/** `chaind init` / `chaind dev`: writes a home folder with config files, validator key and genesis. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEV_MNEMONIC, derivePrivateKey, hdPath, secp256k1PublicKey, secp256k1Address, ethAddress, randomBytes, sha256, toBech32, toHex, toChecksumAddress, utf8,
} from '@chain/crypto';
import { defaultConsensusParamsJSON, privValidatorKeyJSON } from '@chain/consensus';
import type { GenesisDoc, PrivValidatorKeyJSON } from '@chain/consensus';
import { openGenesisFile } from '@chain/app';
import type { AppStateSource, GenesisFile } from '@chain/app';
import { fromBech32 } from '@chain/crypto';
import { appTomlTemplate, configTomlTemplate } from './templates.js';
import { configDir } from './config.js';

export {
  DEV_CHAIN_ID, BECH32_PREFIX, BASE_DENOM, DEV_BALANCE, DEV_MIN_GAS_PRICES, DEV_ACCOUNT_COUNT, GENESIS_SELF_DELEGATION, GOV_MIN_DEPOSIT, DEV_GOV_PERIOD,
} from './constants.js';
import {
  DEV_CHAIN_ID, BECH32_PREFIX, BASE_DENOM, DEV_BALANCE, DEV_MIN_GAS_PRICES, DEV_ACCOUNT_COUNT, GENESIS_SELF_DELEGATION, GOV_MIN_DEPOSIT, DEV_GOV_PERIOD,
} from './constants.js';

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

/** Gateway-JSON text of a Dec (18 decimals), as genesis files write them. */
const dec = (text: string): string => {
  const [i, f = ''] = text.split('.');
  return `${i}.${f.padEnd(18, '0')}`;
};

/**
 * The chain's genesis params. `chaind init` writes the original chain's production values (reference §2.8:
 * Plug Chain's first genesis and its documented params), with the bond and mint denom `achain`; `chaind dev`
 * keeps them but shortens the periods so a whole staking lifecycle (unbonding, downtime jailing, unjail)
 * runs in about a minute. Modules without an entry here start from their module defaults (evm, evidence).
 */
export function genesisParams(dev: boolean) {
  return {
    auth: { max_memo_characters: '256', tx_sig_limit: '7', tx_size_cost_per_byte: '10', sig_verify_cost_ed25519: '590', sig_verify_cost_secp256k1: '1000' },
    staking: {
      // 21 days in production; 20 s in dev
      unbonding_time: dev ? '20s' : '1814400s', max_validators: 100, max_entries: 7, historical_entries: 10000, bond_denom: BASE_DENOM,
    },
    slashing: {
      signed_blocks_window: dev ? '20' : '100',
      min_signed_per_window: dec('0.5'),
      // dev: 60 s, the shortest the SDK's genesis validation accepts ("at least 1 minute")
      downtime_jail_duration: dev ? '60s' : '600s',
      slash_fraction_double_sign: dec('0.05'),
      slash_fraction_downtime: dec('0.01'),
    },
    distribution: {
      community_tax: dec('0.02'), base_proposer_reward: dec('0.01'), bonus_proposer_reward: dec('0.04'), withdraw_addr_enabled: true,
    },
    mint: {
      mint_denom: BASE_DENOM, inflation_rate_change: dec('0.13'), inflation_max: dec('0.20'), inflation_min: dec('0.07'), goal_bonded: dec('0.67'),
      blocks_per_year: '6311520',
    },
    /** the minter's starting inflation (the SDK's `DefaultInitialMinter`, as the original chain's genesis) */
    initialInflation: dec('0.13'),
    // gov: the original chain's params (§2.8: min_deposit 10 of the display denom, quorum 0.334, threshold
    // 0.5, veto 0.334; voting period 120h and max deposit period 48h since its v1.7 upgrade); dev: 20 s each
    gov: {
      deposit_params: { min_deposit: [{ denom: BASE_DENOM, amount: GOV_MIN_DEPOSIT }], max_deposit_period: dev ? DEV_GOV_PERIOD : '172800s' },
      voting_params: { voting_period: dev ? DEV_GOV_PERIOD : '432000s' },
      tally_params: { quorum: dec('0.334'), threshold: dec('0.5'), veto_threshold: dec('0.334') },
    },
    /** block max_bytes 22020096, max_gas -1; evidence max age 100000 blocks / 172800 s; ed25519 keys */
    consensus: defaultConsensusParamsJSON(),
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
  writeFileSync(join(dir, 'app.toml'), appTomlTemplate({ minGasPrices: dev ? DEV_MIN_GAS_PRICES : '', apiEnable: dev, swagger: dev, jsonRpcEnable: dev, explorer: dev }));
  writeFileSync(join(dir, 'config.toml'), configTomlTemplate({ moniker: o.moniker ?? 'node0', timeoutCommit: '1s' }));
  const valKey = privValidatorKeyJSON(randomBytes(32));
  writeFileSync(join(dir, 'priv_validator_key.json'), JSON.stringify(valKey, null, 2), { mode: 0o600 });
  writeFileSync(join(dir, 'node_key.json'), JSON.stringify({ priv_key: { type: 'tendermint/PrivKeyEd25519', value: Buffer.from(randomBytes(64)).toString('base64') } }, null, 2), { mode: 0o600 });
  const accounts = dev ? devAccounts() : [];
  // the validator's operator: dev account 0 (coin type 60) in dev mode, otherwise a new key kept in the config
  // folder (the gentx-equivalent: an operator account, its self-delegation, the pool's balance)
  const operator = dev ? accounts[0]!.address : newOperatorAccount(dir);
  const genesis = buildGenesis({
    chainId: o.chainId ?? DEV_CHAIN_ID,
    dev,
    genesisTime: new Date().toISOString(),
    accounts: dev ? accounts.map((a) => ({ address: a.address, balance: DEV_BALANCE })) : [{ address: operator }],
    validators: [{ operator, key: valKey, moniker: o.moniker ?? 'node0' }],
  });
  writeFileSync(join(dir, 'genesis.json'), JSON.stringify(genesis, null, 2));
  return { genesis, validatorKey: valKey };
}

export interface GenesisValidatorSpec {
  /** the operator account (bech32), the delegator of the self-delegation */
  readonly operator: string;
  /** the node's consensus key */
  readonly key: PrivValidatorKeyJSON;
  readonly moniker: string;
}

/**
 * A new chain's genesis document: the accounts (with a balance when given) and the validators, each gentx-style
 * (unbonded, its self-delegation of GENESIS_SELF_DELEGATION in the not-bonded pool, so InitGenesis bonds them
 * and returns the initial validator set). `chaind init`/`dev` write it with one validator, `chaind localnet`
 * with N.
 */
export function buildGenesis(o: {
  chainId: string; dev: boolean; genesisTime: string;
  accounts: readonly { address: string; balance?: string }[];
  validators: readonly GenesisValidatorSpec[];
}): GenesisDoc {
  const { dev, genesisTime } = o;
  const params = genesisParams(dev);
  const power = String(BigInt(GENESIS_SELF_DELEGATION) / 10n ** 18n);
  const pool = BigInt(GENESIS_SELF_DELEGATION) * BigInt(o.validators.length);
  const genesis: GenesisDoc = {
    genesis_time: genesisTime,
    chain_id: o.chainId,
    initial_height: '1',
    consensus_params: params.consensus,
    validators: o.validators.map((v) => ({ address: v.key.address, pub_key: v.key.pub_key, power, name: v.moniker })),
    app_hash: '',
    app_state: {
      auth: {
        params: params.auth,
        accounts: o.accounts.map(({ address }, i) => ({ '@type': '/chain.auth.v1beta1.BaseAccount', address, pub_key: null, account_number: String(i), sequence: '0' })),
      },
      bank: {
        params: { send_enabled: [], default_send_enabled: true },
        balances: [
          ...o.accounts.filter((a) => a.balance !== undefined).map((a) => ({ address: a.address, coins: [{ denom: BASE_DENOM, amount: a.balance! }] })),
          // the self-delegation sits in the not-bonded pool until InitGenesis bonds the validator
          { address: toBech32(BECH32_PREFIX, moduleAddress('not_bonded_tokens_pool')), coins: [{ denom: BASE_DENOM, amount: pool.toString() }] },
        ],
        supply: [],
        denom_metadata: [chainMetadata()],
        send_enabled: [],
      },
      staking: stakingGenesis({ params: params.staking, validators: o.validators.map((v) => ({ operator: v.operator, consensusPubKey: v.key.pub_key.value, moniker: v.moniker })), genesisTime }),
      distribution: {
        params: params.distribution,
        fee_pool: { community_pool: [] },
        delegator_withdraw_infos: [],
        previous_proposer: '',
        outstanding_rewards: [],
        validator_accumulated_commissions: [],
        validator_historical_rewards: [],
        validator_current_rewards: [],
        delegator_starting_infos: [],
        validator_slash_events: [],
      },
      slashing: { params: params.slashing, signing_infos: [], missed_blocks: [] },
      mint: { minter: { inflation: params.initialInflation, annual_provisions: dec('0') }, params: params.mint },
      gov: { starting_proposal_id: '1', deposits: [], votes: [], proposals: [], ...params.gov },
      // liquidity: the original's params; the pool creation fee 40 of the display denom in achain (the original
      // chain's 40 pc in uplugcn), the minimum amounts as the original's (1000000 of each reserve's base unit)
      liquidity: {
        params: {
          pool_types: [{
            id: 1, name: 'StandardLiquidityPool', min_reserve_coin_num: 2, max_reserve_coin_num: 2,
            description: 'Standard liquidity pool with pool price function X/Y, ESPM constraint, and two kinds of reserve coins',
          }],
          min_init_deposit_amount: '1000000', init_pool_coin_mint_amount: '1000000', max_reserve_coin_amount: '0',
          pool_creation_fee: [{ denom: BASE_DENOM, amount: (40n * 10n ** 18n).toString() }],
          swap_fee_rate: dec('0.003'), withdraw_fee_rate: dec('0'), max_order_amount_ratio: dec('0.1'), unit_batch_height: 1, circuit_breaker_enabled: false,
        },
        pool_records: [], deposit_success_msgs: [], swap_success_msgs: [], withdraw_success_msgs: [],
      },
    },
  };
  return genesis;
}

export function readGenesis(home: string): GenesisDoc {
  const p = join(configDir(home), 'genesis.json');
  try {
    return JSON.parse(readFileSync(p, 'utf8')) as GenesisDoc;
  } catch (e) {
    throw new Error(`cannot read ${p}: ${(e as Error).message}`);
  }
}

/** A genesis file opened for a start (see {@link openGenesis}). */
export interface OpenGenesis {
  /** the document: its top-level fields; `app_state` is parsed from the file each time it is read */
  readonly doc: GenesisDoc;
  /** `app_state` section by section, the large module fields in chunks (InitChain) */
  appStateSource(): AppStateSource;
  /** closes the file (`doc.app_state` still reads it anew) */
  close(): void;
}

/**
 * The node's genesis file, opened for a start without parsing it whole: the top-level fields are read and
 * `app_state` only located, so a restart of a chain with a large genesis does not parse its accounts at all,
 * and InitChain reads `app_state` module by module (`appStateSource`). Errors read as `readGenesis`'s,
 * `cannot read <path>: <JSON.parse's message>` for a syntax error (also one found in a module section at
 * InitChain).
 */
export function openGenesis(home: string): OpenGenesis {
  const p = join(configDir(home), 'genesis.json');
  const wrap = (e: Error): Error => new Error(`cannot read ${p}: ${e.message}`);
  let f: GenesisFile;
  try {
    // the scan's result is kept in data/ while the file is unchanged: a restart does not read it whole
    f = openGenesisFile(p, wrap, undefined, join(home, 'data', 'genesis-header.json'));
  } catch (e) {
    throw (e as Error).message.startsWith(`cannot read ${p}: `) ? e : wrap(e as Error);
  }
  const doc = { ...f.header } as unknown as GenesisDoc;
  // read whole only by what asks for it (the RPC `genesis` method), from the file, as before
  Object.defineProperty(doc, 'app_state', {
    enumerable: true,
    configurable: true,
    get: () => (f.hasAppState ? (readGenesis(home).app_state ?? {}) : {}),
  });
  return { doc, appStateSource: () => f.appStateSource(), close: () => f.close() };
}

export function readValidatorKey(home: string): PrivValidatorKeyJSON {
  const p = join(configDir(home), 'priv_validator_key.json');
  try {
    return JSON.parse(readFileSync(p, 'utf8')) as PrivValidatorKeyJSON;
  } catch (e) {
    throw new Error(`cannot read ${p}: ${(e as Error).message}`);
  }
}

/** Module account address: the first 20 bytes of sha256(module name), as the SDK. */
function moduleAddress(name: string): Uint8Array {
  return sha256(utf8(name)).subarray(0, 20);
}

/** A new secp256k1 operator key for a non-dev node, written to `config/operator_key.json`; returns its address. */
export function newOperatorAccount(dir: string): string {
  const priv = randomBytes(32);
  const address = toBech32(BECH32_PREFIX, secp256k1Address(secp256k1PublicKey(priv)));
  writeFileSync(join(dir, 'operator_key.json'), JSON.stringify({ address, key_type: 'secp256k1', private_key: toHex(priv) }, null, 2), { mode: 0o600 });
  return address;
}

/**
 * The staking genesis of a new chain: one validator with the node's consensus key, unbonded with its
 * self-delegation in the not-bonded pool, so InitGenesis bonds it as a gentx would (pool move, hooks:
 * distribution records, slashing signing info) and returns it as the initial validator set.
 */
function stakingGenesis(o: { params: Record<string, unknown>; validators: readonly { operator: string; consensusPubKey: string; moniker: string }[]; genesisTime: string }): Record<string, unknown> {
  const shares = `${GENESIS_SELF_DELEGATION}.000000000000000000`;
  const vals = o.validators.map((v) => ({ ...v, valoper: toBech32(BECH32_PREFIX + 'valoper', fromBech32Data(v.operator)) }));
  return {
    params: o.params,
    last_total_power: '0',
    last_validator_powers: [],
    validators: vals.map((v) => ({
      operator_address: v.valoper,
      consensus_pubkey: { '@type': '/chain.crypto.ed25519.PubKey', key: v.consensusPubKey },
      jailed: false,
      status: 'BOND_STATUS_UNBONDED',
      tokens: GENESIS_SELF_DELEGATION,
      delegator_shares: shares,
      description: { moniker: v.moniker, identity: '', website: '', security_contact: '', details: '' },
      unbonding_height: '0',
      unbonding_time: '1970-01-01T00:00:00Z',
      commission: {
        commission_rates: { rate: '0.100000000000000000', max_rate: '0.200000000000000000', max_change_rate: '0.010000000000000000' },
        update_time: o.genesisTime,
      },
      min_self_delegation: '1',
    })),
    delegations: vals.map((v) => ({ delegator_address: v.operator, validator_address: v.valoper, shares })),
    unbonding_delegations: [],
    redelegations: [],
    exported: false,
  };
}

function fromBech32Data(text: string): Uint8Array {
  return fromBech32(text).data;
}
