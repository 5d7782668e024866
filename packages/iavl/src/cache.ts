/**
 * A bounded node cache: a 16-way set-associative table keyed by node id, with a hot/cold flag and the node's height
 * per slot. It holds at most `capacity` nodes, and a lookup or an insertion costs a few typed-array reads (no Map,
 * no per-entry allocation). The table (about 26 bytes a slot) starts at 1,024 slots and doubles while it is 3/4
 * full, up to `capacity` slots.
 *
 * Node `id` lives in set `id mod sets` (a version's ids are consecutive, so its nodes spread evenly over the sets).
 * The tree adds inner nodes hot, offers leaves cold (only into a free or cold slot), and marks a node cold when a
 * change replaces it (it then only serves views of older versions). An insertion takes a free slot of the set,
 * else a cold one, else the slot of the lowest node of the set: a node of height h covers about 2^h keys, so under
 * random changes the lowest is the least likely to be on a later path. A hit makes the node hot.
 */
import type { Node } from './node.js';

const WAYS = 16;

/** Sets of a new cache: the table starts small and doubles (rehashing) while it is 3/4 full, up to `capacity`. */
const INITIAL_SETS = 64;

export class NodeCache {
  /** Node ids by slot (-1: free). */
  private ids = new Float64Array(0);
  private nodes: (Node | undefined)[] = [];
  private hot = new Uint8Array(0);
  /** Node heights by slot (capped at 255). */
  private heights = new Uint8Array(0);
  private sets = 1;
  /** The number of sets at full size: capacity / WAYS (at least one set; a smaller capacity caps the count). */
  private readonly maxSets: number;
  private count = 0;
  private turn = 0;

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 0) throw new RangeError(`cache size: invalid ${capacity}`);
    this.maxSets = Math.max(1, Math.floor(capacity / WAYS));
    if (capacity > 0) this.resize(Math.min(this.maxSets, INITIAL_SETS));
  }

  /** Rebuild the table with `sets` sets, re-inserting the cached nodes (a node whose new set is full is dropped). */
  private resize(sets: number): void {
    const { ids, nodes, hot, heights } = this;
    const slots = sets * WAYS;
    this.sets = sets;
    this.ids = new Float64Array(slots).fill(-1);
    this.nodes = new Array<Node | undefined>(slots).fill(undefined);
    this.hot = new Uint8Array(slots);
    this.heights = new Uint8Array(slots);
    this.count = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (id === -1) continue;
      const b = this.base(id);
      for (let s = b; s < b + WAYS; s++) {
        if (this.ids[s] === -1) {
          this.ids[s] = id;
          this.nodes[s] = nodes[i];
          this.hot[s] = hot[i]!;
          this.heights[s] = heights[i]!;
          this.count++;
          break;
        }
      }
    }
  }

  /** Grow the table while it is 3/4 full and below its full size. */
  private grow(): void {
    if (this.sets < this.maxSets && this.count * 4 >= this.ids.length * 3) this.resize(Math.min(this.maxSets, this.sets * 2));
  }

  private base(id: number): number {
    return (id % this.sets) * WAYS;
  }

  get(id: number): Node | undefined {
    if (this.capacity === 0) return undefined;
    const b = this.base(id);
    const ids = this.ids;
    for (let s = b; s < b + WAYS; s++) {
      if (ids[s] === id) {
        this.hot[s] = 1;
        return this.nodes[s];
      }
    }
    return undefined;
  }

  /** Cache `node` under `id` (its storage id), hot or cold. A node already cached under that id is replaced. */
  add(id: number, node: Node, hot: 0 | 1): void {
    if (this.capacity === 0) return;
    this.grow();
    const b = this.base(id);
    const ids = this.ids;
    const h = this.hot;
    let slot = -1;
    let free = -1;
    let cold = -1;
    for (let s = b; s < b + WAYS; s++) {
      const x = ids[s]!;
      if (x === id) {
        slot = s;
        break;
      }
      if (x === -1) {
        if (free < 0) free = s;
      } else if (h[s] === 0 && cold < 0) cold = s;
    }
    if (slot < 0) {
      if (free >= 0 && this.count < this.capacity) {
        slot = free;
        this.count++;
      } else if (cold >= 0) slot = cold;
      else {
        // every way hot (or the count is capped): replace the lowest node of the set (it covers the fewest keys,
        // so it is the least likely to be on a later path), the first of them in rotation order
        const hs = this.heights;
        const t = this.turn++ & (WAYS - 1);
        slot = -1;
        for (let i = 0; i < WAYS; i++) {
          const s = b + ((t + i) & (WAYS - 1));
          if (ids[s] === -1) continue;
          if (slot < 0 || hs[s]! < hs[slot]!) slot = s;
        }
        if (slot < 0) return; // tiny caches: no room at all
      }
    }
    ids[slot] = id;
    this.nodes[slot] = node;
    h[slot] = hot;
    this.heights[slot] = node.height > 255 ? 255 : node.height;
  }

  /**
   * Cache `node` cold only if its set has a free slot or a cold entry to replace (never evicts a hot node):
   * for nodes worth keeping when there is room, not at the expense of the hot ones.
   */
  offer(id: number, node: Node): void {
    if (this.capacity === 0) return;
    this.grow();
    const b = this.base(id);
    const ids = this.ids;
    let slot = -1;
    for (let s = b; s < b + WAYS; s++) {
      const x = ids[s]!;
      if (x === id) return;
      if (x === -1) {
        if (this.count < this.capacity) {
          slot = s;
          this.count++;
          break;
        }
      } else if (this.hot[s] === 0 && slot < 0) slot = s;
    }
    if (slot < 0) return;
    ids[slot] = id;
    this.nodes[slot] = node;
    this.hot[slot] = 0;
    this.heights[slot] = node.height > 255 ? 255 : node.height;
  }

  /** Mark node `id` cold if it is cached (it will be evicted first). */
  cool(id: number): void {
    if (this.capacity === 0) return;
    const b = this.base(id);
    for (let s = b; s < b + WAYS; s++) {
      if (this.ids[s] === id) {
        this.hot[s] = 0;
        return;
      }
    }
  }

  delete(id: number): void {
    if (this.capacity === 0) return;
    const b = this.base(id);
    for (let s = b; s < b + WAYS; s++) {
      if (this.ids[s] === id) {
        this.ids[s] = -1;
        this.nodes[s] = undefined;
        this.hot[s] = 0;
        this.count--;
        return;
      }
    }
  }

  get size(): number {
    return this.count;
  }

  clear(): void {
    this.ids.fill(-1);
    this.nodes.fill(undefined);
    this.hot.fill(0);
    this.count = 0;
  }
}
