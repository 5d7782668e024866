/**
 * AutoCLI over the chain's registry: every query and Msg service of every module becomes a command; positional
 * arguments and flags become the request (coins, enums, Any, Dec, uint64); the signer field comes from --from;
 * unknown modules and methods are refused with the valid ones; every command has a help with an example; a
 * `--generate-only` tx is the JSON that `tx encode`/`tx decode` round-trip.
 */
import { expect } from 'chai';
import { DEV_MNEMONIC, toBech32 } from '@chain/crypto';
import type { ProtoRegistry } from '@chain/codec';
import { loadCliChain } from '../src/cli/chain.js';
import type { CliChain } from '../src/cli/chain.js';
import { CommandTable, buildRequest, kebab, methodHelp, moduleHelp, parseCoins, signerValue } from '../src/cli/autocli.js';
import { parseCliArgs } from '../src/cli/args.js';
import { runClient } from '../src/cli/commands.js';
import { BECH32_PREFIX, BASE_DENOM, DEV_CHAIN_ID, devAccounts } from '../src/config/init.js';
import { fakeIO } from './cli-keyring.test.js';

const STATIC = { bin: 'chaind', bech32Prefix: BECH32_PREFIX, devMnemonic: DEV_MNEMONIC, baseDenom: BASE_DENOM, devChainId: DEV_CHAIN_ID };

describe('chaind query / tx (AutoCLI from the protos)', function () {
  this.timeout(60_000);
  let chain: CliChain;
  let reg: ProtoRegistry;
  let queries: CommandTable;
  let msgs: CommandTable;
  const [eth0] = devAccounts(1);
  const addr = eth0!.address;
  const valoper = toBech32('chainvaloper', new Uint8Array(20).fill(7));

  before(async () => {
    chain = await loadCliChain();
    reg = chain.registry;
    queries = new CommandTable(reg, chain.services, 'query');
    msgs = new CommandTable(reg, chain.services, 'msg');
  });

  it('covers every module of the app, under the module names', () => {
    expect(queries.modules()).to.include.members(['auth', 'bank', 'staking', 'distribution', 'slashing', 'evidence', 'mint', 'gov', 'params', 'upgrade', 'evm', 'token', 'liquidity']);
    expect(msgs.modules()).to.include.members(['bank', 'staking', 'distribution', 'slashing', 'gov', 'evm', 'token', 'liquidity']);
    expect(queries.methods('bank').map((m) => m.command)).to.include.members(['balance', 'all-balances', 'total-supply', 'denoms-metadata']);
    expect(msgs.methods('token').map((m) => m.command)).to.deep.equal(['issue-token', 'mint-token', 'edit-token', 'burn-token', 'transfer-owner-token']);
    expect(kebab('AccountAddressByID')).to.equal('account-address-by-id');
    expect(kebab('LiquidityPoolByPoolCoinDenom')).to.equal('liquidity-pool-by-pool-coin-denom');
  });

  const req = (t: CommandTable, module: string, method: string, argv: string[], extra: Record<string, unknown> = {}) => {
    const spec = t.find(module, method);
    const a = parseCliArgs(argv, (n) => ['count-total', 'reverse', ...spec.fields.filter((f) => f.kind === 'bool').map((f) => f.flag)].includes(n));
    return reg.toJSON(spec.requestType, buildRequest(reg, spec, a.positional, a.flags, extra));
  };

  it('queries: the HTTP path parameters are the positional arguments, the rest flags, pagination as the SDK', () => {
    expect(req(queries, 'bank', 'balance', [addr, 'achain'])).to.deep.equal({ address: addr, denom: 'achain' });
    expect(req(queries, 'bank', 'Balance', ['--denom', 'achain', addr])).to.deep.equal({ address: addr, denom: 'achain' });
    const all = req(queries, 'bank', 'all-balances', [addr, '--limit', '5', '--count-total']) as { pagination: Record<string, unknown> };
    expect(all.pagination).to.include({ limit: '5', count_total: true });
    expect(req(queries, 'staking', 'delegation', [addr, valoper])).to.deep.equal({ delegator_addr: addr, validator_addr: valoper });
    expect(req(queries, 'gov', 'proposal', ['3'])).to.deep.equal({ proposal_id: '3' });
    expect(req(queries, 'gov', 'proposals', ['--proposal-status', 'voting-period'])).to.include({ proposal_status: 'PROPOSAL_STATUS_VOTING_PERIOD' });
    expect(() => req(queries, 'bank', 'balance', [])).to.throw('missing argument <address>');
    expect(() => req(queries, 'bank', 'params', ['x'])).to.throw('too many arguments');
    expect(() => queries.find('bankk', 'balance')).to.throw(/unknown module "bankk".*auth, bank, distribution/);
    expect(() => queries.find('bank', 'balanse')).to.throw('unknown query method "balanse" of module bank; valid: balance, all-balances');
  });

  it('messages: proto-order positionals without the signer, coins, enums, Any, Dec, uint64, bool', () => {
    expect(req(msgs, 'bank', 'send', ['chain1to', '10achain,5ukitty'], { from_address: addr })).to.deep.equal({
      from_address: addr, to_address: 'chain1to', amount: [{ denom: 'achain', amount: '10' }, { denom: 'ukitty', amount: '5' }],
    });
    expect(req(msgs, 'staking', 'delegate', [valoper, '1000achain'], { delegator_address: addr })).to.deep.equal({
      delegator_address: addr, validator_address: valoper, amount: { denom: 'achain', amount: '1000' },
    });
    expect(req(msgs, 'gov', 'vote', ['1', 'yes'], { voter: addr })).to.deep.equal({ proposal_id: '1', voter: addr, option: 'VOTE_OPTION_YES' });
    expect(req(msgs, 'gov', 'vote', ['1', 'VOTE_OPTION_NO_WITH_VETO'], { voter: addr })).to.include({ option: 'VOTE_OPTION_NO_WITH_VETO' });
    const sub = req(msgs, 'gov', 'submit-proposal', ['--content', '{"@type":"/chain.gov.v1beta1.TextProposal","title":"t","description":"d"}', '--initial-deposit', '10achain'], { proposer: addr });
    expect(sub).to.deep.equal({ content: { '@type': '/chain.gov.v1beta1.TextProposal', title: 't', description: 'd' }, initial_deposit: [{ denom: 'achain', amount: '10' }], proposer: addr });
    expect(req(msgs, 'token', 'issue-token', ['kitty', 'Kitty Token', '6', 'ukitty', '1000', '10000', 'true'], { owner: addr })).to.deep.equal({
      symbol: 'kitty', name: 'Kitty Token', scale: 6, min_unit: 'ukitty', initial_supply: '1000', max_supply: '10000', mintable: true, owner: addr,
    });
    expect(req(msgs, 'token', 'issue-token', ['kitty', '--mintable', '--scale', '6'], { owner: addr })).to.include({ mintable: true, scale: 6, symbol: 'kitty' });
    const swapSpec = msgs.find('liquidity', 'swap');
    const swap = buildRequest(reg, swapSpec, ['1', '1', '1000achain', 'ukitty', '2achain', '1.5'], {}, { swap_requester_address: addr });
    expect(swap.order_price).to.equal('1500000000000000000'); // an sdk.Dec on the wire: its 18-decimal atomics
    expect(reg.toJSON(swapSpec.requestType, swap)).to.include({ order_price: '1.500000000000000000', pool_id: '1', swap_type_id: 1 });
    expect(() => req(msgs, 'bank', 'send', ['chain1to', '10'])).to.throw('invalid coin "10"');
    expect(() => req(msgs, 'gov', 'vote', ['1', 'maybe'])).to.throw('valid: VOTE_OPTION_UNSPECIFIED, VOTE_OPTION_YES');
    expect(() => req(msgs, 'gov', 'submit-proposal', ['--content', '{nope'])).to.throw('expected JSON');
    // the signer of bank's MultiSend is a list of inputs: --from fills one input with the address
    expect(signerValue(msgs.find('bank', 'multi-send'), addr)).to.deep.equal([{ address: addr }]);
    expect(signerValue(msgs.find('bank', 'send'), addr)).to.equal(addr);
    expect(parseCoins('1.5achain,2ukitty', true)).to.deep.equal([{ amount: '1.5', denom: 'achain' }, { amount: '2', denom: 'ukitty' }]);
  });

  it('every command has a help with a usage and an example line', () => {
    for (const spec of [...queries.all(), ...msgs.all()]) {
      const h = methodHelp(spec, 'chain');
      expect(h, `${spec.module} ${spec.command}`).to.include(`chaind ${spec.kind === 'query' ? 'query' : 'tx'} ${spec.module} ${spec.command}`).and.to.include('Example:');
    }
    expect(methodHelp(msgs.find('bank', 'send'), 'chain')).to.include('Usage:\n  chaind tx bank send [to_address] [amount] [flags]');
    expect(methodHelp(queries.find('bank', 'balance'), 'chain')).to.include('chaind query bank balance <address> [denom] [flags]');
    expect(moduleHelp(queries, 'bank')).to.match(/\n {2}balance\s+\/chain\.bank\.v1beta1\.Query\/Balance {2}<address> \[denom\]\n/);
  });

  it('tx --generate-only prints the unsigned tx; tx encode / decode round-trip it; helpful errors', async () => {
    const run = async (argv: string[]) => {
      const io = fakeIO();
      const code = await runClient(argv, STATIC, async () => chain, io);
      return { code, out: io.stdout, err: io.stderr };
    };
    const g = await run(['tx', 'bank', 'send', 'chain1qqqsyqcyq5rqwzqfpg9scrgwpugpzysnm3pmme', '10achain', '--from', addr, '--generate-only', '--fees', '5achain', '--memo', 'hi']);
    const tx = JSON.parse(g.out);
    expect(tx.body.messages).to.deep.equal([{ '@type': '/chain.bank.v1beta1.MsgSend', from_address: addr, to_address: 'chain1qqqsyqcyq5rqwzqfpg9scrgwpugpzysnm3pmme', amount: [{ denom: 'achain', amount: '10' }] }]);
    expect(tx.body.memo).to.equal('hi');
    expect(tx.auth_info.fee).to.deep.include({ amount: [{ denom: 'achain', amount: '5' }], gas_limit: '200000' });
    expect(tx.signatures).to.deep.equal([]);
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'chaind-tx-'));
    try {
      writeFileSync(join(dir, 'tx.json'), g.out);
      const b64 = (await run(['tx', 'encode', join(dir, 'tx.json')])).out.trim();
      expect(JSON.parse((await run(['tx', 'decode', b64])).out)).to.deep.equal(tx);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await expectReject(run(['tx', 'bank', 'send', 'x', '1achain']), /--from is required/);
    await expectReject(run(['tx', 'bank', 'send', 'x', '1achain', '--from', 'nokey', '--home', '/nonexistent-chaind-home']), /key "nokey" not found/);
    await expectReject(run(['tx', 'bank', 'sned']), /valid: send, multi-send/);
    await expectReject(run(['query', 'nomodule', 'x']), /unknown module "nomodule".*modules: auth, bank/);
    await expectReject(run(['query', 'bank', 'balance', addr, 'achain', '--denum', 'x']), /unknown flag --denum/);
    expect((await run(['query', 'bank', 'balance', '--help'])).out).to.include('Example:\n  chaind query bank balance chain1... achain');
    expect((await run(['query', 'bank'])).out).to.include('all-balances');
    expect((await run(['tx'])).out).to.include('Modules: bank,');
    // the node is not there: a clear error
    await expectReject(run(['query', 'bank', 'balance', addr, 'achain', '--node', 'tcp://127.0.0.1:1']), /cannot reach the node at http:\/\/127.0.0.1:1/);
  });
});

async function expectReject(p: Promise<unknown>, re: RegExp): Promise<void> {
  let err: unknown;
  try { await p; } catch (e) { err = e; }
  expect(err, `expected an error matching ${re}`).to.be.instanceOf(Error);
  expect((err as Error).message).to.match(re);
}
