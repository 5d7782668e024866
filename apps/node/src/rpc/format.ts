/** CometBFT v0.38 RPC JSON shapes (libs/json + jsonpb conventions) of our block and result types. */
import type { Block, BlockID, Commit, Header, Timestamp, StoredResults, StoredTxResult } from '@chain/consensus';
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

/** ABCI events (jsonpb for attributes). */
export function eventsJson(events: readonly Event[]): unknown[] {
  return events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index ?? false })) }));
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
    finalize_block_events: r.events.length ? eventsJson(r.events) : null,
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
