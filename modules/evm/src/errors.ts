/** Registered errors of the evm module (codespace `evm`). */
import { registerError, GrpcCode } from '@chain/errors';

const C = GrpcCode;
export const EvmErrors = {
  InvalidTx: registerError('evm', 2, 'invalid Ethereum transaction', C.INVALID_ARGUMENT),
  InvalidChainId: registerError('evm', 3, 'invalid chain id', C.INVALID_ARGUMENT),
  InvalidSignature: registerError('evm', 4, 'invalid Ethereum signature', C.UNAUTHENTICATED),
  InvalidNonce: registerError('evm', 5, 'invalid nonce', C.INVALID_ARGUMENT),
  InsufficientFunds: registerError('evm', 6, 'insufficient funds', C.INVALID_ARGUMENT),
  IntrinsicGas: registerError('evm', 7, 'intrinsic gas too low', C.INVALID_ARGUMENT),
  GasLimitTooHigh: registerError('evm', 8, 'gas limit exceeds the block gas limit', C.INVALID_ARGUMENT),
  FeeCapTooLow: registerError('evm', 9, 'max fee per gas less than block base fee', C.INVALID_ARGUMENT),
  GasPriceTooLow: registerError('evm', 10, 'gas price below the minimum gas price', C.INVALID_ARGUMENT),
  TxTypeNotSupported: registerError('evm', 11, 'transaction type not supported', C.INVALID_ARGUMENT),
  UnprotectedTx: registerError('evm', 12, 'only replay-protected (EIP-155) transactions allowed', C.INVALID_ARGUMENT),
  SenderNotEOA: registerError('evm', 13, 'sender not an EOA', C.INVALID_ARGUMENT),
  SenderMismatch: registerError('evm', 14, 'from address does not match the transaction signer', C.PERMISSION_DENIED),
  InvalidWrapper: registerError('evm', 15, 'invalid Ethereum tx wrapper', C.INVALID_ARGUMENT),
  NotVerified: registerError('evm', 16, 'MsgEthereumTx was not verified by the evm ante handler', C.INVALID_ARGUMENT),
  InvalidParams: registerError('evm', 17, 'invalid evm params', C.INVALID_ARGUMENT),
  InvalidChainConfig: registerError('evm', 18, 'cannot derive the EIP-155 chain id', C.FAILED_PRECONDITION),
} as const;
