/**
 * Sequence: a counter stored as a uint64 Item (8 bytes big-endian, like cosmossdk.io/collections
 * Sequence). Unset, it reads as its start (0 unless given).
 */
import type { CollectionConfig, StoreAccessor } from './collection.js';
import { Item } from './item.js';
import { uint64Value } from './values.js';

export class Sequence extends Item<bigint> {
  constructor(
    config: CollectionConfig,
    /** the value before the first `next` */
    readonly start: bigint = 0n,
  ) {
    super(config, uint64Value, 'sequence');
  }

  /** The current value (the one `next` will return). */
  peek(ctx: StoreAccessor): bigint {
    const v = this.get(ctx);
    return v === undefined ? this.start : v;
  }

  /** Return the current value and store current + 1. */
  next(ctx: StoreAccessor): bigint {
    const v = this.peek(ctx);
    this.set(ctx, v + 1n);
    return v;
  }
}
