/** Builds the SDK's TxResponse (REST / gRPC tx service) from a stored block and its results. */
import type { ProtoObject } from '@chain/codec';
import type { StoredBlock, StoredTxResult } from '@chain/consensus';
import { fromTimestamp } from '@chain/consensus';
import { toHex, sha256 } from '@chain/crypto';

export function rfc3339Seconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function parseLogs(r: StoredTxResult): unknown[] {
  if (r.code !== 0 || !r.log.startsWith('[')) return [];
  try {
    return JSON.parse(r.log) as unknown[];
  } catch {
    return [];
  }
}

export function txResponse(raw: Uint8Array, height: number, result: StoredTxResult, block?: StoredBlock): ProtoObject {
  return {
    height: BigInt(height),
    txhash: toHex(sha256(raw)).toUpperCase(),
    codespace: result.codespace,
    code: result.code,
    data: toHex(result.data).toUpperCase(),
    raw_log: result.log,
    logs: parseLogs(result),
    info: result.info,
    gas_wanted: BigInt(result.gasWanted),
    gas_used: BigInt(result.gasUsed),
    tx: { type_url: '/chain.tx.v1beta1.Tx', value: raw },
    timestamp: block ? rfc3339Seconds(fromTimestamp(block.block.header.time)) : '',
    events: result.events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index ?? false })) })),
  };
}

/**
 * TxResponse of a SYNC / ASYNC broadcast (SDK `NewResponseFormatBroadcastTx`): only code, codespace,
 * data, log and hash of the CheckTx outcome; height and gas are 0.
 */
export function broadcastResponse(hash: Uint8Array, r: { code: number; codespace: string; log: string; data?: Uint8Array }): ProtoObject {
  return {
    height: 0n, txhash: toHex(hash).toUpperCase(), codespace: r.codespace, code: r.code, data: r.data ? toHex(r.data).toUpperCase() : '',
    raw_log: r.log, logs: [], info: '', gas_wanted: 0n, gas_used: 0n, tx: null, timestamp: '', events: [],
  };
}

/** TxResponse of a BLOCK broadcast whose CheckTx failed (SDK `newTxResponseCheckTx`): CheckTx gas and events, height 0. */
export function checkTxResponse(hash: Uint8Array, r: StoredTxResult): ProtoObject {
  return {
    height: 0n, txhash: toHex(hash).toUpperCase(), codespace: r.codespace, code: r.code, data: toHex(r.data).toUpperCase(),
    raw_log: r.log, logs: parseLogs(r), info: r.info, gas_wanted: BigInt(r.gasWanted), gas_used: BigInt(r.gasUsed), tx: null, timestamp: '',
    events: r.events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index ?? false })) })),
  };
}

/** TxResponse of a committed BLOCK broadcast (SDK `newTxResponseDeliverTx`): no `tx`, no `timestamp`. */
export function deliverTxResponse(raw: Uint8Array, height: number, r: StoredTxResult): ProtoObject {
  return { ...txResponse(raw, height, r), tx: null, timestamp: '' };
}
