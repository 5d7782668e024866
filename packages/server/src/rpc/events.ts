/**
 * CometBFT websocket event payloads (`data: {type, value}`, CMT types/events.go) of the bus messages
 * the engine publishes, as CometBFT v0.38.26 writes them (checked against it by the e2e suites run with
 * E2E_TARGET=localnet): libs/json honours `omitempty`, so zero fields of abci.TxResult and of its
 * ExecTxResult are left out of a Tx event; ResponseFinalizeBlock leaves out empty events, tx_results and
 * consensus_param_updates but always has validator_updates (null when empty); the ExecTxResults inside
 * it keep every field.
 */
import type { Block, BlockID, Header, StoredResults, StoredTxResult } from '@chain/consensus';
import { validatorAddress } from '@chain/consensus';
import type { Event } from '@chain/events';
import { toBase64 } from '@chain/crypto';
import { blockIdJson, blockJson, eventsJsonLib, headerJson, hex, txResultJson } from './format.js';
import { consensusEventJson } from './consensus-events.js';

/** Every `tm.event` value CometBFT defines (types/events.go); subscribe accepts queries on any of them. */
export const TM_EVENTS = [
  'NewBlock', 'NewBlockHeader', 'NewBlockEvents', 'NewEvidence', 'Tx', 'ValidatorSetUpdates',
  'NewRound', 'NewRoundStep', 'CompleteProposal', 'Vote', 'Polka', 'Lock', 'Unlock', 'Relock', 'ValidBlock',
  'TimeoutPropose', 'TimeoutWait', 'BlockSyncStatus', 'StateSyncStatus',
] as const;

/** ResponseFinalizeBlock through libs/json: empty fields omitted. */
function finalizeBlockJson(r: StoredResults): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (r.events.length) o.events = eventsJsonLib(r.events);
  if (r.txResults.length) o.tx_results = r.txResults.map(txResultJson);
  o.validator_updates = r.validatorUpdates.length
    ? r.validatorUpdates.map((u) => ({ pub_key: { Sum: { type: 'tendermint.crypto.PublicKey_Ed25519', value: { ed25519: toBase64(u.pubKey) } } }, power: String(u.power) }))
    : null;
  if (r.appHash.length) o.app_hash = toBase64(r.appHash);
  return o;
}

/** libs/json `omitempty`: drops 0, "", "0" (int64 as a string), null and empty arrays. */
function omitEmpty(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === 0 || v === '' || v === '0' || v === null || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}

export function eventDataJson(type: string, data: unknown): { type: string; value: unknown } {
  switch (type) {
    case 'NewBlock': {
      const d = data as { block: Block; blockId: BlockID; results: StoredResults };
      return {
        type: 'tendermint/event/NewBlock',
        value: { block: blockJson(d.block), block_id: blockIdJson(d.blockId), result_finalize_block: finalizeBlockJson(d.results) },
      };
    }
    case 'NewBlockHeader':
      return { type: 'tendermint/event/NewBlockHeader', value: { header: headerJson((data as { header: Header }).header) } };
    case 'NewBlockEvents': {
      const d = data as { height: number; events: Event[]; numTxs: number };
      return { type: 'tendermint/event/NewBlockEvents', value: { height: String(d.height), events: eventsJsonLib(d.events), num_txs: String(d.numTxs) } };
    }
    case 'Tx': {
      const d = data as { height: number; index: number; tx: Uint8Array; result: StoredTxResult };
      const txResult: Record<string, unknown> = { height: String(d.height) };
      if (d.index) txResult.index = d.index;
      txResult.tx = toBase64(d.tx);
      txResult.result = omitEmpty(txResultJson(d.result) as Record<string, unknown>);
      return { type: 'tendermint/event/Tx', value: { TxResult: txResult } };
    }
    case 'ValidatorSetUpdates': {
      const d = data as { validatorUpdates: { pubKey: Uint8Array; power: number }[] };
      return {
        type: 'tendermint/event/ValidatorSetUpdates',
        value: {
          validator_updates: d.validatorUpdates.map((u) => ({
            address: hex(validatorAddress(u.pubKey)),
            pub_key: { type: 'tendermint/PubKeyEd25519', value: toBase64(u.pubKey) },
            voting_power: String(u.power),
            proposer_priority: '0',
          })),
        },
      };
    }
    default: {
      const c = consensusEventJson(type, data);
      if (c) return c;
      const d = data as { height?: number; round?: number; step?: string } | undefined;
      return { type: 'tendermint/event/RoundState', value: { height: String(d?.height ?? 0), round: d?.round ?? 0, step: d?.step ?? '' } };
    }
  }
}
