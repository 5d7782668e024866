/**
 * The client commands' argument parser (keys, query, tx, status): `--flag value`, `--flag=value`, bare boolean
 * flags (optionally followed by `true`/`false`), the short forms of the Cosmos SDK CLI (`-o json`, `-y`, `-h`,
 * `-a`), and `--` ending the flags. Which flags are boolean is the caller's: a command knows its own (and a
 * message's bool fields), so an argument after a boolean flag stays positional.
 */

export interface CliArgs {
  readonly positional: string[];
  readonly flags: Record<string, string | boolean>;
}

/** Short flags of the SDK's CLI and their long names. */
const SHORT: Readonly<Record<string, string>> = { o: 'output', y: 'yes', h: 'help', a: 'address', p: 'pubkey', f: 'force', n: 'node' };

/** Flags that never take a value, whatever the command. */
export const GLOBAL_BOOL_FLAGS: ReadonlySet<string> = new Set([
  'help', 'yes', 'generate-only', 'offline', 'dry-run', 'recover', 'dev', 'address', 'pubkey', 'force', 'unsafe', 'unarmored-hex',
  'count-total', 'reverse', 'no-backup', 'list-names', 'hex', 'interactive',
]);

export function parseCliArgs(argv: readonly string[], isBool: (name: string) => boolean = (n) => GLOBAL_BOOL_FLAGS.has(n)): CliArgs {
  const positional: string[] = [];
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') { positional.push(...argv.slice(i + 1)); break; }
    let name: string;
    let inline: string | undefined;
    if (a.startsWith('--') && a.length > 2) {
      const body = a.slice(2);
      const eq = body.indexOf('=');
      name = eq >= 0 ? body.slice(0, eq) : body;
      inline = eq >= 0 ? body.slice(eq + 1) : undefined;
    } else if (/^-[a-zA-Z]$/.test(a) || /^-[a-zA-Z]=/.test(a)) {
      const long = SHORT[a[1]!];
      if (!long) throw new Error(`unknown shorthand flag: '${a[1]}' in ${a}`);
      name = long;
      inline = a.length > 2 ? a.slice(3) : undefined;
    } else {
      positional.push(a);
      continue;
    }
    if (inline !== undefined) { flags[name] = inline; continue; }
    const next = argv[i + 1];
    if (isBool(name)) {
      if (next === 'true' || next === 'false') { flags[name] = next === 'true'; i++; } else flags[name] = true;
      continue;
    }
    if (next === undefined || (next.startsWith('-') && next.length > 1 && !/^-\d/.test(next))) throw new Error(`flag needs an argument: --${name}`);
    flags[name] = next;
    i++;
  }
  return { positional, flags };
}

/** A flag's string value, or undefined; refuses a bare boolean where a value is needed. */
export function str(flags: Record<string, string | boolean>, name: string): string | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new Error(`flag needs an argument: --${name}`);
  return v;
}

/** A boolean flag (`--x`, `--x true|false`, `--x=true|false`). */
export function bool(flags: Record<string, string | boolean>, name: string): boolean {
  const v = flags[name];
  if (v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '') return true;
  if (v === 'false') return false;
  throw new Error(`invalid value ${JSON.stringify(v)} for --${name}: expected true or false`);
}

/** A non-negative integer flag. */
export function uint(flags: Record<string, string | boolean>, name: string): bigint | undefined {
  const v = str(flags, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new Error(`invalid value ${JSON.stringify(v)} for --${name}: expected a non-negative integer`);
  return BigInt(v);
}
