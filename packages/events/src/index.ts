/** @chain/events — ABCI event model, CometBFT event query language and the in-process event bus. */
export { flattenEvents } from './event.js';
export type { Event, EventAttribute, FlatEvents } from './event.js';
export { QueryParseError, SubscriptionError } from './errors.js';
export { IndexedEvents, Query, parseQuery } from './query.js';
export type { Condition, Operator, QueryArg } from './query.js';
export { compareDecimal } from './decimal.js';
export { EventBus } from './bus.js';
export type { EventBusOptions, SubscribeOptions } from './bus.js';
export { CancelReason, Subscription } from './subscription.js';
export type { BusMessage } from './subscription.js';
export { BinaryReader, BinaryWriter, readEventLists, writeEventLists } from './binary.js';
