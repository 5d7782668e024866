/**
 * The client commands' names and usage lines, apart from their code: main.ts decides with them which side of
 * `chaind` to load, and the node's usage text includes them, without loading the client.
 */

export const CLIENT_COMMANDS = ['keys', 'query', 'q', 'tx', 'status', 'validate-genesis'] as const;

export const CLIENT_USAGE = `  chaind keys add|recover|list|show|export|import|delete|mnemonic [NAME] [--keyring-backend test|file] [flags]
  chaind query (q) <module> <method> [args] [--node URL] [-o json|text]
  chaind query tx <hash> | txs --events 'message.sender=chain1...' | block [height] | blocks | account <address>
  chaind tx <module> <msg> [args] --from KEY [--fees 200000000000000achain | --gas-prices 1000000000achain]
            [--gas auto|N] [--chain-id ID] [--generate-only] [--yes] [--broadcast-mode sync|async|block]
  chaind tx sign|broadcast|encode|simulate FILE | tx decode BASE64
  chaind status [--node URL]
  chaind validate-genesis [FILE] [--home DIR]
  (every client command takes --help; the node is --node tcp://localhost:26657 by default)`;
