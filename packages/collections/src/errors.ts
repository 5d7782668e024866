/** Errors thrown by collections and codecs. */

/** A key or value could not be encoded or decoded (bad input, or corrupted / foreign bytes in the store). */
export class EncodingError extends Error {
  override name = 'EncodingError';
}

/** Why a collection operation failed. */
export type CollectionErrorReason = 'encoding' | 'conflict' | 'schema' | 'import';

/** A collection operation failed; the message starts with `collection "<name>": `. */
export class CollectionError extends Error {
  override name = 'CollectionError';
  constructor(
    /** the collection's name */
    readonly collection: string,
    readonly reason: CollectionErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`collection "${collection}": ${message}`, options);
  }
}

/** Rethrow a codec failure as a CollectionError naming the collection and what was being done. */
export function encodingFailure(collection: string, what: string, err: unknown): never {
  const msg = err instanceof Error ? err.message : String(err);
  throw new CollectionError(collection, 'encoding', `${what}: ${msg}`, { cause: err });
}
