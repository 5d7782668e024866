import { expect } from 'chai';
import { META_KEY, NS_STATE, decodeMeta, encodeMeta, stateKey } from '../src/index.js';
import { hex, u } from './helpers.js';

describe('key layout', () => {
  it('state keys are NS_STATE || key; metadata round-trips', () => {
    expect(hex(stateKey(u(0x61, 0x2f, 1)))).to.equal('01612f01');
    expect(NS_STATE).to.equal(1);
    expect(hex(META_KEY)).to.equal('0301');
    const m = decodeMeta(encodeMeta(12345678901, u(1, 2)));
    expect(m.height).to.equal(12345678901);
    expect(hex(m.appHash)).to.equal('0102');
    expect(decodeMeta(encodeMeta(0, u())).appHash.length).to.equal(0);
    expect(() => decodeMeta(u(1, 2))).to.throw('malformed store metadata');
  });
});
