/** evm genesis: the default state, validation, InitGenesis and ExportGenesis on `GenesisState`. */
import type { Context } from '@chain/app';
import { fromHex, toHex } from '@chain/crypto';
import { prefixEnd } from '@chain/store';
import type { EvmAccountKeeper } from './expected-keepers.js';
import type { GenesisAccount, GenesisState } from './gen/chain/evm/v1.js';
import type { EvmKeeper } from './keeper.js';
import { DEFAULT_EVM_PARAMS, parseParams } from './params.js';
import { STORAGE_PREFIX, STORE_KEY, storagePrefix } from './keys.js';

export type { GenesisAccount, GenesisState };

function hexBytes(what: string, s: string, len?: number): Uint8Array {
  if (!/^0x[0-9a-fA-F]*$/.test(s) || s.length % 2 !== 0) throw new Error(`${what}: invalid 0x hex '${s.slice(0, 80)}'`);
  const b = fromHex(s);
  if (len !== undefined && b.length !== len) throw new Error(`${what}: expected ${len} bytes, got ${b.length}`);
  return b;
}

/** A genesis account address: 0x hex or bech32 of 20 bytes. */
function genesisAddress(ak: EvmAccountKeeper, text: string): Uint8Array {
  if (/^0x[0-9a-fA-F]{40}$/.test(text)) return fromHex(text);
  const b = ak.addressCodec.decode(text);
  if (b.length !== 20) throw new Error(`evm genesis address ${text} is not 20 bytes`);
  return b;
}

export function defaultGenesis(): GenesisState {
  return { params: { ...DEFAULT_EVM_PARAMS }, accounts: [], base_fee: '' };
}

/** Valid params and base fee; no account twice; code and storage slots as 0x hex (slots of 32 bytes). */
export function validateGenesis(gen: GenesisState, ak: EvmAccountKeeper): void {
  parseParams(gen.params ?? DEFAULT_EVM_PARAMS);
  if (gen.base_fee && !/^[0-9]+$/.test(gen.base_fee)) throw new Error(`invalid base_fee '${gen.base_fee}'`);
  const seen = new Set<string>();
  for (const a of gen.accounts) {
    const key = toHex(genesisAddress(ak, a.address));
    if (seen.has(key)) throw new Error(`duplicate evm genesis account ${a.address}`);
    seen.add(key);
    hexBytes(`code of ${a.address}`, a.code || '0x');
    for (const s of a.storage) {
      hexBytes(`storage key of ${a.address}`, s.key, 32);
      hexBytes(`storage value of ${a.address}`, s.value, 32);
    }
  }
}

export function initGenesis(ctx: Context, k: EvmKeeper, gen: GenesisState): void {
  const params = gen.params ?? { ...DEFAULT_EVM_PARAMS };
  k.setParams(ctx, params);
  k.setBaseFee(ctx, gen.base_fee ? BigInt(gen.base_fee) : parseParams(params).initialBaseFee);
  for (const a of gen.accounts) {
    const addr = genesisAddress(k.ak, a.address);
    k.setCode(ctx, addr, hexBytes('code', a.code || '0x'));
    for (const s of a.storage) k.setState(ctx, addr, hexBytes('key', s.key, 32), hexBytes('value', s.value, 32));
  }
}

/**
 * Every account with code or storage, in address order (an account can hold storage without code: a
 * constructor that wrote slots and returned empty code). Not exported: the block hashes of the last 8191
 * blocks (BLOCKHASH), which belong to the exporting chain's blocks; the chain started from the export has
 * its own, from its initial height on.
 */
export function exportGenesis(ctx: Context, k: EvmKeeper): GenesisState {
  const accounts: GenesisAccount[] = [];
  const addresses = new Map<string, Uint8Array>();
  for (const addr of k.contracts(ctx)) addresses.set(toHex(addr), addr);
  for (const addr of storageOwners(ctx)) addresses.set(toHex(addr), addr);
  for (const addr of [...addresses.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, a]) => a)) {
    const storage = [...k.storage(ctx, addr)].map(([key, value]) => ({ key: '0x' + toHex(key), value: '0x' + toHex(value) }));
    accounts.push({ address: '0x' + toHex(addr), code: '0x' + toHex(k.getCode(ctx, addr)), storage });
  }
  return { params: k.getParams(ctx), accounts, base_fee: k.getBaseFee(ctx).toString() };
}

/** The addresses that have storage: one seek per address (0x03 | address(20) | slot(32)). */
function* storageOwners(ctx: Context): IterableIterator<Uint8Array> {
  const store = ctx.kv(STORE_KEY);
  const end = Uint8Array.of(STORAGE_PREFIX + 1);
  let start: Uint8Array = Uint8Array.of(STORAGE_PREFIX);
  for (;;) {
    const next = store.iterator(start, end).next();
    if (next.done) return;
    const addr = next.value[0].slice(1, 21);
    yield addr;
    start = prefixEnd(storagePrefix(addr))!;
  }
}

