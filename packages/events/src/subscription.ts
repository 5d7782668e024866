/** A single subscriber's bounded queue of bus messages. */
import type { Query } from './query.js';

/** A published message as delivered to subscribers (the same object is shared by all of them). */
export interface BusMessage {
  readonly type: string;
  readonly data: unknown;
  readonly events: Readonly<Record<string, readonly string[]>>;
}

/** Cancellation reasons set by the bus. */
export const CancelReason = {
  /** Explicit unsubscribe, unsubscribeAll, `sub.unsubscribe()` or leaving a `for await` loop. */
  unsubscribed: 'unsubscribed',
  /** The subscriber's buffer was full when a message arrived. */
  slowClient: 'slow client',
  /** The bus was closed. */
  shutdown: 'server shutting down',
} as const;

/** Internal hooks used by the bus (not exported from the package index). */
export const deliverMessage = Symbol('deliverMessage');
export const cancelSubscription = Symbol('cancelSubscription');

type Waiter = (msg: BusMessage | undefined) => void;

/**
 * A live subscription. Read it with `next()` or `for await (const msg of sub)`. Messages are
 * buffered up to `bufferSize`; a message arriving at a full buffer cancels the subscription
 * (reason `slow client`) and drops what was pending. After cancellation `next()` resolves undefined
 * and iteration ends. Breaking out of a `for await` loop unsubscribes.
 */
export class Subscription implements AsyncIterable<BusMessage> {
  /** The client (e.g. websocket remote address) owning this subscription. */
  readonly clientId: string;
  /** The subscribed query. */
  readonly query: Query;
  /** Maximum number of undelivered messages before the subscription is cut off. */
  readonly bufferSize: number;

  /** Ring buffer, grown on demand up to `bufferSize` slots; consumed slots are cleared. */
  private ring: (BusMessage | undefined)[] = [];
  private head = 0;
  private count = 0;
  private waiters: Waiter[] = [];
  private reason: string | undefined;
  private readonly detach: (sub: Subscription) => void;

  /** @internal Created by {@link EventBus.subscribe}. */
  constructor(clientId: string, query: Query, bufferSize: number, detach: (sub: Subscription) => void) {
    this.clientId = clientId;
    this.query = query;
    this.bufferSize = bufferSize;
    this.detach = detach;
  }

  /** True once the subscription has been cancelled for any reason. */
  get cancelled(): boolean {
    return this.reason !== undefined;
  }

  /** Why the subscription was cancelled (see {@link CancelReason}); undefined while active. */
  get cancelReason(): string | undefined {
    return this.reason;
  }

  /** Number of buffered, not yet consumed messages (never exceeds `bufferSize`). */
  get pending(): number {
    return this.count;
  }

  /** Resolves with the next message, or undefined once the subscription is cancelled. */
  next(): Promise<BusMessage | undefined> {
    if (this.pending > 0) return Promise.resolve(this.shift());
    if (this.reason !== undefined) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Cancels this subscription (reason `unsubscribed`) and removes it from its bus; no-op if already cancelled. */
  unsubscribe(): void {
    this[cancelSubscription](CancelReason.unsubscribed);
  }

  /** Async iteration over messages; ends on cancellation, and `break`/`return` unsubscribes. */
  [Symbol.asyncIterator](): AsyncIterator<BusMessage> {
    return {
      next: async (): Promise<IteratorResult<BusMessage>> => {
        const msg = await this.next();
        return msg === undefined ? { done: true, value: undefined } : { done: false, value: msg };
      },
      return: async (): Promise<IteratorResult<BusMessage>> => {
        this.unsubscribe();
        return { done: true, value: undefined };
      },
    };
  }

  /** @internal Enqueues a message without ever blocking; cancels the subscription if the buffer is full. */
  [deliverMessage](msg: BusMessage): void {
    if (this.reason !== undefined) return;
    const waiter = this.waiters.shift();
    if (waiter !== undefined) {
      waiter(msg);
      return;
    }
    if (this.pending >= this.bufferSize) {
      this[cancelSubscription](CancelReason.slowClient);
      return;
    }
    if (this.count === this.ring.length) this.grow();
    this.ring[(this.head + this.count) % this.ring.length] = msg;
    this.count++;
  }

  /** @internal Cancels with `reason`, drops pending messages, wakes readers and detaches from the bus. */
  [cancelSubscription](reason: string): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.ring = [];
    this.head = 0;
    this.count = 0;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w(undefined);
    this.detach(this);
  }

  private shift(): BusMessage {
    const msg = this.ring[this.head]!;
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) % this.ring.length;
    this.count--;
    return msg;
  }

  /** Doubles the ring (at least 16, at most `bufferSize` slots), keeping message order. */
  private grow(): void {
    const size = Math.min(this.bufferSize, Math.max(16, this.ring.length * 2));
    const next = new Array<BusMessage | undefined>(size);
    for (let k = 0; k < this.count; k++) next[k] = this.ring[(this.head + k) % this.ring.length];
    this.ring = next;
    this.head = 0;
  }
}
