import { expect } from 'chai';
import type { ExecTxResult } from '@chain/app';
import { DO_NOT_MODIFY, MAXIMUM_MAX_SUPPLY, TOKEN_DESCRIPTION } from '../src/index.js';
import {
  ALICE, BOB, CAROL, E18, FUNDS, NATIVE, POOR, balance, codec, deliver, flatEvents, genesis, moduleAddress, msg, openChain, snapshot, startChain, supply, token,
  tokenGenesisJson,
} from './helpers.js';
import type { TestSetup } from './helpers.js';

/** the default fees of a 5-letter symbol (`kitty`): 500 chain / 12.52, and a tenth of it */
const ISSUE_FEE_5 = 39936102236421725239n;
const OPERATE_FEE_5 = 3993610223642172523n;
/** min units per kitty (scale 6) */
const KITTY = 10n ** 6n;

type Ev = [string, [string, string][]];

describe('token: messages', () => {
  let s: TestSetup;
  let mod: string;
  const coins = (amount: bigint, denom: string): string => (amount === 0n ? '' : `${amount}${denom}`);
  /** bank's events of a payment to the token module and its burn (a fee, or MsgBurnToken's tokens) */
  const payAndBurn = (payer: string, amount: string): Ev[] => [
    ['coin_spent', [['spender', payer], ['amount', amount]]],
    ['coin_received', [['receiver', mod], ['amount', amount]]],
    ['transfer', [['recipient', mod], ['sender', payer], ['amount', amount]]],
    ['message', [['sender', payer]]],
    ['coin_spent', [['spender', mod], ['amount', amount]]],
    ['burn', [['burner', mod], ['amount', amount]]],
  ];
  /** bank's events of a mint by the token module and its transfer to `to` */
  const mintTo = (to: string, amount: string): Ev[] => [
    ['coin_received', [['receiver', mod], ['amount', amount]]],
    ['coinbase', [['minter', mod], ['amount', amount]]],
    ['coin_spent', [['spender', mod], ['amount', amount]]],
    ['coin_received', [['receiver', to], ['amount', amount]]],
    ['transfer', [['recipient', to], ['sender', mod], ['amount', amount]]],
    ['message', [['sender', mod]]],
  ];
  const action = (name: string, sender: string): Ev => ['message', [['action', `/chain.prc10.${name}`], ['sender', sender], ['module', 'token']]];
  const ok = (r: ExecTxResult): ExecTxResult => {
    expect(r.code, r.log).to.equal(0);
    return r;
  };
  /** delivers and expects the tx to fail with (codespace, code) and `log`, leaving the whole state as it was */
  const refused = async (key: typeof ALICE, m: ReturnType<typeof msg.issue>[], codespace: string, code: number, log: string): Promise<void> => {
    const before = snapshot(s);
    const r = await deliver(s, key, ...m);
    expect([r.codespace, r.code], r.log).to.deep.equal([codespace, code]);
    expect(r.log).to.equal(`failed to execute message; message index: ${m.length - 1}: ${log}`);
    expect(snapshot(s), 'no state change').to.deep.equal(before);
  };
  const issueKitty = async (over: Parameters<typeof msg.issue>[1] = { owner: ALICE.address }): Promise<ExecTxResult> => ok(await deliver(s, ALICE, msg.issue(s.registry, over)));

  beforeEach(async () => {
    s = await startChain();
    mod = moduleAddress(s);
  });
  afterEach(async () => {
    await s.chain.close();
  });

  describe('MsgIssueToken', () => {
    it('stores the token, writes its bank metadata, mints the initial supply to the owner and burns the issue fee; events in order', async () => {
      const r = await issueKitty();
      expect(token(s, 'kitty')).to.deep.equal({
        symbol: 'kitty', name: 'Kitty Token', scale: 6, min_unit: 'ukitty', initial_supply: 1000n, max_supply: 10000n, mintable: true, owner: ALICE.address,
      });
      expect(s.bank.getDenomMetadata(s.chain.ctx(), 'ukitty')).to.deep.equal({
        description: TOKEN_DESCRIPTION,
        denom_units: [{ denom: 'ukitty', exponent: 0, aliases: [] }, { denom: 'kitty', exponent: 6, aliases: [] }],
        base: 'ukitty', display: 'kitty', name: 'Kitty Token', symbol: 'KITTY', uri: '', uri_hash: '',
      });
      expect(balance(s, ALICE.address, 'ukitty')).to.equal(1000n * KITTY);
      expect(supply(s, 'ukitty')).to.equal(1000n * KITTY);
      expect(balance(s, ALICE.address)).to.equal(FUNDS - ISSUE_FEE_5);
      expect(supply(s)).to.equal(5n * FUNDS - ISSUE_FEE_5);
      expect(balance(s, mod)).to.equal(0n);
      expect(flatEvents(r.events)).to.deep.equal([
        action('MsgIssueToken', ALICE.address),
        ...payAndBurn(ALICE.address, `${ISSUE_FEE_5}${NATIVE}`),
        ...mintTo(ALICE.address, `${1000n * KITTY}ukitty`),
        ['message', [['module', 'token']]],
        ['issue_token', [['symbol', 'kitty'], ['scale', '6'], ['initial_supply', '1000'], ['owner', ALICE.address]]],
      ]);
    });

    it('is accepted under the original type URL /plugchain.prc10.MsgIssueToken (message.action stays canonical)', async () => {
      const r = ok(await deliver(s, ALICE, msg.issue(s.registry, { owner: ALICE.address }, '/plugchain.prc10.MsgIssueToken')));
      expect(flatEvents(r.events)[0]).to.deep.equal(action('MsgIssueToken', ALICE.address));
      expect(token(s, 'kitty')?.owner).to.equal(ALICE.address);
    });

    it('max_supply 0: 2^64 − 1 when mintable, the initial supply when not; an initial supply of 0 mints nothing', async () => {
      await issueKitty({ owner: ALICE.address, max_supply: 0n, mintable: true });
      expect(token(s, 'kitty')?.max_supply).to.equal(MAXIMUM_MAX_SUPPLY);
      ok(await deliver(s, ALICE, msg.issue(s.registry, { owner: ALICE.address, symbol: 'doggo', min_unit: 'udoggo', max_supply: 0n, mintable: false })));
      expect(token(s, 'doggo')?.max_supply).to.equal(1000n);
      const r = ok(await deliver(s, BOB, msg.issue(s.registry, { owner: BOB.address, symbol: 'zero', min_unit: 'uzero', initial_supply: 0n, max_supply: 0n })));
      expect(token(s, 'zero')?.initial_supply).to.equal(0n);
      expect(supply(s, 'uzero')).to.equal(0n);
      // the mint of nothing (the SDK's bank events with empty amounts, as the original emitted them)
      expect(flatEvents(r.events).slice(7, 13)).to.deep.equal(mintTo(BOB.address, coins(0n, 'uzero')));
    });

    it('refuses invalid fields (ValidateBasic, in the original order) with nothing changed', async () => {
      const cases: [Partial<Parameters<typeof msg.issue>[1]>, number, string][] = [
        [{ symbol: 'Kitty' }, 4, 'invalid symbol: Kitty, only accepts english lowercase letters and numbers, length [2, 8], and begin with an english letter, regexp: ^[a-z][a-z0-9]{1,7}$: invalid standard denom'],
        [{ symbol: 'ethkitty' }, 4, 'invalid token: ethkitty, can not begin with keyword: (ibc|btc|eth|ada|bnb|usdt|xrp|link|doge|eos|etc): invalid standard denom'],
        [{ min_unit: 'u' }, 3, 'invalid minUnit: u, only accepts english lowercase letters and numbers, length [2, 8], and begin with an english letter, regexp: ^[a-z][a-z0-9]{1,7}$: invalid token min unit'],
        [{ min_unit: 'btcmin' }, 4, 'invalid token: btcmin, can not begin with keyword: (ibc|btc|eth|ada|bnb|usdt|xrp|link|doge|eos|etc): invalid standard denom'],
        [{ scale: 9 }, 7, 'invalid token scale 9, only accepts value [0, 8]: invalid token scale'],
        [{ name: '' }, 2, 'invalid token name , only accepts length (0, 32]: invalid token name'],
        [{ name: 'x'.repeat(33) }, 2, `invalid token name ${'x'.repeat(33)}, only accepts length (0, 32]: invalid token name`],
        [{ initial_supply: 10001n }, 6, 'invalid token max supply 10000, only accepts value [10001, 18446744073709551615]: invalid token maximum supply'],
        [{ initial_supply: 100_000_000_001n, max_supply: 0n }, 5, 'invalid token initial supply 100000000001, only accepts value [0, 100000000000]: invalid token initial supply'],
      ];
      for (const [over, code, log] of cases) await refused(ALICE, [msg.issue(s.registry, { owner: ALICE.address, ...over })], 'token', code, log);
    });

    it('refuses a taken symbol or min unit (token 8), either way round, with nothing changed (the fee not taken)', async () => {
      await issueKitty();
      const cases: [string, string, string][] = [
        ['kitty', 'ukit2', 'symbol already exists: kitty'],
        ['ukitty', 'ukit2', 'symbol already exists: ukitty'],
        ['kitty2', 'kitty', 'min-unit already exists: kitty'],
        ['kitty2', 'ukitty', 'min-unit already exists: ukitty'],
        // the native token's symbol and min unit are taken too
        ['chain', 'uchain', 'symbol already exists: chain'],
        ['achain', 'uachain', 'symbol already exists: achain'],
        ['mychain', 'achain', 'min-unit already exists: achain'],
      ];
      for (const [symbol, min_unit, log] of cases) {
        await refused(BOB, [msg.issue(s.registry, { owner: BOB.address, symbol, min_unit })], 'token', 8, `${log}: symbol already exists`);
      }
    });

    it('refuses a min unit that bank already knows (a genesis denom with a supply), token 8', async () => {
      await s.chain.close();
      s = await openChain();
      await s.chain.init(genesis(undefined, [{ address: POOR.address, coins: [{ denom: 'ufoo', amount: '5' }] }]));
      await refused(ALICE, [msg.issue(s.registry, { owner: ALICE.address, symbol: 'foo', min_unit: 'ufoo' })], 'token', 8, 'min-unit already exists: ufoo: symbol already exists');
    });

    it('refuses a min unit of 2 characters, no bank denom (sdk 10; the original panicked)', async () => {
      await refused(ALICE, [msg.issue(s.registry, { owner: ALICE.address, symbol: 'ab', min_unit: 'ab' })], 'sdk', 10, 'invalid denom: ab: invalid coins');
    });

    it('refuses a module account as owner (sdk 4) and an owner who cannot pay the fee (sdk 5)', async () => {
      await refused(ALICE, [msg.issue(s.registry, { owner: mod })], 'sdk', 4, `${mod} is a module account: unauthorized`);
      await refused(POOR, [msg.issue(s.registry, { owner: POOR.address })], 'sdk', 5, `spendable balance 0${NATIVE} is smaller than ${ISSUE_FEE_5}${NATIVE}: insufficient funds`);
    });

    it('a later failing message of the tx undoes the issue and its fee', async () => {
      const before = snapshot(s);
      const r = await deliver(s, ALICE, msg.issue(s.registry, { owner: ALICE.address }), msg.issue(s.registry, { owner: ALICE.address }));
      expect([r.codespace, r.code]).to.deep.equal(['token', 8]);
      expect(r.log).to.equal('failed to execute message; message index: 1: symbol already exists: kitty: symbol already exists');
      expect(snapshot(s)).to.deep.equal(before);
      expect(balance(s, ALICE.address)).to.equal(FUNDS);
    });
  });

  describe('MsgMintToken', () => {
    beforeEach(async () => {
      await issueKitty();
    });

    it('mints whole tokens to another account for the operate fee; events in order', async () => {
      const aliceBefore = balance(s, ALICE.address);
      const r = ok(await deliver(s, ALICE, msg.mint(s.registry, { symbol: 'kitty', to: BOB.address, amount: 100n, owner: ALICE.address })));
      expect(balance(s, BOB.address, 'ukitty')).to.equal(100n * KITTY);
      expect(supply(s, 'ukitty')).to.equal(1100n * KITTY);
      expect(balance(s, ALICE.address)).to.equal(aliceBefore - OPERATE_FEE_5);
      expect(flatEvents(r.events)).to.deep.equal([
        action('MsgMintToken', ALICE.address),
        ...payAndBurn(ALICE.address, `${OPERATE_FEE_5}${NATIVE}`),
        ...mintTo(BOB.address, `${100n * KITTY}ukitty`),
        ['message', [['module', 'token']]],
        ['mint_token', [['amount', '100kitty'], ['owner', ALICE.address]]],
      ]);
    });

    it('without `to`, mints to the owner; up to exactly the max supply', async () => {
      ok(await deliver(s, ALICE, msg.mint(s.registry, { symbol: 'kitty', to: '', amount: 9000n, owner: ALICE.address })));
      expect(balance(s, ALICE.address, 'ukitty')).to.equal(10000n * KITTY);
      await refused(ALICE, [msg.mint(s.registry, { symbol: 'kitty', to: '', amount: 1n, owner: ALICE.address })], 'token', 15,
        'the amount exceeds the mintable token amount; expected (0, 0], got 1: invalid amount');
    });

    it('refuses an amount beyond the max supply (token 15) with nothing changed', async () => {
      await refused(ALICE, [msg.mint(s.registry, { symbol: 'kitty', to: BOB.address, amount: 9001n, owner: ALICE.address })], 'token', 15,
        'the amount exceeds the mintable token amount; expected (0, 9000], got 9001: invalid amount');
    });

    it('refuses a non-mintable token (13), an unknown token (10), a non-owner (11: the message names the token\'s owner)', async () => {
      ok(await deliver(s, ALICE, msg.issue(s.registry, { owner: ALICE.address, symbol: 'fixed', min_unit: 'ufixed', mintable: false })));
      await refused(ALICE, [msg.mint(s.registry, { symbol: 'fixed', to: '', amount: 1n, owner: ALICE.address })], 'token', 13, 'fixed: token is not mintable');
      await refused(ALICE, [msg.mint(s.registry, { symbol: 'nokitty', to: '', amount: 1n, owner: ALICE.address })], 'token', 10, 'token symbol nokitty does not exist: token does not exist');
      await refused(ALICE, [msg.mint(s.registry, { symbol: 'a', to: '', amount: 1n, owner: ALICE.address })], 'token', 10, 'token symbol a does not exist: token does not exist');
      await refused(BOB, [msg.mint(s.registry, { symbol: 'kitty', to: BOB.address, amount: 1n, owner: BOB.address })], 'token', 11,
        `the address ${ALICE.address} is not the owner of the token kitty: invalid token owner`);
    });

    it('takes the fee before the token checks: a non-owner who cannot pay gets sdk 5', async () => {
      await refused(POOR, [msg.mint(s.registry, { symbol: 'kitty', to: '', amount: 1n, owner: POOR.address })], 'sdk', 5,
        `spendable balance 0${NATIVE} is smaller than ${OPERATE_FEE_5}${NATIVE}: insufficient funds`);
    });

    it('refuses a module account as recipient (sdk 4) and a bad recipient address (sdk 7)', async () => {
      await refused(ALICE, [msg.mint(s.registry, { symbol: 'kitty', to: mod, amount: 1n, owner: ALICE.address })], 'sdk', 4, `${mod} is a module account: unauthorized`);
      const r = await deliver(s, ALICE, msg.mint(s.registry, { symbol: 'kitty', to: 'chain1nope', amount: 1n, owner: ALICE.address }));
      expect([r.codespace, r.code]).to.deep.equal(['sdk', 7]);
      expect(r.log).to.match(/invalid to address \(.+\): invalid address$/);
    });
  });

  describe('MsgEditToken', () => {
    beforeEach(async () => {
      await issueKitty();
    });

    it('changes the max supply and the name, in the token and in the bank metadata, for the operate fee', async () => {
      const aliceBefore = balance(s, ALICE.address);
      const r = ok(await deliver(s, ALICE, msg.edit(s.registry, { symbol: 'kitty', name: 'Cat Coin', max_supply: 5000n, owner: ALICE.address })));
      expect(token(s, 'kitty')).to.include({ name: 'Cat Coin', max_supply: 5000n });
      // the original left the metadata's name as it was
      expect(s.bank.getDenomMetadata(s.chain.ctx(), 'ukitty')?.name).to.equal('Cat Coin');
      expect(balance(s, ALICE.address)).to.equal(aliceBefore - OPERATE_FEE_5);
      expect(flatEvents(r.events)).to.deep.equal([
        action('MsgEditToken', ALICE.address),
        ...payAndBurn(ALICE.address, `${OPERATE_FEE_5}${NATIVE}`),
        ['message', [['module', 'token']]],
        ['edit_token', [['owner', ALICE.address], ['symbol', 'kitty']]],
      ]);
    });

    it('[do-not-modify] keeps the name; the max supply may go down to the whole supply', async () => {
      ok(await deliver(s, ALICE, msg.edit(s.registry, { symbol: 'kitty', name: DO_NOT_MODIFY, max_supply: 1000n, owner: ALICE.address })));
      expect(token(s, 'kitty')).to.include({ name: 'Kitty Token', max_supply: 1000n });
      expect(s.bank.getDenomMetadata(s.chain.ctx(), 'ukitty')?.name).to.equal('Kitty Token');
    });

    it('refuses a max supply below the supply (6) or 0 (6), a bad name (2), a bad symbol (4), an unknown token (10), a non-owner (11)', async () => {
      const edit = (m: Partial<Parameters<typeof msg.edit>[1]>) => msg.edit(s.registry, { symbol: 'kitty', name: DO_NOT_MODIFY, max_supply: 5000n, owner: ALICE.address, ...m });
      await refused(ALICE, [edit({ max_supply: 999n })], 'token', 6, 'max supply must not be less than 1000: invalid token maximum supply');
      await refused(ALICE, [edit({ max_supply: 0n })], 'token', 6, 'invalid token amount 0, only accepts value (0, 18446744073709551615]: invalid token maximum supply');
      await refused(ALICE, [edit({ name: '' })], 'token', 2, 'invalid token name , only accepts length (0, 32]: invalid token name');
      await refused(ALICE, [edit({ symbol: 'KITTY' })], 'token', 4, 'invalid symbol: KITTY, only accepts english lowercase letters and numbers, length [2, 8], and begin with an english letter, regexp: ^[a-z][a-z0-9]{1,7}$: invalid standard denom');
      await refused(ALICE, [edit({ symbol: 'nokitty' })], 'token', 10, 'token symbol nokitty does not exist: token does not exist');
      await refused(BOB, [edit({ owner: BOB.address })], 'token', 11, `the address ${ALICE.address} is not the owner of the token kitty: invalid token owner`);
    });
  });

  describe('MsgBurnToken', () => {
    beforeEach(async () => {
      await issueKitty();
    });

    it('burns whole tokens of the owner (the max supply stays) for the operate fee; events in order', async () => {
      const aliceBefore = balance(s, ALICE.address);
      const r = ok(await deliver(s, ALICE, msg.burn(s.registry, { symbol: 'kitty', amount: 10n, owner: ALICE.address })));
      expect(balance(s, ALICE.address, 'ukitty')).to.equal(990n * KITTY);
      expect(supply(s, 'ukitty')).to.equal(990n * KITTY);
      expect(token(s, 'kitty')?.max_supply).to.equal(10000n);
      expect(balance(s, ALICE.address)).to.equal(aliceBefore - OPERATE_FEE_5);
      expect(flatEvents(r.events)).to.deep.equal([
        action('MsgBurnToken', ALICE.address),
        ...payAndBurn(ALICE.address, `${OPERATE_FEE_5}${NATIVE}`),
        ...payAndBurn(ALICE.address, `${10n * KITTY}ukitty`),
        ['message', [['module', 'token']]],
        ['burn_token', [['sender', ALICE.address], ['amount', '10kitty']]],
      ]);
    });

    it('refuses 0 (6), more than the balance (sdk 5), an unknown token (10), a non-owner holding tokens (11)', async () => {
      ok(await deliver(s, ALICE, msg.mint(s.registry, { symbol: 'kitty', to: BOB.address, amount: 5n, owner: ALICE.address })));
      await refused(ALICE, [msg.burn(s.registry, { symbol: 'kitty', amount: 0n, owner: ALICE.address })], 'token', 6,
        'invalid token amount 0, only accepts value (0, 18446744073709551615]: invalid token maximum supply');
      await refused(ALICE, [msg.burn(s.registry, { symbol: 'kitty', amount: 1001n, owner: ALICE.address })], 'sdk', 5,
        `spendable balance ${1000n * KITTY}ukitty is smaller than ${1001n * KITTY}ukitty: insufficient funds`);
      await refused(ALICE, [msg.burn(s.registry, { symbol: 'nokitty', amount: 1n, owner: ALICE.address })], 'token', 10, 'token symbol nokitty does not exist: token does not exist');
      await refused(BOB, [msg.burn(s.registry, { symbol: 'kitty', amount: 1n, owner: BOB.address })], 'token', 11, `the address ${ALICE.address} is not the owner of the token kitty: invalid token owner`);
    });
  });

  describe('MsgTransferOwnerToken', () => {
    beforeEach(async () => {
      await issueKitty();
    });

    it('makes `to` the owner (the owner index moves); then the old owner\'s mint fails and the new owner\'s works', async () => {
      const aliceBefore = balance(s, ALICE.address);
      const r = ok(await deliver(s, ALICE, msg.transfer(s.registry, { symbol: 'kitty', owner: ALICE.address, to: BOB.address })));
      expect(token(s, 'kitty')?.owner).to.equal(BOB.address);
      expect(balance(s, ALICE.address)).to.equal(aliceBefore - OPERATE_FEE_5);
      // the tokens stay with the old owner
      expect(balance(s, ALICE.address, 'ukitty')).to.equal(1000n * KITTY);
      expect(s.keeper.getTokens(s.chain.ctx(), codec.decode(ALICE.address))).to.deep.equal([]);
      expect(s.keeper.getTokens(s.chain.ctx(), codec.decode(BOB.address)).map((t) => t.symbol)).to.deep.equal(['kitty']);
      expect(flatEvents(r.events)).to.deep.equal([
        action('MsgTransferOwnerToken', ALICE.address),
        ...payAndBurn(ALICE.address, `${OPERATE_FEE_5}${NATIVE}`),
        ['message', [['module', 'token']]],
        ['change_owner_token', [['symbol', 'kitty'], ['owner', ALICE.address], ['to', BOB.address]]],
      ]);
      await refused(ALICE, [msg.mint(s.registry, { symbol: 'kitty', to: '', amount: 1n, owner: ALICE.address })], 'token', 11,
        `the address ${BOB.address} is not the owner of the token kitty: invalid token owner`);
      ok(await deliver(s, BOB, msg.mint(s.registry, { symbol: 'kitty', to: '', amount: 1n, owner: BOB.address })));
      expect(balance(s, BOB.address, 'ukitty')).to.equal(KITTY);
    });

    it('refuses a module account (sdk 4), a bad address (sdk 7), a non-owner (11: the message names the sender), an unknown token (10)', async () => {
      const transfer = (m: Partial<Parameters<typeof msg.transfer>[1]>) => msg.transfer(s.registry, { symbol: 'kitty', owner: ALICE.address, to: BOB.address, ...m });
      await refused(ALICE, [transfer({ to: mod })], 'sdk', 4, `${mod} is a module account: unauthorized`);
      await refused(BOB, [transfer({ owner: BOB.address, to: CAROL.address })], 'token', 11, `the address ${BOB.address} is not the owner of the token kitty: invalid token owner`);
      await refused(ALICE, [transfer({ symbol: 'nokitty' })], 'token', 10, 'token symbol nokitty does not exist: token does not exist');
      await refused(ALICE, [transfer({ symbol: 'K' })], 'token', 4,
        'invalid symbol: K, only accepts english lowercase letters and numbers, length [2, 8], and begin with an english letter, regexp: ^[a-z][a-z0-9]{1,7}$: invalid standard denom');
      const before = snapshot(s);
      const r = await deliver(s, ALICE, transfer({ to: 'chain1nope' }));
      expect([r.codespace, r.code]).to.deep.equal(['sdk', 7]);
      expect(r.log).to.match(/invalid to address \(.+\): invalid address$/);
      expect(snapshot(s)).to.deep.equal(before);
    });
  });

  it('a fee in a symbol-denominated base (500 chain): the same burn, in achain', async () => {
    await s.chain.close();
    s = await openChain();
    await s.chain.init(genesis(tokenGenesisJson(s, { params: { issue_token_base_fee: { denom: 'chain', amount: '500' } } })));
    mod = moduleAddress(s);
    await issueKitty();
    // 500 / 12.52 = 39.9… → 39 chain
    expect(balance(s, ALICE.address)).to.equal(FUNDS - 39n * E18);
    expect(supply(s)).to.equal(5n * FUNDS - 39n * E18);
  });
});
