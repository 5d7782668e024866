/** The iterator every collection returns: a store iterator mapped entry by entry (decoding happens as the caller advances). */

export class CollectionIterator<T> implements IterableIterator<T> {
  constructor(
    private readonly inner: Iterator<[Uint8Array, Uint8Array]> | undefined,
    private readonly map: (key: Uint8Array, value: Uint8Array) => T,
  ) {}

  next(): IteratorResult<T, undefined> {
    const inner = this.inner;
    if (inner === undefined) return { done: true, value: undefined };
    const r = inner.next();
    if (r.done) return { done: true, value: undefined };
    return { done: false, value: this.map(r.value[0], r.value[1]) };
  }

  /** Closing early (break out of for..of) closes the store iterator. */
  return(): IteratorResult<T, undefined> {
    this.inner?.return?.();
    return { done: true, value: undefined };
  }

  [Symbol.iterator](): this {
    return this;
  }

  /** Drain into an array. */
  toArray(): T[] {
    const out: T[] = [];
    for (let r = this.next(); !r.done; r = this.next()) out.push(r.value);
    return out;
  }
}
