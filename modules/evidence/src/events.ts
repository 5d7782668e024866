/**
 * Events of x/evidence v0.45 (x/evidence/types/events.go). BeginBlock's equivocation handling emits none
 * of its own: the `slash` events come from slashing's `slash` / `jail` wrappers. `submit_evidence` belongs
 * to MsgSubmitEvidence, which this chain does not serve (the interface lists no such message).
 */
export const EventType = {
  SubmitEvidence: 'submit_evidence',
} as const;

export const AttributeKey = {
  EvidenceHash: 'evidence_hash',
} as const;

export const AttributeValue = {
  Category: 'evidence',
} as const;
