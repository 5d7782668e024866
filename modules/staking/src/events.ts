/**
 * Events of the staking module (the SDK's x/staking/types/events.go). Nothing emits them yet: the messages
 * and EndBlock that do come with the next slice; the names are fixed here so they have one home.
 */
export const EventType = {
  CompleteUnbonding: 'complete_unbonding',
  CompleteRedelegation: 'complete_redelegation',
  CreateValidator: 'create_validator',
  EditValidator: 'edit_validator',
  Delegate: 'delegate',
  Unbond: 'unbond',
  Redelegate: 'redelegate',
} as const;

export const AttributeKey = {
  Validator: 'validator',
  CommissionRate: 'commission_rate',
  MinSelfDelegation: 'min_self_delegation',
  SrcValidator: 'source_validator',
  DstValidator: 'destination_validator',
  Delegator: 'delegator',
  CompletionTime: 'completion_time',
  NewShares: 'new_shares',
} as const;
