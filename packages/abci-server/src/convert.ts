/**
 * Mapping between the decoded `tendermint.abci` protos (field names of the protos, int64 as strings) and the
 * TypeScript mirror of the ABCI application (`@chain/app`'s AbciApplication types).
 */
import type {
  BlockIdFlag,
  CommitInfo,
  ConsensusParams,
  ExecTxResult,
  FinalizeBlockResponse,
  InitChainRequest,
  InitChainResponse,
  Misbehavior,
  MisbehaviorType,
  QueryResponse,
  ValidatorUpdate,
} from '@chain/app';
import { appStateOfBytes } from '@chain/app';
import type { Event } from '@chain/events';
import type { PbObject } from './proto.js';

const u8 = (b: unknown): Uint8Array => (b instanceof Uint8Array ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : new Uint8Array());
const num = (v: unknown): number => (v === undefined || v === null || v === '' ? 0 : Number(v));
const big = (v: unknown): bigint => (v === undefined || v === null || v === '' ? 0n : BigInt(v as string));

export function timeFromPb(t: PbObject | undefined | null): Date {
  if (!t) return new Date(0);
  return new Date(num(t.seconds) * 1000 + Math.floor(num(t.nanos) / 1e6));
}

export function timeToPb(d: Date): PbObject {
  const ms = d.getTime();
  const seconds = Math.floor(ms / 1000);
  return { seconds: String(seconds), nanos: (ms - seconds * 1000) * 1e6 };
}

export function pubKeyFromPb(pk: PbObject | undefined): ValidatorUpdate['pubKey'] {
  if (pk?.ed25519 && pk.ed25519.length) return { type: 'ed25519', key: u8(pk.ed25519) };
  if (pk?.secp256k1 && pk.secp256k1.length) throw new Error('secp256k1 validator keys are not supported by this app');
  throw new Error('validator update without a public key');
}

export function validatorUpdateFromPb(v: PbObject): ValidatorUpdate {
  return { pubKey: pubKeyFromPb(v.pub_key), power: big(v.power) };
}

export function validatorUpdateToPb(v: ValidatorUpdate): PbObject {
  if (v.pubKey.type !== 'ed25519') throw new Error(`unsupported validator key type ${String(v.pubKey.type)}`);
  return { pub_key: { ed25519: v.pubKey.key }, power: v.power.toString() };
}

export function consensusParamsFromPb(p: PbObject | undefined | null): ConsensusParams | undefined {
  if (!p) return undefined;
  const d = p.evidence?.max_age_duration;
  return {
    block: { maxBytes: num(p.block?.max_bytes), maxGas: num(p.block?.max_gas) },
    evidence: {
      maxAgeNumBlocks: num(p.evidence?.max_age_num_blocks),
      maxAgeDuration: d ? big(d.seconds) * 1_000_000_000n + BigInt(num(d.nanos)) : 0n,
      maxBytes: num(p.evidence?.max_bytes),
    },
    validator: { pubKeyTypes: [...(p.validator?.pub_key_types ?? [])] },
    version: { app: num(p.version?.app) },
    abci: { voteExtensionsEnableHeight: num(p.abci?.vote_extensions_enable_height) },
  };
}

export function consensusParamsToPb(p: ConsensusParams | undefined): PbObject | undefined {
  if (!p) return undefined;
  const ns = BigInt(p.evidence.maxAgeDuration);
  return {
    block: { max_bytes: String(p.block.maxBytes), max_gas: String(p.block.maxGas) },
    evidence: {
      max_age_num_blocks: String(p.evidence.maxAgeNumBlocks),
      max_age_duration: { seconds: (ns / 1_000_000_000n).toString(), nanos: Number(ns % 1_000_000_000n) },
      max_bytes: String(p.evidence.maxBytes),
    },
    validator: { pub_key_types: [...p.validator.pubKeyTypes] },
    version: { app: String(p.version.app) },
    abci: { vote_extensions_enable_height: String(p.abci.voteExtensionsEnableHeight) },
  };
}

/**
 * InitChain's request. `app_state_bytes` is scanned, not parsed whole: `appStateSource` reads it module by
 * module (the large fields in chunks); `appState`, the whole object, is parsed only if an app reads it.
 */
export function initChainFromPb(r: PbObject): InitChainRequest {
  const bytes = u8(r.app_state_bytes);
  const appStateSource = appStateOfBytes(bytes);
  let parsed: Record<string, unknown> | undefined;
  return {
    time: timeFromPb(r.time),
    chainId: String(r.chain_id ?? ''),
    consensusParams: consensusParamsFromPb(r.consensus_params),
    validators: (r.validators ?? []).map(validatorUpdateFromPb),
    get appState() {
      return (parsed ??= bytes.length ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>) : {});
    },
    appStateSource,
    initialHeight: num(r.initial_height) || 1,
  };
}

export function initChainToPb(r: InitChainResponse): PbObject {
  return {
    consensus_params: consensusParamsToPb(r.consensusParams),
    validators: r.validators.map(validatorUpdateToPb),
    app_hash: r.appHash,
  };
}

function validatorFromPb(v: PbObject | undefined): { address: Uint8Array; power: bigint } {
  return { address: u8(v?.address), power: big(v?.power) };
}

/** `CommitInfo` or `ExtendedCommitInfo` (vote extensions are not used by this app and are dropped). */
export function commitInfoFromPb(c: PbObject | undefined): CommitInfo {
  return {
    round: num(c?.round),
    votes: (c?.votes ?? []).map((v: PbObject) => ({ validator: validatorFromPb(v.validator), blockIdFlag: num(v.block_id_flag) as BlockIdFlag })),
  };
}

export function misbehaviorFromPb(list: PbObject[] | undefined): Misbehavior[] {
  return (list ?? []).map((m) => ({
    type: num(m.type) as MisbehaviorType,
    validator: validatorFromPb(m.validator),
    height: num(m.height),
    time: timeFromPb(m.time),
    totalVotingPower: big(m.total_voting_power),
  }));
}

export function eventsToPb(events: readonly Event[]): PbObject[] {
  return events.map((e) => ({
    type: e.type,
    attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index ?? false })),
  }));
}

export function execTxResultToPb(r: ExecTxResult): PbObject {
  return {
    code: r.code,
    data: r.data,
    log: r.log,
    info: r.info,
    gas_wanted: String(r.gasWanted),
    gas_used: String(r.gasUsed),
    events: eventsToPb(r.events),
    codespace: r.codespace,
  };
}

export function finalizeBlockToPb(r: FinalizeBlockResponse): PbObject {
  return {
    events: eventsToPb(r.events),
    tx_results: r.txResults.map(execTxResultToPb),
    validator_updates: r.validatorUpdates.map(validatorUpdateToPb),
    consensus_param_updates: consensusParamsToPb(r.consensusParamUpdates),
    app_hash: r.appHash,
  };
}

export function queryToPb(r: QueryResponse): PbObject {
  const out: PbObject = {
    code: r.code, log: r.log, info: '', index: '0', key: r.key ?? new Uint8Array(), value: r.value, height: String(r.height), codespace: r.codespace,
  };
  if (r.proofOps !== undefined) out.proof_ops = { ops: r.proofOps.map((o) => ({ type: o.type, key: o.key, data: o.data })) };
  return out;
}

export const bytesOf = u8;
export const numberOf = num;
