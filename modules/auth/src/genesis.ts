/** auth genesis: the default state, validation, InitGenesis and ExportGenesis on `GenesisState`. */
import type { Context, GenesisStream } from '@chain/app';
import type { ProtoRegistry, google_protobuf } from '@chain/codec';
import { CompactStringSet } from '@chain/collections';
import type { BaseAccount, GenesisState, ModuleAccount } from './gen/chain/auth/v1beta1.js';
import { BASE_ACCOUNT_URL, encodeBaseAccountFast } from './keeper.js';
import type { Account, AccountKeeper } from './keeper.js';
import { BASE_ACCOUNT, MODULE_ACCOUNT } from './keys.js';
import { DEFAULT_AUTH_PARAMS } from './params.js';

export type { GenesisState };

export function defaultGenesis(): GenesisState {
  return { params: { ...DEFAULT_AUTH_PARAMS }, accounts: [] };
}

/** The accounts are Anys of `BaseAccount` or `ModuleAccount`; no address twice. */
export function validateGenesis(gen: GenesisState, k: AccountKeeper): void {
  const seen = new CompactStringSet();
  for (const any of gen.accounts) {
    const { name, message } = k.registry.unpackAny<BaseAccount | ModuleAccount>(any);
    const addr = String(name === MODULE_ACCOUNT ? (message as ModuleAccount).base_account?.address : (message as BaseAccount).address);
    // (add answers false for a member: one hash and probe per address)
    if (!seen.add(addr)) throw new Error(`duplicate account found in genesis state; address: ${addr}`);
  }
}

export function initGenesis(ctx: Context, k: AccountKeeper, gen: GenesisState): void {
  const s = initGenesisStream(ctx, k, { ...gen, accounts: [] });
  s.add('accounts', gen.accounts);
  s.end();
}

/**
 * InitGenesis with the accounts given in chunks (a large genesis file): `gen` without its accounts, then each
 * account checked as `validateGenesis` does (no address twice) and stored.
 */
export function initGenesisStream(ctx: Context, k: AccountKeeper, gen: GenesisState): GenesisStream {
  k.setParams(ctx, gen.params ?? { ...DEFAULT_AUTH_PARAMS });
  const seen = new CompactStringSet();
  let maxNumber = -1n;
  // (bank's genesis asks it whether a balance's address got its account here)
  k.recordGenesisAccounts(ctx, seen);
  return {
    add(_field, entries) {
      for (const any of entries as readonly google_protobuf.Any[]) {
        if (any instanceof DecodedBaseAccount) {
          // (decoded from its JSON by accountFromJSON: no Any to decode, no account to encode)
          const base = any.base;
          if (!seen.add(base.address)) throw new Error(`duplicate account found in genesis state; address: ${base.address}`);
          k.setAccount(ctx, { address: k.addressCodec.decode(base.address), base }, { type_url: any.type_url, value: any.value });
          if (base.account_number > maxNumber) maxNumber = base.account_number;
          continue;
        }
        const { name, message } = k.registry.unpackAny<BaseAccount | ModuleAccount>(any);
        const module = name === MODULE_ACCOUNT ? (message as ModuleAccount) : undefined;
        const addr = String(module ? module.base_account?.address : (message as BaseAccount).address);
        // (add answers false for a member: one hash and probe per address)
        if (!seen.add(addr)) throw new Error(`duplicate account found in genesis state; address: ${addr}`);
        // (a module account without its base account fails on `base.address`, as it always did)
        const base = module ? module.base_account! : (message as BaseAccount);
        const address = k.addressCodec.decode(base.address);
        const acc: Account = module ? { address, base, module: { name: module.name, permissions: module.permissions } } : { address, base };
        k.setAccount(ctx, acc);
        if (base.account_number > maxNumber) maxNumber = base.account_number;
      }
    },
    end() {
      // next account number continues after the highest genesis number (and stays 0 without genesis accounts): what
      // drawing numbers until maxNumber would leave, in one write (one draw when the sequence is already past it)
      if (maxNumber >= 0n) {
        const n = k.state.AccountNumber.get(ctx) ?? 0n;
        k.state.AccountNumber.set(ctx, (n > maxNumber ? n : maxNumber) + 1n);
      }
      for (const n of k.moduleAccountNames()) k.getModuleAccount(ctx, n);
    },
  };
}

/**
 * A genesis account that is a `BaseAccount` without a public key, as `accountFromJSON` reads it from the genesis
 * JSON: an Any of the account (the type URL and encoding `AccountKeeper.packAccount` gives) that carries the account's
 * fields too, so the import neither decodes the Any nor encodes the account again.
 */
export class DecodedBaseAccount implements google_protobuf.Any {
  readonly type_url = BASE_ACCOUNT_URL;
  constructor(
    readonly base: BaseAccount,
    readonly value: Uint8Array,
  ) {}
}

/** u64 decimal text without leading zeros (other spellings and JSON numbers take the registry's path) */
const U64_TEXT = /^(?:0|[1-9][0-9]{0,19})$/;

/**
 * The common genesis account, `{"@type": <BaseAccount's URL or an alias>, "address": "...", "pub_key": null,
 * "account_number": "<n>", "sequence": "<n>"}` (pub_key may be left out; no other key), read without the registry,
 * for the stream to store as it would store `registry.fromJSON`'s Any of it; undefined for any other form (the
 * registry decodes it, and gives every error).
 */
export function accountFromJSON(json: unknown, registry: ProtoRegistry): DecodedBaseAccount | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const o = json as Record<string, unknown>;
  const at = o['@type'];
  if (typeof at !== 'string' || registry.nameOfTypeUrl(at) !== BASE_ACCOUNT) return undefined;
  const { address, pub_key: pk, account_number: an, sequence: sq } = o;
  if (typeof address !== 'string' || typeof an !== 'string' || typeof sq !== 'string' || (pk !== null && pk !== undefined)) return undefined;
  // no other key (the registry ignores unknown keys but also reads lowerCamel names: those take its path)
  let keys = 0;
  for (const key in o) if (Object.hasOwn(o, key)) keys++;
  if (keys !== (pk === undefined ? 4 : 5) || !U64_TEXT.test(an) || !U64_TEXT.test(sq)) return undefined;
  const base: BaseAccount = { address, pub_key: null, account_number: BigInt(an), sequence: BigInt(sq) };
  // (undefined for numbers past u64 and non-ASCII addresses)
  const value = encodeBaseAccountFast(base);
  return value === undefined ? undefined : new DecodedBaseAccount(base, value);
}

export function exportGenesis(ctx: Context, k: AccountKeeper): GenesisState {
  const parts = exportGenesisParts(ctx, k);
  return { ...parts.genesis, accounts: [...parts.streamed.accounts.entries] };
}

/** ExportGenesis in parts: the params, and the accounts (in store order) produced one by one. */
export function exportGenesisParts(ctx: Context, k: AccountKeeper): { genesis: GenesisState; streamed: { accounts: { entries: Iterable<google_protobuf.Any> } } } {
  function* accounts(): Generator<google_protobuf.Any> {
    for (const acc of k.iterateAccounts(ctx)) yield k.packAccount(acc);
  }
  return { genesis: { params: k.getParams(ctx), accounts: [] }, streamed: { accounts: { entries: accounts() } } };
}
