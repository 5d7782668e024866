/**
 * A small structured logger: `Record<level, (msg, ctx?) => void>` with child scopes (the module name).
 *
 * Levels per module as the Cosmos SDK's `--log_level`: `"info"`, or `"info,rest:debug,consensus:error"`
 * (`*:level` also sets the default); a child logger's module name is what the spec names. Formats as the
 * SDK's `--log_format`: `plain` (one line `TIME LEVEL [module] msg k=v`) or `json` (one JSON object per line:
 * `level`, `time`, `module`, `msg`, then the context's fields).
 */
export type Level = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'plain' | 'json';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
/** `none` (as CometBFT's) turns a module off */
const LEVEL_NAMES: Record<string, number> = { ...ORDER, warning: 30, none: 100 };

export interface Logger {
  debug(msg: string, ctx?: Record<string, unknown>): void;
  info(msg: string, ctx?: Record<string, unknown>): void;
  warn(msg: string, ctx?: Record<string, unknown>): void;
  error(msg: string, ctx?: Record<string, unknown>): void;
  child(module: string): Logger;
}

export interface LevelSpec {
  readonly default: number;
  readonly modules: ReadonlyMap<string, number>;
}

/** Parses `info`, `info,rest:debug`, `*:error,consensus:info`; throws on an unknown level or a bad entry. */
export function parseLogLevel(spec: string): LevelSpec {
  let def = ORDER.info;
  const modules = new Map<string, number>();
  const level = (name: string): number => {
    const v = LEVEL_NAMES[name.trim().toLowerCase()];
    if (v === undefined) throw new Error(`invalid log level ${JSON.stringify(name)} in ${JSON.stringify(spec)} (debug, info, warn, error, none)`);
    return v;
  };
  const parts = spec.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0) throw new Error('empty log level');
  for (const p of parts) {
    const i = p.indexOf(':');
    if (i < 0) { def = level(p); continue; }
    const mod = p.slice(0, i).trim();
    if (mod === '') throw new Error(`invalid log level entry ${JSON.stringify(p)}: module:level`);
    if (mod === '*') def = level(p.slice(i + 1));
    else modules.set(mod, level(p.slice(i + 1)));
  }
  return { default: def, modules };
}

interface Shared {
  spec: LevelSpec;
  format: LogFormat;
  readonly sink: (line: string) => void;
}

const SHARED = new WeakMap<Logger, Shared>();

function jsonValue(_k: string, v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  if (v instanceof Error) return v.message;
  return v;
}

function make(shared: Shared, module: string): Logger {
  const emit = (lvl: Level) => (msg: string, ctx?: Record<string, unknown>): void => {
    const min = shared.spec.modules.get(module) ?? shared.spec.default;
    if (ORDER[lvl] < min) return;
    const time = new Date().toISOString();
    if (shared.format === 'json') {
      const rec: Record<string, unknown> = { level: lvl, time, module, msg };
      if (ctx) for (const [k, v] of Object.entries(ctx)) if (!(k in rec)) rec[k] = v;
      let line: string;
      try { line = JSON.stringify(rec, jsonValue); } catch { line = JSON.stringify({ level: lvl, time, module, msg }); }
      shared.sink(line);
      return;
    }
    const extra = ctx ? ' ' + Object.entries(ctx).map(([k, v]) => `${k}=${typeof v === 'string' ? v : safeJson(v)}`).join(' ') : '';
    shared.sink(`${time} ${lvl.toUpperCase().padEnd(5)} [${module}] ${msg}${extra}`);
  };
  const log: Logger = { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error'), child: (m) => make(shared, m) };
  SHARED.set(log, shared);
  return log;
}

function safeJson(v: unknown): string {
  try { return JSON.stringify(v, jsonValue) ?? String(v); } catch { return String(v); }
}

/**
 * A logger writing to `sink` (stderr by default). `level` is a level or a per-module spec
 * (`parseLogLevel`); `format` plain (default) or json.
 */
export function createLogger(
  level: Level | string = 'info',
  module = 'node',
  sink: (line: string) => void = (l) => process.stderr.write(l + '\n'),
  format: LogFormat = 'plain',
): Logger {
  return make({ spec: parseLogLevel(level), format, sink }, module);
}

/**
 * Changes the level spec and/or format of a logger made by `createLogger` and of every logger sharing its
 * root (its children, its parent). Returns false for another implementation of `Logger` (left unchanged).
 */
export function configureLogger(log: Logger, o: { level?: string; format?: LogFormat }): boolean {
  const s = SHARED.get(log);
  if (!s) return false;
  if (o.level !== undefined) s.spec = parseLogLevel(o.level);
  if (o.format !== undefined) {
    if (o.format !== 'plain' && o.format !== 'json') throw new Error(`invalid log format ${JSON.stringify(o.format)} (plain, json)`);
    s.format = o.format;
  }
  return true;
}
