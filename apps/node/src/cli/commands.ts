/**
 * The client commands of `chaind`, as the Cosmos SDK's: `keys`, `query` (`q`), `tx`, `status`,
 * `validate-genesis`. Generic over a `CliChain` (chain.ts): the keyring, the AutoCLI command tables and the tx
 * builder know no module; the chain's registry, prefix and denom come in. `runClient(argv, chain, io)` returns
 * the exit code.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Interface } from 'node:readline';
import type { ProtoObject } from '@chain/codec';
import { fromBech32, fromHex, generateMnemonic, toBech32, toHex, sha256 } from '@chain/crypto';
import { GLOBAL_BOOL_FLAGS, bool, parseCliArgs, str, uint } from './args.js';
import type { CliArgs } from './args.js';
import { CommandTable, boolFlagsOf, buildRequest, methodHelp, moduleHelp, parseCoins, signerValue, PAGINATION_FLAGS } from './autocli.js';
import type { MethodSpec } from './autocli.js';
import type { CliChain } from './chain.js';
import {
  Keyring, armorPrivateKey, bip44Path, defaultCoinType, deriveKey, keyInfoOf, parseAlgo, parseBackend, unarmorPrivateKey,
} from './keyring.js';
import type { KeyAlgo, KeyInfo, PassphrasePrompt } from './keyring.js';
import { NodeClient, nodeUrl } from './node-client.js';
import type { BroadcastResult } from './node-client.js';
import { outputFormat, render } from './output.js';
import type { OutputFormat } from './output.js';
import {
  decodeTxRaw, encodeTx, feeFromGasPrices, pubKeyAny, signTx, txFromJson, txToJson, unsignedTx, withSigner,
} from './tx-builder.js';
import type { PlainTx } from './tx-builder.js';

/** Where a command reads and writes: the process's streams, or a test's. */
export interface ClientIO {
  out(text: string): void;
  err(text: string): void;
  /** reads one line: a prompt on a terminal (`hidden`: no echo), else the next line of stdin; undefined at EOF */
  readLine(prompt: string, hidden?: boolean): Promise<string | undefined>;
  readonly isTTY: boolean;
  /** releases stdin (so the process can exit) */
  close?(): void;
}

/** The process's stdin/stdout/stderr. */
export function processIO(): ClientIO {
  // stdin that is not a terminal: read line by line as the questions come (a pipe left open does not block a
  // command that asks nothing, and one that asks reads only what it needs)
  let rl: Interface | undefined;
  let lines: AsyncIterator<string> | undefined;
  let pending = '';
  const nextStdinLine = async (): Promise<string | undefined> => {
    if (!lines) {
      rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
      lines = rl[Symbol.asyncIterator]();
    }
    const r = await lines.next();
    return r.done ? undefined : r.value;
  };
  const tty = process.stdin.isTTY === true;
  return {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    isTTY: tty,
    close() {
      // only a stdin this command read from (touching process.stdin of a pipe keeps the process waiting for its end)
      if (rl) {
        rl.close();
        process.stdin.pause();
        process.stdin.destroy();
      }
    },
    async readLine(prompt, hidden = false) {
      if (!tty) return nextStdinLine();
      process.stderr.write(prompt);
      // a terminal in raw mode: characters until Enter, echoed unless hidden (Ctrl-C / Ctrl-D abort); what was
      // typed ahead stays for the next question
      const take = (): string | undefined => {
        const i = pending.search(/[\r\n]/);
        if (i < 0) return undefined;
        const line = pending.slice(0, i);
        pending = pending.slice(i + (pending.slice(i, i + 2) === '\r\n' ? 2 : 1));
        return line;
      };
      const ready = take();
      if (ready !== undefined) { process.stderr.write(hidden ? '\n' : ready + '\n'); return ready; }
      process.stdin.setRawMode(true);
      process.stdin.resume();
      try {
        return await new Promise<string | undefined>((res) => {
          const onData = (b: Buffer): void => {
            for (const ch of b.toString('utf8')) {
              if (ch === '\u0003' || ch === '\u0004') { process.stdin.off('data', onData); process.stderr.write('\n'); res(undefined); return; }
              if (ch === '\u007f' || ch === '\b') { pending = pending.slice(0, -1); if (!hidden) process.stderr.write('\b \b'); continue; }
              pending += ch;
              if (!hidden && ch !== '\r' && ch !== '\n') process.stderr.write(ch);
            }
            const line = take();
            if (line !== undefined) { process.stdin.off('data', onData); process.stderr.write('\n'); res(line); }
          };
          process.stdin.on('data', onData);
        });
      } finally {
        process.stdin.setRawMode(false);
        process.stdin.pause();
      }
    },
  };
}

/** The chain description, loaded once on first use (building the registry takes a moment). */
export type ChainSource = () => Promise<CliChain>;

interface Ctx {
  readonly chain: ChainSource;
  readonly io: ClientIO;
  readonly bin: string;
  readonly prefix: string;
  readonly devMnemonic: string;
  readonly baseDenom: string;
  readonly devChainId: string;
}

export interface ClientStatic {
  readonly bin: string;
  readonly bech32Prefix: string;
  readonly devMnemonic: string;
  readonly baseDenom: string;
  readonly devChainId: string;
}

export { CLIENT_COMMANDS, CLIENT_USAGE } from './usage.js';

// ---- shared helpers ----

function homeOf(flags: CliArgs['flags']): string {
  const h = str(flags, 'home');
  return resolve(h ?? join(homedir(), '.chaind'));
}

function passphraseSource(ctx: Ctx, flags: CliArgs['flags']): PassphrasePrompt {
  const file = str(flags, 'keyring-passphrase-file');
  return async (purpose) => {
    if (file !== undefined) {
      if (!existsSync(file)) throw new Error(`--keyring-passphrase-file ${file}: no such file`);
      return readFileSync(file, 'utf8').split(/\r?\n/)[0]!;
    }
    const p = await ctx.io.readLine(purpose === 'create' ? 'Enter keyring passphrase (at least 8 characters): ' : 'Enter keyring passphrase: ', true);
    if (p === undefined) throw new Error('no keyring passphrase given (type it on a terminal, pipe it on stdin or pass --keyring-passphrase-file FILE)');
    if (purpose === 'create' && ctx.io.isTTY) {
      const again = await ctx.io.readLine('Re-enter keyring passphrase: ', true);
      if (again !== p) throw new Error('passphrases do not match');
    }
    return p;
  };
}

function keyringOf(ctx: Ctx, flags: CliArgs['flags']): Keyring {
  return new Keyring({ backend: parseBackend(str(flags, 'keyring-backend')), home: homeOf(flags), prefix: ctx.prefix, passphrase: passphraseSource(ctx, flags) });
}

function pubKeyJson(k: KeyInfo): string {
  const type = k.algo === 'eth_secp256k1' ? '/ethermint.crypto.v1.ethsecp256k1.PubKey' : '/cosmos.crypto.secp256k1.PubKey';
  return JSON.stringify({ '@type': type, key: Buffer.from(k.pubkey).toString('base64') });
}

/** The SDK's KeyOutput. */
function keyOutput(k: KeyInfo, prefix = ''): Record<string, unknown> {
  return {
    name: k.name, type: 'local', address: prefix ? toBech32(prefix, k.addressBytes) : k.address, pubkey: pubKeyJson(k), algo: k.algo,
    ...(k.path ? { path: k.path } : {}),
  };
}

async function confirm(ctx: Ctx, question: string): Promise<boolean> {
  const a = await ctx.io.readLine(`${question} [y/N]: `);
  return a !== undefined && /^y(es)?$/i.test(a.trim());
}

function print(ctx: Ctx, value: unknown, flags: CliArgs['flags'], dflt: OutputFormat = 'json'): void {
  ctx.io.out(render(value, outputFormat(flags.output, dflt)));
}

function help(ctx: Ctx, text: string): number {
  ctx.io.out(text.endsWith('\n') ? text : text + '\n');
  return 0;
}

// ---- keys ----

const KEYS_HELP = `Manage the keyring (secp256k1 and eth_secp256k1 keys).

Usage:
  chaind keys add NAME [--recover] [--dev] [--algo secp256k1|eth_secp256k1] [--coin-type N] [--account N] [--index N] [--hd-path PATH]
  chaind keys recover NAME [flags]          same as add --recover (the mnemonic is read from the terminal or stdin)
  chaind keys list [--list-names]
  chaind keys show NAME|ADDRESS [--bech acc|val|cons] [--address|-a] [--pubkey|-p]
  chaind keys export NAME [--unarmored-hex --unsafe]   armored with a passphrase, or the raw hex key
  chaind keys import NAME FILE                         an armored key (keys export), or --hex FILE|HEX [--algo]
  chaind keys delete NAME... [--yes|-y]
  chaind keys mnemonic                                 prints a new 24-word BIP-39 mnemonic (stores nothing)

Flags (every keys command):
  --home DIR                     the client home (default ~/.chaind): keys live in HOME/keyring-<backend>
  --keyring-backend test|file    test: plain files (dev only); file: encrypted with a passphrase (scrypt + AES-256-GCM)
  --keyring-passphrase-file F    the file keyring's passphrase (else asked on the terminal, or read from stdin)
  --output|-o json|text          (default text)

--algo secp256k1 derives at m/44'/118'/ACCOUNT'/0/INDEX, --algo eth_secp256k1 at m/44'/60'/ACCOUNT'/0/INDEX (the
Ethereum address, shown in bech32); --coin-type changes the coin type. --dev recovers from the dev mnemonic of
\`chaind dev\` ("test test ... junk"; its accounts are funded there).

Examples:
  chaind keys add alice
  chaind keys add dev0 --recover --dev --algo eth_secp256k1       the genesis validator's account in chaind dev
  chaind keys add cosmos1 --recover --dev --index 1               dev account 1 of coin type 118
  echo "word1 ... word24" | chaind keys add bob --recover --keyring-backend file --keyring-passphrase-file pass.txt
  chaind keys show alice --bech val -a`;

async function keysCommand(ctx: Ctx, argv: string[]): Promise<number> {
  const a = parseCliArgs(argv);
  const [sub, ...rest] = a.positional;
  const flags = a.flags;
  if (!sub || sub === 'help') return help(ctx, KEYS_HELP);
  if (bool(flags, 'help')) return help(ctx, KEYS_HELP);
  const fmt = outputFormat(flags.output, 'text');
  const kr = (): Keyring => keyringOf(ctx, flags);
  switch (sub) {
    case 'add':
    case 'recover': {
      const name = rest[0];
      if (!name) throw new Error(`usage: ${ctx.bin} keys ${sub} NAME [flags] (see ${ctx.bin} keys --help)`);
      if (rest.length > 1) throw new Error(`keys ${sub} takes one NAME, got: ${rest.join(' ')}`);
      const k = kr();
      if (k.has(name)) throw new Error(`key ${JSON.stringify(name)} already exists in the ${k.backend} keyring; delete it first (keys delete ${name}) or choose another name`);
      const algo = parseAlgo(str(flags, 'algo') ?? str(flags, 'key-type'));
      const num = (n: string, d: number): number => { const v = uint(flags, n); return v === undefined ? d : Number(v); };
      const path = str(flags, 'hd-path') ?? bip44Path(num('coin-type', defaultCoinType(algo)), num('account', 0), num('index', 0));
      const recover = sub === 'recover' || bool(flags, 'recover') || bool(flags, 'dev');
      let privkey: Uint8Array;
      let mnemonic: string | undefined;
      if (recover) {
        const m = bool(flags, 'dev') ? ctx.devMnemonic : await ctx.io.readLine('> Enter your bip39 mnemonic\n');
        if (m === undefined || m.trim() === '') throw new Error('no mnemonic given (type it, pipe it on stdin, or use --dev for the dev mnemonic)');
        privkey = deriveKey(m, path);
      } else {
        // a new 24-word mnemonic, shown once (as the SDK's keys add)
        mnemonic = generateMnemonic(256);
        privkey = deriveKey(mnemonic, path);
      }
      const info = await k.add(name, privkey, algo, { path });
      const out = { ...keyOutput(info), ...(mnemonic ? { mnemonic } : {}) };
      if (fmt === 'json') ctx.io.out(render(out, 'json'));
      else {
        ctx.io.out(render([out], 'text'));
        if (!recover && !bool(flags, 'no-backup')) {
          ctx.io.out(`\n**Important** write this mnemonic phrase in a safe place.\nIt is the only way to recover your account if you ever forget your password.\n\n${mnemonic}\n`);
        }
      }
      return 0;
    }
    case 'list': {
      const keys = kr().list();
      if (bool(flags, 'list-names')) { ctx.io.out(keys.map((k) => k.name).join('\n') + (keys.length ? '\n' : '')); return 0; }
      ctx.io.out(render(keys.map((k) => keyOutput(k)), fmt));
      return 0;
    }
    case 'show': {
      if (rest.length === 0) throw new Error(`usage: ${ctx.bin} keys show NAME|ADDRESS [--bech acc|val|cons] [-a] [-p]`);
      const k = kr();
      const bech = str(flags, 'bech') ?? 'acc';
      const suffix = ({ acc: '', val: 'valoper', cons: 'valcons' } as Record<string, string | undefined>)[bech];
      if (suffix === undefined) throw new Error(`invalid --bech ${JSON.stringify(bech)}: expected acc, val or cons`);
      if (rest.length > 1) throw new Error('showing a multisig of several keys is not supported: name one key');
      const info = k.get(rest[0]!);
      const prefix = ctx.prefix + suffix;
      if (bool(flags, 'address')) { ctx.io.out(toBech32(prefix, info.addressBytes) + '\n'); return 0; }
      if (bool(flags, 'pubkey')) { ctx.io.out(pubKeyJson(info) + '\n'); return 0; }
      const out = keyOutput(info, prefix);
      ctx.io.out(render(fmt === 'json' ? out : [out], fmt));
      return 0;
    }
    case 'export': {
      const name = rest[0];
      if (!name) throw new Error(`usage: ${ctx.bin} keys export NAME [--unarmored-hex --unsafe]`);
      const k = kr();
      const info = k.get(name);
      if (bool(flags, 'unarmored-hex')) {
        if (!bool(flags, 'unsafe')) throw new Error('--unarmored-hex prints the private key in clear: add --unsafe to confirm');
        ctx.io.out(toHex(await k.privateKey(info.name)) + '\n');
        return 0;
      }
      const priv = await k.privateKey(info.name);
      const p = await ctx.io.readLine('Enter passphrase to encrypt the exported key: ', true);
      if (p === undefined || p.length < 8) throw new Error('the export passphrase must be at least 8 characters (typed, or the next line of stdin)');
      ctx.io.out(armorPrivateKey(priv, info.algo, p));
      return 0;
    }
    case 'import':
    case 'import-hex': {
      const [name, src] = rest;
      if (!name || !src) throw new Error(`usage: ${ctx.bin} keys import NAME FILE (an armored key), or ${ctx.bin} keys import NAME HEX|FILE --hex [--algo eth_secp256k1]`);
      const k = kr();
      if (k.has(name)) throw new Error(`key ${JSON.stringify(name)} already exists`);
      let privkey: Uint8Array;
      let algo: KeyAlgo;
      if (sub === 'import-hex' || bool(flags, 'hex')) {
        const text = (existsSync(src) ? readFileSync(src, 'utf8') : src).trim().replace(/^0x/, '');
        if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new Error('expected a 32-byte private key in hex');
        privkey = fromHex(text);
        algo = parseAlgo(str(flags, 'algo') ?? str(flags, 'key-type'));
      } else {
        if (!existsSync(src)) throw new Error(`${src}: no such file`);
        const p = await ctx.io.readLine('Enter passphrase to decrypt your key: ', true);
        if (p === undefined) throw new Error('no passphrase given');
        ({ privkey, algo } = unarmorPrivateKey(readFileSync(src, 'utf8'), p));
      }
      const info = await k.add(name, privkey, algo);
      ctx.io.out(render(fmt === 'json' ? keyOutput(info) : [keyOutput(info)], fmt));
      return 0;
    }
    case 'delete': {
      if (rest.length === 0) throw new Error(`usage: ${ctx.bin} keys delete NAME... [--yes]`);
      const k = kr();
      for (const name of rest) {
        const info = k.get(name);
        if (!bool(flags, 'yes') && !bool(flags, 'force')) {
          if (!(await confirm(ctx, `Key reference will be deleted. Continue?`))) throw new Error('aborted: the key was not deleted (pass --yes to skip the question)');
        }
        await k.delete(info.name);
        ctx.io.err(`Key deleted forever (uh oh!)\n`);
      }
      return 0;
    }
    case 'mnemonic':
      // the SDK's `keys mnemonic`: a new 24-word BIP-39 mnemonic (no key is stored)
      ctx.io.out(`${generateMnemonic(256)}\n`);
      return 0;
    case 'parse': {
      const v = rest[0];
      if (!v) throw new Error(`usage: ${ctx.bin} keys parse ADDRESS|HEX`);
      const bytes = /^(0x)?[0-9a-fA-F]{40}$/.test(v) ? fromHex(v.replace(/^0x/, '')) : fromBech32(v).data;
      print(ctx, { hex: toHex(bytes).toUpperCase(), formats: ['', 'valoper', 'valcons'].map((s) => toBech32(ctx.prefix + s, bytes)) }, flags, 'text');
      return 0;
    }
    default:
      throw new Error(`unknown keys command ${JSON.stringify(sub)}; valid: add, recover, list, show, export, import, delete, mnemonic, parse`);
  }
}

// ---- query ----

async function tables(ctx: Ctx): Promise<{ chain: CliChain; queries: CommandTable; msgs: CommandTable }> {
  const chain = await ctx.chain();
  return { chain, queries: new CommandTable(chain.registry, chain.services, 'query'), msgs: new CommandTable(chain.registry, chain.services, 'msg') };
}

const QUERY_SPECIAL = ['tx', 'txs', 'block', 'blocks', 'account'];

function queryRootHelp(ctx: Ctx, table: CommandTable): string {
  return [
    'Query the chain through a node (abci_query with the gRPC path of each query method, as the SDK CLI does).', '',
    'Usage:', `  ${ctx.bin} query <module> <method> [args] [flags]`, `  ${ctx.bin} query tx <hash> | txs --events EVENTS | block [height] | blocks | account <address>`, '',
    `Modules: ${table.modules().join(', ')}`, '',
    'Flags: --node URL (default tcp://localhost:26657), --height N, -o json|text (default json)', '',
    'Examples:', `  ${ctx.bin} query bank all-balances ${ctx.prefix}1...`, `  ${ctx.bin} query staking validators -o text`, `  ${ctx.bin} query bank --help`,
  ].join('\n');
}

function client(flags: CliArgs['flags']): NodeClient {
  return new NodeClient(nodeUrl(str(flags, 'node')));
}

/** Runs a query method on the node; the decoded response. */
async function callQuery(chain: CliChain, node: NodeClient, path: string, requestType: string, responseType: string, req: ProtoObject, height?: bigint): Promise<ProtoObject> {
  const r = await node.abciQuery(path, chain.registry.encode(requestType, req), height);
  if (r.code !== 0) throw new Error(r.log || `query ${path} failed with code ${r.code} (${r.codespace})`);
  return chain.registry.decode(responseType, r.value);
}

async function queryCommand(ctx: Ctx, argv: string[]): Promise<number> {
  const pre = parseCliArgs(argv);
  const [module, method] = pre.positional;
  if (module === undefined || module === 'help') {
    const { queries } = await tables(ctx);
    return help(ctx, queryRootHelp(ctx, queries));
  }
  if (QUERY_SPECIAL.includes(module)) return querySpecial(ctx, module, pre);
  const { chain, queries } = await tables(ctx);
  if (method === undefined && bool(pre.flags, 'help')) {
    queries.find(module, queries.methods(module)[0]?.command); // unknown module → the list of modules
    return help(ctx, moduleHelp(queries, module, ctx.bin));
  }
  if (method === undefined && queries.modules().includes(module)) return help(ctx, moduleHelp(queries, module, ctx.bin));
  const spec = queries.find(module, method);
  const a = parseCliArgs(argv, (n) => GLOBAL_BOOL_FLAGS.has(n) || boolFlagsOf(spec).includes(n));
  if (bool(a.flags, 'help')) return help(ctx, methodHelp(spec, ctx.prefix, ctx.bin));
  checkFlags(spec, a.flags, QUERY_FLAGS);
  const req = buildRequest(chain.registry, spec, a.positional.slice(2), a.flags);
  // --height is the query's height, unless the request has a field of that name (staking historical-info)
  const height = spec.fields.some((f) => f.flag === 'height') ? undefined : uint(a.flags, 'height');
  const resp = await callQuery(chain, client(a.flags), spec.path, spec.requestType, spec.responseType, req, height);
  print(ctx, chain.registry.toJSON(spec.responseType, resp), a.flags);
  return 0;
}

const COMMON_FLAGS = ['home', 'node', 'output', 'help', 'log_level', 'keyring-backend', 'keyring-passphrase-file', 'chain-id'];
const QUERY_FLAGS = [...COMMON_FLAGS, 'height', ...PAGINATION_FLAGS];
const TX_FLAGS = [
  ...COMMON_FLAGS, 'from', 'fees', 'gas', 'gas-adjustment', 'gas-prices', 'broadcast-mode', 'generate-only', 'offline', 'account-number', 'sequence',
  'yes', 'memo', 'note', 'timeout-height', 'dry-run', 'fee-payer', 'fee-granter', 'sign-mode',
];

/** Refuses flags that are neither the command's nor a field of the request (a typo would otherwise be silently dropped). */
function checkFlags(spec: MethodSpec, flags: CliArgs['flags'], own: readonly string[]): void {
  const known = new Set([...own, ...spec.fields.flatMap((f) => [f.flag, f.name])]);
  for (const f of Object.keys(flags)) {
    if (!known.has(f)) throw new Error(`unknown flag --${f} for ${spec.kind === 'query' ? 'query' : 'tx'} ${spec.module} ${spec.command}; its fields: ${spec.fields.map((x) => '--' + x.flag).join(' ') || '(none)'} (see --help)`);
  }
}

const SPECIAL_HELP: Record<string, string> = {
  tx: `Query a tx by hash (the tx service's GetTx).\n\nUsage:\n  chaind query tx <hash> [--node URL] [-o json|text]\n\nExample:\n  chaind query tx 5D2B0C1B...E8`,
  txs: `Search txs by events (the tx service's GetTxsEvent; several events joined by &).\n\nUsage:\n  chaind query txs --events 'message.sender=chain1...&message.action=/chain.bank.v1beta1.MsgSend' [--page N] [--limit N] [--order-by asc|desc]\n\nExample:\n  chaind query txs --events 'message.module=bank'`,
  block: `A block by height (the latest without one), as the node's RPC \`block\` returns it.\n\nUsage:\n  chaind query block [height]\n\nExample:\n  chaind query block 10`,
  blocks: `Block metas of a height range (the node's RPC \`blockchain\`, at most 20).\n\nUsage:\n  chaind query blocks [--min-height N] [--max-height N]\n\nExample:\n  chaind query blocks --min-height 1 --max-height 5`,
  account: `An account (auth's Account query).\n\nUsage:\n  chaind query account <address>\n\nExample:\n  chaind query account chain1...`,
};

async function querySpecial(ctx: Ctx, what: string, pre: CliArgs): Promise<number> {
  if (bool(pre.flags, 'help')) return help(ctx, SPECIAL_HELP[what]!.replace(/chaind /g, ctx.bin + ' ').replace(/chain1\.\.\./g, ctx.prefix + '1...'));
  const arg = pre.positional[1];
  const flags = pre.flags;
  const node = client(flags);
  switch (what) {
    case 'tx': {
      if (!arg) throw new Error(`usage: ${ctx.bin} query tx <hash>`);
      const hash = arg.replace(/^0x/i, '');
      if (!/^[0-9a-fA-F]{64}$/.test(hash)) throw new Error(`invalid tx hash ${JSON.stringify(arg)}: expected 64 hex digits`);
      const chain = await ctx.chain();
      const resp = await callQuery(chain, node, '/chain.tx.v1beta1.Service/GetTx', 'chain.tx.v1beta1.GetTxRequest', 'chain.tx.v1beta1.GetTxResponse', { hash: hash.toUpperCase() });
      const json = chain.registry.toJSON('chain.tx.v1beta1.GetTxResponse', resp) as { tx_response: unknown };
      print(ctx, json.tx_response, flags);
      return 0;
    }
    case 'txs': {
      const events = str(flags, 'events') ?? str(flags, 'query');
      if (!events) throw new Error(`usage: ${ctx.bin} query txs --events 'message.sender=${ctx.prefix}1...&message.module=bank'`);
      const chain = await ctx.chain();
      const order = str(flags, 'order-by');
      const req = chain.registry.fromJSON('chain.tx.v1beta1.GetTxsEventRequest', {
        // as the SDK's CLI: each `type.attr=value` becomes `type.attr='value'`
        events: events.split('&').map((e) => e.trim()).filter((e) => e !== '').map((e) => {
          const m = /^([^=<>]+?)\s*(=|<=|>=|<|>)\s*(.*)$/.exec(e);
          if (!m || m[3] === '') throw new Error(`invalid event ${JSON.stringify(e)}: expected {eventType}.{eventAttribute}={value}`);
          const v = m[3]!;
          return /^'.*'$/.test(v) || /^-?\d+(\.\d+)?$/.test(v) ? `${m[1]}${m[2]}${v}` : `${m[1]}${m[2]}'${v}'`;
        }),
        page: str(flags, 'page') ?? '1', limit: str(flags, 'limit') ?? '100',
        ...(order ? { order_by: order === 'desc' ? 'ORDER_BY_DESC' : order === 'asc' ? 'ORDER_BY_ASC' : order } : {}),
      });
      const resp = await callQuery(chain, node, '/chain.tx.v1beta1.Service/GetTxsEvent', 'chain.tx.v1beta1.GetTxsEventRequest', 'chain.tx.v1beta1.GetTxsEventResponse', req);
      const json = chain.registry.toJSON('chain.tx.v1beta1.GetTxsEventResponse', resp) as { tx_responses: unknown[]; pagination?: { total?: string } | null };
      print(ctx, {
        total_count: json.pagination?.total ?? String(json.tx_responses.length), count: String(json.tx_responses.length),
        page_number: str(flags, 'page') ?? '1', limit: str(flags, 'limit') ?? '100', txs: json.tx_responses,
      }, flags);
      return 0;
    }
    case 'block': {
      if (arg !== undefined && !/^\d+$/.test(arg)) throw new Error(`invalid height ${JSON.stringify(arg)}`);
      print(ctx, await node.call('block', arg ? { height: arg } : {}), flags);
      return 0;
    }
    case 'blocks': {
      const p: Record<string, string> = {};
      if (str(flags, 'min-height')) p.minHeight = str(flags, 'min-height')!;
      if (str(flags, 'max-height')) p.maxHeight = str(flags, 'max-height')!;
      print(ctx, await node.call('blockchain', p), flags);
      return 0;
    }
    case 'account': {
      if (!arg) throw new Error(`usage: ${ctx.bin} query account <address>`);
      const chain = await ctx.chain();
      const resp = await callQuery(chain, node, '/chain.auth.v1beta1.Query/Account', 'chain.auth.v1beta1.QueryAccountRequest', 'chain.auth.v1beta1.QueryAccountResponse', { address: arg }, uint(flags, 'height'));
      print(ctx, (chain.registry.toJSON('chain.auth.v1beta1.QueryAccountResponse', resp) as { account: unknown }).account, flags);
      return 0;
    }
  }
  return 1;
}

// ---- tx ----

const TX_SPECIAL = ['sign', 'broadcast', 'encode', 'decode', 'simulate'];

function txRootHelp(ctx: Ctx, table: CommandTable): string {
  return [
    'Build, sign and broadcast txs (signed here, SIGN_MODE_DIRECT, with a key of the keyring).', '',
    'Usage:', `  ${ctx.bin} tx <module> <msg> [args] --from KEY [flags]`, `  ${ctx.bin} tx sign|broadcast|encode|simulate FILE`, `  ${ctx.bin} tx decode BASE64`, '',
    `Modules: ${table.modules().join(', ')}`, '',
    'Flags:',
    '  --from KEY|ADDRESS          the signing key (name or address in the keyring)',
    '  --chain-id ID               checked against the node\'s (default: the node\'s)',
    '  --fees COINS                e.g. 200000000000000achain',
    '  --gas-prices PRICES         e.g. 1000000000achain: fees = ceil(price × gas)',
    '  --gas auto|N                default 200000; auto simulates on the node × --gas-adjustment (default 1.5)',
    '  --memo TEXT | --note TEXT   --timeout-height N',
    '  --broadcast-mode sync|async|block   (default sync)',
    '  --generate-only             print the unsigned tx JSON (for tx sign)',
    '  --offline --account-number N --sequence N   sign without asking the node',
    '  --dry-run                   simulate only, print the gas estimate',
    '  --yes|-y                    no confirmation prompt',
    '  --node URL, --home DIR, --keyring-backend test|file, --keyring-passphrase-file FILE, -o json|text', '',
    'Examples:',
    `  ${ctx.bin} tx bank send ${ctx.prefix}1... 1000achain --from alice --gas-prices 1000000000${ctx.baseDenom} --yes`,
    `  ${ctx.bin} tx bank --help`,
  ].join('\n');
}

interface TxFlagsParsed {
  gas: 'auto' | bigint;
  adjustment: number;
  fees?: { denom: string; amount: string }[];
  gasPrices?: { denom: string; amount: string }[];
  memo: string;
  timeoutHeight: bigint;
  mode: 'sync' | 'async' | 'block';
}

function txFlags(flags: CliArgs['flags']): TxFlagsParsed {
  const g = str(flags, 'gas');
  let gas: 'auto' | bigint = 200_000n;
  if (g === 'auto') gas = 'auto';
  else if (g !== undefined) { if (!/^\d+$/.test(g)) throw new Error(`invalid --gas ${JSON.stringify(g)}: expected auto or a number`); gas = BigInt(g); }
  const adj = str(flags, 'gas-adjustment');
  const adjustment = adj === undefined ? 1.5 : Number(adj);
  if (!(adjustment > 0)) throw new Error(`invalid --gas-adjustment ${JSON.stringify(adj)}`);
  const fees = str(flags, 'fees');
  const prices = str(flags, 'gas-prices');
  if (fees !== undefined && prices !== undefined) throw new Error('cannot provide both --fees and --gas-prices');
  const mode = str(flags, 'broadcast-mode') ?? 'sync';
  if (mode !== 'sync' && mode !== 'async' && mode !== 'block') throw new Error(`invalid --broadcast-mode ${JSON.stringify(mode)}: expected sync, async or block`);
  const memo = str(flags, 'memo') ?? str(flags, 'note') ?? '';
  return {
    gas, adjustment, fees: fees === undefined ? undefined : parseCoins(fees), gasPrices: prices === undefined ? undefined : parseCoins(prices, true), memo,
    timeoutHeight: uint(flags, 'timeout-height') ?? 0n, mode,
  };
}

/** The node's chain id, checked against --chain-id. */
async function nodeChainId(node: NodeClient, flags: CliArgs['flags']): Promise<string> {
  const given = str(flags, 'chain-id');
  const st = await node.status();
  const actual = st.node_info.network;
  if (given !== undefined && given !== actual) throw new Error(`wrong chain id: --chain-id ${given}, but the node at ${node.url} runs chain ${actual}`);
  return actual;
}

async function accountOf(chain: CliChain, node: NodeClient, address: string): Promise<{ accountNumber: bigint; sequence: bigint }> {
  const r = await node.abciQuery('/chain.auth.v1beta1.Query/AccountInfo', chain.registry.encode('chain.auth.v1beta1.QueryAccountInfoRequest', { address }));
  if (r.code !== 0) {
    if (/not found/i.test(r.log)) throw new Error(`account ${address} not found on chain: it must receive funds before it can sign (${r.log})`);
    throw new Error(r.log);
  }
  const info = chain.registry.decode<{ info: { account_number: bigint; sequence: bigint } | null }>('chain.auth.v1beta1.QueryAccountInfoResponse', r.value).info;
  if (!info) throw new Error(`account ${address} not found on chain`);
  return { accountNumber: BigInt(info.account_number), sequence: BigInt(info.sequence) };
}

/**
 * What signing needs: the node, the chain id (the node's, checked against --chain-id; with --offline, --chain-id),
 * and the signer's account number and sequence (--account-number / --sequence, else the node's; --offline needs both).
 */
async function signingContext(chain: CliChain, flags: CliArgs['flags'], address: string): Promise<{ node: NodeClient; chainId: string; accountNumber: bigint; sequence: bigint }> {
  const node = client(flags);
  const offline = bool(flags, 'offline');
  const chainId = offline ? str(flags, 'chain-id') : await nodeChainId(node, flags);
  if (!chainId) throw new Error('--offline needs --chain-id');
  let accountNumber = uint(flags, 'account-number');
  let sequence = uint(flags, 'sequence');
  if (offline && (accountNumber === undefined || sequence === undefined)) throw new Error('--offline needs --account-number and --sequence');
  if (accountNumber === undefined || sequence === undefined) {
    const acc = await accountOf(chain, node, address);
    accountNumber ??= acc.accountNumber;
    sequence ??= acc.sequence;
  }
  return { node, chainId, accountNumber, sequence };
}

async function simulateGas(chain: CliChain, node: NodeClient, tx: PlainTx): Promise<bigint> {
  const raw = encodeTx(chain.registry, { ...tx, signatures: [] });
  const resp = await callQuery(chain, node, '/chain.tx.v1beta1.Service/Simulate', 'chain.tx.v1beta1.SimulateRequest', 'chain.tx.v1beta1.SimulateResponse', { tx_bytes: raw })
    .catch((e: Error) => { throw new Error(`gas estimation (simulation) failed: ${e.message}`); });
  const info = resp.gas_info as { gas_used: bigint } | null;
  return BigInt(info?.gas_used ?? 0n);
}

interface Signer { readonly info: KeyInfo; readonly keyring: Keyring }

/** The tx's fee: --fees, or --gas-prices × gas, or none. */
function feeOf(t: TxFlagsParsed, gas: bigint): { denom: string; amount: string }[] {
  if (t.fees) return t.fees;
  if (t.gasPrices) return feeFromGasPrices(t.gasPrices, gas);
  return [];
}

/** A TxResponse (the SDK's) of a broadcast result. */
function txResponse(r: BroadcastResult): Record<string, unknown> {
  return {
    height: r.height ?? '0', txhash: r.hash.toUpperCase(), codespace: r.codespace, code: r.code, data: r.data ?? '', raw_log: r.log, logs: [], info: '',
    gas_wanted: r.deliver?.gas_wanted ?? '0', gas_used: r.deliver?.gas_used ?? '0', tx: null, timestamp: '', events: r.deliver?.events ?? [],
  };
}

/** Explains the node's refusal, with what to do about it. */
function broadcastError(r: BroadcastResult): string {
  const coins = '[0-9.]+[a-zA-Z][a-zA-Z0-9/._-]*(?:,[0-9.]+[a-zA-Z][a-zA-Z0-9/._-]*)*';
  const fee = new RegExp(`insufficient fees; got: (${coins})? ?required: (${coins})`).exec(r.log);
  if (fee) return `insufficient fees: the tx paid ${fee[1] || 'nothing'} but the node requires ${fee[2]} (pass --fees ${fee[2]} or --gas-prices); node: ${r.log}`;
  if (/account sequence mismatch/.test(r.log)) return `${r.log} (a tx of this account is still pending, or pass --sequence)`;
  return `tx failed with code ${r.code} (${r.codespace}): ${r.log}`;
}

/** Signs (unless generate-only) and broadcasts a tx of messages from `--from`. */
async function sendTx(ctx: Ctx, chain: CliChain, msgs: { typeUrl: string; value: ProtoObject; type: string }[], signer: Signer | undefined, flags: CliArgs['flags']): Promise<number> {
  const t = txFlags(flags);
  const anys = msgs.map((m) => chain.registry.packAny(m.type, m.value, m.typeUrl));
  const payer = str(flags, 'fee-payer');
  const granter = str(flags, 'fee-granter');
  if (bool(flags, 'generate-only')) {
    const gas = t.gas === 'auto' ? 200_000n : t.gas;
    if (t.gas === 'auto') ctx.io.err('--gas auto is ignored with --generate-only (200000 used): set --gas at tx sign time\n');
    print(ctx, txToJson(chain.registry, unsignedTx(anys, { memo: t.memo, timeoutHeight: t.timeoutHeight, fee: feeOf(t, gas), gasLimit: gas, payer, granter })), flags);
    return 0;
  }
  if (!signer) throw new Error('--from is required to sign: a key name or address of the keyring');
  const { node, chainId, accountNumber, sequence } = await signingContext(chain, flags, signer.info.address);
  const pub = pubKeyAny(chain.registry, signer.info.algo, signer.info.pubkey);
  let gas: bigint;
  if (t.gas === 'auto' || bool(flags, 'dry-run')) {
    if (bool(flags, 'offline')) throw new Error('--gas auto and --dry-run need the node (not --offline)');
    const sim = withSigner(unsignedTx(anys, { memo: t.memo, timeoutHeight: t.timeoutHeight, fee: feeOf(t, 0n), gasLimit: 0n, payer, granter }), pub, sequence);
    const used = await simulateGas(chain, node, sim);
    gas = BigInt(Math.ceil(Number(used) * t.adjustment));
    if (bool(flags, 'dry-run')) { ctx.io.out(`gas estimate: ${gas}\n`); return 0; }
    ctx.io.err(`gas estimate: ${gas}\n`);
  } else {
    gas = t.gas;
  }
  let tx = withSigner(unsignedTx(anys, { memo: t.memo, timeoutHeight: t.timeoutHeight, fee: feeOf(t, gas), gasLimit: gas, payer, granter }), pub, sequence);
  if (!bool(flags, 'yes')) {
    ctx.io.err(render(txToJson(chain.registry, tx), 'json'));
    if (!(await confirm(ctx, '\nconfirm transaction before signing and broadcasting'))) {
      ctx.io.err('canceled transaction\n');
      return 1;
    }
  }
  tx = signTx(chain.registry, tx, { algo: signer.info.algo, privkey: await signer.keyring.privateKey(signer.info.name) }, chainId, accountNumber);
  return broadcast(ctx, node, encodeTx(chain.registry, tx), t.mode, flags);
}

async function broadcast(ctx: Ctx, node: NodeClient, raw: Uint8Array, mode: 'sync' | 'async' | 'block', flags: CliArgs['flags']): Promise<number> {
  const r = await node.broadcast(raw, mode);
  print(ctx, txResponse(r), flags);
  if (r.code !== 0) {
    ctx.io.err(`Error: ${broadcastError(r)}\n`);
    return 1;
  }
  return 0;
}

function resolveSigner(ctx: Ctx, flags: CliArgs['flags'], required: boolean): Signer | undefined {
  const from = str(flags, 'from');
  if (from === undefined) {
    if (required) throw new Error('--from is required: a key name or address of the keyring (see chaind keys list)');
    return undefined;
  }
  const keyring = keyringOf(ctx, flags);
  return { info: keyring.get(from), keyring };
}

function readTxFile(chain: CliChain, file: string | undefined): PlainTx {
  if (!file) throw new Error('name a tx file (the JSON of --generate-only or tx sign; - for stdin)');
  const text = file === '-' ? readFileSync(0, 'utf8') : existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (text === undefined) throw new Error(`${file}: no such file`);
  let json: unknown;
  try { json = JSON.parse(text); } catch (e) { throw new Error(`${file}: not JSON: ${(e as Error).message}`); }
  return txFromJson(chain.registry, json);
}

async function txSpecial(ctx: Ctx, what: string, a: CliArgs): Promise<number> {
  const flags = a.flags;
  const arg = a.positional[1];
  if (bool(flags, 'help')) {
    const h: Record<string, string> = {
      sign: `Sign a tx file (from --generate-only) with --from.\n\nUsage:\n  ${ctx.bin} tx sign FILE --from KEY [--chain-id ID] [--offline --account-number N --sequence N] [--output-document OUT]\n\nExample:\n  ${ctx.bin} tx sign unsigned.json --from alice > signed.json`,
      broadcast: `Broadcast a signed tx file.\n\nUsage:\n  ${ctx.bin} tx broadcast FILE [--broadcast-mode sync|async|block]\n\nExample:\n  ${ctx.bin} tx broadcast signed.json`,
      encode: `Print a tx file's TxRaw bytes in base64.\n\nUsage:\n  ${ctx.bin} tx encode FILE\n\nExample:\n  ${ctx.bin} tx encode signed.json`,
      decode: `Print the JSON of a base64 TxRaw.\n\nUsage:\n  ${ctx.bin} tx decode BASE64\n\nExample:\n  ${ctx.bin} tx decode CpIBCo8BChwvY29zbW9zLmJhbmsu...`,
      simulate: `Simulate a tx file on the node (its signer info is filled from --from when it has none).\n\nUsage:\n  ${ctx.bin} tx simulate FILE [--from KEY]\n\nExample:\n  ${ctx.bin} tx simulate unsigned.json --from alice`,
    };
    return help(ctx, h[what]!);
  }
  const chain = await ctx.chain();
  switch (what) {
    case 'sign': {
      let tx = readTxFile(chain, arg);
      const signer = resolveSigner(ctx, flags, true)!;
      const { node, chainId, accountNumber, sequence } = await signingContext(chain, flags, signer.info.address);
      tx = withSigner(tx, pubKeyAny(chain.registry, signer.info.algo, signer.info.pubkey), sequence);
      tx = signTx(chain.registry, tx, { algo: signer.info.algo, privkey: await signer.keyring.privateKey(signer.info.name) }, chainId, accountNumber);
      const text = render(txToJson(chain.registry, tx), 'json');
      const out = str(flags, 'output-document');
      if (out) writeFileSync(out, text);
      else ctx.io.out(text);
      return 0;
    }
    case 'broadcast': {
      const tx = readTxFile(chain, arg);
      if (tx.signatures.length === 0) throw new Error(`${arg}: the tx is not signed (${ctx.bin} tx sign ${arg} --from KEY)`);
      return broadcast(ctx, client(flags), encodeTx(chain.registry, tx), txFlags(flags).mode, flags);
    }
    case 'encode':
      ctx.io.out(Buffer.from(encodeTx(chain.registry, readTxFile(chain, arg))).toString('base64') + '\n');
      return 0;
    case 'decode': {
      if (!arg) throw new Error(`usage: ${ctx.bin} tx decode BASE64`);
      const raw = /^[0-9a-fA-F]+$/.test(arg) && arg.length % 2 === 0 && bool(flags, 'hex') ? fromHex(arg) : new Uint8Array(Buffer.from(arg, 'base64'));
      let tx: PlainTx;
      try { tx = decodeTxRaw(chain.registry, raw); } catch (e) { throw new Error(`not a TxRaw: ${(e as Error).message}`); }
      print(ctx, txToJson(chain.registry, tx), flags);
      return 0;
    }
    case 'simulate': {
      let tx = readTxFile(chain, arg);
      const node = client(flags);
      if (tx.auth_info.signer_infos.length === 0) {
        const signer = resolveSigner(ctx, flags, true)!;
        const acc = await accountOf(chain, node, signer.info.address);
        tx = withSigner(tx, pubKeyAny(chain.registry, signer.info.algo, signer.info.pubkey), uint(flags, 'sequence') ?? acc.sequence);
      }
      const resp = await callQuery(chain, node, '/chain.tx.v1beta1.Service/Simulate', 'chain.tx.v1beta1.SimulateRequest', 'chain.tx.v1beta1.SimulateResponse', { tx_bytes: encodeTx(chain.registry, tx) });
      print(ctx, chain.registry.toJSON('chain.tx.v1beta1.SimulateResponse', resp), flags);
      return 0;
    }
  }
  return 1;
}

async function txCommand(ctx: Ctx, argv: string[]): Promise<number> {
  const pre = parseCliArgs(argv);
  const [module, method] = pre.positional;
  if (module === undefined || module === 'help') {
    const { msgs } = await tables(ctx);
    return help(ctx, txRootHelp(ctx, msgs));
  }
  if (TX_SPECIAL.includes(module)) return txSpecial(ctx, module, pre);
  const { chain, msgs } = await tables(ctx);
  if (method === undefined) {
    msgs.find(module, msgs.methods(module)[0]?.command);
    return help(ctx, moduleHelp(msgs, module, ctx.bin));
  }
  const spec = msgs.find(module, method);
  const a = parseCliArgs(argv, (n) => GLOBAL_BOOL_FLAGS.has(n) || boolFlagsOf(spec).includes(n));
  if (bool(a.flags, 'help')) return help(ctx, methodHelp(spec, ctx.prefix, ctx.bin));
  checkFlags(spec, a.flags, TX_FLAGS);
  const generateOnly = bool(a.flags, 'generate-only');
  // --generate-only takes a bare address as --from (no key needed); signing needs the key
  let signer: Signer | undefined;
  let fromAddress: string | undefined;
  const from = str(a.flags, 'from');
  if (from !== undefined) {
    try {
      signer = resolveSigner(ctx, a.flags, true);
      fromAddress = signer!.info.address;
    } catch (e) {
      if (!generateOnly) throw e;
      try { fromBech32(from); fromAddress = from; } catch { throw e; }
    }
  } else if (!generateOnly) {
    throw new Error(`--from is required to sign ${spec.requestType}: a key name or address of the keyring (${ctx.bin} keys list)`);
  }
  const signerField = spec.signer && fromAddress ? signerValue(spec, fromAddress) : undefined;
  const value = buildRequest(chain.registry, spec, a.positional.slice(2), a.flags, signerField !== undefined ? { [spec.signer!]: signerField } : {});
  return sendTx(ctx, chain, [{ typeUrl: '/' + spec.requestType, value, type: spec.requestType }], signer, a.flags);
}

// ---- status, validate-genesis ----

async function statusCommand(ctx: Ctx, argv: string[]): Promise<number> {
  const a = parseCliArgs(argv);
  if (bool(a.flags, 'help')) return help(ctx, `The node's status (its RPC \`status\`: node info, sync info, validator info).\n\nUsage:\n  ${ctx.bin} status [--node URL] [-o json|text]\n\nExample:\n  ${ctx.bin} status --node tcp://localhost:26657`);
  print(ctx, await client(a.flags).status(), a.flags);
  return 0;
}

async function validateGenesisCommand(ctx: Ctx, argv: string[]): Promise<number> {
  const a = parseCliArgs(argv);
  if (bool(a.flags, 'help')) return help(ctx, `Validate a genesis file: the document, the consensus params, the validators and every module's genesis state.\n\nUsage:\n  ${ctx.bin} validate-genesis [FILE] [--home DIR]   (default HOME/config/genesis.json)\n\nExample:\n  ${ctx.bin} validate-genesis ~/.chaind/config/genesis.json`);
  const file = a.positional[0] ?? join(homeOf(a.flags), 'config', 'genesis.json');
  if (!existsSync(file)) throw new Error(`${file}: no such file`);
  let doc: unknown;
  try { doc = JSON.parse(readFileSync(file, 'utf8')); } catch (e) { throw new Error(`error validating genesis file ${file}: not JSON: ${(e as Error).message}`); }
  const chain = await ctx.chain();
  try {
    chain.validateGenesis(doc);
  } catch (e) {
    throw new Error(`error validating genesis file ${file}: ${(e as Error).message}`);
  }
  ctx.io.out(`File at ${file} is a valid genesis file\n`);
  return 0;
}

/**
 * Runs a client command (`argv` without the binary: `['keys', 'list']`); returns the exit code. Errors are thrown
 * with a message for the user.
 */
export async function runClient(argv: readonly string[], stat: ClientStatic, chain: ChainSource, io: ClientIO = processIO()): Promise<number> {
  let loaded: Promise<CliChain> | undefined;
  const ctx: Ctx = {
    chain: () => (loaded ??= chain()), io, bin: stat.bin, prefix: stat.bech32Prefix, devMnemonic: stat.devMnemonic, baseDenom: stat.baseDenom, devChainId: stat.devChainId,
  };
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'keys': return await keysCommand(ctx, rest);
      case 'query': case 'q': return await queryCommand(ctx, rest);
      case 'tx': return await txCommand(ctx, rest);
      case 'status': return await statusCommand(ctx, rest);
      case 'validate-genesis': return await validateGenesisCommand(ctx, rest);
      default: throw new Error(`unknown client command ${String(cmd)}`);
    }
  } finally {
    io.close?.();
  }
}

/** For tests: the hash (hex, upper case) of TxRaw bytes, as `txhash`. */
export function txHash(raw: Uint8Array): string {
  return toHex(sha256(raw)).toUpperCase();
}
