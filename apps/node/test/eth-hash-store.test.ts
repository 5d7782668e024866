/** HOME/data/eth-hashes.db: the Ethereum block hashes the JSON-RPC computed, kept across restarts. */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LevelEthHashStore } from '../src/eth-hash-store.js';

describe('LevelEthHashStore', () => {
  it('reads what it was given at once, and after a close and reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eth-hashes-'));
    try {
      const path = join(dir, 'data', 'eth-hashes.db');
      const h = (n: number): string => '0x' + n.toString(16).padStart(2, '0').repeat(32);
      let s = await LevelEthHashStore.open(path);
      expect([s.hashAt(1), s.heightOf(h(1)), s.scannedTo()]).to.deep.equal([undefined, undefined, 0]);
      for (let i = 1; i <= 5; i++) s.put(i, h(i));
      s.setScannedTo(5);
      expect([s.hashAt(3), s.heightOf(h(4)), s.scannedTo()]).to.deep.equal([h(3), 4, 5]); // pending, not yet written
      await s.close();
      s = await LevelEthHashStore.open(path);
      expect([s.hashAt(3), s.heightOf(h(4)), s.heightOf(h(9)), s.heightOf('nothex'), s.scannedTo()]).to.deep.equal([h(3), 4, undefined, undefined, 5]);
      await s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
