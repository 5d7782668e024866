/**
 * A toy app for the runner's tests, on @chain/app and the packages below it only: module `toy` keeps
 * accounts with sequences (store `acc`, written by a real signature-checking ante handler), token balances
 * (store `tok`, MsgTransfer) and a validator set (MsgSetPower, returned from EndBlock). Its simulation
 * module: transfers (valid, and too large), power changes (valid, and removing an unknown key), the
 * total-supply invariant. Knobs make it misbehave on purpose: a broken invariant, a non-deterministic
 * write, an ante handler that writes outside its store, a wrong expectation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App } from '@chain/app';
import type { AnteHandler, AppModule, Context, ServiceRegistrar, ValidatorUpdate } from '@chain/app';
import { ProtoRegistry } from '@chain/codec';
import type { ProtoObject } from '@chain/codec';
import { fromBech32, secp256k1Address, toBase64, toBech32, toHex, verifySecp256k1, utf8, fromUtf8 } from '@chain/crypto';
import { Errors } from '@chain/errors';
import { CommitStore } from '@chain/store';
import { directSignBytes, txSigners } from '@chain/tx';
import { fails, noop, ok } from '../src/index.js';
import type { Invariant, Rand, SimAccount, SimulationModule, SimulationSetup, WeightedOperation } from '../src/index.js';

export const FIXTURE_PROTO_DIR = fileURLToPath(new URL('./fixtures/proto', import.meta.url));
export const CHAIN_ID = 'simtest-1';
export const PREFIX = 'sim';
export const GENESIS_TIME = new Date('2024-01-01T00:00:00Z');
export const SUPPLY_PER_ACCOUNT = 1_000_000n;

export interface ToyKnobs {
  /** the ante handler also counts txs in the `tok` store (outside the declared ante stores) */
  readonly leakyAnte?: boolean;
  /** EndBlock of this height writes an id unique to the app instance (the replay then differs) */
  readonly nondeterministicAt?: number;
  /** EndBlock of this height writes how many times it ran (the dry run and FinalizeBlock then differ) */
  readonly countCallsAt?: number;
  /** the transfer operation claims success for a too large amount */
  readonly wrongExpectation?: boolean;
  /** the transfer operation expects code 6 instead of 5 for a too large amount */
  readonly wrongCode?: boolean;
  /** an invariant that breaks from this height on */
  readonly breakInvariantAt?: number;
  /** validators (accounts 0..n-1) at genesis, with power 10 each */
  readonly genesisValidators?: number;
}

const balanceKey = (addr: Uint8Array): Uint8Array => utf8('b' + toHex(addr));
const valKey = (pub: Uint8Array): Uint8Array => utf8('v' + toHex(pub));
const pendingKey = (pub: Uint8Array): Uint8Array => utf8('p' + toHex(pub));
const consKey = (pub: Uint8Array): Uint8Array => utf8('c' + toHex(pub));

function readJSON<T>(s: Context['ms'] | ReturnType<Context['kv']>, key: Uint8Array): T | undefined {
  const v = s.get(key);
  return v === undefined ? undefined : (JSON.parse(fromUtf8(v)) as T);
}

export function balanceOf(ctx: Context, addr: Uint8Array): bigint {
  const v = ctx.kv('tok').get(balanceKey(addr));
  return v === undefined ? 0n : BigInt(fromUtf8(v));
}

export function accountOf(ctx: Context, addr: Uint8Array): { accountNumber: bigint; sequence: bigint } | undefined {
  const a = readJSON<{ number: string; sequence: string }>(ctx.kv('acc'), addr);
  return a ? { accountNumber: BigInt(a.number), sequence: BigInt(a.sequence) } : undefined;
}

function validators(ctx: Context): { pub: Uint8Array; power: bigint }[] {
  const out: { pub: Uint8Array; power: bigint }[] = [];
  for (const [k, v] of ctx.kv('tok').iterator(utf8('v'), utf8('w'))) out.push({ pub: Buffer.from(fromUtf8(k).slice(1), 'hex'), power: BigInt(fromUtf8(v)) });
  return out;
}

export class ToyModule implements AppModule {
  readonly name = 'toy';
  readonly consensusVersion = 1;
  readonly returnsValidatorUpdates = true;
  readonly protoDirs = [FIXTURE_PROTO_DIR];
  readonly genesisType = 'chain.simtest.v1.GenesisState';
  /** the last commit each height's begin block saw (validator addresses hex → flag) */
  readonly votes = new Map<number, { address: string; power: bigint; flag: number }[]>();
  /** the validator updates each height's end block returned */
  readonly updates = new Map<number, ValidatorUpdate[]>();
  /** the validators InitChain returned */
  genesisUpdates: ValidatorUpdate[] = [];
  /** the misbehaviour each height's begin block saw */
  readonly misbehavior = new Map<number, { address: string; height: number; power: bigint; total: bigint }[]>();
  private calls = 0;
  private readonly instance = `${Math.random()}`;

  constructor(private readonly knobs: ToyKnobs = {}) {}

  defaultGenesis(): ProtoObject {
    return { accounts: [], balances: [], validators: [] };
  }

  initGenesis(ctx: Context, g: ProtoObject): ValidatorUpdate[] {
    const gen = g as { accounts: string[]; balances: { address: string; amount: bigint }[]; validators: { pub_key: Uint8Array; power: bigint }[] };
    gen.accounts.forEach((a, i) => ctx.kv('acc').set(fromBech32(a).data, utf8(JSON.stringify({ number: String(i), sequence: '0' }))));
    for (const b of gen.balances) ctx.kv('tok').set(balanceKey(fromBech32(b.address).data), utf8(b.amount.toString()));
    for (const v of gen.validators) {
      ctx.kv('tok').set(valKey(v.pub_key), utf8(v.power.toString()));
      ctx.kv('tok').set(consKey(v.pub_key), utf8('1'));
    }
    this.genesisUpdates = gen.validators.map((v) => ({ pubKey: { type: 'ed25519', key: v.pub_key }, power: v.power }));
    return this.genesisUpdates;
  }

  registerServices(r: ServiceRegistrar): void {
    r.registerMsgService('chain.simtest.v1.Msg', {
      Transfer: (ctx, m) => {
        const from = fromBech32(m.from as string).data;
        const to = fromBech32(m.to as string).data;
        const amount = m.amount as bigint;
        const bal = balanceOf(ctx, from);
        if (bal < amount) throw Errors.InsufficientFunds.wrap(`${bal} < ${amount}`);
        ctx.kv('tok').set(balanceKey(from), utf8((bal - amount).toString()));
        ctx.kv('tok').set(balanceKey(to), utf8((balanceOf(ctx, to) + amount).toString()));
        return {};
      },
      SetPower: (ctx, m) => {
        const pub = m.pub_key as Uint8Array;
        const power = m.power as bigint;
        const current = validators(ctx);
        if (power === 0n) {
          if (!current.some((v) => toHex(v.pub) === toHex(pub))) throw Errors.InvalidRequest.wrap('not a validator');
          if (current.length === 1) throw Errors.InvalidRequest.wrap('the last validator');
          ctx.kv('tok').delete(valKey(pub));
        } else ctx.kv('tok').set(valKey(pub), utf8(power.toString()));
        ctx.kv('tok').set(pendingKey(pub), utf8(power.toString()));
        return {};
      },
    });
  }

  beginBlock(ctx: Context): void {
    this.votes.set(ctx.block.height, ctx.comet.lastCommit.votes.map((v) => ({ address: toHex(v.validator.address), power: v.validator.power, flag: v.blockIdFlag })));
    this.misbehavior.set(ctx.block.height, ctx.comet.misbehavior.map((m) => ({ address: toHex(m.validator.address), height: m.height, power: m.validator.power, total: m.totalVotingPower })));
  }

  endBlock(ctx: Context): ValidatorUpdate[] {
    const s = ctx.kv('tok');
    const updates: ValidatorUpdate[] = [];
    for (const [k, v] of [...s.iterator(utf8('p'), utf8('q'))]) {
      s.delete(k);
      const key = Buffer.from(fromUtf8(k).slice(1), 'hex');
      const power = BigInt(fromUtf8(v));
      // consensus knows the keys of the updates sent so far (`c`): a key set and removed in one block is no update
      if (power === 0n && !s.has(consKey(key))) continue;
      if (power === 0n) s.delete(consKey(key));
      else s.set(consKey(key), utf8('1'));
      updates.push({ pubKey: { type: 'ed25519', key }, power });
    }
    if (this.knobs.nondeterministicAt === ctx.block.height) s.set(utf8('instance'), utf8(this.instance));
    if (this.knobs.countCallsAt === ctx.block.height) s.set(utf8('calls'), utf8(String(++this.calls)));
    this.updates.set(ctx.block.height, updates);
    return updates;
  }
}

/** A real ante handler: one signer, its public key, sequence and SIGN_MODE_DIRECT signature. */
export function toyAnte(registry: ProtoRegistry, knobs: ToyKnobs): AnteHandler {
  return (ctx, tx) => {
    ctx.gasMeter.consume(10 * tx.raw.length, 'txSize');
    const signers = txSigners(registry, tx);
    if (signers.length !== 1 || tx.authInfo.signer_infos.length !== 1 || tx.signatures.length !== 1) throw Errors.Unauthorized.wrap('one signer expected');
    const info = tx.authInfo.signer_infos[0]!;
    const pub = registry.unpackAny<{ key: Uint8Array }>(info.public_key!).message.key;
    const addr = fromBech32(signers[0]!).data;
    if (toHex(secp256k1Address(pub)) !== toHex(addr)) throw Errors.InvalidPubKey.wrap('public key does not match the signer');
    const acc = accountOf(ctx, addr);
    if (!acc) throw Errors.UnknownAddress.wrap(`account ${signers[0]} does not exist`);
    if (info.sequence !== acc.sequence) throw Errors.WrongSequence.wrap(`account sequence mismatch, expected ${acc.sequence}, got ${info.sequence}`);
    if (!verifySecp256k1(pub, directSignBytes(registry, tx, ctx.block.chainId, acc.accountNumber), tx.signatures[0]!)) throw Errors.Unauthorized.wrap('signature verification failed');
    ctx.kv('acc').set(addr, utf8(JSON.stringify({ number: acc.accountNumber.toString(), sequence: (acc.sequence + 1n).toString() })));
    if (knobs.leakyAnte) {
      const n = Number(fromUtf8(ctx.kv('tok').get(utf8('ante-count')) ?? utf8('0'))) + 1;
      ctx.kv('tok').set(utf8('ante-count'), utf8(String(n)));
    }
  };
}

/** The toy's simulation module: transfers and power changes, the total-supply invariant. */
export function toySimulation(knobs: ToyKnobs, accounts: number): SimulationModule {
  const transfer: WeightedOperation = {
    name: 'toy/transfer',
    weight: 10,
    op: ({ rand, ctx, available, accounts: all }) => {
      const from = rand.pick(available);
      const to = rand.pick(all);
      const bal = balanceOf(ctx, from.addr);
      const msg = (amount: bigint) => [{ type: 'chain.simtest.v1.MsgTransfer', value: { from: from.address, to: to.address, amount } }];
      if (rand.bool(0.3)) {
        const amount = bal + rand.bigint(1n, 1000n);
        if (knobs.wrongExpectation) return { msgs: msg(amount), signer: from, expect: ok(), label: 'too much (claimed valid)' };
        return { msgs: msg(amount), signer: from, expect: fails(knobs.wrongCode ? Errors.NoSignatures : Errors.InsufficientFunds), label: 'insufficient funds' };
      }
      if (bal === 0n) return noop('empty balance');
      return { msgs: msg(rand.bigint(1n, bal)), signer: from, expect: ok() };
    },
  };
  const setPower: WeightedOperation = {
    name: 'toy/set-power',
    weight: 3,
    op: ({ rand, ctx, available }) => {
      const signer = rand.pick(available);
      const current = validators(ctx);
      const msg = (pub: Uint8Array, power: bigint) => [{ type: 'chain.simtest.v1.MsgSetPower', value: { signer: signer.address, pub_key: pub, power } }];
      const r = rand.int(0, 2);
      if (r === 0 && current.length > 1) {
        const v = rand.pick(current);
        return { msgs: msg(v.pub, 0n), signer, expect: ok(), label: 'remove' };
      }
      if (r === 1) {
        const stranger = rand.bytes(32);
        return { msgs: msg(stranger, 0n), signer, expect: fails(Errors.InvalidRequest), label: 'remove unknown' };
      }
      return { msgs: msg(signer.consPub, rand.bigint(1n, 20n)), signer, expect: ok(), label: 'set' };
    },
  };
  const supply: Invariant = {
    name: 'toy/total-supply',
    check: (ctx) => {
      let sum = 0n;
      for (const [k, v] of ctx.kv('tok').iterator(utf8('b'), utf8('c'))) if (k.length > 1) sum += BigInt(fromUtf8(v));
      const expected = SUPPLY_PER_ACCOUNT * BigInt(accounts);
      return { broken: sum !== expected, message: `toy: total supply invariant\n\tsum of balances ${sum}, supply ${expected}\n` };
    },
  };
  const invariants: Invariant[] = [supply];
  if (knobs.breakInvariantAt !== undefined) {
    const at = knobs.breakInvariantAt;
    invariants.push({ name: 'toy/breaks-late', check: (ctx) => ({ broken: ctx.block.height >= at, message: `broken on purpose from height ${at}` }) });
  }
  return { name: 'toy', operations: [transfer, setPower], invariants };
}

/** The setup of a toy simulation; `apps` collects every app opened (the run's, the replay's). */
export function toySetup(knobs: ToyKnobs = {}, accounts = 8): SimulationSetup & { opened: ToyModule[] } {
  const opened: ToyModule[] = [];
  return {
    chainId: CHAIN_ID,
    bech32Prefix: PREFIX,
    opened,
    async openApp() {
      const dir = mkdtempSync(join(tmpdir(), 'chain-sim-'));
      const store = await CommitStore.open(dir);
      const registry = new ProtoRegistry();
      const toy = new ToyModule(knobs);
      opened.push(toy);
      const app = new App({
        registry, store, chainId: CHAIN_ID, modules: [toy],
        config: { modules: ['toy'], moduleAccounts: [], order: { preBlock: [], beginBlock: ['toy'], endBlock: ['toy'], initGenesis: ['toy'] } },
        anteHandler: toyAnte(registry, knobs),
      });
      return {
        app,
        modules: [toySimulation(knobs, accounts)],
        account: accountOf,
        close: async () => {
          await store.close().catch(() => undefined);
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
    genesis(_rand: Rand, accs: readonly SimAccount[]) {
      const nVals = knobs.genesisValidators ?? 3;
      return {
        time: GENESIS_TIME,
        appState: {
          toy: {
            accounts: accs.map((a) => a.address),
            balances: accs.map((a) => ({ address: a.address, amount: SUPPLY_PER_ACCOUNT.toString() })),
            validators: accs.slice(0, nVals).map((a) => ({ pub_key: toBase64(a.consPub), power: '10' })),
          },
        },
      };
    },
    anteStores: ['acc'],
  };
}

export const bech32 = (addr: Uint8Array): string => toBech32(PREFIX, addr);
