/** The error type of the gateway JSON / query-parameter codec. */

/** A codec failure; `message` mirrors the gateway's text, `code` is the gRPC status code to answer with. */
export class CodecError extends Error {
  /** gRPC code: 3 (InvalidArgument) for bad input, 2 (Unknown) for messages that cannot be written. */
  readonly code: number;
  constructor(message: string, code = 3) {
    super(message);
    this.name = 'CodecError';
    this.code = code;
  }
}
