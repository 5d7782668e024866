import { expect } from 'chai';
import { flattenEvents, parseQuery, type Event } from '../src/index.js';

describe('flattenEvents', () => {
  const events: Event[] = [
    { type: 'message', attributes: [{ key: 'action', value: '/cosmos.bank.v1beta1.MsgSend', index: true }, { key: 'sender', value: 'chain1abc' }] },
    { type: 'transfer', attributes: [{ key: 'amount', value: '10stake' }, { key: '', value: 'dropped' }] },
    { type: 'message', attributes: [{ key: 'sender', value: 'chain1abc' }, { key: 'module', value: 'bank' }] },
    { type: '', attributes: [{ key: 'k', value: 'dropped' }] },
  ];

  it('maps every non-empty key to its values in order, duplicates kept, indexed or not', () => {
    expect(flattenEvents(events)).to.deep.equal({
      'message.action': ['/cosmos.bank.v1beta1.MsgSend'],
      'message.sender': ['chain1abc', 'chain1abc'],
      'transfer.amount': ['10stake'],
      'message.module': ['bank'],
    });
  });

  it('appends extra keys after the app values', () => {
    const flat = flattenEvents(
      [{ type: 'tx', attributes: [{ key: 'height', value: 'app-value' }] }, ...events],
      { 'tm.event': ['Tx'], 'tx.hash': ['ABCDEF'], 'tx.height': ['5'], 'empty.key': [] },
    );
    expect(flat['tm.event']).to.deep.equal(['Tx']);
    expect(flat['tx.hash']).to.deep.equal(['ABCDEF']);
    expect(flat['tx.height']).to.deep.equal(['app-value', '5']);
    expect(Object.hasOwn(flat, 'empty.key')).to.equal(false);
    expect(Object.keys(flat)).to.deep.equal(['tx.height', 'message.action', 'message.sender', 'transfer.amount', 'message.module', 'tm.event', 'tx.hash']);
  });

  it('returns an empty map for no events and does not alias input arrays', () => {
    expect(flattenEvents([])).to.deep.equal({});
    const extra = { 'tm.event': ['NewBlock'] };
    const flat = flattenEvents([], extra);
    flat['tm.event']!.push('mutated');
    expect(extra['tm.event']).to.deep.equal(['NewBlock']);
  });

  it('stores a "__proto__" key as an own property', () => {
    const flat = flattenEvents([], JSON.parse('{"__proto__":["x"]}') as Record<string, string[]>);
    expect(Object.hasOwn(flat, '__proto__')).to.equal(true);
    expect(Object.getPrototypeOf(flat)).to.equal(Object.prototype);
  });

  it('feeds Query.matches', () => {
    const flat = flattenEvents(events, { 'tm.event': ['Tx'] });
    expect(parseQuery("tm.event='Tx' AND message.sender='chain1abc' AND transfer.amount >= 10").matches(flat)).to.equal(true);
    expect(parseQuery("message.module='staking'").matches(flat)).to.equal(false);
  });
});
