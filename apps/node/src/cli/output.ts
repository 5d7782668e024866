/** Printing command results as the SDK's CLI does: JSON (`-o json`) or YAML text (`-o text`). */

export type OutputFormat = 'json' | 'text';

export function outputFormat(v: string | boolean | undefined, dflt: OutputFormat = 'json'): OutputFormat {
  if (v === undefined) return dflt;
  if (v === 'json' || v === 'text') return v;
  throw new Error(`invalid --output ${JSON.stringify(v)}: expected json or text`);
}

/** JSON with bigints as decimal strings and bytes as base64 (what the gateway JSON would give). */
export function toJsonText(value: unknown, indent = 2): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
    return v;
  }, indent);
}

const PLAIN = /^[A-Za-z0-9_./@][A-Za-z0-9_./@:+-]*$/;
const RESERVED = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', '~', '']);

function yamlScalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (typeof v === 'bigint') return `"${v}"`;
  if (v instanceof Uint8Array) return yamlScalar(Buffer.from(v).toString('base64'));
  const s = String(v);
  // numbers in strings stay quoted, as the SDK's YAML of its gateway JSON shows them
  if (PLAIN.test(s) && !RESERVED.has(s.toLowerCase()) && !/^[-+]?[\d.]+([eE][-+]?\d+)?$/.test(s)) return s;
  return JSON.stringify(s);
}

/** A YAML rendering of a JSON value (block style; empty collections inline). */
export function toYaml(value: unknown, indent = 0): string {
  const pad = ' '.repeat(indent);
  const isColl = (v: unknown): boolean => v !== null && typeof v === 'object' && !(v instanceof Uint8Array) && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);
  if (Array.isArray(value)) {
    if (value.length === 0) return `${pad}[]`;
    return value.map((item) => {
      if (!isColl(item)) return `${pad}- ${item !== null && typeof item === 'object' && !(item instanceof Uint8Array) ? (Array.isArray(item) ? '[]' : '{}') : yamlScalar(item)}`;
      const inner = toYaml(item, indent + 2);
      return `${pad}- ${inner.slice(indent + 2)}`;
    }).join('\n');
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return `${pad}{}`;
    return entries.map(([k, v]) => {
      const key = PLAIN.test(k) ? k : JSON.stringify(k);
      if (!isColl(v)) return `${pad}${key}: ${v !== null && typeof v === 'object' && !(v instanceof Uint8Array) ? (Array.isArray(v) ? '[]' : '{}') : yamlScalar(v)}`;
      if (Array.isArray(v)) return `${pad}${key}:\n${toYaml(v, indent)}`;
      return `${pad}${key}:\n${toYaml(v, indent + 2)}`;
    }).join('\n');
  }
  return `${pad}${yamlScalar(value)}`;
}

export function render(value: unknown, format: OutputFormat): string {
  const plain = JSON.parse(toJsonText(value, 0)) as unknown;
  return (format === 'json' ? JSON.stringify(plain, null, 2) : toYaml(plain)) + '\n';
}
