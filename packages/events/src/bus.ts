/** In-process publish/subscribe event bus with CometBFT's subscription limits and messages. */
import { SubscriptionError } from './errors.js';
import { IndexedEvents, type Query } from './query.js';
import { CancelReason, Subscription, cancelSubscription, deliverMessage, type BusMessage } from './subscription.js';

/** Limits of an {@link EventBus} (defaults are CometBFT's `[rpc]` defaults). */
export interface EventBusOptions {
  /** Maximum distinct clients with at least one subscription (default 100). */
  maxClients?: number;
  /** Maximum subscriptions per client (default 5). */
  maxSubscriptionsPerClient?: number;
  /** Default per-subscription buffer (default 200). */
  bufferSize?: number;
}

/** Per-subscription options. */
export interface SubscribeOptions {
  /** Overrides the bus's default buffer size for this subscription. */
  bufferSize?: number;
}

function positiveInt(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/**
 * Publish/subscribe bus. `publish` is synchronous and never waits for subscribers: each matching
 * subscription gets the message in its bounded buffer, and a subscription whose buffer is full is
 * cancelled with reason `slow client`. Subscriptions are keyed by client id and normalized query.
 */
export class EventBus {
  /** Effective maximum number of clients. */
  readonly maxClients: number;
  /** Effective maximum subscriptions per client. */
  readonly maxSubscriptionsPerClient: number;
  /** Effective default buffer size. */
  readonly bufferSize: number;

  private readonly clients = new Map<string, Map<string, Subscription>>();
  private total = 0;
  private isClosed = false;

  constructor(options: EventBusOptions = {}) {
    this.maxClients = positiveInt('maxClients', options.maxClients ?? 100);
    this.maxSubscriptionsPerClient = positiveInt('maxSubscriptionsPerClient', options.maxSubscriptionsPerClient ?? 5);
    this.bufferSize = positiveInt('bufferSize', options.bufferSize ?? 200);
  }

  /** True after {@link close}. */
  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * Subscribes `clientId` to `query`. Throws SubscriptionError: `max_subscription_clients N reached`
   * (a new client beyond the limit), `max_subscriptions_per_client N reached`, `already subscribed`
   * (same normalized query for this client), `event bus closed`.
   */
  subscribe(clientId: string, query: Query, opts: SubscribeOptions = {}): Subscription {
    const bufferSize = positiveInt('bufferSize', opts.bufferSize ?? this.bufferSize);
    if (this.isClosed) throw new SubscriptionError('event bus closed');
    const existing = this.clients.get(clientId);
    if (existing === undefined && this.clients.size >= this.maxClients) {
      throw new SubscriptionError(`max_subscription_clients ${this.maxClients} reached`);
    }
    if (existing !== undefined && existing.size >= this.maxSubscriptionsPerClient) {
      throw new SubscriptionError(`max_subscriptions_per_client ${this.maxSubscriptionsPerClient} reached`);
    }
    const key = query.toString();
    if (existing?.has(key) === true) throw new SubscriptionError('already subscribed');

    const sub = new Subscription(clientId, query, bufferSize, (s) => this.detach(s));
    const subs = existing ?? new Map<string, Subscription>();
    if (existing === undefined) this.clients.set(clientId, subs);
    subs.set(key, sub);
    this.total++;
    return sub;
  }

  /** Cancels the client's subscription to `query` (compared normalized). Throws `subscription not found`. */
  unsubscribe(clientId: string, query: Query): void {
    const sub = this.clients.get(clientId)?.get(query.toString());
    if (sub === undefined) throw new SubscriptionError('subscription not found');
    sub[cancelSubscription](CancelReason.unsubscribed);
  }

  /** Cancels all of the client's subscriptions. Throws `subscription not found` if it has none. */
  unsubscribeAll(clientId: string): void {
    const subs = this.clients.get(clientId);
    if (subs === undefined || subs.size === 0) throw new SubscriptionError('subscription not found');
    for (const sub of [...subs.values()]) sub[cancelSubscription](CancelReason.unsubscribed);
  }

  /**
   * Delivers `message` to every subscription whose query matches `message.events`. Synchronous and
   * non-blocking; each distinct query is evaluated once per publish. No-op after close.
   */
  publish(message: BusMessage): void {
    if (this.isClosed || this.total === 0) return;
    const index = new IndexedEvents(message.events);
    if (index.empty) return;
    const verdicts = new Map<string, boolean>();
    for (const subs of this.clients.values()) {
      // Deleting the current entry while iterating a Map is safe (a slow client detaches itself).
      for (const [key, sub] of subs) {
        let hit = verdicts.get(key);
        if (hit === undefined) {
          hit = sub.query.matches(index);
          verdicts.set(key, hit);
        }
        if (hit) sub[deliverMessage](message);
      }
    }
  }

  /**
   * Whether a message of type `eventType` (its `tm.event`) could match any subscription: false when there is none, or
   * when every query requires `tm.event = '<another type>'` (a publisher may then skip building such messages).
   */
  mayDeliver(eventType: string): boolean {
    for (const subs of this.clients.values()) {
      for (const sub of subs.values()) {
        const other = sub.query.conditions.some((c) => c.tag === 'tm.event' && c.op === '=' && c.arg?.type === 'string' && c.arg.text !== eventType);
        if (!other) return true;
      }
    }
    return false;
  }

  /** Number of clients with at least one active subscription. */
  numClients(): number {
    return this.clients.size;
  }

  /** Active subscriptions of `clientId`, or of all clients when omitted. */
  numSubscriptions(clientId?: string): number {
    if (clientId === undefined) return this.total;
    return this.clients.get(clientId)?.size ?? 0;
  }

  /** Cancels every subscription with reason `server shutting down`; later subscribes fail, publishes are ignored. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const subs of [...this.clients.values()]) {
      for (const sub of [...subs.values()]) sub[cancelSubscription](CancelReason.shutdown);
    }
  }

  private detach(sub: Subscription): void {
    const subs = this.clients.get(sub.clientId);
    const key = sub.query.toString();
    if (subs === undefined || subs.get(key) !== sub) return;
    subs.delete(key);
    this.total--;
    if (subs.size === 0) this.clients.delete(sub.clientId);
  }
}
