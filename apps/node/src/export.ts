/**
 * `chaind export`: the node's state at its latest height (or an earlier one) as a genesis document, as
 * the SDK's `simd export` (server/export.go, simapp/export.go): `app_state` from every module's
 * ExportGenesis in the app config's export order, `validators` = the bonded set staking last handed to
 * consensus (its last validator powers), the consensus params in effect after that height,
 * `initial_height` = the exported height + 1, and the original `chain_id` and `genesis_time`.
 *
 * A chain started from the document continues where this one stopped: staking's genesis is
 * `exported: true`, so InitChain stores the last validator powers and returns them as the validator set
 * (no hooks run, no pool moves), and the first block is `initial_height`. The node must be stopped: the
 * database is locked while it runs.
 */
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { CommitStore } from '@chain/store';
import { BlockStore, consensusParamsJSON, consensusParamsOf, validatorAddress } from '@chain/consensus';
import type { GenesisDoc, GenesisValidatorJSON } from '@chain/consensus';
import { fromBase64, toHex } from '@chain/crypto';
import { createChainApp } from './app.js';
import { readGenesis } from './config/init.js';

export interface ExportOptions {
  readonly home: string;
  /** the height to export (default: the latest); any height the store still holds (see app.toml `pruning`) */
  readonly height?: number;
}

/** Opens the node's database for an export, with a clear error when the node is running (LevelDB lock). */
export async function openNodeStore(home: string): Promise<CommitStore> {
  const path = join(home, 'data', 'chain.db');
  if (!existsSync(path)) throw new Error(`${path} does not exist: the node at ${home} has no blocks to export`);
  try {
    return await CommitStore.open(path);
  } catch (e) {
    const err = e as { code?: string; cause?: { code?: string; message?: string } };
    if (err.cause?.code === 'LEVEL_LOCKED' || /lock/i.test(err.cause?.message ?? '')) {
      throw new Error(`the database ${path} is locked by a running node: stop the node (chaind start / chaind dev --home ${home}) before exporting`);
    }
    throw e;
  }
}

/** The genesis document of the node's state at `height` (latest by default). */
export async function exportGenesisDoc(o: ExportOptions): Promise<GenesisDoc> {
  const genesis = readGenesis(o.home);
  const store = await openNodeStore(o.home);
  try {
    return await exportFromStore(store, genesis, o.height);
  } finally {
    await store.close();
  }
}

/** The export over an open store (the node's genesis document gives the chain id, genesis time and params). */
export async function exportFromStore(store: CommitStore, genesis: GenesisDoc, height?: number): Promise<GenesisDoc> {
  const last = store.lastHeight;
  if (last === 0) throw new Error('the chain has no blocks yet: nothing to export');
  const h = height ?? last;
  if (!Number.isSafeInteger(h) || h < store.earliestHeight || h > last) {
    throw new Error(`cannot export height ${height}: the store holds heights ${store.earliestHeight} to ${last}`);
  }
  const { app } = createChainApp({ store, chainId: genesis.chain_id, minGasPrices: '' });
  const appState = await app.exportGenesisAt(h);
  const params = (await new BlockStore(store).paramsAt(h + 1)) ?? consensusParamsOf(genesis);
  return {
    genesis_time: genesis.genesis_time,
    chain_id: genesis.chain_id,
    initial_height: String(h + 1),
    consensus_params: consensusParamsJSON(params),
    validators: bondedValidators(appState.staking as StakingGenesisJSON),
    app_hash: '',
    app_state: appState,
  };
}

interface StakingGenesisJSON {
  last_validator_powers: { address: string; power: string }[];
  validators: { operator_address: string; consensus_pubkey: { '@type': string; key: string }; description?: { moniker?: string } }[];
}

/**
 * The SDK's `staking.WriteValidators`: the validators of the last validator powers (the set consensus
 * has), in that order, with their CometBFT address, ed25519 key, power and moniker.
 */
function bondedValidators(staking: StakingGenesisJSON): GenesisValidatorJSON[] {
  const byOperator = new Map(staking.validators.map((v) => [v.operator_address, v]));
  return staking.last_validator_powers.map((lv) => {
    const v = byOperator.get(lv.address);
    if (!v) throw new Error(`staking export: last validator power of ${lv.address}, which is not a validator`);
    const type = v.consensus_pubkey['@type'];
    if (!type.endsWith('.ed25519.PubKey')) throw new Error(`validator ${lv.address}: consensus key type ${type} is not ed25519`);
    const pub = fromBase64(v.consensus_pubkey.key);
    return {
      address: toHex(validatorAddress(pub)).toUpperCase(),
      pub_key: { type: 'tendermint/PubKeyEd25519', value: v.consensus_pubkey.key },
      power: String(lv.power),
      name: v.description?.moniker ?? '',
    };
  });
}
