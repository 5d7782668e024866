/**
 * Events of the staking module (the SDK's x/staking/types/events.go), emitted by the msg server and by
 * EndBlock (`complete_unbonding`, `complete_redelegation`). The `amount` key is the SDK's generic one.
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
