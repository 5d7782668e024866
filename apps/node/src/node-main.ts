/** The node side of `chaind` (init, start, dev, export, localnet, version, help), loaded by main.ts. */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, parseSkipUpgradeHeights } from './cli.js';
import { applyFlags, devDefaults, loadConfig, FLAG_TARGETS } from './config/config.js';
import { devAccounts, initHome, isInitialized, DEV_CHAIN_ID, DEV_BALANCE, BASE_DENOM, BECH32_PREFIX, DEV_GOV_PERIOD, GOV_MIN_DEPOSIT } from './config/init.js';
import { RUNS_FROM, VERSION } from './version.js';
import { LOCALNET_USAGE } from './localnet-usage.js';
import { DEV_MNEMONIC, fromBech32, toBech32 } from '@chain/crypto';
import { CLIENT_USAGE } from './cli/usage.js';
import type { Node } from './node.js';
import type { CometNode } from './comet-node.js';

const KNOWN_FLAGS = new Set([...Object.keys(FLAG_TARGETS), 'home', 'chain-id', 'dev', 'overwrite', 'help', 'log_level', 'unsafe-skip-upgrades']);

const USAGE = `chaind ${VERSION}: a Cosmos-SDK-compatible blockchain node in TypeScript

Usage:
  chaind init  [--home DIR] [--chain-id ID] [--moniker NAME] [--dev] [--overwrite]
  chaind start [--home DIR] [flags]
  chaind dev   [--home DIR] [flags]     init a dev home if it is empty, then start
  chaind export [--home DIR] [--height N] [--output-document FILE]
                                        the state at the latest height (or N) as a genesis document
                                        (stop the node first); a new home started from it continues
                                        at height N + 1
  chaind version [--long]              --long: also whether it runs compiled or from sources, Node.js
${CLIENT_USAGE}
${LOCALNET_USAGE}

Consensus: --consensus embedded (default) | cometbft. cometbft: the app serves ABCI on --abci.laddr
(default tcp://127.0.0.1:26658) and spawns CometBFT v0.38 (built with Go on first use, into
.cache/cometbft) with its home in HOME/cometbft, its RPC on --rpc.laddr and p2p on --p2p.laddr;
with --cometbft.rpc URL a CometBFT started separately is used instead (nothing spawned).

Start flags (override app.toml / config.toml):
${Object.keys(FLAG_TARGETS).map((f) => `  --${f}`).join('\n')}
  --unsafe-skip-upgrades H[,H...]     skip the upgrade plans at these heights instead of halting there

At the height of an upgrade plan this binary has no handler for, the node logs
UPGRADE "<name>" NEEDED at height: <h>: <info>, writes HOME/data/upgrade-info.json and stops
producing blocks (that height is not committed) while still serving queries; start the binary that
has the upgrade, or restart with --unsafe-skip-upgrades <h>.

Default home: ~/.chaind`;

function printDevAccounts(): void {
  const accts = devAccounts();
  const lines = [
    '',
    'Dev accounts (each funded with 10^24 ' + BASE_DENOM + ' = 1,000,000 chain)',
    `Mnemonic: ${DEV_MNEMONIC}`,
    '',
  ];
  for (const a of accts) {
    lines.push(`(${a.coinType === 60 ? 'eth ' : 'cosm'} ${a.index}) ${a.address}  ${a.coinType === 60 ? a.hexAddress : ''.padEnd(42)}  ${a.path}  ${a.keyType}`);
    lines.push(`        private key: 0x${a.privateKey}`);
  }
  lines.push('', `Validator: operator ${toBech32(BECH32_PREFIX + 'valoper', fromBech32(accts[0]!.address).data)} (dev account eth 0), the node's consensus key, self-delegation 1000 chain`);
  lines.push(`Governance: min deposit 10 chain (${GOV_MIN_DEPOSIT}${BASE_DENOM}), max deposit period ${DEV_GOV_PERIOD}, voting period ${DEV_GOV_PERIOD}, quorum 0.334, threshold 0.5, veto 0.334`, '');
  process.stdout.write(lines.join('\n') + '\n');
}

export async function runNodeCommand(argv: readonly string[]): Promise<void> {
  // `chaind localnet start ... -- ARGS`: ARGS go to every node's `chaind start`
  const dashes = argv.indexOf('--');
  const args = parseArgs(dashes >= 0 ? argv.slice(0, dashes) : argv);
  const passThrough = dashes >= 0 ? argv.slice(dashes + 1) : [];
  if (dashes >= 0 && args.command !== 'localnet') throw new Error(`'--' passes arguments to localnet nodes only; chaind ${args.command ?? ''} does not take them`);
  // `chaind start --help`, `chaind dev --help`, ...: the usage, and nothing started or written
  if (args.flags.help === true) {
    process.stdout.write((args.command === 'localnet' ? LOCALNET_USAGE : USAGE) + '\n');
    return;
  }
  const home = resolve(typeof args.flags.home === 'string' ? args.flags.home : join(homedir(), '.chaind'));
  // the node side (engine, transports, CometBFT) is loaded only by the commands that run it: the client
  // commands and init start faster without it
  const { createLogger } = await import('@chain/server/node');
  // --log_level (e.g. "info,rest:debug") and --log_format json|plain from the start (config.toml's are applied
  // when the node loads its config)
  const level = typeof args.flags.log_level === 'string' ? args.flags.log_level : 'info';
  const log = createLogger(level, 'node', undefined, args.flags.log_format === 'json' ? 'json' : 'plain');
  switch (args.command) {
    case undefined:
    case 'help':
      process.stdout.write(USAGE + '\n');
      return;
    case 'version':
      if (args.flags.long === true) {
        const runs = RUNS_FROM === 'bundle' ? 'compiled and bundled (npm run build)'
          : RUNS_FROM === 'compiled' ? 'compiled (npm run build)' : 'TypeScript sources through tsx (npm run build compiles them)';
        process.stdout.write(`name: chain\nserver_name: chaind\nversion: ${VERSION}\nruns: ${runs}\nnode: ${process.version}\nmalloc_arena_max: ${process.env.MALLOC_ARENA_MAX ?? 'unset'}\nmalloc_trim_threshold: ${process.env.MALLOC_TRIM_THRESHOLD_ ?? 'unset'}\n`);
      } else {
        process.stdout.write(VERSION + '\n');
      }
      return;
    case 'init': {
      const r = initHome({
        home,
        chainId: typeof args.flags['chain-id'] === 'string' ? args.flags['chain-id'] : DEV_CHAIN_ID,
        moniker: typeof args.flags.moniker === 'string' ? args.flags.moniker : undefined,
        dev: args.flags.dev === true,
        overwrite: args.flags.overwrite === true,
      });
      process.stdout.write(`initialized ${home} (chain id ${r.genesis.chain_id})\n`);
      return;
    }
    case 'localnet':
      await (await import('./localnet.js')).runLocalnet(args.positional[0], args.flags, passThrough);
      return;
    case 'export': {
      if (args.flags['for-zero-height'] !== undefined || args.flags['jail-allowed-addrs'] !== undefined) {
        throw new Error('export --for-zero-height / --jail-allowed-addrs (a zero-height restart) is not supported: the export continues the chain at height + 1');
      }
      const h = args.flags.height;
      if (h !== undefined && (typeof h !== 'string' || !/^[1-9]\d*$/.test(h))) throw new Error(`--height expects a positive integer, got ${String(h)}`);
      const out = args.flags['output-document'];
      if (out !== undefined && typeof out !== 'string') throw new Error('--output-document expects a file path');
      const [{ writeExport, fileSink, streamSink }, { nodeProgress }] = await Promise.all([import('./export.js'), import('./progress.js')]);
      // a display per large field on stderr: a redrawn bar on a terminal, the node's log lines otherwise
      const progress = nodeProgress(log);
      const height = h === undefined ? undefined : Number(h);
      if (out) {
        const file = fileSink(out);
        try {
          const r = await writeExport({ home, height, sink: file.sink, progress });
          file.commit();
          process.stderr.write(`exported height ${r.height} of ${r.chainId} to ${out}\n`);
        } catch (e) {
          file.abort();
          throw e;
        }
      } else {
        await writeExport({ home, height, sink: streamSink(process.stdout), progress });
      }
      return;
    }
    case 'start':
    case 'dev': {
      if (args.command === 'dev' && !isInitialized(home)) {
        initHome({ home, dev: true });
        log.info(`initialized dev home ${home}`);
      }
      if (!isInitialized(home)) throw new Error(`${home} is not initialized; run: chaind init --home ${home}`);
      for (const f of Object.keys(args.flags)) if (!KNOWN_FLAGS.has(f)) log.warn(`unknown flag --${f} ignored`);
      const skipUpgradeHeights = parseSkipUpgradeHeights(args.flags['unsafe-skip-upgrades']);
      const flagged = applyFlags(loadConfig(home), args.flags);
      const cfg = args.command === 'dev' ? devDefaults(flagged) : flagged;
      const comet = cfg.config.consensus.engine === 'cometbft';
      // (CometBFT's side, the ABCI server and its protos, only in that mode)
      const node = comet
        ? await (await import('./comet-node.js')).CometNode.create(cfg, log, { skipUpgradeHeights, onCometExit: () => { void node.stop().finally(() => process.exit(1)); } })
        : await (await import('./node.js')).Node.create(cfg, log, { skipUpgradeHeights });
      if (skipUpgradeHeights.length > 0) log.info(`upgrade plans at heights ${skipUpgradeHeights.join(', ')} will be skipped (--unsafe-skip-upgrades)`);
      let stopping = false;
      const stop = (sig: string): void => {
        if (stopping) return;
        stopping = true;
        log.info(`received ${sig}, shutting down`);
        node.stop().then(() => process.exit(0), (e: unknown) => { log.error('shutdown failed', { err: String(e) }); process.exit(1); });
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
      await node.start();
      if (args.command === 'dev') printDevAccounts();
      if (comet) {
        const c = node as CometNode;
        log.info(`chain ${c.chainId} running on CometBFT (app at height ${c.app.lastHeight}); base denom ${BASE_DENOM}`);
      } else {
        const engine = (node as Node).engine;
        log.info(`chain ${engine.chainId} running at height ${engine.latestHeight}; base denom ${BASE_DENOM}, dev balance ${DEV_BALANCE}`);
      }
      return;
    }
    default:
      throw new Error(`unknown command ${args.command}\n\n${USAGE}`);
  }
}
