import { expect } from 'chai';
import { parseArgs, parseSkipUpgradeHeights } from '../src/cli.js';

describe('chaind --unsafe-skip-upgrades', () => {
  it('takes one height, a comma list, several values or the flag repeated', () => {
    const cases: [string[], number[]][] = [
      [['start', '--unsafe-skip-upgrades', '100'], [100]],
      [['start', '--unsafe-skip-upgrades', '200,100'], [100, 200]],
      [['start', '--unsafe-skip-upgrades', '100', '200', '--home', '/x'], [100, 200]],
      [['dev', '--unsafe-skip-upgrades=7', '--unsafe-skip-upgrades', '9', '--unsafe-skip-upgrades=7'], [7, 9]],
      [['start', '--home', '/x'], []],
    ];
    for (const [argv, heights] of cases) {
      const a = parseArgs(argv);
      expect(parseSkipUpgradeHeights(a.flags['unsafe-skip-upgrades']), argv.join(' ')).to.deep.equal(heights);
    }
    const a = parseArgs(['start', '--unsafe-skip-upgrades', '100', '200', '--home', '/x']);
    expect([a.command, a.positional, a.flags.home]).to.deep.equal(['start', [], '/x']);
  });

  it('refuses a missing or invalid height', () => {
    expect(() => parseSkipUpgradeHeights(parseArgs(['start', '--unsafe-skip-upgrades']).flags['unsafe-skip-upgrades'])).to.throw(
      '--unsafe-skip-upgrades expects heights, e.g. --unsafe-skip-upgrades 100 or 100,200',
    );
    expect(() => parseSkipUpgradeHeights('0')).to.throw('--unsafe-skip-upgrades: invalid height "0"');
    expect(() => parseSkipUpgradeHeights('5,x')).to.throw('--unsafe-skip-upgrades: invalid height "x"');
    expect(() => parseSkipUpgradeHeights('99999999999999999999')).to.throw('invalid height');
  });
});
