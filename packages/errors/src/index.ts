/**
 * Registered errors with stable (codespace, code) pairs, as the Cosmos SDK has them. Every transport maps
 * a ChainError once: ABCI code/codespace/log, HTTP status + gRPC code for REST, JSON-RPC error codes.
 */

/** gRPC status codes (used by REST error bodies and the HTTP status map). */
export const GrpcCode = {
  OK: 0, CANCELLED: 1, UNKNOWN: 2, INVALID_ARGUMENT: 3, DEADLINE_EXCEEDED: 4, NOT_FOUND: 5, ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7, RESOURCE_EXHAUSTED: 8, FAILED_PRECONDITION: 9, ABORTED: 10, OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12, INTERNAL: 13, UNAVAILABLE: 14, DATA_LOSS: 15, UNAUTHENTICATED: 16,
} as const;

export class RegisteredError {
  constructor(
    readonly codespace: string,
    readonly code: number,
    readonly description: string,
    readonly grpcCode: number = GrpcCode.UNKNOWN,
  ) {}

  /** A ChainError whose log reads `<message>: <description>` like errors.Wrap in the SDK. */
  wrap(message: string): ChainError {
    return new ChainError(this, message);
  }

  /** Same as wrap with a printf-less template: wrapf('x %d', 1) is wrap(`x 1`) written by the caller. */
  error(): ChainError {
    return new ChainError(this);
  }

  is(err: unknown): boolean {
    return err instanceof ChainError && err.registered === this;
  }
}

export class ChainError extends Error {
  constructor(readonly registered: RegisteredError, readonly context?: string) {
    super(context ? `${context}: ${registered.description}` : registered.description);
    this.name = 'ChainError';
  }
  get code(): number { return this.registered.code; }
  get codespace(): string { return this.registered.codespace; }
  get grpcCode(): number { return this.registered.grpcCode; }
}

const registry = new Map<string, RegisteredError>();

/** Registers an error; a (codespace, code) pair can be registered once. */
export function registerError(codespace: string, code: number, description: string, grpcCode: number = GrpcCode.UNKNOWN): RegisteredError {
  const key = `${codespace}/${code}`;
  const existing = registry.get(key);
  if (existing) {
    if (existing.description !== description) throw new Error(`error ${key} already registered`);
    return existing;
  }
  const e = new RegisteredError(codespace, code, description, grpcCode);
  registry.set(key, e);
  return e;
}

export const ROOT_CODESPACE = 'sdk';
const C = GrpcCode;
/** The SDK root errors (codespace `sdk`). */
export const Errors = {
  TxDecode: registerError('sdk', 2, 'tx parse error', C.INVALID_ARGUMENT),
  InvalidSequence: registerError('sdk', 3, 'invalid sequence', C.INVALID_ARGUMENT),
  Unauthorized: registerError('sdk', 4, 'unauthorized', C.UNAUTHENTICATED),
  InsufficientFunds: registerError('sdk', 5, 'insufficient funds', C.INVALID_ARGUMENT),
  UnknownRequest: registerError('sdk', 6, 'unknown request', C.INVALID_ARGUMENT),
  InvalidAddress: registerError('sdk', 7, 'invalid address', C.INVALID_ARGUMENT),
  InvalidPubKey: registerError('sdk', 8, 'invalid pubkey', C.INVALID_ARGUMENT),
  UnknownAddress: registerError('sdk', 9, 'unknown address', C.NOT_FOUND),
  InvalidCoins: registerError('sdk', 10, 'invalid coins', C.INVALID_ARGUMENT),
  OutOfGas: registerError('sdk', 11, 'out of gas', C.RESOURCE_EXHAUSTED),
  MemoTooLarge: registerError('sdk', 12, 'memo too large', C.INVALID_ARGUMENT),
  InsufficientFee: registerError('sdk', 13, 'insufficient fee', C.INVALID_ARGUMENT),
  TooManySignatures: registerError('sdk', 14, 'maximum number of signatures exceeded', C.INVALID_ARGUMENT),
  NoSignatures: registerError('sdk', 15, 'no signatures supplied', C.INVALID_ARGUMENT),
  JSONMarshal: registerError('sdk', 16, 'failed to marshal JSON bytes', C.INTERNAL),
  JSONUnmarshal: registerError('sdk', 17, 'failed to unmarshal JSON bytes', C.INVALID_ARGUMENT),
  InvalidRequest: registerError('sdk', 18, 'invalid request', C.INVALID_ARGUMENT),
  TxInMempoolCache: registerError('sdk', 19, 'tx already in mempool', C.ALREADY_EXISTS),
  MempoolIsFull: registerError('sdk', 20, 'mempool is full', C.UNAVAILABLE),
  TxTooLarge: registerError('sdk', 21, 'tx too large', C.INVALID_ARGUMENT),
  KeyNotFound: registerError('sdk', 22, 'key not found', C.NOT_FOUND),
  InvalidSigner: registerError('sdk', 24, 'tx intended signer does not match the given signer', C.PERMISSION_DENIED),
  InvalidHeight: registerError('sdk', 26, 'invalid height', C.INVALID_ARGUMENT),
  InvalidVersion: registerError('sdk', 27, 'invalid version', C.INVALID_ARGUMENT),
  InvalidChainID: registerError('sdk', 28, 'invalid chain-id', C.INVALID_ARGUMENT),
  InvalidType: registerError('sdk', 29, 'invalid type', C.INVALID_ARGUMENT),
  TxTimeoutHeight: registerError('sdk', 30, 'tx timeout height', C.INVALID_ARGUMENT),
  UnknownExtensionOptions: registerError('sdk', 31, 'unknown extension options', C.INVALID_ARGUMENT),
  WrongSequence: registerError('sdk', 32, 'incorrect account sequence', C.INVALID_ARGUMENT),
  PackAny: registerError('sdk', 33, 'failed packing protobuf message to Any', C.INTERNAL),
  UnpackAny: registerError('sdk', 34, 'failed unpacking protobuf message from Any', C.INVALID_ARGUMENT),
  Logic: registerError('sdk', 35, 'internal logic error', C.INTERNAL),
  Conflict: registerError('sdk', 36, 'conflict', C.FAILED_PRECONDITION),
  NotSupported: registerError('sdk', 37, 'feature not supported', C.UNIMPLEMENTED),
  NotFound: registerError('sdk', 38, 'not found', C.NOT_FOUND),
  IO: registerError('sdk', 39, 'Internal IO error', C.INTERNAL),
  AppConfig: registerError('sdk', 40, 'error in app.toml', C.INTERNAL),
  InvalidGasLimit: registerError('sdk', 41, 'invalid gas limit', C.INVALID_ARGUMENT),
} as const;

/** ABCI view of any thrown value: registered errors keep their code; anything else is code 1 `undefined`. */
export function abciInfo(err: unknown): { codespace: string; code: number; log: string } {
  if (err instanceof ChainError) return { codespace: err.codespace, code: err.code, log: err.message };
  const msg = err instanceof Error ? err.message : String(err);
  return { codespace: 'undefined', code: 1, log: msg };
}

/** An error carrying only a gRPC status (query handlers: NotFound, InvalidArgument, ...). */
export class StatusError extends Error {
  constructor(readonly grpcCode: number, message: string) {
    super(message);
    this.name = 'StatusError';
  }
}

export function statusError(grpcCode: number, message: string): StatusError {
  return new StatusError(grpcCode, message);
}

/** gRPC code → HTTP status, as grpc-gateway maps it. */
export function httpStatusOfGrpc(code: number): number {
  switch (code) {
    case 0: return 200;
    case 1: return 408;
    case 2: return 500;
    case 3: return 400;
    case 4: return 504;
    case 5: return 404;
    case 6: return 409;
    case 7: return 403;
    case 8: return 429;
    case 9: return 400;
    case 10: return 409;
    case 11: return 400;
    case 12: return 501;
    case 13: return 500;
    case 14: return 503;
    case 15: return 500;
    case 16: return 401;
    default: return 500;
  }
}

/** gRPC status of any error thrown by a query handler. */
export function grpcStatusOf(err: unknown): { code: number; message: string } {
  if (err instanceof StatusError) return { code: err.grpcCode, message: err.message };
  if (err instanceof ChainError) return { code: err.grpcCode, message: err.message };
  return { code: GrpcCode.UNKNOWN, message: err instanceof Error ? err.message : String(err) };
}
