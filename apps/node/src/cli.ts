/** Command-line parsing: `chaind <command> [--flag value | --flag=value | --bool-flag]`. */
import { FLAG_TARGETS } from './config/config.js';

export interface ParsedArgs {
  readonly command: string | undefined;
  readonly positional: string[];
  readonly flags: Record<string, string | boolean>;
}

const BOOLEAN_FLAGS = new Set([
  ...Object.entries(FLAG_TARGETS).filter(([, t]) => t.type === 'boolean').map(([n]) => n),
  'dev', 'overwrite', 'help', 'quiet',
]);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) { positional.push(a); continue; }
    const body = a.slice(2);
    const eq = body.indexOf('=');
    if (eq >= 0) { flags[body.slice(0, eq)] = body.slice(eq + 1); continue; }
    const next = argv[i + 1];
    if (BOOLEAN_FLAGS.has(body)) {
      if (next === 'true' || next === 'false') { flags[body] = next; i++; } else flags[body] = true;
      continue;
    }
    if (next !== undefined && !next.startsWith('--')) { flags[body] = next; i++; } else flags[body] = true;
  }
  return { command: positional.shift(), positional, flags };
}
