/** geth's header hash, recomputed from the JSON a node serves (independent of the node's own encoder: ethers' RLP). */
import { encodeRlp, keccak256, toBeArray } from 'ethers';

const HEADER_FIELDS = ['parentHash', 'sha3Uncles', 'miner', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'logsBloom', 'difficulty', 'number',
  'gasLimit', 'gasUsed', 'timestamp', 'extraData', 'mixHash', 'nonce', 'baseFeePerGas', 'withdrawalsRoot', 'blobGasUsed', 'excessBlobGas',
  'parentBeaconBlockRoot', 'requestsHash'] as const;
const QUANTITIES = new Set(['difficulty', 'number', 'gasLimit', 'gasUsed', 'timestamp', 'baseFeePerGas', 'blobGasUsed', 'excessBlobGas']);

/** keccak256(RLP(header)) of a block or newHeads JSON, as geth's types.Header.Hash() (Prague's field set). */
export function headerHash(h: Record<string, string>): string {
  const fields = HEADER_FIELDS.map((k) => {
    const v = h[k];
    if (v === undefined) throw new Error(`header without ${k}`);
    return QUANTITIES.has(k) ? toBeArray(BigInt(v)) : v;
  });
  return keccak256(encodeRlp(fields));
}
