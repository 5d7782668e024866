/** Registered errors of the bank module (codespace `bank`). */
import { registerError } from '@chain/errors';

export const BankErrors = {
  NoInputs: registerError('bank', 2, 'no inputs to send transaction'),
  NoOutputs: registerError('bank', 3, 'no outputs to send transaction'),
  InputOutputMismatch: registerError('bank', 4, 'sum inputs != sum outputs'),
  SendDisabled: registerError('bank', 5, 'send transactions are disabled'),
  DenomMetadataNotFound: registerError('bank', 6, 'client denom metadata not found'),
  InvalidKey: registerError('bank', 7, 'invalid key'),
  DuplicateEntry: registerError('bank', 8, 'duplicate entry'),
  MultipleSenders: registerError('bank', 9, 'multiple senders not allowed'),
};
