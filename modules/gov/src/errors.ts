/** Registered errors of the gov module (x/gov/types/errors.go of SDK v0.45; codespace `gov`, code 1 reserved). */
import { GrpcCode, registerError } from '@chain/errors';
import { MODULE_NAME } from './keys.js';

const C = GrpcCode;
export const GovErrors = {
  UnknownProposal: registerError(MODULE_NAME, 2, 'unknown proposal', C.NOT_FOUND),
  InactiveProposal: registerError(MODULE_NAME, 3, 'inactive proposal', C.FAILED_PRECONDITION),
  AlreadyActiveProposal: registerError(MODULE_NAME, 4, 'proposal already active', C.FAILED_PRECONDITION),
  InvalidProposalContent: registerError(MODULE_NAME, 5, 'invalid proposal content', C.INVALID_ARGUMENT),
  InvalidProposalType: registerError(MODULE_NAME, 6, 'invalid proposal type', C.INVALID_ARGUMENT),
  InvalidVote: registerError(MODULE_NAME, 7, 'invalid vote option', C.INVALID_ARGUMENT),
  InvalidGenesis: registerError(MODULE_NAME, 8, 'invalid genesis state', C.INVALID_ARGUMENT),
  NoProposalHandlerExists: registerError(MODULE_NAME, 9, 'no handler exists for proposal type', C.INVALID_ARGUMENT),
};
