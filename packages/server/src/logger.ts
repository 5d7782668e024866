/** A small structured logger: `Record<level, (msg, ctx?) => void>` with child scopes. */
export type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, ctx?: Record<string, unknown>): void;
  info(msg: string, ctx?: Record<string, unknown>): void;
  warn(msg: string, ctx?: Record<string, unknown>): void;
  error(msg: string, ctx?: Record<string, unknown>): void;
  child(module: string): Logger;
}

export function createLogger(level: Level = 'info', module = 'node', sink: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const min = ORDER[level];
  const emit = (lvl: Level) => (msg: string, ctx?: Record<string, unknown>): void => {
    if (ORDER[lvl] < min) return;
    const extra = ctx ? ' ' + Object.entries(ctx).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ') : '';
    sink(`${new Date().toISOString()} ${lvl.toUpperCase().padEnd(5)} [${module}] ${msg}${extra}`);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error'), child: (m) => createLogger(level, m, sink) };
}
