/** Go durations and listen addresses as the node's config files write them (CometBFT / SDK spellings). */

/** Parses a Go duration like `1s`, `500ms`, `1m30s` into milliseconds. */
export function parseDurationMs(text: string): number {
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000 };
  let total = 0;
  let matched = '';
  for (const m of text.matchAll(re)) {
    total += Number(m[1]) * units[m[2]!]!;
    matched += m[0];
  }
  if (text === '0') return 0;
  if (!matched || matched !== text) throw new Error(`invalid duration ${JSON.stringify(text)}`);
  return total;
}

/** Splits `tcp://host:port` or `host:port` into host and port. */
export function parseListenAddress(addr: string): { host: string; port: number } {
  const s = addr.replace(/^tcp:\/\//, '').replace(/^http:\/\//, '');
  const i = s.lastIndexOf(':');
  if (i < 0) throw new Error(`invalid listen address ${addr}`);
  const host = s.slice(0, i).replace(/^\[|\]$/g, '') || '0.0.0.0';
  const port = Number(s.slice(i + 1));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port in listen address ${addr}`);
  return { host, port };
}
