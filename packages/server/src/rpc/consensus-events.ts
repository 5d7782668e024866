/** CometBFT websocket payloads of the consensus (round) events the engine publishes. */
import type { BlockID, Vote } from '@chain/consensus';
import { toBase64 } from '@chain/crypto';
import { blockIdJson, hex, rfc3339Nano } from './format.js';

interface RoundData { height: number; round: number; step: string; proposer?: { address: Uint8Array; index: number }; blockId?: BlockID }

/** `data: {type, value}` of NewRound, CompleteProposal, Vote and the RoundState events; undefined for others. */
export function consensusEventJson(type: string, data: unknown): { type: string; value: unknown } | undefined {
  if (type === 'Vote') {
    const v = (data as { vote: Vote }).vote;
    return {
      type: 'tendermint/event/Vote',
      value: {
        Vote: {
          type: v.type, height: String(v.height), round: v.round, block_id: blockIdJson(v.blockId), timestamp: rfc3339Nano(v.timestamp),
          validator_address: hex(v.validatorAddress), validator_index: v.validatorIndex, signature: toBase64(v.signature),
          extension: null, extension_signature: null,
        },
      },
    };
  }
  const d = data as RoundData;
  const base = { height: String(d.height), round: d.round, step: d.step };
  switch (type) {
    case 'NewRound':
      return { type: 'tendermint/event/NewRound', value: { ...base, proposer: { address: hex(d.proposer!.address), index: d.proposer!.index } } };
    case 'CompleteProposal':
      return { type: 'tendermint/event/CompleteProposal', value: { ...base, block_id: blockIdJson(d.blockId!) } };
    case 'NewRoundStep': case 'TimeoutPropose': case 'TimeoutWait': case 'Polka': case 'Lock': case 'Unlock': case 'Relock': case 'ValidBlock':
      return { type: 'tendermint/event/RoundState', value: base };
    default:
      return undefined;
  }
}
