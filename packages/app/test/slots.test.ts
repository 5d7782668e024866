import { expect } from 'chai';
import { Slots } from '../src/index.js';

describe('Slots', () => {
  it('gives at most n at once, the rest in the order they asked', async () => {
    const slots = new Slots(2);
    expect(slots.acquire()).to.equal(undefined);
    expect(slots.acquire()).to.equal(undefined);
    const got: number[] = [];
    const waits = [1, 2, 3].map((i) => slots.acquire()!.then(() => { got.push(i); }));
    slots.release();
    // a newcomer queues behind the waiters even when a slot was just released
    const late = slots.acquire();
    expect(late).to.not.equal(undefined);
    await waits[0];
    expect(got).to.deep.equal([1]);
    slots.release();
    slots.release();
    await Promise.all(waits);
    expect(got).to.deep.equal([1, 2, 3]);
    slots.release();
    await late;
    // the two holders left release: both slots free again
    slots.release();
    slots.release();
    expect(slots.acquire()).to.equal(undefined);
    expect(slots.acquire()).to.equal(undefined);
    expect(slots.acquire()).to.not.equal(undefined);
  });
});
