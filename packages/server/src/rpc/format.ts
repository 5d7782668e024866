/** CometBFT v0.38 RPC JSON shapes (libs/json + jsonpb conventions) of our block and result types. */
import type { Block, BlockID, Commit, ConsensusParams, GenesisDoc, Header, Timestamp, StoredResults, StoredTxResult, TxProof } from '@chain/consensus';
import type { Event } from '@chain/events';
import { toBase64, toHex } from '@chain/crypto';

export const hex = (b: Uint8Array): string => toHex(b).toUpperCase();

/** RFC3339Nano in UTC with trailing zeros trimmed (Go's time.RFC3339Nano). */
export function rfc3339Nano(t: Timestamp): string {
  const d = new Date(t.seconds * 1000);
  const base = d.toISOString().slice(0, 19);
  if (t.nanos === 0) return base + 'Z';
  return `${base}.${String(t.nanos).padStart(9, '0').replace(/0+$/, '')}Z`;
}

export function blockIdJson(id: BlockID): unknown {
  return { hash: hex(id.hash), parts: { total: id.partSetHeader.total, hash: hex(id.partSetHeader.hash) } };
}

/** The zero BlockID (`{"hash":"","parts":{"total":0,"hash":""}}`). */
export function emptyBlockIdJson(): unknown {
  return { hash: '', parts: { total: 0, hash: '' } };
}

export function headerJson(h: Header): unknown {
  const version: Record<string, string> = { block: String(h.version.block) };
  if (h.version.app) version.app = String(h.version.app);
  return {
    version,
    chain_id: h.chainId,
    height: String(h.height),
    time: rfc3339Nano(h.time),
    last_block_id: blockIdJson(h.lastBlockId),
    last_commit_hash: hex(h.lastCommitHash),
    data_hash: hex(h.dataHash),
    validators_hash: hex(h.validatorsHash),
    next_validators_hash: hex(h.nextValidatorsHash),
    consensus_hash: hex(h.consensusHash),
    app_hash: hex(h.appHash),
    last_results_hash: hex(h.lastResultsHash),
    evidence_hash: hex(h.evidenceHash),
    proposer_address: hex(h.proposerAddress),
  };
}

export function commitJson(c: Commit): unknown {
  return {
    height: String(c.height),
    round: c.round,
    block_id: blockIdJson(c.blockId),
    signatures: c.signatures.map((s) => ({
      block_id_flag: s.blockIdFlag,
      validator_address: hex(s.validatorAddress),
      timestamp: rfc3339Nano(s.timestamp),
      signature: s.signature.length ? toBase64(s.signature) : null,
    })),
  };
}

export function blockJson(b: Block): unknown {
  return {
    header: headerJson(b.header),
    data: { txs: b.data.txs.map(toBase64) },
    evidence: { evidence: [] },
    last_commit: b.lastCommit ? commitJson(b.lastCommit) : null,
  };
}

function attributeJson(a: { key: string; value: string; index?: boolean }): unknown {
  return { key: a.key, value: a.value, index: a.index ?? false };
}

/** ABCI events inside jsonpb structs (ExecTxResult, ResponseCheckTx): every field emitted. */
export function eventsJson(events: readonly Event[]): unknown[] {
  return events.map((e) => ({ type: e.type, attributes: e.attributes.map(attributeJson) }));
}

/**
 * ABCI events written by libs/json (block_results `finalize_block_events`, NewBlock / NewBlockEvents
 * payloads): `omitempty` drops an empty type or attribute list; attributes keep their jsonpb form.
 */
export function eventsJsonLib(events: readonly Event[]): unknown[] {
  return events.map((e) => {
    const o: Record<string, unknown> = {};
    if (e.type) o.type = e.type;
    if (e.attributes.length) o.attributes = e.attributes.map(attributeJson);
    return o;
  });
}

/** ResponseCheckTx as jsonpb with EmitDefaults (the shape of `check_tx` and `broadcast_tx_commit.check_tx`). */
export function checkTxJson(r: { code: number; data?: Uint8Array; log: string; info?: string; gasWanted: number; gasUsed: number; events: readonly Event[]; codespace: string }): unknown {
  return {
    code: r.code, data: r.data && r.data.length ? toBase64(r.data) : null, log: r.log, info: r.info ?? '',
    gas_wanted: String(r.gasWanted), gas_used: String(r.gasUsed), events: eventsJson(r.events), codespace: r.codespace,
  };
}

/** ExecTxResult as jsonpb with EmitDefaults (code number, int64 strings, nil bytes null). */
export function txResultJson(r: StoredTxResult): unknown {
  return {
    code: r.code,
    data: r.data.length ? toBase64(r.data) : null,
    log: r.log,
    info: r.info,
    gas_wanted: String(r.gasWanted),
    gas_used: String(r.gasUsed),
    events: eventsJson(r.events),
    codespace: r.codespace,
  };
}

export function blockResultsJson(r: StoredResults): unknown {
  return {
    height: String(r.height),
    txs_results: r.txResults.length ? r.txResults.map(txResultJson) : null,
    finalize_block_events: r.events.length ? eventsJsonLib(r.events) : null,
    validator_updates: r.validatorUpdates.length
      ? r.validatorUpdates.map((u) => ({ pub_key: { Sum: { type: 'tendermint.crypto.PublicKey_Ed25519', value: { ed25519: toBase64(u.pubKey) } } }, power: String(u.power) }))
      : null,
    consensus_param_updates: null,
    app_hash: toBase64(r.appHash),
  };
}

export function pubKeyJson(key: Uint8Array): unknown {
  return { type: 'tendermint/PubKeyEd25519', value: toBase64(key) };
}

/** Consensus params as CometBFT's RPC writes them (every section, 64-bit values as strings). */
export function consensusParamsJson(p: ConsensusParams): unknown {
  return {
    block: { max_bytes: String(p.block.maxBytes), max_gas: String(p.block.maxGas) },
    evidence: { max_age_num_blocks: String(p.evidence.maxAgeNumBlocks), max_age_duration: String(p.evidence.maxAgeDuration), max_bytes: String(p.evidence.maxBytes) },
    validator: { pub_key_types: [...p.validator.pubKeyTypes] },
    version: { app: String(p.version.app) },
    abci: { vote_extensions_enable_height: String(p.abci.voteExtensionsEnableHeight) },
  };
}

/** Go's RFC3339Nano of an RFC 3339 text (UTC, trailing fraction zeros trimmed); unparsable text is kept. */
export function normalizeTime(text: string): string {
  const m = /^(.*?)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(text);
  const ms = Date.parse(text);
  if (!m || Number.isNaN(ms)) return text;
  const seconds = Math.floor(ms / 1000);
  const frac = (m[2] ?? '').slice(0, 9).padEnd(9, '0');
  return rfc3339Nano({ seconds, nanos: Number(frac) });
}

/** The genesis document as CometBFT's `genesis` returns it (normalized time and consensus params). */
export function genesisJson(g: GenesisDoc, params: ConsensusParams): unknown {
  return {
    genesis_time: normalizeTime(g.genesis_time),
    chain_id: g.chain_id,
    initial_height: String(g.initial_height || '1'),
    consensus_params: consensusParamsJson(params),
    validators: (g.validators ?? []).map((v) => ({ address: v.address, pub_key: v.pub_key, power: String(v.power), name: v.name ?? '' })),
    app_hash: g.app_hash ?? '',
    app_state: g.app_state ?? {},
  };
}

/**
 * `types.TxProof` as libs/json writes it: hex root, base64 tx, int64 strings; `aunts` has omitempty but a
 * single-tx proof carries an empty non-nil list, so it is always present (`[]`).
 */
export function txProofJson(p: TxProof): unknown {
  return {
    root_hash: hex(p.rootHash),
    data: toBase64(p.data),
    proof: { total: String(p.proof.total), index: String(p.proof.index), leaf_hash: toBase64(p.proof.leafHash), aunts: p.proof.aunts.map(toBase64) },
  };
}

/** What a round state is built from (CometBFT `updateToState` after committing `lastCommit.height`). */
export interface IdleRoundState {
  /** the set of the next height, and the validator that proposes it (the embedded engine: itself) */
  readonly validators: readonly { address: Uint8Array; pubKey: Uint8Array; votingPower: number; proposerPriority: number }[];
  readonly proposer: Uint8Array;
  /** the set that signed the last block and its proposer */
  readonly lastValidators: readonly { address: Uint8Array; pubKey: Uint8Array; votingPower: number; proposerPriority: number }[];
  readonly lastProposer: Uint8Array;
  /** the height being worked on (the last committed + 1) */
  readonly height: number;
  /** the commit of the last block (its precommits) and when it was reached (the local precommit time); null before the first block */
  readonly lastCommit: Commit | null;
  readonly commitTime: Timestamp;
  readonly timeoutCommitMs: number;
}

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const fingerprint = (b: Uint8Array): string => hex(Uint8Array.from({ length: 6 }, (_, i) => b[i] ?? 0));

/** Go's `%.2f` of a vote fraction. */
const frac2 = (n: number, d: number): string => (d === 0 ? 0 : n / d).toFixed(2);

/** `VoteSet.bitArrayString`: `BA{n:x_x} voted/total = 0.67`. */
function bitArrayString(voted: readonly boolean[], powers: readonly number[]): string {
  const sum = voted.reduce((s, v, i) => s + (v ? powers[i]! : 0), 0);
  const total = powers.reduce((s, p) => s + p, 0);
  return `BA{${voted.length}:${voted.map((v) => (v ? 'x' : '_')).join('')}} ${sum}/${total} = ${frac2(sum, total)}`;
}

function validatorSetJson(vals: IdleRoundState['validators'], proposer: Uint8Array): unknown {
  const v = (x: IdleRoundState['validators'][number]) => ({
    address: hex(x.address), pub_key: pubKeyJson(x.pubKey), voting_power: String(x.votingPower), proposer_priority: String(x.proposerPriority),
  });
  const p = vals.find((x) => same(x.address, proposer));
  return { validators: vals.map(v), proposer: p ? v(p) : null };
}

/** `HeightVoteSet.MarshalJSON` of a fresh height: round 0, no prevotes or precommits. */
function freshHeightVoteSetJson(vals: IdleRoundState['validators']): unknown[] {
  const none = vals.map(() => 'nil-Vote');
  const bits = bitArrayString(vals.map(() => false), vals.map((v) => v.votingPower));
  return [{ round: 0, prevotes: none, prevotes_bit_array: bits, precommits: [...none], precommits_bit_array: bits }];
}

/** `Vote.String` of a precommit in a commit. */
function precommitString(c: Commit, i: number): string {
  const s = c.signatures[i]!;
  return `Vote{${i}:${fingerprint(s.validatorAddress)} ${c.height}/${String(c.round).padStart(2, '0')}/SIGNED_MSG_TYPE_PRECOMMIT(Precommit) `
    + `${fingerprint(s.blockIdFlag === 2 ? c.blockId.hash : new Uint8Array())} ${fingerprint(s.signature)} ${fingerprint(new Uint8Array())} @ ${rfc3339Nano(s.timestamp)}}`;
}

function startTime(rs: IdleRoundState): string {
  const ns = BigInt(rs.commitTime.seconds) * 1_000_000_000n + BigInt(rs.commitTime.nanos) + BigInt(rs.timeoutCommitMs) * 1_000_000n;
  return rfc3339Nano({ seconds: Number(ns / 1_000_000_000n), nanos: Number(ns % 1_000_000_000n) });
}

/** `consensus_state`: CometBFT's `RoundStateSimple` in step NewHeight of the next height. */
export function consensusStateJson(rs: IdleRoundState): unknown {
  const idx = rs.validators.findIndex((v) => same(v.address, rs.proposer));
  return {
    round_state: {
      'height/round/step': `${rs.height}/0/1`,
      start_time: startTime(rs),
      proposal_block_hash: '',
      locked_block_hash: '',
      valid_block_hash: '',
      height_vote_set: freshHeightVoteSetJson(rs.validators),
      proposer: { address: hex(rs.proposer), index: idx },
    },
  };
}

/** `dump_consensus_state`: the full `RoundState` of step NewHeight and no peers. */
export function dumpConsensusStateJson(rs: IdleRoundState): unknown {
  const c = rs.lastCommit;
  return {
    round_state: {
      height: String(rs.height),
      round: 0,
      step: 1,
      start_time: startTime(rs),
      commit_time: rfc3339Nano(rs.commitTime),
      validators: validatorSetJson(rs.validators, rs.proposer),
      proposal: null,
      proposal_block: null,
      proposal_block_parts: null,
      locked_round: -1,
      locked_block: null,
      locked_block_parts: null,
      valid_round: -1,
      valid_block: null,
      valid_block_parts: null,
      votes: freshHeightVoteSetJson(rs.validators),
      commit_round: -1,
      last_commit: c && {
        votes: c.signatures.map((s, i) => (s.blockIdFlag !== 1 ? precommitString(c, i) : 'nil-Vote')),
        votes_bit_array: bitArrayString(c.signatures.map((s) => s.blockIdFlag !== 1), rs.lastValidators.map((v) => v.votingPower)),
        peer_maj_23s: {},
      },
      last_validators: validatorSetJson(rs.lastValidators, rs.lastProposer),
      triggered_timeout_precommit: false,
    },
    peers: [],
  };
}
