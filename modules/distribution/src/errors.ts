/** Registered errors of the distribution module (x/distribution/types/errors.go of SDK v0.45; codespace `distribution`). */
import { GrpcCode, registerError } from '@chain/errors';
import { MODULE_NAME } from './keys.js';

const C = GrpcCode;
export const DistributionErrors = {
  EmptyDelegatorAddr: registerError(MODULE_NAME, 2, 'delegator address is empty', C.INVALID_ARGUMENT),
  EmptyWithdrawAddr: registerError(MODULE_NAME, 3, 'withdraw address is empty', C.INVALID_ARGUMENT),
  EmptyValidatorAddr: registerError(MODULE_NAME, 4, 'validator address is empty', C.INVALID_ARGUMENT),
  EmptyDelegationDistInfo: registerError(MODULE_NAME, 5, 'no delegation distribution info'),
  NoValidatorDistInfo: registerError(MODULE_NAME, 6, 'no validator distribution info'),
  NoValidatorCommission: registerError(MODULE_NAME, 7, 'no validator commission to withdraw'),
  SetWithdrawAddrDisabled: registerError(MODULE_NAME, 8, 'set withdraw address disabled'),
  BadDistribution: registerError(MODULE_NAME, 9, 'community pool does not have sufficient coins to distribute'),
  InvalidProposalAmount: registerError(MODULE_NAME, 10, 'invalid community pool spend proposal amount'),
  EmptyProposalRecipient: registerError(MODULE_NAME, 11, 'invalid community pool spend proposal recipient'),
  NoValidatorExists: registerError(MODULE_NAME, 12, 'validator does not exist'),
  NoDelegationExists: registerError(MODULE_NAME, 13, 'delegation does not exist'),
};
