import { expect } from 'chai';
import { Progress, formatDuration } from '../src/index.js';

function fakeStream(isTTY: boolean, columns?: number) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns, write: (s: string) => { writes.push(s); return true; } } };
}

describe('Progress', () => {
  it('on a terminal: one redrawn line with bar, percentage, count/total, rate and ETA; a summary line at done()', () => {
    let t = 0;
    const { writes, stream } = fakeStream(true);
    const p = new Progress({ label: 'genesis auth.accounts', total: 1000, stream, now: () => t, redrawMs: 100 });
    t = 50;
    p.tick(100); // too soon after the start: no redraw
    expect(writes).to.deep.equal([]);
    t = 1000;
    p.tick(150);
    expect(writes).to.deep.equal(['\rgenesis auth.accounts [######..................] 25% 250/1,000 entries 250/s ETA 3s\x1b[K']);
    t = 1050;
    p.tick(10); // within redrawMs of the last redraw
    expect(writes).to.have.length(1);
    t = 4000;
    p.tick(740);
    expect(writes[1]).to.equal('\rgenesis auth.accounts [########################] 100% 1,000/1,000 entries 250/s ETA 0s\x1b[K');
    p.done();
    expect(writes[2]).to.equal('\rgenesis auth.accounts: 1,000 entries in 4.0s (250/s)\x1b[K\n');
    p.done();
    p.tick();
    expect(writes).to.have.length(3);
    expect(p.count).to.equal(1001);
  });

  it('on a terminal: the line is cut to the terminal width; without a total no bar and no ETA', () => {
    let t = 0;
    const { writes, stream } = fakeStream(true, 20);
    const p = new Progress({ label: 'export bank.balances', stream, now: () => t });
    t = 2000;
    p.tick(5000);
    expect(writes[0]).to.equal('\rexport bank.balance\x1b[K');
    const w2 = fakeStream(true);
    const q = new Progress({ label: 'export', stream: w2.stream, now: () => t, unit: 'blocks' });
    t = 4000;
    q.tick(3);
    expect(w2.writes[0]).to.equal('\rexport 3 blocks 2/s\x1b[K');
  });

  it('not a terminal: plain lines at most every intervalMs, through log when given, and one at done()', () => {
    let t = 0;
    const { writes, stream } = fakeStream(false);
    const logged: string[] = [];
    const p = new Progress({ label: 'replay', total: 100, unit: 'blocks', stream, now: () => t, intervalMs: 5000, log: (l) => logged.push(l) });
    for (let i = 0; i < 60; i++) {
      t += 100;
      p.tick();
    }
    // 6 s: one line, at 5 s
    expect(logged).to.deep.equal(['replay 50% 50/100 blocks 10/s ETA 5s']);
    p.done();
    expect(logged[1]).to.equal('replay: 60 blocks in 6.0s (10/s)');
    expect(writes).to.deep.equal([]);
    // without log: written to the stream
    const plain = fakeStream(false);
    const q = new Progress({ label: 'x', stream: plain.stream, now: () => t });
    q.done();
    expect(plain.writes).to.deep.equal(['x: 0 entries in 0.0s\n']);
  });

  it('silent: counts but writes nothing', () => {
    const { writes, stream } = fakeStream(true);
    const p = new Progress({ label: 'x', stream, silent: true, redrawMs: 0 });
    p.tick(5);
    p.done();
    expect(writes).to.deep.equal([]);
    expect(p.count).to.equal(5);
  });

  it('formatDuration', () => {
    expect([0, 42.4, 187, 3720, -1, Infinity].map(formatDuration)).to.deep.equal(['0s', '42s', '3m07s', '1h02m', '?', '?']);
  });
});
