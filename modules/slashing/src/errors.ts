/** Registered errors of x/slashing v0.45 (x/slashing/types/errors.go; codespace `slashing`). */
import { GrpcCode, registerError } from '@chain/errors';
import { MODULE_NAME } from './keys.js';

export const SlashingErrors = {
  NoValidatorForAddress: registerError(MODULE_NAME, 2, 'address is not associated with any known validator', GrpcCode.UNKNOWN),
  BadValidatorAddr: registerError(MODULE_NAME, 3, 'validator does not exist for that address', GrpcCode.UNKNOWN),
  ValidatorJailed: registerError(MODULE_NAME, 4, 'validator still jailed; cannot be unjailed', GrpcCode.UNKNOWN),
  ValidatorNotJailed: registerError(MODULE_NAME, 5, 'validator not jailed; cannot be unjailed', GrpcCode.UNKNOWN),
  MissingSelfDelegation: registerError(MODULE_NAME, 6, 'validator has no self-delegation; cannot be unjailed', GrpcCode.UNKNOWN),
  SelfDelegationTooLowToUnjail: registerError(MODULE_NAME, 7, "validator's self delegation less than minimum; cannot be unjailed", GrpcCode.UNKNOWN),
  NoSigningInfoFound: registerError(MODULE_NAME, 8, 'no validator signing info found', GrpcCode.UNKNOWN),
};
