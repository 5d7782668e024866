/** bank genesis: the default state, validation, InitGenesis and ExportGenesis on `GenesisState`. */
import type { Coin, Context, GenesisStream } from '@chain/app';
import { addCoins, coinsToString, isValidDenom, validateCoins } from '@chain/app';
import { CompactStringSet } from '@chain/collections';
import type { BankAccountKeeper } from './expected-keepers.js';
import type { Balance, GenesisState, SendEnabled } from './gen/chain/bank/v1beta1.js';
import type { BankKeeper } from './keeper.js';
import { DEFAULT_BANK_PARAMS, storedParams } from './params.js';

export type { GenesisState };

export function defaultGenesis(): GenesisState {
  return { params: { ...DEFAULT_BANK_PARAMS }, balances: [], supply: [], denom_metadata: [], send_enabled: [] };
}

/** No duplicate balance address, addresses decode, coins valid (empty allowed), metadata bases valid. */
export function validateGenesis(gen: GenesisState, ak: BankAccountKeeper): void {
  const seen = new CompactStringSet();
  for (const b of gen.balances) {
    // (add answers false for a member: one hash and probe per address)
    if (!seen.add(b.address)) throw new Error(`duplicate balance for address ${b.address}`);
    ak.addressCodec.decode(b.address);
    validateCoins(b.coins);
  }
  for (const m of gen.denom_metadata) if (!isValidDenom(m.base)) throw new Error(`invalid metadata base denom ${m.base}`);
}

export function initGenesis(ctx: Context, k: BankKeeper, gen: GenesisState): void {
  const s = initGenesisStream(ctx, k, { ...gen, balances: [] });
  s.add('balances', gen.balances);
  s.end();
}

/**
 * InitGenesis with the balances given in chunks (a large genesis file): `gen` without its balances, then each
 * balance checked as `validateGenesis` does (no address twice, the address decodes, valid coins) and stored;
 * the supply check runs on the total of all chunks.
 */
export function initGenesisStream(ctx: Context, k: BankKeeper, gen: GenesisState): GenesisStream {
  k.setParams(ctx, gen.params ?? { ...DEFAULT_BANK_PARAMS });
  for (const se of gen.send_enabled) k.setSendEnabled(ctx, se.denom, se.enabled);
  const seen = new CompactStringSet();
  // the total by denom (one addCoins per balance would copy the running total each time)
  const total = new Map<string, bigint>();
  // with no balance stored when the stream starts (bank's genesis before any module that credits), an address's
  // balance is its genesis entry's (each address once): its credit reads nothing (a probe of the moved state each)
  const noneBefore = k.hasNoBalances(ctx);
  return {
    add(_field, entries) {
      // credits as initBalance does, the supply written once per chunk (also when an entry throws)
      const w = k.balanceWriter(ctx);
      try {
        for (const b of entries as readonly Balance[]) {
          // (add answers false for a member: one hash and probe per address)
          if (!seen.add(b.address)) throw new Error(`duplicate balance for address ${b.address}`);
          const addr = k.ak.addressCodec.decode(b.address);
          validateCoins(b.coins);
          w.add(addr, b.coins, noneBefore);
          if (k.ak.listedInGenesis?.(ctx, b.address) !== true && !k.ak.hasAccount(ctx, addr)) k.ak.createAccount(ctx, addr);
          for (const c of b.coins) total.set(c.denom, (total.get(c.denom) ?? 0n) + BigInt(c.amount));
        }
      } finally {
        w.flush();
      }
    },
    end() {
      if (gen.supply.length > 0) {
        const sum = addCoins([], [...total].map(([denom, amount]) => ({ denom, amount: amount.toString() })));
        if (coinsToString(addCoins([], gen.supply)) !== coinsToString(sum)) {
          throw new Error(`genesis supply is incorrect, expected ${coinsToString(gen.supply)}, got ${coinsToString(sum)}`);
        }
      }
      for (const m of gen.denom_metadata) k.setDenomMetadata(ctx, m);
    },
  };
}

/** integer text as the registry gives it back (no sign, no leading zero, below 2^256): other spellings take its path */
const INT_TEXT = /^(?:0|[1-9][0-9]{0,75})$/;

/**
 * The common genesis balance, `{"address": "...", "coins": [{"denom": "...", "amount": "<n>"}, ...]}` (no other key),
 * read without the registry: the same fields `registry.fromJSON` gives it; undefined for any other form (the registry
 * decodes it, and gives every error).
 */
export function balanceFromJSON(json: unknown): Balance | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const o = json as Record<string, unknown>;
  const { address, coins } = o;
  if (typeof address !== 'string' || !Array.isArray(coins) || ownKeys(o) !== 2) return undefined;
  const out = new Array<Coin>(coins.length);
  for (let i = 0; i < coins.length; i++) {
    const c: unknown = coins[i];
    if (typeof c !== 'object' || c === null) return undefined;
    const { denom, amount } = c as Record<string, unknown>;
    if (typeof denom !== 'string' || typeof amount !== 'string' || ownKeys(c) !== 2 || !INT_TEXT.test(amount)) return undefined;
    out[i] = { denom, amount };
  }
  return { address, coins: out };
}

function ownKeys(o: object): number {
  let n = 0;
  for (const key in o) if (Object.hasOwn(o, key)) n++;
  return n;
}

/** The GenesisState, read from the collections of `BankKeeper.state`. */
export function exportGenesis(ctx: Context, k: BankKeeper): GenesisState {
  const parts = exportGenesisParts(ctx, k);
  return { ...parts.genesis, balances: [...parts.streamed.balances.entries] };
}

/**
 * ExportGenesis in parts: everything but the balances, and the balances produced one address at a time.
 * They are listed by the bech32 text of the address (the order the export always had), so the addresses are
 * collected and sorted first (one string each); the coins of each are read when it is written.
 */
export function exportGenesisParts(ctx: Context, k: BankKeeper): { genesis: GenesisState; streamed: { balances: { entries: Iterable<Balance>; count: number } } } {
  const { Balances, Supply, DenomMetadata, SendEnabled } = k.state;
  // balances are keyed (address, denom): one address's entries are adjacent
  const addresses: string[] = [];
  let prev: Uint8Array | undefined;
  for (const [addr] of Balances.keys(ctx)) {
    if (prev !== undefined && sameBytes(prev, addr)) continue;
    prev = addr;
    addresses.push(k.ak.addressCodec.encode(addr));
  }
  addresses.sort();
  const supply: Coin[] = [];
  for (const { key, value } of Supply.iterate(ctx)) supply.push({ denom: key, amount: value.toString() });
  const sendEnabled: SendEnabled[] = [];
  for (const { key, value } of SendEnabled.iterate(ctx)) sendEnabled.push({ denom: key, enabled: value });
  function* balances(): Generator<Balance> {
    for (const address of addresses) {
      const coins: Coin[] = [];
      for (const { key: [, denom], value } of Balances.iterate(ctx, { prefix: [k.ak.addressCodec.decode(address)] })) coins.push({ denom, amount: value.toString() });
      yield { address, coins };
    }
  }
  return {
    genesis: {
      params: storedParams(k.getParams(ctx)),
      balances: [],
      supply,
      denom_metadata: DenomMetadata.values(ctx).toArray(),
      send_enabled: sendEnabled,
    },
    streamed: { balances: { entries: balances(), count: addresses.length } },
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
