/**
 * A strict parser of the Prometheus text exposition format (0.0.4), shared by the metrics suites: every rule
 * of the format is checked (names, label syntax and escapes, one HELP and TYPE per family before its samples,
 * contiguous families, counters >= 0, histograms cumulative with `+Inf` = `_count` and a `_sum`), and any
 * violation throws. Values are read as Go's strconv.ParseFloat reads them (Prometheus' own parser).
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
export interface Sample { readonly name: string; readonly labels: Record<string, string>; readonly value: number }
export interface Family { readonly name: string; type?: MetricType; help?: string; readonly samples: Sample[] }

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** a sample value as Go's strconv.ParseFloat reads it (what Prometheus uses): NaN and Inf in any case */
function parseValue(s: string, where: string): number {
  const l = s.toLowerCase();
  if (l === 'nan') return NaN;
  if (l === '+inf' || l === 'inf' || l === '+infinity' || l === 'infinity') return Infinity;
  if (l === '-inf' || l === '-infinity') return -Infinity;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new Error(`${where}: bad sample value ${JSON.stringify(s)}`);
  return Number(s);
}

/** `{a="x",b="y\"z"}` starting at `line[i] === '{'` → labels and the index after `}` */
function parseLabels(line: string, i: number, where: string): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  i++; // {
  for (;;) {
    if (line[i] === '}') return { labels, end: i + 1 };
    const m = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(line.slice(i));
    if (!m) throw new Error(`${where}: bad label name at ${i}`);
    const name = m[0];
    if (!LABEL_NAME.test(name) || name.startsWith('__')) throw new Error(`${where}: reserved or bad label name ${name}`);
    if (name in labels) throw new Error(`${where}: label ${name} twice`);
    i += name.length;
    if (line[i] !== '=' || line[i + 1] !== '"') throw new Error(`${where}: expected =" after label ${name}`);
    i += 2;
    let v = '';
    for (;;) {
      const c = line[i];
      if (c === undefined) throw new Error(`${where}: unterminated label value`);
      if (c === '"') { i++; break; }
      if (c === '\\') {
        const e = line[i + 1];
        if (e === '\\') v += '\\';
        else if (e === '"') v += '"';
        else if (e === 'n') v += '\n';
        else throw new Error(`${where}: bad escape \\${e} in label value`);
        i += 2;
        continue;
      }
      v += c;
      i++;
    }
    labels[name] = v;
    if (line[i] === ',') { i++; continue; }
    if (line[i] !== '}') throw new Error(`${where}: expected , or } after label ${name}`);
  }
}

function unescapeHelp(s: string, where: string): string {
  return s.replace(/\\(.)/g, (_m, c: string) => {
    if (c === '\\') return '\\';
    if (c === 'n') return '\n';
    throw new Error(`${where}: bad escape \\${c} in HELP`);
  });
}

/** Parses an exposition; throws on any violation of the format's rules. */
export function parsePrometheusText(text: string): Map<string, Family> {
  if (text !== '' && !text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  const families = new Map<string, Family>();
  const closed = new Set<string>();
  let current: Family | undefined;
  const enter = (name: string): Family => {
    if (current?.name === name) return current;
    if (current) closed.add(current.name);
    if (closed.has(name)) throw new Error(`metric family ${name} is not contiguous`);
    let f = families.get(name);
    if (!f) families.set(name, f = { name, samples: [] });
    current = f;
    return f;
  };
  /** the family a sample name belongs to: itself, or a histogram/summary's `_bucket`/`_sum`/`_count` */
  const familyOf = (name: string): string => {
    for (const suffix of ['_bucket', '_sum', '_count']) {
      if (!name.endsWith(suffix)) continue;
      const base = name.slice(0, -suffix.length);
      const t = families.get(base)?.type;
      if (t === 'histogram' || (t === 'summary' && suffix !== '_bucket')) return base;
    }
    return name;
  };
  text.split('\n').forEach((line, n) => {
    const where = `line ${n + 1}`;
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const m = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(line);
      if (!m) return; // a plain comment
      const [, kind, name, rest = ''] = m;
      if (!METRIC_NAME.test(name!)) throw new Error(`${where}: bad metric name ${name}`);
      const f = enter(name!);
      if (kind === 'HELP') {
        if (f.help !== undefined) throw new Error(`${where}: second HELP for ${name}`);
        f.help = unescapeHelp(rest, where);
      } else {
        if (f.type !== undefined) throw new Error(`${where}: second TYPE for ${name}`);
        if (f.samples.length > 0) throw new Error(`${where}: TYPE of ${name} after its samples`);
        if (!TYPES.has(rest.trim())) throw new Error(`${where}: bad type ${rest}`);
        f.type = rest.trim() as MetricType;
      }
      return;
    }
    const nm = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
    if (!nm) throw new Error(`${where}: bad metric name in ${JSON.stringify(line.slice(0, 60))}`);
    const name = nm[0];
    let i = name.length;
    let labels: Record<string, string> = {};
    if (line[i] === '{') ({ labels, end: i } = parseLabels(line, i, where));
    if (line[i] !== ' ') throw new Error(`${where}: expected a space before the value`);
    const parts = line.slice(i + 1).trim().split(/\s+/);
    if (parts.length < 1 || parts.length > 2) throw new Error(`${where}: expected value [timestamp]`);
    const value = parseValue(parts[0]!, where);
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`${where}: bad timestamp ${parts[1]}`);
    const f = enter(familyOf(name));
    if (f.type === undefined) throw new Error(`${where}: sample of ${name} without a TYPE line`);
    if (f.type === 'counter' && !(value >= 0)) throw new Error(`${where}: counter ${name} is ${value}`);
    if (f.type === 'histogram' && name === f.name) throw new Error(`${where}: histogram ${name} sample without a suffix`);
    if (name.endsWith('_bucket') && f.type === 'histogram' && labels.le === undefined) throw new Error(`${where}: bucket without le`);
    f.samples.push({ name, labels, value });
  });
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

/** Per label set: buckets cumulative in `le` order, a `+Inf` bucket equal to `_count`, and a `_sum`. */
function checkHistogram(f: Family): void {
  const key = (l: Record<string, string>): string => JSON.stringify(Object.entries(l).filter(([k]) => k !== 'le').sort());
  const sets = new Map<string, { buckets: [number, number][]; sum?: number; count?: number }>();
  for (const s of f.samples) {
    const k = key(s.labels);
    let e = sets.get(k);
    if (!e) sets.set(k, e = { buckets: [] });
    if (s.name === `${f.name}_bucket`) e.buckets.push([parseValue(s.labels.le!, `${f.name} le`), s.value]);
    else if (s.name === `${f.name}_sum`) e.sum = s.value;
    else if (s.name === `${f.name}_count`) e.count = s.value;
    else throw new Error(`${s.name} in histogram ${f.name}`);
  }
  for (const [k, e] of sets) {
    if (e.sum === undefined || e.count === undefined) throw new Error(`histogram ${f.name} ${k}: no _sum or _count`);
    const sorted = [...e.buckets].sort((a, b) => a[0] - b[0]);
    if (sorted.length === 0 || sorted[sorted.length - 1]![0] !== Infinity) throw new Error(`histogram ${f.name} ${k}: no +Inf bucket`);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]![0] === sorted[i - 1]![0]) throw new Error(`histogram ${f.name} ${k}: le ${sorted[i]![0]} twice`);
      if (sorted[i]![1] < sorted[i - 1]![1]) throw new Error(`histogram ${f.name} ${k}: buckets not cumulative`);
    }
    if (sorted[sorted.length - 1]![1] !== e.count) throw new Error(`histogram ${f.name} ${k}: +Inf bucket ${sorted[sorted.length - 1]![1]} != count ${e.count}`);
  }
}

/** The value of one sample (undefined when absent); `labels` must match exactly those given. */
export function sample(fams: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const f of fams.values()) {
    for (const s of f.samples) {
      if (s.name !== name) continue;
      const ks = Object.keys(s.labels);
      if (ks.length === Object.keys(labels).length && ks.every((k) => s.labels[k] === labels[k])) return s.value;
    }
  }
  return undefined;
}
