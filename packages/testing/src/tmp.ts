import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temp folder and its remover. */
export function tempDir(tag: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `chain-${tag}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
