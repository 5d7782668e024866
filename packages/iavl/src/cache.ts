/**
 * A bounded node cache with two generations (an approximate LRU without per-hit bookkeeping): hits in the young
 * generation cost one Map lookup; a hit in the old generation promotes the node; when the young generation is
 * full it becomes the old one (the previous old generation is dropped). At most `capacity` nodes are held.
 */
import type { Node } from './node.js';

export class NodeCache {
  private young = new Map<number, Node>();
  private old = new Map<number, Node>();
  private readonly half: number;

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 0) throw new RangeError(`cache size: invalid ${capacity}`);
    this.half = Math.max(1, Math.floor(capacity / 2));
  }

  get(id: number): Node | undefined {
    const n = this.young.get(id);
    if (n !== undefined) return n;
    const o = this.old.get(id);
    if (o !== undefined) {
      this.old.delete(id);
      this.add(id, o);
    }
    return o;
  }

  add(id: number, node: Node): void {
    if (this.capacity === 0) return;
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(id, node);
  }

  delete(id: number): void {
    this.young.delete(id);
    this.old.delete(id);
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
  }
}
