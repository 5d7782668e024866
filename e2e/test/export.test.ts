/**
 * `chaind export` end to end: a `chaind dev` node gets txs through cosmjs (a bank send, a validator created
 * by a tx and jailed for downtime, a delegation, a withdraw address, then an undelegation and a redelegation
 * left in flight); `chaind export` refuses while it runs, then exports it once stopped; a new home (the same
 * validator key, the export as genesis.json, an empty data folder) starts and produces blocks from
 * initial_height = the exported height + 1, and its REST routes answer the same balances, validators,
 * delegations, unbonding entries, redelegations, accounts and signing infos; the entries in flight mature
 * there, and cosmjs keeps sending txs with the accounts' next sequences.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SigningStargateClient, GasPrice } from '@cosmjs/stargate';
import type { DeliverTxResponse } from '@cosmjs/stargate';
import { PubKey } from 'cosmjs-types/cosmos/crypto/ed25519/keys';
import { ed25519PublicKey, fromBech32, sha256, toBech32, utf8 } from '@chain/crypto';
import { startNode } from '../src/node-process.js';
import { waitHeight } from '../src/localnet.js';
import type { NodeHandle } from '../src/node-process.js';
import { devWallet, getJson, DENOM } from '../src/clients.js';

const MAIN = new URL('../../apps/node/src/main.ts', import.meta.url).pathname;
const ROOT = new URL('../..', import.meta.url).pathname;
const E18 = 10n ** 18n;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs a `chaind` command to its end: exit code, stdout, stderr. */
function chaind(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
    p.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
    p.once('error', reject);
    p.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('e2e: chaind export, and a chain started from the export', function () {
  this.timeout(300_000);
  let node: NodeHandle;
  let imported: NodeHandle | undefined;
  let client: SigningStargateClient;
  let operator: string;
  let valoper: string;
  let genesisValoper: string;
  let recipient: string;
  let withdrawTo: string;
  let exportFile: string;
  let doc: any;
  let exportedHeight: number;
  /** the REST answers of the original node after its last block */
  const seen = new Map<string, unknown>();
  const consPub = ed25519PublicKey(sha256(utf8('e2e export validator')));
  const consAddr = toBech32('chainvalcons', sha256(consPub).subarray(0, 20));
  const GAS = 2;

  const restOf = (n: NodeHandle) => async (path: string): Promise<any> => {
    const r = await getJson(`${n.restUrl}${path}`);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).to.equal(200);
    return r.body;
  };
  const ok = (r: DeliverTxResponse): DeliverTxResponse => {
    expect(r.code, r.rawLog).to.equal(0);
    return r;
  };
  const send = async (typeUrl: string, value: unknown): Promise<DeliverTxResponse> => ok(await client.signAndBroadcast(operator, [{ typeUrl, value }], GAS));
  /** the routes compared between the two nodes */
  const routes = (): string[] => [
    `/cosmos/bank/v1beta1/balances/${recipient}`,
    `/cosmos/bank/v1beta1/balances/${withdrawTo}`,
    '/cosmos/staking/v1beta1/validators',
    `/cosmos/staking/v1beta1/validators/${valoper}`,
    `/cosmos/staking/v1beta1/delegations/${operator}`,
    `/cosmos/staking/v1beta1/validators/${genesisValoper}/delegations`,
    `/cosmos/staking/v1beta1/validators/${valoper}/delegations`,
    `/cosmos/distribution/v1beta1/delegators/${operator}/withdraw_address`,
    `/cosmos/distribution/v1beta1/validators/${valoper}/slashes?starting_height=1&ending_height=1000000`,
    `/cosmos/slashing/v1beta1/signing_infos/${consAddr}`,
    `/cosmos/auth/v1beta1/accounts/${operator}`,
    '/cosmos/staking/v1beta1/params',
    '/cosmos/slashing/v1beta1/params',
    '/cosmos/distribution/v1beta1/params',
    '/cosmos/mint/v1beta1/params',
    '/cosmos/bank/v1beta1/denoms_metadata',
  ];

  before(async () => {
    node = await startNode();
    const wallet = await devWallet(6);
    operator = (await wallet.getAccounts())[0]!.address;
    valoper = toBech32('chainvaloper', fromBech32(operator).data);
    recipient = (await (await devWallet(8)).getAccounts())[0]!.address;
    withdrawTo = (await (await devWallet(7)).getAccounts())[0]!.address;
    client = await SigningStargateClient.connectWithSigner(node.rpcUrl, wallet, { gasPrice: GasPrice.fromString(`1000000000${DENOM}`) });
    genesisValoper = (await restOf(node)('/cosmos/staking/v1beta1/validators')).validators[0].operator_address;
  });

  after(async () => {
    client?.disconnect();
    await node?.stop();
    await imported?.stop();
    node?.cleanup();
    imported?.cleanup();
    if (exportFile) rmSync(join(exportFile, '..'), { recursive: true, force: true });
  });

  it('runs txs on a dev node: a send, a validator jailed for downtime, a delegation, then an undelegation and a redelegation in flight', async () => {
    const rest = restOf(node);
    ok(await client.sendTokens(operator, recipient, [{ denom: DENOM, amount: (7n * E18).toString() }], GAS));
    await send('/cosmos.staking.v1beta1.MsgCreateValidator', {
      description: { moniker: 'exported', identity: '', website: '', securityContact: '', details: '' },
      commission: { rate: '100000000000000000', maxRate: '200000000000000000', maxChangeRate: '10000000000000000' },
      minSelfDelegation: '1', delegatorAddress: operator, validatorAddress: valoper,
      pubkey: { typeUrl: '/cosmos.crypto.ed25519.PubKey', value: PubKey.encode({ key: consPub }).finish() },
      value: { denom: DENOM, amount: (10n * E18).toString() },
    });
    ok(await client.delegateTokens(operator, genesisValoper, { denom: DENOM, amount: (5n * E18).toString() }, GAS));
    await send('/cosmos.distribution.v1beta1.MsgSetWithdrawAddress', { delegatorAddress: operator, withdrawAddress: withdrawTo });
    // the new validator never signs: jailed for downtime after the 20-block window, then unbonded after 20 s
    let v: any;
    for (let i = 0; i < 240; i++) {
      v = (await rest(`/cosmos/staking/v1beta1/validators/${valoper}`)).validator;
      if (v.jailed && v.status === 'BOND_STATUS_UNBONDED') break;
      await sleep(250);
    }
    expect([v.jailed, v.status]).to.deep.equal([true, 'BOND_STATUS_UNBONDED']);
    // left in flight at the export (20 s unbonding time)
    ok(await client.undelegateTokens(operator, genesisValoper, { denom: DENOM, amount: E18.toString() }, GAS));
    await send('/cosmos.staking.v1beta1.MsgBeginRedelegate', {
      delegatorAddress: operator, validatorSrcAddress: genesisValoper, validatorDstAddress: valoper, amount: { denom: DENOM, amount: E18.toString() },
    });
  });

  it('chaind export refuses while the node runs, with a clear error', async () => {
    const r = await chaind(['export', '--home', node.home]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`is locked by a running node: stop the node (chaind start / chaind dev --home ${node.home}) before exporting`);
    expect(r.stdout).to.equal('');
  });

  it('exports the stopped node: initial_height = last height + 1, the bonded set, the state in flight', async () => {
    // what the compared routes answer after the last tx (empty blocks do not change them), then stop
    const rest = restOf(node);
    for (const path of routes()) seen.set(path, await rest(path));
    seen.set('operator balance', await rest(`/cosmos/bank/v1beta1/balances/${operator}/by_denom?denom=${DENOM}`));
    seen.set('unbonding', await rest(`/cosmos/staking/v1beta1/delegators/${operator}/unbonding_delegations`));
    seen.set('redelegations', await rest(`/cosmos/staking/v1beta1/delegators/${operator}/redelegations`));
    client.disconnect();
    await node.stop();
    const r = await chaind(['export', '--home', node.home]);
    expect(r.code, r.stderr).to.equal(0);
    doc = JSON.parse(r.stdout);
    exportFile = join(mkdtempSync(join(tmpdir(), 'chaind-export-')), 'exported.json');
    const w = await chaind(['export', '--home', node.home, '--output-document', exportFile]);
    expect(w.code, w.stderr).to.equal(0);
    expect(JSON.parse(readFileSync(exportFile, 'utf8'))).to.deep.equal(doc);
    exportedHeight = Number(doc.initial_height) - 1;
    expect(exportedHeight).to.be.greaterThan(20);
    expect(doc.chain_id).to.equal('chain_1337-1');
    const key = JSON.parse(readFileSync(join(node.home, 'config', 'priv_validator_key.json'), 'utf8'));
    expect(doc.validators.map((x: any) => [x.address, x.pub_key.value])).to.deep.equal([[key.address, key.pub_key.value]]);
    const s = doc.app_state;
    expect(s.staking.exported).to.equal(true);
    expect(s.staking.unbonding_delegations.map((u: any) => u.delegator_address)).to.deep.equal([operator]);
    expect(s.staking.redelegations.map((x: any) => [x.validator_src_address, x.validator_dst_address])).to.deep.equal([[genesisValoper, valoper]]);
    // a past height (the store keeps the history), a height beyond the last, the unsupported zero-height form
    const past = await chaind(['export', '--home', node.home, '--height', String(exportedHeight - 5)]);
    expect(past.code, past.stderr).to.equal(0);
    expect(JSON.parse(past.stdout).initial_height).to.equal(String(exportedHeight - 4));
    const bad = await chaind(['export', '--home', node.home, '--height', String(exportedHeight + 1)]);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.contain(`cannot export height ${exportedHeight + 1}: the store holds heights 1 to ${exportedHeight}`);
    const zero = await chaind(['export', '--home', node.home, '--for-zero-height']);
    expect(zero.code).to.equal(1);
    expect(zero.stderr).to.contain('not supported');
  });

  it('a new home started from the export produces blocks from initial_height, with the same balances, validators and delegations', async () => {
    // the same validator key and node config, the export as genesis.json, a fresh data folder
    const home2 = mkdtempSync(join(tmpdir(), 'chaind-imported-'));
    mkdirSync(join(home2, 'config'), { recursive: true });
    for (const f of ['app.toml', 'config.toml', 'priv_validator_key.json', 'node_key.json']) copyFileSync(join(node.home, 'config', f), join(home2, 'config', f));
    copyFileSync(exportFile, join(home2, 'config', 'genesis.json'));
    imported = await startNode({ home: home2 });
    const rest = restOf(imported);
    // the node answers before its first block (as CometBFT does): wait for it
    await waitHeight({ rpc: imported.rpcUrl }, exportedHeight + 1);
    const status = (await getJson(`${imported.rpcUrl}/status`)).body.result.sync_info;
    expect(status.earliest_block_height).to.equal(String(exportedHeight + 1));
    expect(Number(status.latest_block_height)).to.be.at.least(exportedHeight + 1);
    const first = (await getJson(`${imported.rpcUrl}/block?height=${exportedHeight + 1}`)).body.result.block.header;
    expect(first.height).to.equal(String(exportedHeight + 1));
    expect(first.last_block_id.hash).to.equal('');
    expect((await getJson(`${imported.rpcUrl}/block?height=${exportedHeight}`)).body.error).to.not.equal(undefined);
    const vals = (await getJson(`${imported.rpcUrl}/validators?height=${exportedHeight + 1}`)).body.result.validators;
    expect(vals.map((x: any) => [x.address, x.voting_power])).to.deep.equal(doc.validators.map((x: any) => [x.address, x.power]));
    for (const path of routes()) expect(await rest(path), path).to.deep.equal(seen.get(path));
    // in flight at the export (unless their 20 s ran out meanwhile): the same entries
    const inFlight = (seen.get('unbonding') as any).unbonding_responses;
    if (Date.parse(inFlight[0].entries[0].completion_time) > Date.now() + 2000) {
      expect(await rest(`/cosmos/staking/v1beta1/delegators/${operator}/unbonding_delegations`)).to.deep.equal(seen.get('unbonding'));
      expect(await rest(`/cosmos/staking/v1beta1/delegators/${operator}/redelegations`)).to.deep.equal(seen.get('redelegations'));
    }
    // blocks keep coming
    const h = Number(status.latest_block_height);
    for (let i = 0; i < 50 && Number((await getJson(`${imported.rpcUrl}/status`)).body.result.sync_info.latest_block_height) < h + 3; i++) await sleep(100);
    expect(Number((await getJson(`${imported.rpcUrl}/status`)).body.result.sync_info.latest_block_height)).to.be.at.least(h + 3);
  });

  it('on the new chain the undelegation matures (the tokens return) and cosmjs sends with the next sequence', async () => {
    const rest = restOf(imported!);
    const completion = Math.max(
      Date.parse((seen.get('unbonding') as any).unbonding_responses[0].entries[0].completion_time),
      Date.parse((seen.get('redelegations') as any).redelegation_responses[0].entries[0].redelegation_entry.completion_time),
    );
    await sleep(Math.max(0, completion - Date.now()) + 1000);
    const pending = async (): Promise<number> => (await rest(`/cosmos/staking/v1beta1/delegators/${operator}/unbonding_delegations`)).unbonding_responses.length
      + (await rest(`/cosmos/staking/v1beta1/delegators/${operator}/redelegations`)).redelegation_responses.length;
    for (let i = 0; i < 40 && (await pending()) > 0; i++) await sleep(250);
    expect(await pending()).to.equal(0);
    const b0 = BigInt((seen.get('operator balance') as any).balance.amount);
    const b1 = BigInt((await rest(`/cosmos/bank/v1beta1/balances/${operator}/by_denom?denom=${DENOM}`)).balance.amount);
    expect(b1 - b0).to.equal(E18);
    const account = (seen.get(`/cosmos/auth/v1beta1/accounts/${operator}`) as any).account;
    client = await SigningStargateClient.connectWithSigner(imported!.rpcUrl, await devWallet(6), { gasPrice: GasPrice.fromString(`1000000000${DENOM}`) });
    ok(await client.sendTokens(operator, recipient, [{ denom: DENOM, amount: '1' }], GAS));
    const after = (await rest(`/cosmos/auth/v1beta1/accounts/${operator}`)).account;
    expect([after.account_number, after.sequence]).to.deep.equal([account.account_number, String(BigInt(account.sequence) + 1n)]);
  });
});
