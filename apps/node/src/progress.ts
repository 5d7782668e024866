/** The node's progress displays (genesis import and export) on stderr, in the node's log format when not on a terminal. */
import { Progress } from '@chain/app';
import type { InitChainRequest, ProgressFactory } from '@chain/app';

/** A redrawn bar on a terminal (stderr), the logger's info lines otherwise. */
export function nodeProgress(log: { info(msg: string): void }): ProgressFactory {
  return (label, total) => new Progress({ label, total, log: (line) => log.info(line) });
}

/**
 * `req` with `progress` set. The fields are copied without being read: `appState` may be a getter that
 * parses the whole app_state (the ABCI server's, over `app_state_bytes`).
 */
export function withProgress(req: InitChainRequest, progress: ProgressFactory): InitChainRequest {
  const out = Object.defineProperties({}, Object.getOwnPropertyDescriptors(req)) as InitChainRequest;
  Object.defineProperty(out, 'progress', { value: progress, enumerable: true, configurable: true });
  return out;
}
