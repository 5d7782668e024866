/**
 * `chaind keys`: the keyring's two backends (test: plain files; file: scrypt + AES-256-GCM under a passphrase) and
 * both algorithms, with the dev mnemonic's known addresses; the file keyring refuses a wrong passphrase and never
 * writes a private key in clear; export/import round trips; the commands through `runClient`.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_MNEMONIC, fromHex, isValidMnemonic, toBech32, toHex } from '@chain/crypto';
import { Keyring, armorPrivateKey, bip44Path, deriveKey, unarmorPrivateKey, WrongPassphraseError } from '../src/cli/keyring.js';
import { runClient } from '../src/cli/commands.js';
import type { ClientIO } from '../src/cli/commands.js';
import { devAccounts, BECH32_PREFIX, BASE_DENOM, DEV_CHAIN_ID } from '../src/config/init.js';

/** the first Hardhat account: m/44'/60'/0'/0/0 of the dev mnemonic */
const HARDHAT_0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const HARDHAT_0_KEY = 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

export function fakeIO(input: string[] = []): ClientIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '', stderr: '', isTTY: false,
    out(t: string) { io.stdout += t; },
    err(t: string) { io.stderr += t; },
    async readLine() { return input.shift(); },
  };
  return io;
}

const STATIC = { bin: 'chaind', bech32Prefix: BECH32_PREFIX, devMnemonic: DEV_MNEMONIC, baseDenom: BASE_DENOM, devChainId: DEV_CHAIN_ID };
const noChain = async (): Promise<never> => { throw new Error('no chain in this test'); };

describe('chaind keys (the keyring)', function () {
  this.timeout(60_000);
  let home: string;
  beforeEach(() => { home = mkdtempSync(join(tmpdir(), 'chaind-keys-')); });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('derives the dev accounts of `chaind dev`: coin type 60 (eth_secp256k1, the Hardhat address) and 118 (secp256k1)', async () => {
    const kr = new Keyring({ backend: 'test', home, prefix: 'chain' });
    const dev = devAccounts(2);
    const eth0 = await kr.add('eth0', deriveKey(DEV_MNEMONIC, bip44Path(60, 0, 0)), 'eth_secp256k1', { path: bip44Path(60) });
    expect(eth0.address).to.equal(toBech32('chain', fromHex(HARDHAT_0.slice(2))));
    expect(eth0.address).to.equal(dev.find((d) => d.coinType === 60 && d.index === 0)!.address);
    expect(toHex(await kr.privateKey('eth0'))).to.equal(HARDHAT_0_KEY);
    const cosm1 = await kr.add('cosm1', deriveKey(DEV_MNEMONIC, bip44Path(118, 0, 1)), 'secp256k1');
    expect(cosm1.address).to.equal(dev.find((d) => d.coinType === 118 && d.index === 1)!.address);
    // lookup by name, bech32 address (any prefix) or 0x address
    expect(kr.get(eth0.address).name).to.equal('eth0');
    expect(kr.get(HARDHAT_0).name).to.equal('eth0');
    expect(kr.get(toBech32('chainvaloper', eth0.addressBytes)).name).to.equal('eth0');
    expect(kr.list().map((k) => k.name)).to.deep.equal(['cosm1', 'eth0']);
    expect(() => kr.get('nobody')).to.throw(/key "nobody" not found in the test keyring.*known keys: cosm1, eth0/);
    await kr.delete('cosm1');
    expect(kr.has('cosm1')).to.equal(false);
    // --account and --index change the path
    expect(bip44Path(60, 2, 3)).to.equal("m/44'/60'/2'/0/3");
    expect(() => bip44Path(60, -1)).to.throw('invalid account');
  });

  it('file backend: encrypted at rest, one passphrase for the keyring, a wrong passphrase refused', async () => {
    const pass = (p: string) => async () => p;
    const kr = new Keyring({ backend: 'file', home, prefix: 'chain', passphrase: pass('correct horse battery') });
    const key = deriveKey(DEV_MNEMONIC, bip44Path(60));
    const info = await kr.add('alice', key, 'eth_secp256k1');
    expect(info.address).to.equal(toBech32('chain', fromHex(HARDHAT_0.slice(2))));
    const cosmKey = deriveKey(DEV_MNEMONIC, bip44Path(118));
    await kr.add('bob', cosmKey, 'secp256k1');
    // nothing on disk carries the private keys in clear (hex, base64, raw bytes)
    const dir = join(home, 'keyring-file');
    for (const f of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, f));
      const text = bytes.toString('latin1');
      for (const k of [key, cosmKey]) {
        expect(text.toLowerCase()).not.to.include(toHex(k));
        expect(text).not.to.include(Buffer.from(k).toString('base64'));
        expect(text).not.to.include(Buffer.from(k).toString('base64url'));
        expect(bytes.includes(Buffer.from(k))).to.equal(false);
      }
    }
    // a fresh process (new Keyring) with the right passphrase reads them back; public data needs none
    const again = new Keyring({ backend: 'file', home, prefix: 'chain', passphrase: pass('correct horse battery') });
    expect(again.list().map((k) => k.address)).to.include(info.address);
    expect(toHex(await again.privateKey('alice'))).to.equal(HARDHAT_0_KEY);
    // a wrong passphrase: refused for reading, adding and deleting, and nothing changes
    const wrong = new Keyring({ backend: 'file', home, prefix: 'chain', passphrase: pass('wrong passphrase!') });
    let err: unknown;
    try { await wrong.privateKey('alice'); } catch (e) { err = e; }
    expect(err).to.be.instanceOf(WrongPassphraseError);
    expect((err as Error).message).to.match(/invalid passphrase/);
    for (const op of [() => wrong.add('carol', cosmKey, 'secp256k1'), () => wrong.delete('alice')]) {
      err = undefined;
      try { await op(); } catch (e) { err = e; }
      expect((err as Error).message).to.match(/invalid passphrase/);
    }
    expect(again.list().map((k) => k.name)).to.deep.equal(['alice', 'bob']);
    // a too-short first passphrase is refused
    const other = mkdtempSync(join(tmpdir(), 'chaind-keys-'));
    try {
      const short = new Keyring({ backend: 'file', home: other, prefix: 'chain', passphrase: pass('short') });
      err = undefined;
      try { await short.add('x', key, 'secp256k1'); } catch (e) { err = e; }
      expect((err as Error).message).to.match(/at least 8 characters/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    // a tampered record (swapped public part) does not decrypt
    const f = join(dir, 'alice.info');
    const rec = JSON.parse(readFileSync(f, 'utf8'));
    writeFileSync(f, JSON.stringify({ ...rec, address: toBech32('chain', new Uint8Array(20)) }));
    err = undefined;
    try { await again.privateKey('alice'); } catch (e) { err = e; }
    expect((err as Error).message).to.match(/decryption failed/);
  });

  it('export armor round trip; a wrong export passphrase is refused', () => {
    const key = deriveKey(DEV_MNEMONIC, bip44Path(118, 0, 5));
    const armor = armorPrivateKey(key, 'secp256k1', 'export pass 123');
    expect(armor).to.match(/^-----BEGIN CHAIN PRIVATE KEY-----/);
    expect(armor.toLowerCase()).not.to.include(toHex(key));
    const back = unarmorPrivateKey(armor, 'export pass 123');
    expect(toHex(back.privkey)).to.equal(toHex(key));
    expect(back.algo).to.equal('secp256k1');
    expect(() => unarmorPrivateKey(armor, 'another pass')).to.throw('invalid passphrase');
  });

  it('the keys commands: add --recover --dev (both algos), show --bech, list, export/import, delete, errors', async () => {
    const run = async (argv: string[], input: string[] = []) => {
      const io = fakeIO(input);
      const code = await runClient(['keys', ...argv, '--home', home], STATIC, noChain, io);
      return { code, out: io.stdout, err: io.stderr };
    };
    const dev = devAccounts(1);
    const eth = JSON.parse((await run(['add', 'dev0', '--recover', '--dev', '--algo', 'eth_secp256k1', '-o', 'json'])).out);
    expect(eth).to.include({ name: 'dev0', type: 'local', address: dev.find((d) => d.coinType === 60)!.address, algo: 'eth_secp256k1', path: "m/44'/60'/0'/0/0" });
    expect(JSON.parse(eth.pubkey)['@type']).to.equal('/ethermint.crypto.v1.ethsecp256k1.PubKey');
    const cosm = JSON.parse((await run(['add', 'c0', '--recover', '-o', 'json'], [DEV_MNEMONIC])).out);
    expect(cosm.address).to.equal(dev.find((d) => d.coinType === 118)!.address);
    expect((await run(['show', 'dev0', '-a'])).out.trim()).to.equal(eth.address);
    expect((await run(['show', 'dev0', '--bech', 'val', '-a'])).out.trim()).to.match(/^chainvaloper1/);
    expect((await run(['show', 'dev0', '--bech', 'cons', '--address'])).out.trim()).to.match(/^chainvalcons1/);
    expect(JSON.parse((await run(['list', '-o', 'json'])).out).map((k: { name: string }) => k.name)).to.deep.equal(['c0', 'dev0']);
    expect((await run(['list'])).out).to.include('- name: c0');
    // a new key comes with a new 24-word mnemonic, which recovers the same address
    const r = JSON.parse((await run(['add', 'rnd', '-o', 'json'])).out);
    expect(r.address).to.match(/^chain1/);
    expect(r.mnemonic.split(' ')).to.have.length(24);
    expect(isValidMnemonic(r.mnemonic)).to.equal(true);
    const again = JSON.parse((await run(['add', 'rnd2', '--recover', '-o', 'json'], [r.mnemonic])).out);
    expect(again.address).to.equal(r.address);
    const m = (await run(['mnemonic'])).out.trim();
    expect([m.split(' ').length, isValidMnemonic(m)]).to.deep.equal([24, true]);
    const i3 = JSON.parse((await run(['add', 'i3', '--dev', '--index', '3', '-o', 'json'])).out);
    expect(i3.address).to.equal(devAccounts(4).find((d) => d.coinType === 118 && d.index === 3)!.address);
    // export (armored) and import under another name
    const armor = (await run(['export', 'c0'], ['my export pass'])).out;
    expect(armor).to.include('BEGIN CHAIN PRIVATE KEY');
    const f = join(home, 'c0.armor');
    writeFileSync(f, armor);
    const imp = JSON.parse((await run(['import', 'c0b', f, '-o', 'json'], ['my export pass'])).out);
    expect(imp.address).to.equal(cosm.address);
    await expectReject(run(['import', 'c0c', f], ['not the pass']), /invalid passphrase/);
    expect((await run(['export', 'dev0', '--unarmored-hex', '--unsafe'])).out.trim()).to.equal(HARDHAT_0_KEY);
    await expectReject(run(['export', 'dev0', '--unarmored-hex']), /--unsafe/);
    // errors
    await expectReject(run(['add', 'dev0', '--dev']), /already exists/);
    await expectReject(run(['show', 'nobody']), /key "nobody" not found/);
    await expectReject(run(['add', 'x', '--algo', 'ed25519']), /unsupported key algorithm/);
    await expectReject(run(['add', 'y', '--recover'], ['not a mnemonic at all']), /invalid mnemonic/);
    await expectReject(run(['delete', 'c0b'], ['n']), /aborted/);
    expect((await run(['delete', 'c0b', '-y'])).code).to.equal(0);
    expect((await run(['list', '--list-names'])).out.trim().split('\n')).to.deep.equal(['c0', 'dev0', 'i3', 'rnd', 'rnd2']);
    // the file backend through the commands, with the passphrase from a file; a wrong one is refused
    const pf = join(home, 'pass.txt');
    writeFileSync(pf, 'file keyring pass\n');
    const fb = JSON.parse((await run(['add', 'f0', '--dev', '--algo', 'eth_secp256k1', '--keyring-backend', 'file', '--keyring-passphrase-file', pf, '-o', 'json'])).out);
    expect(fb.address).to.equal(eth.address);
    writeFileSync(pf, 'wrong pass 1234\n');
    await expectReject(run(['export', 'f0', '--unarmored-hex', '--unsafe', '--keyring-backend', 'file', '--keyring-passphrase-file', pf]), /invalid passphrase/);
    // the passphrase from stdin
    expect((await run(['export', 'f0', '--unarmored-hex', '--unsafe', '--keyring-backend', 'file'], ['file keyring pass'])).out.trim()).to.equal(HARDHAT_0_KEY);
    expect((await run(['--help'])).out).to.include('Examples:');
  });
});

async function expectReject(p: Promise<unknown>, re: RegExp): Promise<void> {
  let err: unknown;
  try { await p; } catch (e) { err = e; }
  expect(err, `expected an error matching ${re}`).to.be.instanceOf(Error);
  expect((err as Error).message).to.match(re);
}
