/** The CometBFT-format genesis document and validator key files. */
import { fromBase64, toBase64, ed25519PublicKey, toHex } from '@chain/crypto';
import { validatorAddress } from './hashing.js';
import type { ConsensusParams, Validator } from './cmt-types.js';

export interface GenesisValidatorJSON {
  address: string;
  pub_key: { type: string; value: string };
  power: string;
  name: string;
}

export interface GenesisDoc {
  genesis_time: string;
  chain_id: string;
  initial_height: string;
  consensus_params: {
    block: { max_bytes: string; max_gas: string };
    evidence: { max_age_num_blocks: string; max_age_duration: string; max_bytes: string };
    validator: { pub_key_types: string[] };
    version: { app: string };
    abci: { vote_extensions_enable_height: string };
  };
  validators: GenesisValidatorJSON[];
  app_hash: string;
  app_state: Record<string, unknown>;
}

export function defaultConsensusParamsJSON(): GenesisDoc['consensus_params'] {
  return {
    block: { max_bytes: '22020096', max_gas: '-1' },
    evidence: { max_age_num_blocks: '100000', max_age_duration: '172800000000000', max_bytes: '1048576' },
    validator: { pub_key_types: ['ed25519'] },
    version: { app: '0' },
    abci: { vote_extensions_enable_height: '0' },
  };
}

export function consensusParamsOf(doc: GenesisDoc): ConsensusParams {
  const p = doc.consensus_params ?? defaultConsensusParamsJSON();
  return {
    block: { maxBytes: Number(p.block.max_bytes), maxGas: Number(p.block.max_gas) },
    evidence: { maxAgeNumBlocks: Number(p.evidence.max_age_num_blocks), maxAgeDuration: BigInt(p.evidence.max_age_duration), maxBytes: Number(p.evidence.max_bytes) },
    validator: { pubKeyTypes: p.validator.pub_key_types },
    version: { app: Number(p.version?.app ?? 0) },
    abci: { voteExtensionsEnableHeight: Number(p.abci?.vote_extensions_enable_height ?? 0) },
  };
}

/** The genesis-file JSON of consensus params (the inverse of {@link consensusParamsOf}; `chaind export`). */
export function consensusParamsJSON(p: ConsensusParams): GenesisDoc['consensus_params'] {
  return {
    block: { max_bytes: String(p.block.maxBytes), max_gas: String(p.block.maxGas) },
    evidence: { max_age_num_blocks: String(p.evidence.maxAgeNumBlocks), max_age_duration: String(p.evidence.maxAgeDuration), max_bytes: String(p.evidence.maxBytes) },
    validator: { pub_key_types: [...p.validator.pubKeyTypes] },
    version: { app: String(p.version.app) },
    abci: { vote_extensions_enable_height: String(p.abci.voteExtensionsEnableHeight) },
  };
}

export function validatorsOf(doc: GenesisDoc): Validator[] {
  return doc.validators.map((v) => {
    if (v.pub_key.type !== 'tendermint/PubKeyEd25519') throw new Error(`unsupported validator key type ${v.pub_key.type}`);
    const pubKey = fromBase64(v.pub_key.value);
    return { address: validatorAddress(pubKey), pubKey, votingPower: Number(v.power), proposerPriority: 0 };
  });
}

/** CometBFT `priv_validator_key.json`. */
export interface PrivValidatorKeyJSON {
  address: string;
  pub_key: { type: 'tendermint/PubKeyEd25519'; value: string };
  priv_key: { type: 'tendermint/PrivKeyEd25519'; value: string };
}

export function privValidatorKeyJSON(seed: Uint8Array): PrivValidatorKeyJSON {
  const pub = ed25519PublicKey(seed);
  const priv = new Uint8Array(64);
  priv.set(seed);
  priv.set(pub, 32);
  return {
    address: toHex(validatorAddress(pub)).toUpperCase(),
    pub_key: { type: 'tendermint/PubKeyEd25519', value: toBase64(pub) },
    priv_key: { type: 'tendermint/PrivKeyEd25519', value: toBase64(priv) },
  };
}

/** The 32-byte ed25519 seed of a priv_validator_key.json. */
export function seedOfPrivValidatorKey(k: PrivValidatorKeyJSON): Uint8Array {
  return fromBase64(k.priv_key.value).subarray(0, 32);
}

/** Folder of the tendermint.* protos (blocks, headers, commits) for registries that serve blocks. */
export const CONSENSUS_PROTO_DIR = new URL('../proto', import.meta.url).pathname;
