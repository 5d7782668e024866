/** CometBFT websocket event payloads (`data: {type, value}`) of the bus messages the engine publishes. */
import type { Block, BlockID, Header, StoredResults, StoredTxResult } from '@chain/consensus';
import type { Event } from '@chain/events';
import { toBase64 } from '@chain/crypto';
import { blockIdJson, blockJson, eventsJson, headerJson, txResultJson } from './format.js';

export function eventDataJson(type: string, data: unknown): { type: string; value: unknown } {
  switch (type) {
    case 'NewBlock': {
      const d = data as { block: Block; blockId: BlockID; results: StoredResults };
      return {
        type: 'tendermint/event/NewBlock',
        value: {
          block: blockJson(d.block),
          block_id: blockIdJson(d.blockId),
          result_finalize_block: {
            events: eventsJson(d.results.events),
            tx_results: d.results.txResults.map(txResultJson),
            validator_updates: d.results.validatorUpdates.length ? d.results.validatorUpdates : null,
            app_hash: toBase64(d.results.appHash),
          },
        },
      };
    }
    case 'NewBlockHeader':
      return { type: 'tendermint/event/NewBlockHeader', value: { header: headerJson((data as { header: Header }).header) } };
    case 'NewBlockEvents': {
      const d = data as { height: number; events: Event[]; numTxs: number };
      return { type: 'tendermint/event/NewBlockEvents', value: { height: String(d.height), events: eventsJson(d.events), num_txs: String(d.numTxs) } };
    }
    case 'Tx': {
      const d = data as { height: number; index: number; tx: Uint8Array; result: StoredTxResult };
      return { type: 'tendermint/event/Tx', value: { TxResult: { height: String(d.height), index: d.index, tx: toBase64(d.tx), result: txResultJson(d.result) } } };
    }
    case 'ValidatorSetUpdates': {
      const d = data as { validatorUpdates: { pubKey: Uint8Array; power: number }[] };
      return {
        type: 'tendermint/event/ValidatorSetUpdates',
        value: { validator_updates: d.validatorUpdates.map((u) => ({ pub_key: { type: 'tendermint/PubKeyEd25519', value: toBase64(u.pubKey) }, voting_power: String(u.power), proposer_priority: '0' })) },
      };
    }
    default: {
      const d = data as { height: number; round: number; step: string };
      return { type: 'tendermint/event/RoundState', value: { height: String(d.height), round: d.round, step: d.step } };
    }
  }
}
