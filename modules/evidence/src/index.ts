export { EvidenceKeeper, DEFAULT_EVIDENCE_AGE_PARAMS, DOUBLE_SIGN_JAIL_END_TIME as EVIDENCE_DOUBLE_SIGN_JAIL_END_TIME } from './keeper.js';
export type { EvidenceKeeperOptions, EvidenceAgeParams } from './keeper.js';
export { EvidenceErrors } from './errors.js';
export {
  EQUIVOCATION_TYPE, ROUTE_EQUIVOCATION, equivocationHash, validateEquivocation, equivocationFromMisbehavior, goTimeString,
} from './equivocation.js';
export type { GenesisState as EvidenceGenesisState, Equivocation } from './gen/chain/evidence/v1beta1.js';
export { defaultGenesis as defaultEvidenceGenesis, validateGenesis as validateEvidenceGenesis } from './genesis.js';
export { EventType as EvidenceEventType, AttributeKey as EvidenceAttributeKey } from './events.js';
export type { EvidenceSlashingKeeper, EvidenceStakingKeeper } from './expected-keepers.js';
export { EvidenceModule, CONSENSUS_VERSION as EVIDENCE_CONSENSUS_VERSION } from './module.js';
export { createQueryServer as createEvidenceQueryServer, requestHash as evidenceRequestHash } from './query-server.js';
export { MODULE_NAME as EVIDENCE_MODULE_NAME, STORE_KEY as EVIDENCE_STORE_KEY, PROTO_DIR as EVIDENCE_PROTO_DIR, evidenceSchema } from './keys.js';
export type { EvidenceState } from './keys.js';
// generated types of chain.evidence.v1beta1 (`chain_evidence_v1beta1.Equivocation`, `Query`, ...)
export { chain_evidence_v1beta1 } from './gen/index.js';
