/**
 * A JSON shape comparator for cross-checking two JSON-RPC servers: the same set of keys (recursively), the
 * same JSON types, the same hex format classes (quantity vs data, and the byte length of fixed-size data:
 * 8-byte nonces, 20-byte addresses, 32-byte hashes, 256-byte blooms), and equal values unless a rule names
 * the path. Every difference is reported with its path (`result.transactions[0].chainId: ...`).
 *
 * Rules are keyed by a path relative to the compared root, with array indexes (`[0].error.code`) or with
 * `[]` for any index (`result.transactions[].v`); a key starting with `*.` matches that suffix at any depth (`*.blockHash`). A rule
 * on a path covers everything below it. Kinds:
 *  - `value`: the values may differ (the shape is still compared);
 *  - `ignore`: nothing below is compared (for subtrees whose shape differs on purpose);
 *  - `oursOnly` / `refOnly`: the key may be present on one side only.
 * Each rule carries the reason, so the list of tolerated differences documents itself.
 */

export type RuleKind = 'value' | 'ignore' | 'oursOnly' | 'refOnly';
export interface Rule { readonly kind: RuleKind; readonly reason: string }
export type Rules = Readonly<Record<string, Rule>>;

export const differs = (reason: string): Rule => ({ kind: 'value', reason });
export const ignored = (reason: string): Rule => ({ kind: 'ignore', reason });
export const oursOnly = (reason: string): Rule => ({ kind: 'oursOnly', reason });
export const refOnly = (reason: string): Rule => ({ kind: 'refOnly', reason });

/** Keys whose values are quantities even when they happen to be 32 bytes long (signature values). */
const QUANTITY_KEYS = new Set(['r', 's', 'v', 'yParity']);
const FIXED_BYTES = new Set([8, 20, 32, 256]);

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** The format classes a hex string belongs to; two values are compatible when their classes intersect. */
export function hexClasses(v: string, key: string): Set<string> {
  if (!/^0x[0-9a-fA-F]*$/.test(v)) return new Set(['text']);
  const digits = v.length - 2;
  const quantity = /^0x(0|[1-9a-f][0-9a-f]*)$/.test(v);
  if (QUANTITY_KEYS.has(key)) return new Set([quantity ? 'quantity' : 'non-canonical quantity']);
  if (/[A-F]/.test(v)) return new Set(['mixed-case hex']);
  if (digits % 2 === 0 && FIXED_BYTES.has(digits / 2)) return new Set([`data${digits / 2}`]);
  const out = new Set<string>();
  if (quantity) out.add('quantity');
  if (digits % 2 === 0) out.add('data');
  if (out.size === 0) out.add('odd-length non-canonical hex');
  return out;
}

const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > 120 ? `${s.slice(0, 117)}...` : s;
};

export interface CompareNames {
  readonly oursName?: string;
  readonly refName?: string;
}

/**
 * Compares `ours` with `ref` under `rules`; returns one line per difference (empty: same shape and values).
 * `root` prefixes the reported paths (rules match paths below the root).
 */
export function compareShape(ours: unknown, ref: unknown, rules: Rules, root = '', names: CompareNames = {}): string[] {
  const o = names.oursName ?? 'ours';
  const r = names.refName ?? 'reference';
  const out: string[] = [];
  const covers = (k: string, path: string): boolean => (k.startsWith('*.')
    ? ('.' + path).endsWith('.' + k.slice(2)) || ('.' + path).includes('.' + k.slice(2) + '.') || ('.' + path).includes('.' + k.slice(2) + '[')
    : path === k || path.startsWith(k + '.') || path.startsWith(k + '['));
  /** the first rule of one of `kinds` covering the path (with indexes) or its normalized form (indexes as `[]`) */
  const find = (rel: string, norm: string, kinds: RuleKind[]): string | undefined => {
    for (const [k, rule] of Object.entries(rules)) {
      if (kinds.includes(rule.kind) && (covers(k, rel) || covers(k, norm))) return k;
    }
    return undefined;
  };
  const display = (rel: string): string => (!root ? rel || '(root)' : !rel ? root : rel.startsWith('[') ? root + rel : `${root}.${rel}`);
  const walk = (a: unknown, b: unknown, at: string, norm: string, key: string, valueFree: boolean): void => {
    if (find(at, norm, ['ignore']) !== undefined) return;
    const free = valueFree || find(at, norm, ['value']) !== undefined;
    const where = display(at);
    const ta = jsonType(a);
    const tb = jsonType(b);
    if (ta !== tb) { out.push(`${where}: type ${ta} (${o}: ${show(a)}) vs ${tb} (${r}: ${show(b)})`); return; }
    if (ta === 'array') {
      const xa = a as unknown[];
      const xb = b as unknown[];
      if (xa.length !== xb.length && !free) out.push(`${where}: ${xa.length} items (${o}) vs ${xb.length} (${r})`);
      for (let i = 0; i < Math.min(xa.length, xb.length); i++) walk(xa[i], xb[i], `${at}[${i}]`, `${norm}[]`, key, free);
      return;
    }
    if (ta === 'object') {
      const oa = a as Record<string, unknown>;
      const ob = b as Record<string, unknown>;
      for (const k of new Set([...Object.keys(oa), ...Object.keys(ob)])) {
        const p = at ? `${at}.${k}` : k;
        const n = norm ? `${norm}.${k}` : k;
        if (!(k in ob)) { if (find(p, n, ['oursOnly', 'ignore']) === undefined) out.push(`${display(p)}: only in ${o} (${show(oa[k])})`); continue; }
        if (!(k in oa)) { if (find(p, n, ['refOnly', 'ignore']) === undefined) out.push(`${display(p)}: only in ${r} (${show(ob[k])})`); continue; }
        walk(oa[k], ob[k], p, n, k, free);
      }
      return;
    }
    if (ta === 'string') {
      const ca = hexClasses(a as string, key);
      const cb = hexClasses(b as string, key);
      if (![...ca].some((c) => cb.has(c))) { out.push(`${where}: format ${[...ca].join('|')} (${o}: ${show(a)}) vs ${[...cb].join('|')} (${r}: ${show(b)})`); return; }
    }
    if (!free && a !== b) out.push(`${where}: value ${show(a)} (${o}) vs ${show(b)} (${r})`);
  };
  walk(ours, ref, '', '', '', false);
  return out;
}
