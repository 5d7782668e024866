/**
 * The `chaind` CLI as a user runs it, against its own `chaind dev`: every command is a `node apps/node/bin/chaind.mjs`
 * process with `-o json` parsed here. A full flow by CLI only (keys add and recover in a temp home with the test
 * keyring, a bank send, a delegation with --gas auto, a gov proposal and a vote, a token issue, a liquidity pool and a
 * swap; each checked by a query through the CLI), the helpful errors (wrong chain id, insufficient fees, unknown key,
 * unknown module), sign/broadcast of a --generate-only file, and a table generated from the protos: for every query
 * method of every module its --help and one real call, and for every Msg `--generate-only`.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';

const CHAIND = new URL('../../apps/node/bin/chaind.mjs', import.meta.url).pathname;
const GAS_PRICES = '1000000000achain';

interface Run { code: number; stdout: string; stderr: string }

/** at most this many chaind processes at once (two cores are shared) */
const MAX_PARALLEL = 3;
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(f: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((r) => waiting.push(r));
  running++;
  try { return await f(); } finally { running--; waiting.shift()?.(); }
}

function run(args: string[], input?: string): Promise<Run> {
  return slot(() => new Promise((resolve) => {
    const p = execFile(process.execPath, [CHAIND, ...args], { timeout: 120_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    p.stdin!.end(input ?? '');
  }));
}

describe('e2e: the chaind CLI (keys, query, tx) against chaind dev', function () {
  this.timeout(600_000);
  let node: NodeHandle;
  let home: string;
  /** runs `chaind ARGS --home HOME --node RPC`; fails the test on a non-zero exit */
  const ok = async (args: string[], input?: string): Promise<string> => {
    const r = await run([...args, '--home', home, '--node', node.rpcUrl], input);
    expect(r.code, `chaind ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).to.equal(0);
    return r.stdout;
  };
  const json = async (args: string[], input?: string): Promise<any> => JSON.parse(await ok([...args, '-o', 'json'], input));
  const fails = async (args: string[], input?: string): Promise<Run> => {
    const r = await run([...args, '--home', home, '--node', node.rpcUrl], input);
    expect(r.code, `chaind ${args.join(' ')} should fail\n${r.stdout}`).to.not.equal(0);
    return r;
  };
  /** waits until the tx is in a block (query tx through the CLI), expects success; returns the TxResponse */
  const included = async (hash: string): Promise<any> => {
    for (let i = 0; i < 60; i++) {
      const r = await run(['query', 'tx', hash, '--node', node.rpcUrl, '-o', 'json']);
      if (r.code === 0) {
        const tx = JSON.parse(r.stdout);
        expect(tx.code, tx.raw_log).to.equal(0);
        return tx;
      }
      await new Promise((res) => setTimeout(res, 300));
    }
    throw new Error(`tx ${hash} not included`);
  };
  /** `chaind tx ...` signed and broadcast; waits for the block */
  const tx = async (args: string[]): Promise<any> => {
    const r = await json(['tx', ...args, '--gas-prices', GAS_PRICES, '--yes']);
    expect(r.code, r.raw_log).to.equal(0);
    return included(r.txhash);
  };
  const balance = async (address: string, denom: string): Promise<bigint> => BigInt((await json(['query', 'bank', 'balance', address, denom])).balance.amount);

  let alice: string;
  let dev0: string;
  let dev1: string;
  let valoper: string;
  let proposalId: string;
  let poolId: string;
  let poolCoinDenom: string;
  let reserveAcc: string;

  before(async () => {
    node = await startNode();
    home = mkdtempSync(join(tmpdir(), 'chaind-cli-e2e-'));
  });

  after(async () => {
    await node?.stop();
    node?.cleanup();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('keys: add a new key, recover dev keys (eth_secp256k1 and secp256k1), list, show', async () => {
    alice = (await json(['keys', 'add', 'alice'])).address;
    expect(alice).to.match(/^chain1[0-9a-z]{38}$/);
    dev0 = (await json(['keys', 'add', 'dev0', '--recover', '--dev', '--algo', 'eth_secp256k1'])).address;
    dev1 = (await json(['keys', 'add', 'dev1', '--recover', '--algo', 'eth_secp256k1', '--index', '1'], 'test test test test test test test test test test test junk\n')).address;
    const cosmos2 = (await json(['keys', 'add', 'cosmos2', '--dev', '--index', '2'])).address;
    // the addresses `chaind dev` funds and prints
    for (const a of [dev0, dev1, cosmos2]) expect(node.output, a).to.include(a);
    expect((await json(['keys', 'list'])).map((k: any) => k.name)).to.deep.equal(['alice', 'cosmos2', 'dev0', 'dev1']);
    expect((await ok(['keys', 'show', 'dev0', '--bech', 'val', '-a'])).trim()).to.match(/^chainvaloper1/);
    const unknown = await fails(['keys', 'show', 'bob']);
    expect(unknown.stderr).to.include('key "bob" not found in the test keyring').and.to.include('known keys: alice, cosmos2, dev0, dev1');
  });

  it('keys: the file keyring encrypts at rest and refuses a wrong passphrase', async () => {
    const pass = join(home, 'pass.txt');
    writeFileSync(pass, 'a long keyring passphrase\n');
    const f = await json(['keys', 'add', 'vault', '--dev', '--algo', 'eth_secp256k1', '--index', '4', '--keyring-backend', 'file', '--keyring-passphrase-file', pass]);
    const hex = (await ok(['keys', 'export', 'vault', '--unarmored-hex', '--unsafe', '--keyring-backend', 'file', '--keyring-passphrase-file', pass])).trim();
    expect(hex).to.match(/^[0-9a-f]{64}$/);
    const onDisk = readFileSync(join(home, 'keyring-file', 'vault.info'), 'utf8');
    expect(onDisk).to.include(f.address).and.not.to.include(hex);
    expect(onDisk).not.to.include(Buffer.from(hex, 'hex').toString('base64'));
    writeFileSync(pass, 'not the passphrase\n');
    const wrong = await fails(['keys', 'export', 'vault', '--unarmored-hex', '--unsafe', '--keyring-backend', 'file', '--keyring-passphrase-file', pass]);
    expect(wrong.stderr).to.include('invalid passphrase');
    expect(wrong.stdout).to.equal('');
    // the passphrase on stdin works too
    expect((await ok(['keys', 'export', 'vault', '--unarmored-hex', '--unsafe', '--keyring-backend', 'file'], 'a long keyring passphrase\n')).trim()).to.equal(hex);
  });

  it('status and the node\'s chain', async () => {
    const st = await json(['status']);
    expect(st.node_info.network).to.equal('chain_1337-1');
    expect(Number(st.sync_info.latest_block_height)).to.be.greaterThan(0);
  });

  it('bank send from a recovered dev key to the new key, checked by query', async () => {
    const before = await balance(alice, 'achain');
    expect(before).to.equal(0n);
    const r = await tx(['bank', 'send', alice, '5000000000000000000achain', '--from', 'dev0', '--memo', 'from the CLI']);
    expect(r.tx.body.memo).to.equal('from the CLI');
    expect(await balance(alice, 'achain')).to.equal(5_000_000_000_000_000_000n);
    const found = await json(['query', 'txs', '--events', `message.sender=${dev0}`]);
    expect(found.txs.map((t: any) => t.txhash)).to.include(r.txhash);
    expect((await json(['query', 'account', alice]))).to.have.property('address', alice);
    // -o text: YAML
    expect(await ok(['query', 'bank', 'balance', alice, 'achain', '-o', 'text'])).to.equal('balance:\n  denom: achain\n  amount: "5000000000000000000"\n');
  });

  it('helpful errors: wrong chain id, insufficient fees with the required amount, unknown module and method', async () => {
    const wrong = await fails(['tx', 'bank', 'send', alice, '1achain', '--from', 'dev0', '--chain-id', 'other-1', '--yes']);
    expect(wrong.stderr).to.include('wrong chain id: --chain-id other-1, but the node at').and.to.include('runs chain chain_1337-1');
    const poor = await fails(['tx', 'bank', 'send', alice, '1achain', '--from', 'dev0', '--fees', '1achain', '--yes', '-o', 'json']);
    expect(poor.stderr).to.match(/insufficient fees: the tx paid 1achain but the node requires 200000000000000achain/);
    expect(JSON.parse(poor.stdout).code).to.equal(13);
    const mod = await fails(['query', 'bnk', 'balance']);
    expect(mod.stderr).to.include('unknown module "bnk"').and.to.include('bank');
    const meth = await fails(['tx', 'bank', 'sendd']);
    expect(meth.stderr).to.include('valid: send, multi-send');
    const nokey = await fails(['tx', 'bank', 'send', alice, '1achain', '--from', 'carol', '--yes']);
    expect(nokey.stderr).to.include('key "carol" not found');
  });

  it('staking: delegate from the new key with --gas auto, checked by query', async () => {
    valoper = (await json(['query', 'staking', 'validators'])).validators[0].operator_address;
    expect(valoper).to.match(/^chainvaloper1/);
    await tx(['staking', 'delegate', valoper, '1000000000000000000achain', '--from', 'alice', '--gas', 'auto', '--gas-adjustment', '1.3']);
    const d = await json(['query', 'staking', 'delegation', alice, valoper]);
    expect(d.delegation_response.balance).to.deep.equal({ denom: 'achain', amount: '1000000000000000000' });
  });

  it('gov: submit a text proposal with its deposit, vote yes, checked by query', async () => {
    await tx(['gov', 'submit-proposal', '--content', JSON.stringify({ '@type': '/cosmos.gov.v1beta1.TextProposal', title: 'CLI', description: 'submitted by chaind tx' }),
      '--initial-deposit', '10000000000000000000achain', '--from', 'dev0']);
    const props = (await json(['query', 'gov', 'proposals'])).proposals;
    const p = props[props.length - 1];
    expect(p.content).to.include({ title: 'CLI' });
    expect(p.status).to.equal('PROPOSAL_STATUS_VOTING_PERIOD');
    proposalId = p.proposal_id;
    await tx(['gov', 'vote', proposalId, 'yes', '--from', 'dev0']);
    const v = await json(['query', 'gov', 'vote', proposalId, dev0]);
    expect(v.vote).to.include({ proposal_id: proposalId, voter: dev0 });
    expect(v.vote.options).to.deep.equal([{ option: 'VOTE_OPTION_YES', weight: '1.000000000000000000' }]);
  });

  it('token: issue a token, checked by query', async () => {
    await tx(['token', 'issue-token', 'kitty', 'Kitty Token', '6', 'ukitty', '1000', '10000', 'true', '--from', 'dev1', '--gas', 'auto']);
    const t = await json(['query', 'token', 'token', 'kitty']);
    expect(t.Token).to.include({ symbol: 'kitty', name: 'Kitty Token', min_unit: 'ukitty', owner: dev1, initial_supply: '1000' });
    expect(await balance(dev1, 'ukitty')).to.equal(1_000_000_000n);
  });

  it('liquidity: create a pool of achain/ukitty and swap achain for ukitty, checked by query', async () => {
    await tx(['liquidity', 'create-pool', '1', '2000000000000000achain,200000000ukitty', '--from', 'dev1', '--gas', 'auto']);
    const pools = (await json(['query', 'liquidity', 'liquidity-pools'])).pools;
    expect(pools).to.have.length(1);
    poolId = pools[0].id;
    poolCoinDenom = pools[0].pool_coin_denom;
    reserveAcc = pools[0].reserve_account_address;
    expect(pools[0].reserve_coin_denoms).to.deep.equal(['achain', 'ukitty']);
    const before = await balance(dev1, 'ukitty');
    // offer 10^11 achain, fee ceil(offer × 0.003 / 2), at most 1.05 × the pool price (10^7 achain per ukitty)
    await tx(['liquidity', 'swap', poolId, '1', '100000000000achain', 'ukitty', '150000000achain', '10500000', '--from', 'dev1', '--gas', 'auto']);
    let after = before;
    for (let i = 0; i < 20 && after === before; i++) {
      after = await balance(dev1, 'ukitty');
      if (after === before) await new Promise((r) => setTimeout(r, 300));
    }
    expect(after > before, `ukitty ${before} → ${after}`).to.equal(true);
    const pool = await json(['query', 'liquidity', 'liquidity-pool', poolId]);
    expect(pool.pool.id).to.equal(poolId);
  });

  it('tx --generate-only, tx sign, tx encode/decode, tx simulate, tx broadcast of the file', async () => {
    const unsigned = await ok(['tx', 'bank', 'send', alice, '7achain', '--from', 'dev0', '--generate-only', '--fees', '200000000000000achain']);
    const dir = mkdtempSync(join(tmpdir(), 'chaind-cli-tx-'));
    try {
      writeFileSync(join(dir, 'unsigned.json'), unsigned);
      const sim = await json(['tx', 'simulate', join(dir, 'unsigned.json'), '--from', 'dev0']);
      expect(Number(sim.gas_info.gas_used)).to.be.greaterThan(0);
      const signed = await ok(['tx', 'sign', join(dir, 'unsigned.json'), '--from', 'dev0']);
      expect(JSON.parse(signed).signatures).to.have.length(1);
      writeFileSync(join(dir, 'signed.json'), signed);
      const b64 = (await ok(['tx', 'encode', join(dir, 'signed.json')])).trim();
      expect(await json(['tx', 'decode', b64])).to.deep.equal(JSON.parse(signed));
      const before = await balance(alice, 'achain');
      const r = await json(['tx', 'broadcast', join(dir, 'signed.json')]);
      await included(r.txhash);
      expect(await balance(alice, 'achain')).to.equal(before + 7n);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** an argument for a field of a query, from what the flow above created (undefined: none) */
  const argFor = (module: string, field: string): string | undefined => {
    switch (field) {
      case 'address': case 'delegator_addr': case 'delegator_address': case 'voter': case 'depositor': case 'owner': case 'address_string': return dev0;
      case 'depositor_address': case 'swap_address': case 'withdraw_address': return dev1;
      case 'validator_addr': case 'validator_address': return valoper;
      case 'denom': return module === 'token' ? 'kitty' : 'achain';
      case 'symbol': return 'kitty';
      case 'proposal_id': return proposalId;
      case 'params_type': return 'voting';
      case 'pool_id': return poolId;
      case 'pool_coin_denom': return poolCoinDenom;
      case 'reserve_acc': return reserveAcc;
      case 'msg_index': return '1';
      case 'name': return module === 'auth' ? 'gov' : 'v1';
      case 'height': case 'last_height': case 'id': return '1';
      case 'evidence_hash': return 'AA';
      case 'address_bytes': return Buffer.alloc(20, 0x11).toString('base64');
      case 'key': return module === 'params' ? 'MaxValidators' : '0x' + '00'.repeat(32);
      case 'subspace': return 'staking';
      default: return undefined;
    }
  };

  /**
   * Runs `jobs` (at most MAX_PARALLEL chaind processes at once) and collects every problem, so one failure does
   * not leave the others running and the report names them all.
   */
  const table = async <T>(items: T[], job: (item: T) => Promise<string | undefined>): Promise<string[]> => {
    const problems: string[] = [];
    await Promise.all(items.map(async (it) => {
      try {
        const p = await job(it);
        if (p) problems.push(p);
      } catch (e) {
        problems.push(`${JSON.stringify(it)}: ${(e as Error).message.split('\n').slice(0, 3).join(' ')}`);
      }
    }));
    return problems;
  };

  it('every query method of every module: one real call each (a table generated from the protos), --help', async () => {
    const root = await ok(['query', '--help']);
    const modules = /Modules: (.*)/.exec(root)![1]!.split(', ');
    expect(modules).to.include.members(['auth', 'bank', 'distribution', 'evidence', 'evm', 'gov', 'liquidity', 'mint', 'params', 'slashing', 'staking', 'token', 'upgrade']);
    // each module's listing: `  <method>  /<service>/<Method>  <required> [optional]` (the positional arguments)
    const methods: [string, string][] = [];
    const REQUIRED: Record<string, string[]> = {};
    const OPTIONAL: Record<string, string[]> = {};
    await Promise.all(modules.map(async (m) => {
      for (const line of (await ok(['query', m])).split('\n')) {
        const hit = /^ {2}(\S+)\s+\/\S+\/\S+((?:\s+[<[]\S+[>\]])*)$/.exec(line);
        if (!hit) continue;
        methods.push([m, hit[1]!]);
        REQUIRED[`${m} ${hit[1]}`] = [...hit[2]!.matchAll(/<(\S+)>/g)].map((x) => x[1]!);
        OPTIONAL[`${m} ${hit[1]}`] = [...hit[2]!.matchAll(/\[(\S+)\]/g)].map((x) => x[1]!);
      }
    }));
    expect(methods.length).to.be.greaterThan(90);
    // the usage line (required arguments) of each method, from its --help (one per module here: the unit tests check
    // every method's help in process; a process per help would double this table's minutes)
    const firsts = modules.map((m) => methods.find(([mm]) => mm === m)!);
    const helpProblems = await table(firsts, async ([m, method]) => {
      const h = await ok(['query', m, method, '--help']);
      return h.includes('Usage:') && h.includes('Example:') ? undefined : `${m} ${method} --help: ${h}`;
    });
    expect(helpProblems, helpProblems.join('\n')).to.deep.equal([]);
    const outcomes: string[] = [];
    const problems = await table(methods, async ([m, method]) => {
      const spec = REQUIRED[`${m} ${method}`] ?? [];
      const args = spec.map((f) => argFor(m, f) ?? 'x');
      // then the optional positional arguments this table has values for, in order
      for (const f of OPTIONAL[`${m} ${method}`] ?? []) {
        const v = argFor(m, f);
        if (v === undefined) break;
        args.push(v);
      }
      const r = await run(['query', m, method, ...args, '--node', node.rpcUrl, '-o', 'json']);
      const line = r.stderr.trim().split('\n')[0] ?? '';
      outcomes.push(`${m} ${method}: ${r.code === 0 ? 'ok' : line}`);
      if (/unknown flag|missing argument|too many arguments|cannot reach|invalid value|expected JSON/.test(r.stderr)) return `${m} ${method} ${args.join(' ')}: ${line}`;
      if (r.code === 0) { JSON.parse(r.stdout); return undefined; }
      // the node's answer to arguments the chain has nothing for (no unbonding yet, a vote gone with its ended
      // proposal, a batch message index not there): a gRPC status from the node, not a CLI error
      return /^Error: rpc error: code = (NotFound|InvalidArgument) desc = /.test(line) ? undefined : `${m} ${method} ${args.join(' ')}: ${line}`;
    });
    expect(problems, problems.join('\n')).to.deep.equal([]);
    const okCount = outcomes.filter((o) => o.endsWith(': ok')).length;
    expect(okCount, outcomes.sort().join('\n')).to.be.greaterThan(methods.length * 0.8);
  });

  it('every Msg of every module: --generate-only prints the unsigned tx with the message', async () => {
    const root = await ok(['tx', '--help']);
    const modules = /Modules: (.*)/.exec(root)![1]!.split(', ');
    expect(modules).to.include.members(['bank', 'distribution', 'evm', 'gov', 'liquidity', 'slashing', 'staking', 'token']);
    const msgs: [string, string, string][] = [];
    await Promise.all(modules.map(async (m) => {
      for (const line of (await ok(['tx', m])).split('\n')) {
        const hit = /^ {2}(\S+)\s+(\S+\.Msg\S+)/.exec(line);
        if (hit) msgs.push([m, hit[1]!, hit[2]!]);
      }
    }));
    expect(msgs.length).to.be.greaterThan(20);
    const h = await ok(['tx', 'bank', 'send', '--help']);
    expect(h).to.include('chaind tx bank send [to_address] [amount] [flags]').and.to.include('Example:');
    const problems = await table(msgs, async ([m, msg, type]) => {
      const t = JSON.parse(await ok(['tx', m, msg, '--from', 'dev0', '--generate-only']));
      if (t.body.messages.length !== 1 || t.body.messages[0]['@type'] !== '/' + type || t.signatures.length !== 0) return `${m} ${msg}: ${JSON.stringify(t.body)}`;
      return undefined;
    });
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('validate-genesis on the node\'s genesis', async () => {
    expect(await ok(['validate-genesis', join(node.home, 'config', 'genesis.json')])).to.include('is a valid genesis file');
  });
});
