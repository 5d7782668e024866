import { expect } from 'chai';
import { parseDurationMs, parseListenAddress } from '../src/index.js';

describe('config values the transports read', () => {
  it('parses durations and listen addresses', () => {
    expect(parseDurationMs('1s')).to.equal(1000);
    expect(parseDurationMs('1m30s')).to.equal(90_000);
    expect(parseDurationMs('250ms')).to.equal(250);
    expect(() => parseDurationMs('fast')).to.throw(/invalid duration/);
    expect(parseListenAddress('tcp://0.0.0.0:1317')).to.deep.equal({ host: '0.0.0.0', port: 1317 });
    expect(parseListenAddress('127.0.0.1:26657')).to.deep.equal({ host: '127.0.0.1', port: 26657 });
    expect(() => parseListenAddress('tcp://host:99999')).to.throw(/invalid port/);
  });
});
