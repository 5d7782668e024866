/**
 * Registered errors of the token module: codespace `token` and the codes of the original chain
 * (x/prc10/types/errors.go). Code 1 is reserved, as in the SDK; 9, 12 and 14 are unused there too.
 * Address errors, module-account recipients and missing funds use the SDK's `sdk` codespace (7, 4, 5).
 */
import { registerError } from '@chain/errors';
import { MODULE_NAME } from './keys.js';

const r = (code: number, description: string) => registerError(MODULE_NAME, code, description);

export const Prc10Errors = {
  InvalidName: r(2, 'invalid token name'),
  InvalidMinUnit: r(3, 'invalid token min unit'),
  /** an invalid symbol (and a symbol or min_unit starting with a reserved keyword) */
  InvalidSymbol: r(4, 'invalid standard denom'),
  InvalidInitSupply: r(5, 'invalid token initial supply'),
  InvalidMaxSupply: r(6, 'invalid token maximum supply'),
  InvalidScale: r(7, 'invalid token scale'),
  SymbolAlreadyExists: r(8, 'symbol already exists'),
  TokenNotExists: r(10, 'token does not exist'),
  InvalidOwner: r(11, 'invalid token owner'),
  NotMintable: r(13, 'token is not mintable'),
  InvalidAmount: r(15, 'invalid amount'),
};
