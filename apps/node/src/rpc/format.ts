/** CometBFT v0.38 RPC JSON shapes (libs/json + jsonpb conventions) of our block and result types. */
import type { Block, BlockID, Commit, ConsensusParams, GenesisDoc, Header, Timestamp, StoredResults, StoredTxResult } from '@chain/consensus';
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
