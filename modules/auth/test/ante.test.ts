import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { parseDecCoins } from '@chain/app';
import type { AppModule, ExecTxResult } from '@chain/app';
import type { AnyMsg } from '@chain/codec';
import { sharedVerifyPool, toBech32 } from '@chain/crypto';
import { FEE_COLLECTOR } from '../src/index.js';
import { TestChain, buildTx, devKey, devEthKey, pubKeyAny, coins, DENOM, CHAIN_ID } from './helpers.js';
import type { DevKey } from './helpers.js';

describe('auth: ante handler', () => {
  const A = devKey(0);
  const B = devKey(1);
  const P = devKey(2); // has an account but no fee denom
  const U = devKey(3); // no account
  const E = devEthKey(0);
  let chain: TestChain;

  beforeEach(async () => {
    chain = await TestChain.create();
    await chain.init([
      { address: A.address, coins: coins(1000000) },
      { address: B.address, coins: coins(1000) },
      { address: P.address, coins: coins(50, 'foo') },
      { address: E.address, coins: coins(1000000) },
    ].sort((x, y) => (x.address < y.address ? -1 : 1)));
  });
  afterEach(async () => {
    await chain.close();
  });

  const fees = (): bigint => chain.balance(chain.ak.getModuleAddress(FEE_COLLECTOR));
  /** asserts code/codespace/log and that the ante left no trace (no fee, same sequence) */
  const rejected = (r: ExecTxResult, code: number, log: string, feesBefore = 0n): void => {
    expect([r.code, r.codespace, r.log]).to.deep.equal([code, 'sdk', log]);
    expect(fees()).to.equal(feesBefore);
    expect(chain.account(A.addr)!.base.sequence).to.equal(0n);
    expect(chain.balance(A.addr)).to.equal(1000000n);
  };

  it('accepts a good tx: fee to the fee collector, sequence + 1, pubkey stored on the account', async () => {
    expect(chain.account(A.addr)!.base.pub_key).to.equal(null);
    const r = await chain.deliver(chain.send(A, B.address));
    expect(r.code, r.log).to.equal(0);
    expect(fees()).to.equal(100n);
    const acc = chain.account(A.addr)!;
    expect(acc.base.sequence).to.equal(1n);
    expect(acc.base.pub_key?.type_url).to.equal('/chain.crypto.secp256k1.PubKey');
    expect(chain.registry.decode<{ key: Uint8Array }>('chain.crypto.secp256k1.PubKey', acc.base.pub_key!.value).key).to.deep.equal(A.pub);
    // with the pubkey on the account, the signer info may omit it
    const r2 = await chain.deliver(chain.send(A, B.address, { signer: { pubKey: null } }));
    expect(r2.code, r2.log).to.equal(0);
  });

  it('precheck: signatures checked ahead on worker threads are reused, a bad one is still refused by the ante', async () => {
    const pool = sharedVerifyPool();
    if (pool === undefined) throw new Error('the verification pool must start here (native secp256k1 and worker threads)');
    // a good tx (pubkey in the signer info) and an eth_secp256k1 one: one pool check each, then CheckTx and the block
    for (const [key, to] of [[A, B.address], [E, B.address]] as const) {
      const tx = chain.send(key, to);
      const before = pool.checks;
      await chain.app.precheckTx(tx);
      expect(pool.checks - before, 'checked on the pool').to.equal(1);
      await chain.app.precheckTx(tx); // remembered: not checked again
      expect(pool.checks - before).to.equal(1);
      const check = await chain.app.checkTx({ tx, type: 'new' });
      expect(check.code, check.log).to.equal(0);
      const r = await chain.deliver(tx);
      expect(r.code, r.log).to.equal(0);
    }
    // a signature for another account number or chain id: checked (and found wrong) on the pool, refused by the ante
    const n = chain.account(A.addr)!.base.account_number;
    for (const signer of [{ accountNumber: n + 1n }, { chainId: 'other-chain' }]) {
      const bad = chain.send(A, B.address, { signer });
      const before = pool.checks;
      await chain.app.precheckTx(bad);
      expect(pool.checks - before).to.equal(1);
      const check = await chain.app.checkTx({ tx: bad, type: 'new' });
      expect([check.code, check.log]).to.deep.equal([4, `signature verification failed; please verify account number (${n}) and chain-id (${CHAIN_ID}): unauthorized`]);
    }
    // garbage and an unknown signer: nothing to check ahead, no failure
    await chain.app.precheckTx(Uint8Array.of(1, 2, 3));
    await chain.app.precheckTx(chain.send(U, B.address));
  });

  it('a signature for another chain id is code 4 with the account number and chain id', async () => {
    const n = chain.account(A.addr)!.base.account_number;
    rejected(await chain.deliver(chain.send(A, B.address, { signer: { chainId: 'other-chain' } })), 4,
      `signature verification failed; please verify account number (${n}) and chain-id (${CHAIN_ID}): unauthorized`);
    rejected(await chain.deliver(chain.send(A, B.address, { signer: { accountNumber: n + 1n } })), 4,
      `signature verification failed; please verify account number (${n}) and chain-id (${CHAIN_ID}): unauthorized`);
  });

  it('a tx without signatures is code 15 and changes nothing', async () => {
    const before = chain.balance(A.addr);
    const tx = buildTx(chain.registry, [chain.signer(A)], [chain.msgSend(A.address, B.address, coins(1))], { signatures: [] });
    rejected(await chain.deliver(tx), 15, 'empty signatures: no signatures supplied');
    expect(chain.balance(A.addr)).to.equal(before);
  });

  it('a wrong sequence is code 32', async () => {
    rejected(await chain.deliver(chain.send(A, B.address, { signer: { sequence: 5n } })), 32, 'account sequence mismatch, expected 0, got 5: incorrect account sequence');
    expect((await chain.deliver(chain.send(A, B.address))).code).to.equal(0);
    // replaying sequence 0
    const r = await chain.deliver(chain.send(A, B.address, { signer: { sequence: 0n } }));
    expect([r.code, r.log]).to.deep.equal([32, 'account sequence mismatch, expected 1, got 0: incorrect account sequence']);
  });

  it('a fee payer without the fee denom is code 5 and pays nothing', async () => {
    const r = await chain.deliver(chain.send(P, B.address));
    expect([r.code, r.codespace]).to.deep.equal([5, 'sdk']);
    expect(r.log.startsWith('spendable balance 0achain is smaller than 100achain'), r.log).to.equal(true);
    expect(r.log.endsWith(': insufficient funds'), r.log).to.equal(true);
    expect(chain.account(P.addr)!.base.sequence).to.equal(0n);
    expect(fees()).to.equal(0n);
  });

  it('an unknown signer is code 9: as fee payer, and as a second signer', async () => {
    const r1 = await chain.deliver(chain.send(U, B.address));
    expect([r1.code, r1.codespace, r1.log]).to.deep.equal([9, 'sdk', `fee payer address: ${U.address} does not exist: unknown address`]);
    const tx = buildTx(chain.registry, [chain.signer(A), chain.signer(U)], [chain.msgSend(A.address, B.address, coins(1)), chain.msgSend(U.address, B.address, coins(1))]);
    rejected(await chain.deliver(tx), 9, `account ${U.address} does not exist: unknown address`);
  });

  it('a public key that does not belong to the signer is code 8', async () => {
    rejected(await chain.deliver(chain.send(A, B.address, { signer: { pubKey: pubKeyAny(chain.registry, B) } })), 8,
      `pubKey does not match signer address ${A.address} with signer index: 0: invalid pubkey`);
    rejected(await chain.deliver(chain.send(A, B.address, { signer: { pubKey: null } })), 8, 'pubkey on account is not set: invalid pubkey');
    const ed = chain.registry.packAny('chain.crypto.ed25519.PubKey', { key: new Uint8Array(32) });
    rejected(await chain.deliver(chain.send(A, B.address, { signer: { pubKey: ed } })), 8, 'unsupported public key type /chain.crypto.ed25519.PubKey: invalid pubkey');
  });

  it('a memo over max_memo_characters is code 12 (counted in bytes)', async () => {
    rejected(await chain.deliver(chain.send(A, B.address, { memo: 'x'.repeat(257) })), 12, 'maximum number of characters is 256 but received 257 characters: memo too large');
    // 100 three-byte characters are 300 bytes
    rejected(await chain.deliver(chain.send(A, B.address, { memo: '€'.repeat(100) })), 12, 'maximum number of characters is 256 but received 300 characters: memo too large');
    expect((await chain.deliver(chain.send(A, B.address, { memo: 'x'.repeat(256) }))).code).to.equal(0);
  });

  it('running out of gas in the ante is code 11 and charges nothing', async () => {
    // reading the auth params is the first metered access
    rejected(await chain.deliver(chain.send(A, B.address, { gas: 1n })), 11, 'out of gas in location: ReadFlat; gasWanted: 1, gasUsed: 1000: out of gas');
    // zero gas runs out at the same place (the SDK's "must provide positive gas" is never reached)
    rejected(await chain.deliver(chain.send(A, B.address, { gas: 0n })), 11, 'out of gas in location: ReadFlat; gasWanted: 0, gasUsed: 1000: out of gas');
    const tx = chain.send(A, B.address, { gas: 3000n });
    const r = await chain.deliver(tx);
    const m = /^out of gas in location: txSize; gasWanted: 3000, gasUsed: (\d+): out of gas$/.exec(r.log);
    expect(m, r.log).to.not.equal(null);
    // params read (1000 flat + 3 per byte) then 10 per tx byte
    expect(Number(m![1]) - 10 * tx.length).to.be.within(1000, 1100);
    rejected(r, 11, r.log);
  });

  it('running out of gas in a message is code 11 without a message prefix; the fee and sequence stay', async () => {
    // the ante alone (CheckTx) of the same tx shape tells how much gas the ante needs
    const check = await chain.base.check(chain.send(A, B.address));
    expect(check.code, check.log).to.equal(0);
    const tx = chain.send(A, B.address, { gas: BigInt(check.gasUsed + 10) });
    const r = await chain.deliver(tx);
    expect([r.code, r.codespace]).to.deep.equal([11, 'sdk']);
    expect(r.log).to.match(new RegExp(`^out of gas in location: [A-Za-z]+; gasWanted: ${check.gasUsed + 10}, gasUsed: \\d+: out of gas$`));
    expect(r.gasUsed).to.be.greaterThan(check.gasUsed + 10);
    expect(fees()).to.equal(100n);
    expect(chain.account(A.addr)!.base.sequence).to.equal(1n);
    expect(chain.balance(B.addr)).to.equal(1000n);
  });

  it('signature count mismatches are code 4, no signatures code 15', async () => {
    rejected(await chain.deliver(chain.send(A, B.address, { extraSignerInfos: 1 })), 4, 'wrong number of signers; expected 1, got 2: unauthorized');
    rejected(await chain.deliver(chain.send(A, B.address, { signatures: [new Uint8Array(64), new Uint8Array(64)] })), 4, 'invalid number of signer;  expected: 1, got 2: unauthorized');
    const none = await chain.deliver(chain.send(A, B.address, { signatures: [] }));
    expect([none.code, none.log]).to.deep.equal([15, 'empty signatures: no signatures supplied']);
  });

  it('an unsupported sign mode is code 37; a timeout height in the past is code 30', async () => {
    rejected(await chain.deliver(chain.send(A, B.address, { signer: { mode: 127 } })), 37, 'signature mode 127 is not supported; use SIGN_MODE_DIRECT: feature not supported');
    rejected(await chain.deliver(chain.send(A, B.address, { timeoutHeight: 2n })), 30, 'block height: 3, timeout height: 2: tx timeout height');
    // the timeout height itself is still fine
    expect((await chain.deliver(chain.send(A, B.address, { timeoutHeight: 4n }))).code).to.equal(0);
  });

  it('accepts eth_secp256k1 keys (/ethermint.crypto.v1.ethsecp256k1.PubKey, keccak256 sign bytes)', async () => {
    const r = await chain.deliver(chain.send(E, B.address));
    expect(r.code, r.log).to.equal(0);
    const acc = chain.account(E.addr)!;
    expect(acc.base.pub_key?.type_url).to.equal('/chain.crypto.ethsecp256k1.PubKey');
    expect(acc.base.sequence).to.equal(1n);
    // a sha256 signature from the eth key does not verify
    const wrong = await chain.deliver(chain.send({ ...E, eth: false }, B.address, { signer: { pubKey: pubKeyAny(chain.registry, E) } }));
    expect(wrong.code).to.equal(4);
    // an eth pubkey on a cosmos (ripemd160) address does not match
    const mismatch = await chain.deliver(chain.send(A, B.address, { signer: { pubKey: pubKeyAny(chain.registry, { ...A, eth: true }) } }));
    expect([mismatch.code, mismatch.log]).to.deep.equal([8, `pubKey does not match signer address ${A.address} with signer index: 0: invalid pubkey`]);
  });

  it('two signers each sign with their own account number and both sequences move', async () => {
    const tx = buildTx(chain.registry, [chain.signer(A), chain.signer(E)], [chain.msgSend(A.address, B.address, coins(1)), chain.msgSend(E.address, B.address, coins(2))]);
    const r = await chain.deliver(tx);
    expect(r.code, r.log).to.equal(0);
    expect(chain.account(A.addr)!.base.sequence).to.equal(1n);
    expect(chain.account(E.addr)!.base.sequence).to.equal(1n);
    expect(chain.balance(B.addr)).to.equal(1003n);
    const accSeq = r.events.filter((e) => e.type === 'tx' && e.attributes[0]!.key === 'acc_seq').map((e) => e.attributes[0]!.value);
    expect(accSeq).to.deep.equal([`${A.address}/0`, `${E.address}/0`]);
  });

  it('a fee granter is refused (no fee grants on this chain): code 18, nothing charged', async () => {
    const before = chain.balance(A.addr);
    const tx = buildTx(chain.registry, [chain.signer(A)], [chain.msgSend(A.address, B.address, coins(1))], { granter: E.address });
    rejected(await chain.deliver(tx), 18, 'fee grants are not enabled: invalid request');
    expect(chain.balance(A.addr)).to.equal(before);
  });

  it('a fee payer must sign: a tx naming another payer without its signature is code 4 and charges nobody', async () => {
    const theft = buildTx(chain.registry, [chain.signer(A)], [chain.msgSend(A.address, B.address, coins(1))], { payer: E.address });
    rejected(await chain.deliver(theft), 4, 'wrong number of signers; expected 2, got 1: unauthorized');
    expect(chain.balance(E.addr)).to.equal(1000000n);
    // with the payer's signature (signer index 1) the payer pays the fee
    const ok = buildTx(chain.registry, [chain.signer(A), chain.signer(E)], [chain.msgSend(A.address, B.address, coins(1))], { payer: E.address });
    const r = await chain.deliver(ok);
    expect(r.code, r.log).to.equal(0);
    expect(chain.balance(E.addr)).to.equal(1000000n - 100n);
    expect(chain.balance(A.addr)).to.equal(1000000n - 1n);
    expect(r.events.find((e) => e.type === 'tx')!.attributes.map((a) => [a.key, a.value])).to.deep.equal([['fee', '100achain'], ['fee_payer', E.address]]);
    expect([chain.account(A.addr)!.base.sequence, chain.account(E.addr)!.base.sequence]).to.deep.equal([1n, 1n]);
  });

  it('simulate skips signature checks (even a missing pubkey) and changes nothing', async () => {
    const sim = await chain.app.simulate(chain.send(A, B.address, { signatures: [new Uint8Array(64)], signer: { pubKey: null }, gas: 0n }));
    expect([sim.code, sim.log.startsWith('[')]).to.deep.equal([0, true]);
    expect(sim.gasUsed).to.be.greaterThan(1000);
    expect(chain.account(A.addr)!.base.pub_key).to.equal(null);
    // the check state did not move either: sequence 0 still passes CheckTx
    const check = await chain.base.check(chain.send(A, B.address));
    expect(check.code, check.log).to.equal(0);
    expect(chain.balance(B.addr)).to.equal(1000n);
    // the sequence is still checked
    const wrongSeq = await chain.app.simulate(chain.send(A, B.address, { signatures: [new Uint8Array(64)], signer: { sequence: 9n } }));
    expect(wrongSeq.code).to.equal(32);
  });

  it('simulate needs no signatures: none at all or empty ones, both charged the size of a real one', async () => {
    const signed = await chain.app.simulate(chain.send(A, B.address));
    const none = await chain.app.simulate(chain.send(A, B.address, { signatures: [] }));
    const empty = await chain.app.simulate(chain.send(A, B.address, { signatures: [new Uint8Array()] }));
    expect([none.code, empty.code], none.log).to.deep.equal([0, 0]);
    // a real signature is 64 bytes plus framing; the estimate charges at least that much
    expect(none.gasUsed).to.be.at.least(signed.gasUsed);
    expect(empty.gasUsed).to.be.at.least(signed.gasUsed);
    expect(none.gasUsed - signed.gasUsed).to.be.below(1000);
    // outside simulation a tx without signatures is refused
    const check = await chain.base.check(chain.send(A, B.address, { signatures: [] }));
    expect([check.code, check.codespace]).to.deep.equal([15, 'sdk']);
  });

  it('tx_sig_limit from genesis params bounds the number of signers (code 14)', async () => {
    const c = await TestChain.create();
    try {
      await c.init([{ address: A.address, coins: coins(1000) }, { address: B.address, coins: coins(1000) }].sort((x, y) => (x.address < y.address ? -1 : 1)), {
        params: { max_memo_characters: '10', tx_sig_limit: '1', tx_size_cost_per_byte: '10', sig_verify_cost_ed25519: '590', sig_verify_cost_secp256k1: '1000' },
      });
      const tx = buildTx(c.registry, [c.signer(A), c.signer(B)], [c.msgSend(A.address, B.address, coins(1)), c.msgSend(B.address, A.address, coins(1))]);
      const r = await c.deliver(tx);
      expect([r.code, r.log]).to.deep.equal([14, 'signatures: 2, limit: 1: maximum number of signatures exceeded']);
      const memo = await c.deliver(c.send(A, B.address, { memo: 'x'.repeat(11) }));
      expect([memo.code, memo.log]).to.deep.equal([12, 'maximum number of characters is 10 but received 11 characters: memo too large']);
    } finally {
      await c.close();
    }
  });
});

describe('auth: minimum gas prices (CheckTx only)', () => {
  const A = devKey(0);
  const B = devKey(1);
  let chain: TestChain;
  beforeEach(async () => {
    chain = await TestChain.create({ minGasPrices: parseDecCoins('0.01achain,1foo') });
    await chain.init([{ address: A.address, coins: [...coins(1000000), { denom: 'foo', amount: '1000000' }] }]);
  });
  afterEach(async () => {
    await chain.close();
  });

  it('rejects a fee below gas × price in CheckTx with code 13, accepts it in FinalizeBlock', async () => {
    const low = chain.send(A, B.address, { fee: coins(1999), gas: 200000n });
    const r = await chain.base.check(low);
    expect([r.code, r.codespace, r.log]).to.deep.equal([13, 'sdk', 'insufficient fees; got: 1999achain required: 2000achain,200000foo: insufficient fee']);
    expect((await chain.deliver(low)).code).to.equal(0);
  });

  it('any one denom meeting its price is enough; the requirement rounds up', async () => {
    expect((await chain.base.check(chain.send(A, B.address, { fee: coins(2000), gas: 200000n }))).code).to.equal(0);
    expect((await chain.base.check(chain.send(A, B.address, { fee: coins(150050, 'foo'), gas: 150050n, signer: { sequence: 1n } }))).code).to.equal(0);
    // 150050 × 0.01 = 1500.5 → 1501
    const r = await chain.base.check(chain.send(A, B.address, { fee: coins(1500), gas: 150050n, signer: { sequence: 2n } }));
    expect([r.code, r.log]).to.deep.equal([13, 'insufficient fees; got: 1500achain required: 1501achain,150050foo: insufficient fee']);
    expect((await chain.base.check(chain.send(A, B.address, { fee: coins(1501), gas: 150050n, signer: { sequence: 2n } }))).code).to.equal(0);
  });

  it('a tx without fee prints an empty "got" like the SDK', async () => {
    const r = await chain.base.check(chain.send(A, B.address, { fee: [], gas: 100000n }));
    expect([r.code, r.log]).to.deep.equal([13, 'insufficient fees; got:  required: 1000achain,100000foo: insufficient fee']);
  });

  it('CheckTx advances the sequence in the check state only', async () => {
    expect((await chain.base.check(chain.send(A, B.address, { fee: coins(2000) }))).code).to.equal(0);
    const next = await chain.base.check(chain.send(A, B.address, { fee: coins(2000), signer: { sequence: 1n } }));
    expect(next.code, next.log).to.equal(0);
    const stale = await chain.base.check(chain.send(A, B.address, { fee: coins(2000), signer: { sequence: 1n } }));
    expect([stale.code, stale.log]).to.deep.equal([32, 'account sequence mismatch, expected 2, got 1: incorrect account sequence']);
    expect(chain.account(A.addr)!.base.sequence).to.equal(0n);
    expect(DENOM).to.equal('achain');
  });
});

describe('auth ante: validator operator signers', () => {
  const FIXTURES = fileURLToPath(new URL('./fixtures/proto', import.meta.url));
  const pings: string[] = [];
  const operatorModule: AppModule = {
    name: 'authtest',
    consensusVersion: 1,
    protoDirs: [FIXTURES],
    registerServices(r) {
      r.registerMsgService('chain.authtest.v1.Msg', { OperatorPing: (_ctx, m) => { pings.push(String(m.validator_address)); return {}; } });
    },
  };
  let chain: TestChain;
  const A = devKey(0);
  const B = devKey(1);
  const valoper = (k: DevKey): string => toBech32('chainvaloper', k.addr);
  const ping = (k: DevKey): AnyMsg => chain.registry.packAny('chain.authtest.v1.MsgOperatorPing', { validator_address: valoper(k) });

  before(async () => {
    chain = await TestChain.create({ extraModules: [operatorModule] });
    await chain.init([{ address: A.address, coins: [{ denom: DENOM, amount: '1000000' }] }, { address: B.address, coins: [{ denom: DENOM, amount: '1000000' }] }]);
  });

  after(async () => {
    await chain.close();
  });

  it('accepts a message signed by the account behind a valoper address', async () => {
    const r = await chain.deliver(buildTx(chain.registry, [chain.signer(A)], [ping(A)]));
    expect(r.code, r.log).to.equal(0);
    expect(pings).to.deep.equal([valoper(A)]);
    // the sequence event names the account address
    expect(r.events.find((e) => e.type === 'tx' && e.attributes[0]!.key === 'acc_seq')!.attributes[0]!.value).to.equal(`${A.address}/0`);
  });

  it('counts an account and its valoper address as one signer (the SDK dedupes signers by bytes)', async () => {
    const r = await chain.deliver(buildTx(chain.registry, [chain.signer(A)], [chain.msgSend(A.address, B.address, [{ denom: DENOM, amount: '1' }]), ping(A)]));
    expect(r.code, r.log).to.equal(0);
    const two = await chain.deliver(buildTx(chain.registry, [chain.signer(A)], [ping(A), ping(B)]));
    expect(two.code).to.equal(4);
    expect(two.log).to.contain('wrong number of signers; expected 2, got 1');
  });

  it('refuses a signer with another prefix', async () => {
    const bad = chain.registry.packAny('chain.authtest.v1.MsgOperatorPing', { validator_address: toBech32('chainvalcons', A.addr) });
    const r = await chain.deliver(buildTx(chain.registry, [chain.signer(A)], [bad]));
    expect(r.code).to.equal(7);
    expect(r.log).to.contain('invalid Bech32 prefix; expected chain, got chainvalcons');
  });
});
