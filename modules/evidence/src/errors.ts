/** Registered errors of x/evidence v0.45 (x/evidence/types/errors.go; codespace `evidence`). */
import { registerError } from '@chain/errors';
import { MODULE_NAME } from './keys.js';

export const EvidenceErrors = {
  NoEvidenceHandlerExists: registerError(MODULE_NAME, 2, 'unregistered handler for evidence type'),
  InvalidEvidence: registerError(MODULE_NAME, 3, 'invalid evidence'),
  NoEvidenceExists: registerError(MODULE_NAME, 4, 'evidence does not exist'),
  EvidenceExists: registerError(MODULE_NAME, 5, 'evidence already exists'),
};
