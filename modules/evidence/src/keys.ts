/**
 * evidence state, declared once: the collections of the module store `evidence`, with the key layout of
 * Cosmos SDK v0.45 (x/evidence/types/keys.go). Genesis export walks the schema.
 *
 * Store keys (under `evidence/`):
 *   0x00 | hash (32 bytes, not length-prefixed) → the evidence as a protobuf Any (`KeyPrefixEvidence`;
 *                                                v0.45 stores `MarshalInterface(evidence)`)
 */
import type { ProtoRegistry, google_protobuf } from '@chain/codec';
import { Schema, bytesKey, protoValue } from '@chain/collections';

export const MODULE_NAME = 'evidence';
export const STORE_KEY = 'evidence';
export const EVIDENCE_PREFIX = 0x00;

/** the module's .proto files (published with the package) */
export const PROTO_DIR = new URL('../proto', import.meta.url).pathname;

/** The evidence schema: build one per keeper (`EvidenceKeeper.state`). */
export function evidenceSchema(registry: ProtoRegistry) {
  registry.addProtoDir(PROTO_DIR);
  const schema = new Schema(STORE_KEY);
  return {
    schema,
    /** evidence hash → the evidence, packed in an Any (`GetEvidence` / `SetEvidence`). */
    Evidence: schema.map(EVIDENCE_PREFIX, 'evidence', bytesKey, protoValue<google_protobuf.Any>(registry, 'google.protobuf.Any')),
  };
}

export type EvidenceState = ReturnType<typeof evidenceSchema>;
