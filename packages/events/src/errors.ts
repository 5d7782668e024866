/** Thrown by {@link parseQuery} and {@link Query.fromConditions}; messages follow CometBFT's query parser. */
export class QueryParseError extends Error {
  /** Byte offset (UTF-8) of the offending token, when the error comes from the scanner/parser. */
  readonly offset: number | undefined;

  constructor(message: string, offset?: number) {
    super(message);
    this.name = 'QueryParseError';
    this.offset = offset;
  }
}

/** Thrown by {@link EventBus} subscribe/unsubscribe calls; messages follow CometBFT's RPC/pubsub errors. */
export class SubscriptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SubscriptionError';
  }
}
