import { expect } from 'chai';
import { toBase64 } from '@chain/crypto';
import { FEE_COLLECTOR } from '@chain/auth';
import { TestChain, devKey, genesisState, coins, flatEvents, DENOM } from './helpers.js';

describe('bank: MsgSend and MsgMultiSend through the app', () => {
  const A = devKey(0);
  const B = devKey(1);
  const C = devKey(2); // no account at genesis
  let chain: TestChain;
  let feeCollector: string;

  beforeEach(async () => {
    chain = await TestChain.create();
    await chain.init(genesisState([
      { address: A.address, coins: [{ denom: DENOM, amount: '1000000' }, { denom: 'foo', amount: '500' }] },
      { address: B.address, coins: coins(1000) },
    ]));
    feeCollector = chain.codec.encode(chain.ak.getModuleAddress(FEE_COLLECTOR));
  });
  afterEach(async () => {
    await chain.close();
  });

  /** Signature of a raw tx, base64 (the value of the ante's `tx.signature` event). */
  const sigOf = (raw: Uint8Array): string => toBase64(chain.registry.decode<{ signatures: Uint8Array[] }>('chain.tx.v1beta1.TxRaw', raw).signatures[0]!);

  it('moves coins, charges the fee, keeps the supply and emits the SDK events in order', async () => {
    const tx = chain.sign(A, [chain.msgSend(A.address, C.address, coins(12345))]);
    const r = await chain.deliver(tx);
    expect(r.code, r.log).to.equal(0);
    expect(r.codespace).to.equal('');
    expect(r.gasWanted).to.equal(200000);
    expect(r.gasUsed).to.be.greaterThan(0).and.lessThan(200000);
    expect(chain.balance(A.address)).to.equal(1000000n - 12345n - 100n);
    expect(chain.balance(C.address)).to.equal(12345n);
    expect(chain.balance(feeCollector)).to.equal(100n);
    expect(chain.balance(A.address, 'foo')).to.equal(500n);
    expect(chain.supply()).to.equal(1001000n);
    expect(chain.supply('foo')).to.equal(500n);
    // the recipient got an account; the sender's sequence moved
    expect(chain.account(C.addr)?.base.sequence).to.equal(0n);
    expect(chain.account(A.addr)?.base.sequence).to.equal(1n);
    expect(flatEvents(r.events)).to.deep.equal([
      ['coin_spent', [['spender', A.address], ['amount', '100achain']]],
      ['coin_received', [['receiver', feeCollector], ['amount', '100achain']]],
      ['transfer', [['recipient', feeCollector], ['sender', A.address], ['amount', '100achain']]],
      ['message', [['sender', A.address]]],
      ['tx', [['fee', '100achain'], ['fee_payer', A.address]]],
      ['tx', [['acc_seq', `${A.address}/0`]]],
      ['tx', [['signature', sigOf(tx)]]],
      ['message', [['action', '/chain.bank.v1beta1.MsgSend'], ['sender', A.address], ['module', 'bank']]],
      ['coin_spent', [['spender', A.address], ['amount', '12345achain']]],
      ['coin_received', [['receiver', C.address], ['amount', '12345achain']]],
      ['transfer', [['recipient', C.address], ['sender', A.address], ['amount', '12345achain']]],
      ['message', [['sender', A.address]]],
    ]);
    // data is TxMsgData with one MsgSendResponse
    const data = chain.registry.decode<{ msg_responses: { type_url: string }[] }>('chain.base.abci.v1beta1.TxMsgData', r.data);
    expect(data.msg_responses.map((m) => m.type_url)).to.deep.equal(['/chain.bank.v1beta1.MsgSendResponse']);
    const log = JSON.parse(r.log) as { msg_index: number; events: { type: string }[] }[];
    expect(log).to.have.length(1);
    expect(log[0]!.msg_index).to.equal(0);
  });

  it('accepts the Cosmos type URL /cosmos.bank.v1beta1.MsgSend and reports the canonical action', async () => {
    const r = await chain.deliver(chain.sign(A, [chain.msgSend(A.address, B.address, [{ denom: DENOM, amount: '7' }, { denom: 'foo', amount: '3' }], '/cosmos.bank.v1beta1.MsgSend')]));
    expect(r.code, r.log).to.equal(0);
    const action = r.events.find((e) => e.type === 'message' && e.attributes.some((a) => a.key === 'action'));
    expect(action?.attributes.find((a) => a.key === 'action')?.value).to.equal('/chain.bank.v1beta1.MsgSend');
    expect(chain.balance(B.address)).to.equal(1007n);
    expect(chain.balance(B.address, 'foo')).to.equal(3n);
    expect(chain.balance(A.address, 'foo')).to.equal(497n);
  });

  it('runs several messages of one tx in order and sequences consecutive txs', async () => {
    const t1 = chain.sign(A, [chain.msgSend(A.address, B.address, coins(1)), chain.msgSend(A.address, C.address, coins(2))]);
    const t2 = chain.sign(A, [chain.msgSend(A.address, B.address, coins(4))], { sequence: 1n });
    const res = await chain.block([t1, t2]);
    expect(res.txResults.map((r) => r.code)).to.deep.equal([0, 0]);
    expect(chain.balance(B.address)).to.equal(1005n);
    expect(chain.balance(C.address)).to.equal(2n);
    expect(chain.balance(A.address)).to.equal(1000000n - 7n - 200n);
    expect(chain.account(A.addr)?.base.sequence).to.equal(2n);
  });

  it('insufficient funds: code 5, only the fee and the sequence change', async () => {
    const r = await chain.deliver(chain.sign(B, [chain.msgSend(B.address, C.address, coins(5000))]));
    expect(r.code).to.equal(5);
    expect(r.codespace).to.equal('sdk');
    expect(r.log).to.equal('failed to execute message; message index: 0: spendable balance 900achain is smaller than 5000achain: insufficient funds');
    expect(chain.balance(B.address)).to.equal(900n);
    expect(chain.balance(C.address)).to.equal(0n);
    expect(chain.account(C.addr)).to.equal(undefined);
    expect(chain.account(B.addr)?.base.sequence).to.equal(1n);
    expect(chain.balance(feeCollector)).to.equal(100n);
    // failed txs carry only the ante events
    expect(r.events.map((e) => e.type)).to.deep.equal(['coin_spent', 'coin_received', 'transfer', 'message', 'tx', 'tx', 'tx']);
  });

  it('a failing second message undoes the first one', async () => {
    const r = await chain.deliver(chain.sign(B, [chain.msgSend(B.address, C.address, coins(10)), chain.msgSend(B.address, C.address, coins(100000))]));
    expect(r.code).to.equal(5);
    expect(r.log).to.match(/^failed to execute message; message index: 1: spendable balance 890achain is smaller than 100000achain: insufficient funds$/);
    expect(chain.balance(C.address)).to.equal(0n);
    expect(chain.balance(B.address)).to.equal(900n);
  });

  const failing: [string, () => Uint8Array, number, string, string][] = [
    ['a zero amount', () => chain.sign(A, [chain.msgSend(A.address, B.address, coins(0))]), 10, 'sdk', '0achain: invalid coins'],
    ['an invalid denom', () => chain.sign(A, [chain.msgSend(A.address, B.address, coins(5, '1bad'))]), 10, 'sdk', '51bad: invalid coins'],
    ['unsorted coins', () => chain.sign(A, [chain.msgSend(A.address, B.address, [{ denom: 'foo', amount: '1' }, { denom: DENOM, amount: '1' }])]), 10, 'sdk', '1foo,1achain: invalid coins'],
    ['duplicate denoms', () => chain.sign(A, [chain.msgSend(A.address, B.address, [{ denom: DENOM, amount: '1' }, { denom: DENOM, amount: '2' }])]), 10, 'sdk', '1achain,2achain: invalid coins'],
    ['empty coins', () => chain.sign(A, [chain.msgSend(A.address, B.address, [])]), 10, 'sdk', 'empty coins: invalid coins'],
    ['a bad recipient checksum', () => chain.sign(A, [chain.msgSend(A.address, B.address.slice(0, -1) + (B.address.endsWith('q') ? 'p' : 'q'), coins(1))]), 7, 'sdk', 'invalid to address: decoding bech32 failed'],
    ['a recipient with another prefix', () => chain.sign(A, [chain.msgSend(A.address, 'cosmos1qyqszqgpqyqszqgpqyqszqgpqyqszqgpjnp7du', coins(1))]), 7, 'sdk', 'invalid to address: invalid Bech32 prefix; expected chain, got cosmos: invalid address'],
  ];
  for (const [what, build, code, codespace, log] of failing) {
    it(`rejects ${what} with code ${code} and leaves balances alone`, async () => {
      const r = await chain.deliver(build());
      expect(r.code, r.log).to.equal(code);
      expect(r.codespace).to.equal(codespace);
      expect(r.log.startsWith(`failed to execute message; message index: 0: ${log}`), r.log).to.equal(true);
      expect(chain.balance(B.address)).to.equal(1000n);
      expect(chain.balance(A.address)).to.equal(1000000n - 100n);
    });
  }

  it('refuses to send to a module account (blocked address): code 4', async () => {
    const r = await chain.deliver(chain.sign(A, [chain.msgSend(A.address, feeCollector, coins(10))]));
    expect(r.code).to.equal(4);
    expect(r.codespace).to.equal('sdk');
    expect(r.log).to.equal(`failed to execute message; message index: 0: ${feeCollector} is not allowed to receive funds: unauthorized`);
    expect(chain.balance(feeCollector)).to.equal(100n); // just the fee
  });

  it('MultiSend: one input, several outputs, events per output', async () => {
    const msg = chain.msgMultiSend([{ address: A.address, coins: coins(30) }], [{ address: B.address, coins: coins(10) }, { address: C.address, coins: coins(20) }]);
    const r = await chain.deliver(chain.sign(A, [msg]));
    expect(r.code, r.log).to.equal(0);
    expect(chain.balance(B.address)).to.equal(1010n);
    expect(chain.balance(C.address)).to.equal(20n);
    expect(chain.balance(A.address)).to.equal(1000000n - 130n);
    expect(chain.account(C.addr)).to.not.equal(undefined);
    const msgEvents = flatEvents(r.events.slice(7));
    expect(msgEvents).to.deep.equal([
      ['message', [['action', '/chain.bank.v1beta1.MsgMultiSend'], ['sender', A.address], ['module', 'bank']]],
      ['coin_spent', [['spender', A.address], ['amount', '30achain']]],
      ['message', [['sender', A.address]]],
      ['coin_received', [['receiver', B.address], ['amount', '10achain']]],
      ['transfer', [['recipient', B.address], ['amount', '10achain']]],
      ['coin_received', [['receiver', C.address], ['amount', '20achain']]],
      ['transfer', [['recipient', C.address], ['amount', '20achain']]],
    ]);
  });

  it('MultiSend: inputs must equal outputs (bank code 4), a send to a module account is refused', async () => {
    const bad = chain.msgMultiSend([{ address: A.address, coins: coins(30) }], [{ address: B.address, coins: coins(10) }]);
    const r1 = await chain.deliver(chain.sign(A, [bad]));
    expect([r1.code, r1.codespace, r1.log]).to.deep.equal([4, 'bank', 'failed to execute message; message index: 0: sum inputs != sum outputs']);
    const blocked = chain.msgMultiSend([{ address: A.address, coins: coins(30) }], [{ address: feeCollector, coins: coins(30) }]);
    const r2 = await chain.deliver(chain.sign(A, [blocked]));
    expect([r2.code, r2.codespace, r2.log]).to.deep.equal([4, 'sdk', `failed to execute message; message index: 0: ${feeCollector} is not allowed to receive funds: unauthorized`]);
    expect(chain.balance(A.address)).to.equal(1000000n - 200n);
  });

  it('MultiSend: no inputs is bank code 2 and no outputs bank code 3 (reported at their message index)', async () => {
    const noIn = chain.msgMultiSend([], [{ address: B.address, coins: coins(1) }]);
    const r1 = await chain.deliver(chain.sign(A, [chain.msgSend(A.address, B.address, coins(1)), noIn]));
    expect([r1.code, r1.codespace, r1.log]).to.deep.equal([2, 'bank', 'failed to execute message; message index: 1: no inputs to send transaction']);
    const noOut = chain.msgMultiSend([{ address: A.address, coins: coins(1) }], []);
    const r2 = await chain.deliver(chain.sign(A, [noOut]));
    expect([r2.code, r2.codespace, r2.log]).to.deep.equal([3, 'bank', 'failed to execute message; message index: 0: no outputs to send transaction']);
    expect(chain.balance(B.address)).to.equal(1000n);
  });

  it('MultiSend: two inputs is bank code 9 (multiple senders)', async () => {
    const two = chain.msgMultiSend([{ address: A.address, coins: coins(1) }, { address: B.address, coins: coins(1) }], [{ address: C.address, coins: coins(2) }]);
    // two signers: both sign (same body, each with its own account number)
    const r = await chain.deliver(chain.signMulti([A, B], [two]));
    expect([r.code, r.codespace, r.log]).to.deep.equal([9, 'bank', 'failed to execute message; message index: 0: multiple senders not allowed']);
  });
});

describe('bank: send_enabled', () => {
  const A = devKey(0);
  const B = devKey(1);
  let chain: TestChain;
  afterEach(async () => {
    await chain.close();
  });

  it('a denom disabled in genesis cannot be sent (bank code 5); others can', async () => {
    chain = await TestChain.create();
    await chain.init(genesisState(
      [{ address: A.address, coins: [{ denom: DENOM, amount: '1000' }, { denom: 'foo', amount: '500' }] }],
      { send_enabled: [{ denom: 'foo', enabled: false }] },
    ));
    const r = await chain.deliver(chain.sign(A, [chain.msgSend(A.address, B.address, coins(5, 'foo'))]));
    expect([r.code, r.codespace, r.log]).to.deep.equal([5, 'bank', 'failed to execute message; message index: 0: foo transfers are currently disabled: send transactions are disabled']);
    expect(chain.balance(B.address, 'foo')).to.equal(0n);
    const ok = await chain.deliver(chain.sign(A, [chain.msgSend(A.address, B.address, coins(5))]));
    expect(ok.code, ok.log).to.equal(0);
    // fees are not subject to send_enabled
    expect(chain.balance(A.address)).to.equal(1000n - 200n - 5n);
  });

  it('default_send_enabled=false disables every denom without an explicit entry', async () => {
    chain = await TestChain.create();
    await chain.init(genesisState(
      [{ address: A.address, coins: [{ denom: DENOM, amount: '1000' }, { denom: 'foo', amount: '500' }] }],
      { params: { send_enabled: [], default_send_enabled: false }, send_enabled: [{ denom: 'foo', enabled: true }] },
    ));
    const r = await chain.deliver(chain.sign(A, [chain.msgSend(A.address, B.address, [{ denom: DENOM, amount: '1' }, { denom: 'foo', amount: '1' }])]));
    expect([r.code, r.codespace, r.log]).to.deep.equal([5, 'bank', 'failed to execute message; message index: 0: achain transfers are currently disabled: send transactions are disabled']);
    const ok = await chain.deliver(chain.sign(A, [chain.msgSend(A.address, B.address, coins(1, 'foo'))]));
    expect(ok.code, ok.log).to.equal(0);
    expect(chain.balance(B.address, 'foo')).to.equal(1n);
  });
});
