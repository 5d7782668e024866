/**
 * `chaind`: the client commands (keys, query, tx, status, validate-genesis: apps/node/src/cli) and the node's
 * (init, start, dev, export, localnet: node-main.ts). Each side is loaded only when used, so a client command
 * does not load the engine, the transports or the modules it does not need.
 */
import { CLIENT_COMMANDS } from './cli/usage.js';

async function run(): Promise<void> {
  const argv = process.argv.slice(2);
  if ((CLIENT_COMMANDS as readonly string[]).includes(argv[0] ?? '')) {
    const [{ runClient }, { DEV_MNEMONIC }, c] = await Promise.all([import('./cli/commands.js'), import('@chain/crypto'), import('./config/constants.js')]);
    process.exitCode = await runClient(
      argv,
      { bin: 'chaind', bech32Prefix: c.BECH32_PREFIX, devMnemonic: DEV_MNEMONIC, baseDenom: c.BASE_DENOM, devChainId: c.DEV_CHAIN_ID },
      async () => (await import('./cli/chain.js')).loadCliChain(),
    );
    return;
  }
  await (await import('./node-main.js')).runNodeCommand(argv);
}

run().catch((e: unknown) => {
  process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
