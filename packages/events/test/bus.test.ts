import { expect } from 'chai';
import { CancelReason, EventBus, SubscriptionError, parseQuery, type BusMessage, type Subscription } from '../src/index.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function txMessage(height: number, sender = 'chain1abc'): BusMessage {
  return {
    type: 'tendermint/event/Tx',
    data: { height },
    events: { 'tm.event': ['Tx'], 'tx.height': [String(height)], 'message.sender': [sender] },
  };
}
const blockMessage = (height: number): BusMessage => ({ type: 'tendermint/event/NewBlock', data: { height }, events: { 'tm.event': ['NewBlock'] } });

function expectSubscriptionError(fn: () => unknown, message: string): void {
  expect(fn).to.throw(SubscriptionError);
  try {
    fn();
  } catch (e) {
    expect((e as Error).message).to.equal(message);
  }
}

describe('EventBus: delivery', () => {
  it('delivers a published message only to matching subscriptions, as the same object', async () => {
    const bus = new EventBus();
    const txs = bus.subscribe('c1', parseQuery("tm.event='Tx'"));
    const blocks = bus.subscribe('c1', parseQuery("tm.event='NewBlock'"));
    const other = bus.subscribe('c2', parseQuery("tm.event='Tx'"));
    const msg = txMessage(5);
    bus.publish(msg);
    bus.publish(blockMessage(6));
    expect(txs.pending).to.equal(1);
    expect(blocks.pending).to.equal(1);
    expect(await txs.next()).to.equal(msg);
    expect(await other.next()).to.equal(msg);
    expect(await blocks.next()).to.deep.equal(blockMessage(6));
    expect(txs.pending).to.equal(0);
  });

  it('resolves a pending next() when a message arrives', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', parseQuery('tx.height > 10'));
    const waiting = sub.next();
    bus.publish(txMessage(3));
    bus.publish(txMessage(11));
    expect((await waiting)?.data).to.deep.equal({ height: 11 });
    expect(sub.pending).to.equal(0);
  });

  it('supports for-await and unsubscribes when the loop is left', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', parseQuery("message.sender = 'chain1abc'"));
    for (let h = 1; h <= 5; h++) bus.publish(txMessage(h, h % 2 === 0 ? 'chain1zzz' : 'chain1abc'));
    const heights: number[] = [];
    for await (const m of sub) {
      heights.push((m.data as { height: number }).height);
      if (heights.length === 3) break;
    }
    expect(heights).to.deep.equal([1, 3, 5]);
    expect(sub.cancelled).to.equal(true);
    expect(sub.cancelReason).to.equal(CancelReason.unsubscribed);
    expect(bus.numSubscriptions()).to.equal(0);
    expect(bus.numClients()).to.equal(0);
  });

  it('ends for-await iteration when the subscription is cancelled', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', parseQuery("tm.event='Tx'"));
    const seen: number[] = [];
    const loop = (async () => {
      for await (const m of sub) seen.push((m.data as { height: number }).height);
    })();
    bus.publish(txMessage(1));
    await tick();
    bus.unsubscribe('c1', parseQuery("tm.event = 'Tx'"));
    await loop;
    expect(seen).to.deep.equal([1]);
    expect(sub.cancelReason).to.equal('unsubscribed');
    expect(await sub.next()).to.equal(undefined);
  });

  it('ignores messages whose events do not match, including an empty event map', () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', parseQuery('tm EXISTS'));
    bus.publish({ type: 'x', data: null, events: {} });
    bus.publish({ type: 'x', data: null, events: { 'other.key': ['1'] } });
    expect(sub.pending).to.equal(0);
    bus.publish(blockMessage(1));
    expect(sub.pending).to.equal(1);
  });
});

describe('EventBus: limits', () => {
  it('uses CometBFT defaults', () => {
    const bus = new EventBus();
    expect([bus.maxClients, bus.maxSubscriptionsPerClient, bus.bufferSize]).to.deep.equal([100, 5, 200]);
    expect(bus.subscribe('c', parseQuery('a.b EXISTS')).bufferSize).to.equal(200);
  });

  it('rejects the 101st client with max_subscription_clients 100 reached', () => {
    const bus = new EventBus();
    for (let i = 0; i < 100; i++) bus.subscribe(`10.0.0.${i}:26657`, parseQuery('a.b EXISTS'));
    expect(bus.numClients()).to.equal(100);
    expectSubscriptionError(() => bus.subscribe('new-client', parseQuery('a.b EXISTS')), 'max_subscription_clients 100 reached');
    // an existing client may still add subscriptions
    bus.subscribe('10.0.0.0:26657', parseQuery('c.d EXISTS'));
    expect(bus.numSubscriptions()).to.equal(101);
    // a freed slot can be reused
    bus.unsubscribeAll('10.0.0.7:26657');
    bus.subscribe('new-client', parseQuery('a.b EXISTS'));
    expect(bus.numClients()).to.equal(100);
  });

  it('rejects a 6th subscription with max_subscriptions_per_client 5 reached (checked before duplicates)', () => {
    const bus = new EventBus();
    for (let i = 0; i < 5; i++) bus.subscribe('c1', parseQuery(`tx.height > ${i}`));
    expectSubscriptionError(() => bus.subscribe('c1', parseQuery('tx.height > 99')), 'max_subscriptions_per_client 5 reached');
    expectSubscriptionError(() => bus.subscribe('c1', parseQuery('tx.height > 0')), 'max_subscriptions_per_client 5 reached');
    expect(bus.numSubscriptions('c1')).to.equal(5);
    bus.subscribe('c2', parseQuery('tx.height > 99'));
    expect(bus.numSubscriptions('c2')).to.equal(1);
  });

  it('honours custom limits', () => {
    const bus = new EventBus({ maxClients: 2, maxSubscriptionsPerClient: 1, bufferSize: 7 });
    const sub = bus.subscribe('a', parseQuery('x.y EXISTS'));
    expect(sub.bufferSize).to.equal(7);
    bus.subscribe('b', parseQuery('x.y EXISTS'));
    expectSubscriptionError(() => bus.subscribe('c', parseQuery('x.y EXISTS')), 'max_subscription_clients 2 reached');
    expectSubscriptionError(() => bus.subscribe('a', parseQuery('z.w EXISTS')), 'max_subscriptions_per_client 1 reached');
  });

  it('rejects a duplicate normalized query with already subscribed', () => {
    const bus = new EventBus();
    bus.subscribe('c1', parseQuery("tm.event='Tx' AND tx.height>=5"));
    expectSubscriptionError(() => bus.subscribe('c1', parseQuery("  tm.event = 'Tx'  AND tx.height >= 5")), 'already subscribed');
    bus.subscribe('c2', parseQuery("tm.event='Tx' AND tx.height>=5"));
    expect(bus.numSubscriptions()).to.equal(2);
  });

  it('validates sizes', () => {
    expect(() => new EventBus({ bufferSize: 0 })).to.throw(RangeError, 'bufferSize must be a positive integer, got 0');
    expect(() => new EventBus({ maxClients: 1.5 })).to.throw(RangeError, 'maxClients must be a positive integer, got 1.5');
    expect(() => new EventBus().subscribe('c', parseQuery('a.b EXISTS'), { bufferSize: -1 })).to.throw(RangeError);
  });
});

describe('EventBus: unsubscribe', () => {
  it('unsubscribes by normalized query and reports subscription not found otherwise', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', parseQuery("tm.event='Tx'"));
    const keep = bus.subscribe('c1', parseQuery("tm.event='NewBlock'"));
    const waiting = sub.next();
    expectSubscriptionError(() => bus.unsubscribe('c2', parseQuery("tm.event='Tx'")), 'subscription not found');
    expectSubscriptionError(() => bus.unsubscribe('c1', parseQuery("tm.event='Vote'")), 'subscription not found');
    bus.unsubscribe('c1', parseQuery("tm.event  =  'Tx'"));
    expect(await waiting).to.equal(undefined);
    expect(sub.cancelReason).to.equal('unsubscribed');
    expect(keep.cancelled).to.equal(false);
    expect(bus.numSubscriptions('c1')).to.equal(1);
    expectSubscriptionError(() => bus.unsubscribe('c1', parseQuery("tm.event='Tx'")), 'subscription not found');
    // the same query can be subscribed again
    bus.subscribe('c1', parseQuery("tm.event='Tx'"));
    expect(bus.numSubscriptions('c1')).to.equal(2);
  });

  it('unsubscribeAll cancels every subscription of the client only', () => {
    const bus = new EventBus();
    const a = bus.subscribe('c1', parseQuery('a.b EXISTS'));
    const b = bus.subscribe('c1', parseQuery('c.d EXISTS'));
    const other = bus.subscribe('c2', parseQuery('a.b EXISTS'));
    expectSubscriptionError(() => bus.unsubscribeAll('nobody'), 'subscription not found');
    bus.unsubscribeAll('c1');
    expect([a.cancelReason, b.cancelReason, other.cancelReason]).to.deep.equal(['unsubscribed', 'unsubscribed', undefined]);
    expect(bus.numClients()).to.equal(1);
    expect(bus.numSubscriptions('c1')).to.equal(0);
    expectSubscriptionError(() => bus.unsubscribeAll('c1'), 'subscription not found');
  });

  it('Subscription.unsubscribe detaches from the bus and drops pending messages', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', parseQuery('tm EXISTS'));
    bus.publish(blockMessage(1));
    sub.unsubscribe();
    sub.unsubscribe(); // idempotent
    expect(sub.pending).to.equal(0);
    expect(await sub.next()).to.equal(undefined);
    expect(bus.numClients()).to.equal(0);
    bus.publish(blockMessage(2));
    expect(sub.pending).to.equal(0);
  });
});

describe('EventBus: slow subscribers', () => {
  it('cuts off a subscriber that never reads without growing past its buffer or slowing a reader', async () => {
    const bus = new EventBus();
    const q = parseQuery("tm.event='Tx'");
    const slow = bus.subscribe('slow', q);
    const fast = bus.subscribe('fast', q);
    const received: number[] = [];
    let maxFastPending = 0;
    const reader = (async () => {
      for await (const m of fast) received.push((m.data as { height: number }).height);
    })();
    const ringSize = (s: Subscription): number => (s as unknown as { ring: unknown[] }).ring.length;

    let maxSlowPending = 0;
    let maxSlowRing = 0;
    let cutAt = -1;
    for (let h = 1; h <= 10_000; h++) {
      bus.publish(txMessage(h));
      maxSlowPending = Math.max(maxSlowPending, slow.pending);
      maxSlowRing = Math.max(maxSlowRing, ringSize(slow));
      maxFastPending = Math.max(maxFastPending, fast.pending);
      if (cutAt < 0 && slow.cancelled) cutAt = h;
      if (h % 100 === 0) await tick(); // let the reader drain
    }
    await tick();
    bus.unsubscribe('fast', q);
    await reader;

    expect(cutAt).to.equal(201);
    expect(maxSlowPending).to.equal(200);
    expect(maxSlowRing).to.be.at.most(200);
    expect(slow.cancelReason).to.equal(CancelReason.slowClient);
    expect(slow.cancelReason).to.equal('slow client');
    expect(slow.pending).to.equal(0);
    expect(ringSize(slow)).to.equal(0);
    expect(await slow.next()).to.equal(undefined);
    expect(received.length).to.equal(10_000);
    expect(received.every((h, i) => h === i + 1)).to.equal(true);
    expect(maxFastPending).to.be.at.most(100);
    expect(fast.cancelReason).to.equal('unsubscribed');
    expect(bus.numSubscriptions()).to.equal(0);
  });

  it('keeps order across ring-buffer wrap-around and honours a per-subscription buffer size', async () => {
    const bus = new EventBus();
    const sub = bus.subscribe('c1', parseQuery('tx.height >= 0'), { bufferSize: 40 });
    const got: number[] = [];
    for (let h = 0; h < 1000; h++) {
      bus.publish(txMessage(h));
      if (h % 30 === 29) while (sub.pending > 0) got.push(((await sub.next())!.data as { height: number }).height);
    }
    while (sub.pending > 0) got.push(((await sub.next())!.data as { height: number }).height);
    expect(got).to.deep.equal(Array.from({ length: 1000 }, (_, i) => i));
    for (let h = 0; h < 40; h++) bus.publish(txMessage(h));
    expect(sub.cancelled).to.equal(false);
    bus.publish(txMessage(40));
    expect(sub.cancelReason).to.equal('slow client');
    expect(bus.numSubscriptions()).to.equal(0);
  });
});

describe('EventBus: close', () => {
  it('cancels everything with server shutting down and refuses new work', async () => {
    const bus = new EventBus();
    const a = bus.subscribe('c1', parseQuery('a.b EXISTS'));
    const b = bus.subscribe('c2', parseQuery('a.b EXISTS'));
    const waiting = a.next();
    bus.close();
    expect(bus.closed).to.equal(true);
    expect(await waiting).to.equal(undefined);
    expect([a.cancelReason, b.cancelReason]).to.deep.equal(['server shutting down', 'server shutting down']);
    expect(bus.numClients()).to.equal(0);
    expect(bus.numSubscriptions()).to.equal(0);
    expectSubscriptionError(() => bus.subscribe('c3', parseQuery('a.b EXISTS')), 'event bus closed');
    bus.publish({ type: 't', data: null, events: { 'a.b': ['1'] } }); // no-op, no throw
    bus.close(); // idempotent
  });

  it('mayDeliver: whether some query could take a message of a tm.event type', () => {
    const bus = new EventBus();
    expect(bus.mayDeliver('Tx')).to.equal(false);
    bus.subscribe('eth', parseQuery("tm.event='NewBlock'"));
    expect(bus.mayDeliver('Tx')).to.equal(false);
    expect(bus.mayDeliver('NewBlock')).to.equal(true);
    // a query that does not pin tm.event (or pins it otherwise than with =) may take anything
    const any = bus.subscribe('c', parseQuery("transfer.amount EXISTS"));
    expect(bus.mayDeliver('Tx')).to.equal(true);
    bus.unsubscribe('c', any.query);
    expect(bus.mayDeliver('Tx')).to.equal(false);
    bus.subscribe('c', parseQuery("tm.event CONTAINS 'T'"));
    expect(bus.mayDeliver('Tx')).to.equal(true);
    bus.unsubscribeAll('c');
    bus.subscribe('c', parseQuery("tm.event='Tx' AND message.sender='a'"));
    expect(bus.mayDeliver('Tx')).to.equal(true);
    expect(bus.mayDeliver('NewBlockHeader')).to.equal(false);
  });
});
