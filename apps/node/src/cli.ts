/** Command-line parsing: `chaind <command> [--flag value | --flag=value | --bool-flag]`. */
import { FLAG_TARGETS } from './config/config.js';

export interface ParsedArgs {
  readonly command: string | undefined;
  readonly positional: string[];
  readonly flags: Record<string, string | boolean>;
}

const BOOLEAN_FLAGS = new Set([
  ...Object.entries(FLAG_TARGETS).filter(([, t]) => t.type === 'boolean').map(([n]) => n),
  'dev', 'overwrite', 'help', 'quiet', 'for-zero-height',
]);

/**
 * Flags that take a list of heights: repeated (`--f 5 --f 6`), comma-separated (`--f 5,6`) or several values
 * (`--f 5 6`); the parsed value is the comma-joined list.
 */
const LIST_FLAGS = new Set(['unsafe-skip-upgrades']);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string | boolean> = {};
  const addToList = (name: string, value: string): void => {
    const prev = flags[name];
    flags[name] = typeof prev === 'string' && prev !== '' ? `${prev},${value}` : value;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) { positional.push(a); continue; }
    const body = a.slice(2);
    const eq = body.indexOf('=');
    if (eq >= 0 && LIST_FLAGS.has(body.slice(0, eq))) { addToList(body.slice(0, eq), body.slice(eq + 1)); continue; }
    if (eq >= 0) { flags[body.slice(0, eq)] = body.slice(eq + 1); continue; }
    if (LIST_FLAGS.has(body)) {
      const values: string[] = [];
      while (i + 1 < argv.length && /^\d[\d,]*$/.test(argv[i + 1]!)) values.push(argv[++i]!);
      addToList(body, values.join(','));
      continue;
    }
    const next = argv[i + 1];
    if (BOOLEAN_FLAGS.has(body)) {
      if (next === 'true' || next === 'false') { flags[body] = next; i++; } else flags[body] = true;
      continue;
    }
    if (next !== undefined && !next.startsWith('--')) { flags[body] = next; i++; } else flags[body] = true;
  }
  return { command: positional.shift(), positional, flags };
}

/**
 * The heights of `--unsafe-skip-upgrades` (the SDK's `server.FlagUnsafeSkipUpgrades`): upgrade plans at these
 * heights are skipped by this node instead of halting it. Refuses anything but positive integers.
 */
export function parseSkipUpgradeHeights(value: string | boolean | undefined): number[] {
  if (value === undefined) return [];
  if (typeof value !== 'string' || value === '') throw new Error('--unsafe-skip-upgrades expects heights, e.g. --unsafe-skip-upgrades 100 or 100,200');
  const out: number[] = [];
  for (const part of value.split(',')) {
    const t = part.trim();
    if (!/^[1-9]\d*$/.test(t) || !Number.isSafeInteger(Number(t))) throw new Error(`--unsafe-skip-upgrades: invalid height ${JSON.stringify(part)}`);
    out.push(Number(t));
  }
  return [...new Set(out)].sort((a, b) => a - b);
}
