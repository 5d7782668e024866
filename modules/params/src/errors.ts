/** Registered errors of the params module: codespace `params`, the codes and texts of SDK v0.45 (x/params/types/proposal/errors.go). */
import { GrpcCode, registerError } from '@chain/errors';
import { MODULE_NAME } from './keys.js';

export const ParamsErrors = {
  /** no module registered this subspace (a 404 on the params query) */
  UnknownSubspace: registerError(MODULE_NAME, 2, 'unknown subspace', GrpcCode.NOT_FOUND),
  /** a change's value does not decode, fails the key's validator or the module's validation, or the key is not registered */
  SettingParameter: registerError(MODULE_NAME, 3, 'failed to set parameter', GrpcCode.INVALID_ARGUMENT),
  EmptyChanges: registerError(MODULE_NAME, 4, 'submitted parameter changes are empty', GrpcCode.INVALID_ARGUMENT),
  EmptySubspace: registerError(MODULE_NAME, 5, 'parameter subspace is empty', GrpcCode.INVALID_ARGUMENT),
  EmptyKey: registerError(MODULE_NAME, 6, 'parameter key is empty', GrpcCode.INVALID_ARGUMENT),
  EmptyValue: registerError(MODULE_NAME, 7, 'parameter value is empty', GrpcCode.INVALID_ARGUMENT),
};
