/** Our block types → the plain-object model of the tendermint.types protos (for REST / gRPC). */
import type { Block, BlockID, Commit, Header, Timestamp } from '@chain/consensus';
import type { ProtoObject } from '@chain/codec';

export function timestampObj(t: Timestamp): ProtoObject {
  return { seconds: BigInt(t.seconds), nanos: t.nanos };
}

export function blockIdObj(id: BlockID): ProtoObject {
  return { hash: id.hash, part_set_header: { total: id.partSetHeader.total, hash: id.partSetHeader.hash } };
}

export function headerObj(h: Header): ProtoObject {
  return {
    version: { block: BigInt(h.version.block), app: BigInt(h.version.app) },
    chain_id: h.chainId,
    height: BigInt(h.height),
    time: timestampObj(h.time),
    last_block_id: blockIdObj(h.lastBlockId),
    last_commit_hash: h.lastCommitHash,
    data_hash: h.dataHash,
    validators_hash: h.validatorsHash,
    next_validators_hash: h.nextValidatorsHash,
    consensus_hash: h.consensusHash,
    app_hash: h.appHash,
    last_results_hash: h.lastResultsHash,
    evidence_hash: h.evidenceHash,
    proposer_address: h.proposerAddress,
  };
}

export function commitObj(c: Commit): ProtoObject {
  return {
    height: BigInt(c.height),
    round: c.round,
    block_id: blockIdObj(c.blockId),
    signatures: c.signatures.map((s) => ({ block_id_flag: s.blockIdFlag, validator_address: s.validatorAddress, timestamp: timestampObj(s.timestamp), signature: s.signature })),
  };
}

export function blockObj(b: Block): ProtoObject {
  return {
    header: headerObj(b.header),
    data: { txs: b.data.txs },
    evidence: { evidence: [] },
    last_commit: b.lastCommit ? commitObj(b.lastCommit) : null,
  };
}
