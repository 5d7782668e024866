/**
 * Genesis export and import at the app level (`createChainApp` over a CommitStore, blocks driven through
 * the ABCI interface as the embedded engine drives them). A chain runs blocks with staking, distribution,
 * slashing, evidence, bank and evm activity (a created validator jailed for downtime, another tombstoned
 * for a double sign, delegations, a redelegation and unbondings in flight, a set withdraw address, rewards
 * withdrawn and accrued, a contract with storage), then `chaind export`'s code exports it. Our app hash
 * commits to the history (`sha256(0x02 || previous app hash || root of the block's changes)`), so an
 * imported chain cannot have the exporter's hash; what must hold instead:
 *   1. the state after InitChain from the export equals the exporter's state at the exported height, key by
 *      key, except the prefixes listed in LEGITIMATE_DIFFERENCES (each with its reason) and the order of the
 *      entries of one staking queue slot (QUEUES);
 *   2. exporting the imported chain right after InitChain gives a byte-identical app_state;
 *   3. two chains initialised from the same export have the same app hash at InitChain and after the same
 *      blocks, and they continue: the first block is initial_height, the unbondings in flight mature.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlockIdFlags } from '@chain/app';
import type { FinalizeBlockResponse, InitChainResponse, Misbehavior } from '@chain/app';
import { CommitStore } from '@chain/store';
import type { KVStore } from '@chain/store';
import { applyValidatorUpdates, validatorAddress } from '@chain/consensus';
import type { GenesisDoc, Validator } from '@chain/consensus';
import {
  DEV_MNEMONIC, derivePrivateKey, ed25519PublicKey, ethAddress, fromBase64, fromBech32, hdPath, keccak256, recoverSecp256k1, secp256k1Address,
  secp256k1PublicKey, sha256, signSecp256k1Digest, toBech32, toHex, utf8,
} from '@chain/crypto';
import { wrapEthereumTx } from '@chain/evm';
import { createChainApp } from '../src/app.js';
import type { ChainApp } from '../src/app.js';
import { initHome, readGenesis, readValidatorKey } from '../src/config/init.js';
import { exportFromStore, exportGenesisDoc, fileSink, openNodeStore, writeExportFromStore } from '../src/export.js';
import { Progress } from '@chain/app';
import { rlp, uintBytes } from '@chain/server';

const E18 = 10n ** 18n;
const DENOM = 'achain';
const BLOCK_MS = 5000;

interface Key { priv: Uint8Array; pub: Uint8Array; addr: Uint8Array; address: string; valoper: string }

function cosmosKey(i: number): Key {
  const priv = derivePrivateKey(DEV_MNEMONIC, hdPath(118, i));
  const pub = secp256k1PublicKey(priv);
  const addr = secp256k1Address(pub);
  return { priv, pub, addr, address: toBech32('chain', addr), valoper: toBech32('chainvaloper', addr) };
}

function ethKey(i: number): Key {
  const priv = derivePrivateKey(DEV_MNEMONIC, hdPath(60, i));
  const pub = secp256k1PublicKey(priv);
  const addr = ethAddress(pub);
  return { priv, pub, addr, address: toBech32('chain', addr), valoper: toBech32('chainvaloper', addr) };
}

const consSeed = (name: string): Uint8Array => sha256(utf8(`export test ${name}`));

/** A chain on a CommitStore, driven through the ABCI interface as the embedded engine does. */
class Chain {
  /** validator sets by height (updates returned at H take effect at H + 2) */
  private readonly sets = new Map<number, Validator[]>();
  private lastTime: Date | undefined;

  private constructor(readonly dir: string, readonly store: CommitStore, readonly c: ChainApp, readonly genesis: GenesisDoc, readonly proposer: Uint8Array) {}

  static async open(genesis: GenesisDoc, proposerPub: Uint8Array): Promise<Chain> {
    const dir = mkdtempSync(join(tmpdir(), 'chain-export-'));
    const store = await CommitStore.open(join(dir, 'db'));
    return new Chain(dir, store, createChainApp({ store, chainId: genesis.chain_id, minGasPrices: '' }), genesis, validatorAddress(proposerPub));
  }

  async close(): Promise<void> {
    await this.store.close().catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  get height(): number { return this.c.app.lastHeight; }

  initChain(): InitChainResponse {
    const g = this.genesis;
    const initial = Number(g.initial_height);
    const res = this.c.app.initChainSync({ time: new Date(g.genesis_time), chainId: g.chain_id, validators: [], appState: g.app_state, initialHeight: initial });
    const vals = applyValidatorUpdates([], res.validators);
    this.sets.set(initial, vals);
    this.sets.set(initial + 1, vals);
    return res;
  }

  /** FinalizeBlock + Commit of the next block: the proposer signed the last commit, every other validator is absent. */
  async block(txs: Uint8Array[] = [], o: { misbehavior?: Misbehavior[]; time?: Date } = {}): Promise<FinalizeBlockResponse> {
    const height = this.height === 0 ? Number(this.genesis.initial_height) : this.height + 1;
    const time = o.time ?? (this.lastTime ? new Date(this.lastTime.getTime() + BLOCK_MS) : new Date(this.genesis.genesis_time));
    const last = this.height === 0 ? [] : this.sets.get(height - 1)!;
    const votes = last.map((v) => ({
      validator: { address: v.address, power: BigInt(v.votingPower) },
      blockIdFlag: toHex(v.address) === toHex(this.proposer) ? BlockIdFlags.Commit : BlockIdFlags.Absent,
    }));
    const res = await this.c.app.finalizeBlock({
      txs, decidedLastCommit: { round: 0, votes }, misbehavior: o.misbehavior ?? [], hash: sha256(utf8(`block ${height}`)), height, time,
      nextValidatorsHash: new Uint8Array(32), proposerAddress: this.proposer,
    });
    for (const r of res.txResults) expect(r.code, r.log).to.equal(0);
    await this.c.app.commit();
    this.sets.set(height + 2, applyValidatorUpdates(this.sets.get(height + 1)!, res.validatorUpdates));
    this.lastTime = time;
    return res;
  }

  /** A SIGN_MODE_DIRECT tx of `key` (its committed account number and sequence) with `msgs`. */
  tx(key: Key, msgs: [string, Record<string, unknown>][]): Uint8Array {
    const r = this.c.registry;
    const acc = this.c.accountKeeper.getAccount(this.c.app.queryContext(), key.addr)!;
    const bodyBytes = r.encode('chain.tx.v1beta1.TxBody', { messages: msgs.map(([t, v]) => r.packAny(t, v)), memo: '' });
    const authInfoBytes = r.encode('chain.tx.v1beta1.AuthInfo', {
      signer_infos: [{
        public_key: r.packAny('chain.crypto.secp256k1.PubKey', { key: key.pub }, '/cosmos.crypto.secp256k1.PubKey'),
        mode_info: { single: { mode: 1 } }, sequence: acc.base.sequence,
      }],
      fee: { amount: [{ denom: DENOM, amount: String(3n * 10n ** 14n) }], gas_limit: 1_500_000n, payer: '', granter: '' },
    });
    const doc = r.encode('chain.tx.v1beta1.SignDoc', {
      body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, chain_id: this.genesis.chain_id, account_number: acc.base.account_number,
    });
    return r.encode('chain.tx.v1beta1.TxRaw', { body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, signatures: [signSecp256k1Digest(key.priv, sha256(doc))] });
  }

  /** A signed legacy (EIP-155, chain id 1337) Ethereum tx of `key`, wrapped as the JSON-RPC wraps it. */
  ethTx(key: Key, o: { to?: Uint8Array; data?: Uint8Array; value?: bigint; gas?: bigint }): Uint8Array {
    const nonce = this.c.accountKeeper.getAccount(this.c.app.queryContext(), key.addr)?.base.sequence ?? 0n;
    const fields = [uintBytes(nonce), uintBytes(100n * 10n ** 9n), uintBytes(o.gas ?? 300_000n), o.to ?? new Uint8Array(), uintBytes(o.value ?? 0n), o.data ?? new Uint8Array()];
    const digest = keccak256(rlp([...fields, uintBytes(1337n), new Uint8Array(), new Uint8Array()]));
    const sig = signSecp256k1Digest(key.priv, digest);
    const recid = [0, 1].find((i) => toHex(ethAddress(recoverSecp256k1(sig, i, digest))) === toHex(key.addr))!;
    const raw = rlp([...fields, uintBytes(1337n * 2n + 35n + BigInt(recid)), uintBytes(BigInt('0x' + toHex(sig.subarray(0, 32)))), uintBytes(BigInt('0x' + toHex(sig.subarray(32))))]);
    return wrapEthereumTx(this.c.registry, raw, { chainId: 1337n, prefix: 'chain' }).tx;
  }

  /** Every key/value of the committed state (hex), or of `kv`. */
  dump(kv: KVStore = this.store.state): Map<string, string> {
    const out = new Map<string, string>();
    for (const [k, v] of kv.iterator()) out.set(toHex(k), toHex(v));
    return out;
  }

  balance(address: string): bigint {
    return this.c.bankKeeper.getBalance(this.c.app.queryContext(), fromBech32(address).data, DENOM);
  }
}

/** `<store>/` and the collection prefix byte of a state key (hex), e.g. `staking/0x50`. */
function prefixOf(hexKey: string): string {
  const key = Buffer.from(hexKey, 'hex');
  const slash = key.indexOf(0x2f);
  return `${key.subarray(0, slash).toString()}/0x${key.subarray(slash + 1, slash + 2).toString('hex')}`;
}

/**
 * Keys the import legitimately does not reproduce, with why. The SDK's TestAppImportExport skips staking's
 * queues and historical info and bank's balances; here the balances are reproduced byte for byte and the
 * queues up to the order inside one completion time (QUEUES), so only these two remain:
 */
const LEGITIMATE_DIFFERENCES: Record<string, string> = {
  // x/staking HistoricalInfoKey: the header and validator set of each of the last `historical_entries`
  // heights, for IBC light clients; describe the exporting chain's own blocks, not part of the SDK's genesis
  'staking/0x50': 'historical info of the exporter\'s blocks (not in the staking GenesisState, as the SDK)',
  // the EVM's BLOCKHASH ring (EIP-2935 style): the hashes of the exporter's blocks; the imported chain has
  // its own blocks from initial_height on (Ethermint, too, reads them from historical info, which is not exported)
  'evm/0x06': 'block hashes of the exporter\'s last 8191 blocks (BLOCKHASH), not in the evm GenesisState',
};

/**
 * Staking's queues (unbonding 0x41, redelegation 0x42, validator 0x43): one entry per completion time
 * holding a list. The exporter appended to a list in the order things happened; InitGenesis appends in the
 * genesis order (store order: by delegator, by validator), as the SDK's ("ordering may change but it
 * doesn't matter", TestAppImportExport). Same keys, same members: compared as sorted lists.
 */
const QUEUES: Record<string, { type: string; field: string }> = {
  'staking/0x41': { type: 'chain.staking.v1beta1.DVPairs', field: 'pairs' },
  'staking/0x42': { type: 'chain.staking.v1beta1.DVVTriplets', field: 'triplets' },
  'staking/0x43': { type: 'chain.staking.v1beta1.ValAddresses', field: 'addresses' },
};

type Diff = { onlyA: number; onlyB: number; changed: number; reordered: number };

function diffStates(c: ChainApp, a: Map<string, string>, b: Map<string, string>): Map<string, Diff> {
  const out = new Map<string, Diff>();
  const bump = (k: string, f: keyof Diff): void => {
    const p = prefixOf(k);
    const e = out.get(p) ?? { onlyA: 0, onlyB: 0, changed: 0, reordered: 0 };
    e[f]++;
    out.set(p, e);
  };
  const members = (q: { type: string; field: string }, hex: string): string[] =>
    ((c.registry.decode(q.type, Buffer.from(hex, 'hex')) as Record<string, unknown[]>)[q.field] ?? []).map((m) => JSON.stringify(m)).sort();
  for (const [k, v] of a) {
    if (!b.has(k)) bump(k, 'onlyA');
    else if (b.get(k) !== v) {
      const q = QUEUES[prefixOf(k)];
      bump(k, q && JSON.stringify(members(q, v)) === JSON.stringify(members(q, b.get(k)!)) ? 'reordered' : 'changed');
    }
  }
  for (const k of b.keys()) if (!a.has(k)) bump(k, 'onlyB');
  return out;
}

describe('genesis export and import (app level)', function () {
  this.timeout(120_000);
  let home: string;
  let genesis: GenesisDoc;
  let valPub: Uint8Array;
  let orig: Chain;
  const opened: Chain[] = [];
  let doc: GenesisDoc;
  let exportedAt: number;
  let midExport: { height: number; appState: Record<string, unknown> };

  // actors: cosmos dev keys (account numbers 10..19), eth dev key 1 for the contract
  const k1 = cosmosKey(1); // creates validator V2 (never signs: jailed for downtime)
  const k2 = cosmosKey(2); // delegates to V1, redelegates V1 → V2, undelegates (in flight)
  const k3 = cosmosKey(3); // delegates to V2, undelegates from the jailed V2
  const k4 = cosmosKey(4); // sets a withdraw address, delegates, withdraws rewards
  const k5 = cosmosKey(5); // sends
  const k7 = cosmosKey(7); // creates validator V3 (double-signs: tombstoned)
  const e1 = ethKey(1); // deploys a contract
  const v2Cons = ed25519PublicKey(consSeed('v2'));
  const v3Cons = ed25519PublicKey(consSeed('v3'));
  let v1: string;

  const createValidator = (k: Key, consPub: Uint8Array, moniker: string, amount: bigint): [string, Record<string, unknown>] => ['chain.staking.v1beta1.MsgCreateValidator', {
    description: { moniker, identity: '', website: '', security_contact: '', details: '' },
    commission: { rate: (10n ** 17n).toString(), max_rate: (2n * 10n ** 17n).toString(), max_change_rate: (10n ** 16n).toString() },
    min_self_delegation: '1', delegator_address: k.address, validator_address: k.valoper,
    pubkey: orig.c.registry.packAny('chain.crypto.ed25519.PubKey', { key: consPub }, '/cosmos.crypto.ed25519.PubKey'),
    value: { denom: DENOM, amount: (amount * E18).toString() },
  }];
  const coin = (n: bigint) => ({ denom: DENOM, amount: (n * E18).toString() });

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'chain-export-home-'));
    initHome({ home, dev: true });
    genesis = readGenesis(home);
    // unbondings and redelegations stay in flight across the export (the dev 20 s would mature in 4 blocks)
    (genesis.app_state.staking as { params: { unbonding_time: string } }).params.unbonding_time = '3600s';
    valPub = fromBase64(readValidatorKey(home).pub_key.value);
    orig = await Chain.open(genesis, valPub);
    opened.push(orig);
    orig.initChain();
    await orig.block();
    v1 = (orig.c.app.exportGenesis().staking as { validators: { operator_address: string }[] }).validators[0]!.operator_address;

    await orig.block([
      orig.tx(k1, [createValidator(k1, v2Cons, 'v2', 10n)]),
      orig.tx(k7, [createValidator(k7, v3Cons, 'v3', 20n)]),
      orig.tx(k5, [['chain.bank.v1beta1.MsgSend', { from_address: k5.address, to_address: cosmosKey(6).address, amount: [coin(7n)] }]]),
    ]);
    await orig.block([
      orig.tx(k2, [['chain.staking.v1beta1.MsgDelegate', { delegator_address: k2.address, validator_address: v1, amount: coin(50n) }]]),
      orig.tx(k3, [['chain.staking.v1beta1.MsgDelegate', { delegator_address: k3.address, validator_address: k1.valoper, amount: coin(4n) }]]),
      orig.tx(k4, [
        ['chain.distribution.v1beta1.MsgSetWithdrawAddress', { delegator_address: k4.address, withdraw_address: cosmosKey(8).address }],
        ['chain.staking.v1beta1.MsgDelegate', { delegator_address: k4.address, validator_address: v1, amount: coin(30n) }],
      ]),
    ]);
    // the contract: constructor stores 42 at slot 0 and 7 at slot 5, runtime returns 42
    const initcode = Buffer.from('602a600055' + '6007600555' + '69602a60005260206000f3' + '600052' + '600a6016f3', 'hex');
    await orig.block([orig.ethTx(e1, { data: initcode })]);
    for (let i = 0; i < 3; i++) await orig.block();
    // k2 and k4 undelegate in one block (one completion time, one unbonding queue entry with two pairs), in
    // the opposite order of their addresses: InitGenesis re-queues them in the store's (address) order
    const undelegations = [
      orig.tx(k2, [
        ['chain.staking.v1beta1.MsgBeginRedelegate', { delegator_address: k2.address, validator_src_address: v1, validator_dst_address: k1.valoper, amount: coin(5n) }],
        ['chain.staking.v1beta1.MsgUndelegate', { delegator_address: k2.address, validator_address: v1, amount: coin(3n) }],
      ]),
      orig.tx(k4, [
        ['chain.distribution.v1beta1.MsgWithdrawDelegatorReward', { delegator_address: k4.address, validator_address: v1 }],
        ['chain.staking.v1beta1.MsgUndelegate', { delegator_address: k4.address, validator_address: v1, amount: coin(1n) }],
      ]),
    ];
    await orig.block(Buffer.compare(Buffer.from(k2.addr), Buffer.from(k4.addr)) < 0 ? undelegations.reverse() : undelegations);
    // V3 double-signs at the last height: slashed 5 %, jailed, tombstoned; the Equivocation is stored
    const v3Power = (await orig.c.app.exportGenesisAt(orig.height)).staking as { last_validator_powers: { address: string; power: string }[] };
    const power = BigInt(v3Power.last_validator_powers.find((p) => p.address === k7.valoper)!.power);
    await orig.block([], { misbehavior: [{ type: 1, validator: { address: validatorAddress(v3Cons), power }, height: orig.height, time: new Date(Date.parse(genesis.genesis_time) + orig.height * BLOCK_MS), totalVotingPower: 1030n + power }] });
    // V2 never signs: after the signing window it is jailed for downtime (1 % slashed); then k3 undelegates from it
    for (let i = 0; i < 25; i++) await orig.block();
    midExport = { height: orig.height, appState: orig.c.app.exportGenesis() };
    await orig.block([orig.tx(k3, [['chain.staking.v1beta1.MsgUndelegate', { delegator_address: k3.address, validator_address: k1.valoper, amount: coin(1n) }]])]);
    for (let i = 0; i < 2; i++) await orig.block();

    exportedAt = orig.height;
    doc = await exportFromStore(orig.store, genesis);
  });

  after(async () => {
    for (const c of opened) await c.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('the exported chain has the activity this test is about', () => {
    const s = doc.app_state as any;
    const byOp = new Map<string, any>(s.staking.validators.map((v: any) => [v.operator_address, v]));
    expect(byOp.get(v1)).to.deep.include({ status: 'BOND_STATUS_BONDED', jailed: false });
    expect(byOp.get(k1.valoper)).to.deep.include({ status: 'BOND_STATUS_UNBONDING', jailed: true });
    expect(byOp.get(k7.valoper)).to.deep.include({ status: 'BOND_STATUS_UNBONDING', jailed: true });
    expect(s.slashing.signing_infos.find((i: any) => i.address === toBech32('chainvalcons', validatorAddress(v3Cons))).validator_signing_info.tombstoned).to.equal(true);
    expect(s.staking.unbonding_delegations.map((u: any) => [u.delegator_address, u.validator_address])).to.have.deep.members([[k2.address, v1], [k4.address, v1], [k3.address, k1.valoper]]);
    expect(s.staking.redelegations.map((r: any) => [r.delegator_address, r.validator_src_address, r.validator_dst_address])).to.deep.equal([[k2.address, v1, k1.valoper]]);
    expect(s.staking.exported).to.equal(true);
    expect(s.staking.last_validator_powers.map((p: any) => p.address)).to.deep.equal([v1]);
    expect(s.distribution.validator_slash_events.map((e: any) => e.validator_address)).to.have.members([k1.valoper, k7.valoper]);
    expect(s.distribution.delegator_withdraw_infos).to.deep.equal([{ delegator_address: k4.address, withdraw_address: cosmosKey(8).address }]);
    expect(s.distribution.outstanding_rewards.length).to.equal(3);
    expect(s.slashing.missed_blocks.some((m: any) => m.missed_blocks.some((b: any) => b.missed))).to.equal(true);
    expect(s.evidence.evidence).to.have.length(1);
    const contract = s.evm.accounts.find((a: any) => a.code === '0x602a60005260206000f3');
    expect(contract.storage).to.have.length(2);
    expect(s.auth.accounts.find((a: any) => (a.address ?? a.base_account?.address) === k2.address).sequence).to.equal('2');
    expect(Number(s.mint.minter.annual_provisions)).to.be.greaterThan(0);
  });

  it('the document: initial_height = height + 1, the bonded set as validators, the chain id, genesis time and consensus params', () => {
    expect(doc.initial_height).to.equal(String(exportedAt + 1));
    expect(doc.chain_id).to.equal(genesis.chain_id);
    expect(doc.genesis_time).to.equal(genesis.genesis_time);
    expect(doc.consensus_params).to.deep.equal(genesis.consensus_params);
    expect(doc.app_hash).to.equal('');
    const key = readValidatorKey(home);
    // V1 alone: V2 and V3 are jailed. Its power grew with the delegations (1000 + 50 + 30 - 5 - 3 - 1 chain)
    expect(doc.validators).to.deep.equal([{ address: key.address, pub_key: key.pub_key, power: String(1000 + 50 + 30 - 5 - 3 - 1), name: 'node0' }]);
    expect(Object.keys(doc.app_state)).to.deep.equal(Object.keys(orig.c.app.exportGenesis()));
  });

  it('exports an earlier height from the history (--height), as exported then', async () => {
    const past = await exportFromStore(orig.store, genesis, midExport.height);
    expect(past.initial_height).to.equal(String(midExport.height + 1));
    expect(JSON.stringify(past.app_state)).to.equal(JSON.stringify(midExport.appState));
    for (const h of [0, exportedAt + 1, 1.5]) {
      const err = await exportFromStore(orig.store, genesis, h).catch((e: unknown) => e as Error);
      expect(err).to.be.instanceOf(Error);
      expect((err as Error).message).to.equal(`cannot export height ${h}: the store holds heights 1 to ${exportedAt}`);
    }
  });

  it('the streamed export (chaind export) writes exactly JSON.stringify(doc, null, 2) + newline, in pieces, a progress display per large field', async () => {
    // the lazy document assembles to what every module's whole ExportGenesis gives
    expect(JSON.stringify(doc.app_state)).to.equal(JSON.stringify(await orig.c.app.exportGenesisAt(exportedAt)));
    const pieces: string[] = [];
    const shown: string[] = [];
    const progress = (label: string, total?: number): Progress => { shown.push(`${label} ${total}`); return new Progress({ label, total, silent: true }); };
    const r = await writeExportFromStore(orig.store, genesis, (s) => { pieces.push(s); }, { progress });
    expect(pieces.join('')).to.equal(JSON.stringify(doc, null, 2) + '\n');
    const s = doc.app_state as { auth: { accounts: unknown[] }; bank: { balances: unknown[] } };
    expect(r).to.deep.equal({ height: exportedAt, chainId: genesis.chain_id, entries: s.auth.accounts.length + s.bank.balances.length });
    expect(shown).to.deep.equal(['export auth.accounts undefined', `export bank.balances ${s.bank.balances.length}`]);
    // an earlier height, to a file (written through a temporary file renamed at the end)
    const dir = mkdtempSync(join(tmpdir(), 'chain-export-file-'));
    try {
      const file = fileSink(join(dir, 'out.json'));
      await writeExportFromStore(orig.store, genesis, file.sink, { height: midExport.height });
      file.commit();
      const past = await exportFromStore(orig.store, genesis, midExport.height);
      expect(readFileSync(join(dir, 'out.json'), 'utf8')).to.equal(JSON.stringify(past, null, 2) + '\n');
      const failed = fileSink(join(dir, 'failed.json'));
      failed.sink('{');
      failed.abort();
      expect(readdirSync(dir)).to.deep.equal(['out.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to export while the node holds the database (a running node), with a clear error', async () => {
    const dataDir = join(home, 'data');
    const store = await CommitStore.open(join(dataDir, 'chain.db'));
    try {
      const err = await exportGenesisDoc({ home }).catch((e: unknown) => e as Error);
      expect((err as Error).message).to.equal(`the database ${join(dataDir, 'chain.db')} is locked by a running node: stop the node (chaind start / chaind dev --home ${home}) before exporting`);
      const locked = await openNodeStore(home).catch((e: unknown) => e as Error);
      expect(locked).to.be.instanceOf(Error);
    } finally {
      await store.close();
    }
    // a home without blocks has nothing to export
    const empty = await exportGenesisDoc({ home }).catch((e: unknown) => e as Error);
    expect((empty as Error).message).to.equal('the chain has no blocks yet: nothing to export');
  });

  it('1. InitChain from the export reproduces the exporter\'s state key by key (but the listed prefixes)', async () => {
    const imp = await Chain.open(doc, valPub);
    opened.push(imp);
    const res = imp.initChain();
    // staking exported=true: the last validator powers are the initial set
    expect(res.validators.map((v) => [toHex(v.pubKey.key), v.power])).to.deep.equal([[toHex(valPub), BigInt(doc.validators[0]!.power)]]);
    const before = orig.dump();
    const after = imp.dump(imp.c.app.pendingGenesisState()!);
    const report = Object.fromEntries(diffStates(imp.c, before, after));
    // the unbonding queue entry of k2's and k4's undelegations (one completion time) lists them in the other order
    expect(report['staking/0x41'], JSON.stringify(report)).to.deep.equal({ onlyA: 0, onlyB: 0, changed: 0, reordered: 1 });
    delete report['staking/0x41'];
    // else only the legitimate prefixes differ, and only by keys missing from the import
    expect(Object.keys(report).sort(), JSON.stringify(report)).to.deep.equal(Object.keys(LEGITIMATE_DIFFERENCES).sort());
    for (const p of Object.keys(LEGITIMATE_DIFFERENCES)) {
      expect(report[p], p).to.deep.include({ onlyB: 0, changed: 0, reordered: 0 });
      expect(report[p]!.onlyA, p).to.be.greaterThan(0);
    }
    // the import did write everything else: as many keys as the exporter, less those prefixes
    const skipped = [...before.keys()].filter((k) => prefixOf(k) in LEGITIMATE_DIFFERENCES).length;
    expect(after.size).to.equal(before.size - skipped);
  });

  it('2. exporting the imported chain right after InitChain gives a byte-identical app_state', async () => {
    const imp = opened[1]!;
    expect(JSON.stringify(imp.c.app.exportGenesis())).to.equal(JSON.stringify(doc.app_state));
  });

  it('3. two chains from the same export: the same app hash at InitChain and after the same blocks; the first block is initial_height', async () => {
    const a = opened[1]!;
    const b = await Chain.open(doc, valPub);
    opened.push(b);
    const resB = b.initChain();
    expect(toHex(resB.appHash)).to.equal(toHex(a.c.app.lastAppHash));
    const initial = exportedAt + 1;
    const txsFor = (c: Chain, i: number): Uint8Array[] => (i === 1
      ? [c.tx(k5, [['chain.bank.v1beta1.MsgSend', { from_address: k5.address, to_address: cosmosKey(9).address, amount: [coin(1n)] }]])]
      : i === 2 ? [c.tx(k4, [['chain.staking.v1beta1.MsgDelegate', { delegator_address: k4.address, validator_address: v1, amount: coin(2n) }]])] : []);
    for (let i = 0; i < 5; i++) {
      const ra = await a.block(txsFor(a, i));
      const rb = await b.block(txsFor(b, i));
      expect(a.height).to.equal(initial + i);
      expect(b.height).to.equal(initial + i);
      expect(toHex(ra.appHash), `app hash at ${initial + i}`).to.equal(toHex(rb.appHash));
      expect(toHex(a.c.app.lastAppHash)).to.equal(toHex(ra.appHash));
    }
    expect(a.store.firstHeight).to.equal(initial);
    expect(toHex(a.c.app.lastAppHash)).to.not.equal(toHex(orig.c.app.lastAppHash));
  });

  it('the imported chain continues: the unbondings and the redelegation in flight mature at their completion time', async () => {
    const a = opened[1]!;
    const s = doc.app_state as any;
    // the latest completion: the unbonding delegations, the redelegation, the jailed validators' unbonding
    const times = [
      ...s.staking.unbonding_delegations.flatMap((u: any) => u.entries.map((e: any) => e.completion_time)),
      ...s.staking.redelegations.flatMap((r: any) => r.entries.map((e: any) => e.completion_time)),
      ...s.staking.validators.filter((v: any) => v.status === 'BOND_STATUS_UNBONDING').map((v: any) => v.unbonding_time),
    ].map((t: string) => Date.parse(t));
    expect(times).to.have.length(6);
    const [before2, before3, before4] = [a.balance(k2.address), a.balance(k3.address), a.balance(k4.address)];
    const res = await a.block([], { time: new Date(Math.max(...times) + 1000) });
    expect(res.events.filter((e) => e.type === 'complete_unbonding').length).to.equal(3);
    expect(res.events.filter((e) => e.type === 'complete_redelegation').length).to.equal(1);
    expect(a.balance(k2.address) - before2).to.equal(3n * E18);
    expect(a.balance(k4.address) - before4).to.equal(E18);
    // k3's 1 chain (tokens, undelegated from V2 after its downtime slash)
    expect(a.balance(k3.address) - before3).to.equal(E18);
    const after = a.c.app.exportGenesis().staking as any;
    expect(after.redelegations).to.deep.equal([]);
    expect(after.unbonding_delegations).to.deep.equal([]);
    // the jailed validators' unbonding ended too
    const statuses = new Map<string, string>(after.validators.map((v: any) => [v.operator_address, v.status]));
    expect(statuses.get(k1.valoper)).to.equal('BOND_STATUS_UNBONDED');
    expect(statuses.get(k7.valoper)).to.equal('BOND_STATUS_UNBONDED');
    expect(statuses.get(v1)).to.equal('BOND_STATUS_BONDED');
  });
});
