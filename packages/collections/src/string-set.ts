/**
 * A set of strings kept in typed arrays: no JS object per member. For the checks a large genesis makes once per entry
 * (an address seen twice in auth's accounts or bank's balances): a `Set<string>` of a million addresses keeps a
 * million strings alive through the import, which the garbage collector copies and marks again and again (with two
 * such sets, ~2.5 s of a 1M-account import), where this keeps their bytes in one buffer.
 *
 * Members compare as strings do (code unit by code unit). Strings of one-byte characters (all the addresses and
 * names it is used for) are stored as bytes; any other string goes to a plain `Set`.
 */
export class CompactStringSet {
  /** the members' characters, one byte each */
  private bytes = new Uint8Array(1 << 12);
  private used = 0;
  /** member i: bytes [start[i], start[i] + len[i]) */
  private start = new Uint32Array(256);
  private len = new Uint32Array(256);
  private count = 0;
  /**
   * Open addressing, linear probing: per slot a pair (member index + 1, 0 for empty; the member's hash), so a probe
   * compares hashes in the cache line it already loaded. The capacity (pairs) a power of two, at most half full.
   */
  private slots = new Int32Array(2 * 512);
  /** strings with a character above 0xff */
  private readonly wide = new Set<string>();

  /** Members. */
  get size(): number {
    return this.count + this.wide.size;
  }

  has(s: string): boolean {
    const h = hashOf(s);
    if (wideSeen) return this.wide.has(s);
    return this.find(s, h) >= 0;
  }

  /** Adds `s`; false when it was a member already. */
  add(s: string): boolean {
    const h = hashOf(s);
    if (wideSeen) {
      if (this.wide.has(s)) return false;
      this.wide.add(s);
      return true;
    }
    if (2 * (this.count + 1) > this.slots.length >> 1) this.grow();
    const found = this.find(s, h);
    if (found >= 0) return false;
    const i = this.count++;
    if (i === this.start.length) {
      this.start = resized(this.start, 2 * i);
      this.len = resized(this.len, 2 * i);
    }
    if (this.used + s.length > this.bytes.length) this.bytes = resized(this.bytes, Math.max(2 * this.bytes.length, this.used + s.length));
    const b = this.bytes;
    let p = this.used;
    for (let k = 0; k < s.length; k++) b[p++] = s.charCodeAt(k);
    this.start[i] = this.used;
    this.len[i] = s.length;
    this.used = p;
    // the empty slot the probe ended at
    const at = -found - 1;
    this.slots[2 * at] = i + 1;
    this.slots[2 * at + 1] = h;
    return true;
  }

  /** The member index of `s` (one-byte characters, hash `h`), or -(the empty slot its probe ended at) - 1. */
  private find(s: string, h: number): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const e = slots[2 * at]!;
      if (e === 0) return -at - 1;
      if (slots[2 * at + 1] === h) {
        const i = e - 1;
        if (this.len[i] === s.length && this.equalAt(i, s)) return i;
      }
    }
  }

  private equalAt(i: number, s: string): boolean {
    const b = this.bytes;
    const a = this.start[i]!;
    for (let k = 0; k < s.length; k++) if (b[a + k] !== s.charCodeAt(k)) return false;
    return true;
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(2 * old.length);
    const mask = (slots.length >> 1) - 1;
    for (let j = 0; j < old.length; j += 2) {
      const e = old[j]!;
      if (e === 0) continue;
      const h = old[j + 1]!;
      let at = h & mask;
      while (slots[2 * at] !== 0) at = (at + 1) & mask;
      slots[2 * at] = e;
      slots[2 * at + 1] = h;
    }
    this.slots = slots;
  }
}

/** Set by `hashOf`: whether the string it hashed has a character above 0xff. */
let wideSeen = false;

/** FNV-1a over the characters, then a final mix (the low bits pick the slot); sets `wideSeen`. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  let all = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    all |= c;
    h = Math.imul(h ^ c, 0x01000193);
  }
  wideSeen = all > 0xff;
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}

function resized<T extends Uint8Array | Uint32Array | Int32Array>(a: T, n: number): T {
  const out = new (a.constructor as new (n: number) => T)(n);
  out.set(a);
  return out;
}
