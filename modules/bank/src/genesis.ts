/** bank genesis: the default state, validation, InitGenesis and ExportGenesis on `GenesisState`. */
import type { Coin, Context } from '@chain/app';
import { addCoins, coinsToString, isValidDenom, validateCoins } from '@chain/app';
import { fromUtf8 } from '@chain/crypto';
import { prefixStore } from '@chain/store';
import type { BankAccountKeeper } from './expected-keepers.js';
import type { GenesisState, Metadata, SendEnabled } from './gen/chain/bank/v1beta1.js';
import type { BankKeeper } from './keeper.js';
import { BALANCES_PREFIX, DENOM_OWNERS_PREFIX, SEND_ENABLED_PREFIX, STORE_KEY } from './keys.js';
import { DEFAULT_BANK_PARAMS, storedParams } from './params.js';

export type { GenesisState };

export function defaultGenesis(): GenesisState {
  return { params: { ...DEFAULT_BANK_PARAMS }, balances: [], supply: [], denom_metadata: [], send_enabled: [] };
}

/** No duplicate balance address, addresses decode, coins valid (empty allowed), metadata bases valid. */
export function validateGenesis(gen: GenesisState, ak: BankAccountKeeper): void {
  const seen = new Set<string>();
  for (const b of gen.balances) {
    if (seen.has(b.address)) throw new Error(`duplicate balance for address ${b.address}`);
    seen.add(b.address);
    ak.addressCodec.decode(b.address);
    validateCoins(b.coins);
  }
  for (const m of gen.denom_metadata) if (!isValidDenom(m.base)) throw new Error(`invalid metadata base denom ${m.base}`);
}

export function initGenesis(ctx: Context, k: BankKeeper, gen: GenesisState): void {
  k.setParams(ctx, gen.params ?? { ...DEFAULT_BANK_PARAMS });
  for (const se of gen.send_enabled) k.setSendEnabled(ctx, se.denom, se.enabled);
  let total: Coin[] = [];
  for (const b of gen.balances) {
    const addr = k.ak.addressCodec.decode(b.address);
    k.initBalance(ctx, addr, b.coins);
    if (!k.ak.hasAccount(ctx, addr)) k.ak.createAccount(ctx, addr);
    total = addCoins(total, b.coins);
  }
  if (gen.supply.length > 0 && coinsToString(addCoins([], gen.supply)) !== coinsToString(total)) {
    throw new Error(`genesis supply is incorrect, expected ${coinsToString(gen.supply)}, got ${coinsToString(total)}`);
  }
  for (const m of gen.denom_metadata) k.setDenomMetadata(ctx, m);
}

export function exportGenesis(ctx: Context, k: BankKeeper): GenesisState {
  const store = ctx.kv(STORE_KEY);
  // balances: 0x02 | len(addr) | addr | denom, grouped by address
  const balances = new Map<string, Coin[]>();
  for (const [key, v] of store.iterator(BALANCES_PREFIX, DENOM_OWNERS_PREFIX)) {
    const len = key[1]!;
    const addr = k.ak.addressCodec.encode(key.subarray(2, 2 + len));
    const list = balances.get(addr) ?? [];
    list.push({ denom: fromUtf8(key.subarray(2 + len)), amount: fromUtf8(v) });
    balances.set(addr, list);
  }
  const supply: Coin[] = [];
  for (const [key, v] of k.supplyStore(ctx).iterator()) supply.push({ denom: fromUtf8(key), amount: fromUtf8(v) });
  const metas: Metadata[] = [];
  for (const [, v] of k.metadataStore(ctx).iterator()) metas.push(k.registry.decode<Metadata>('chain.bank.v1beta1.Metadata', v));
  const sendEnabled: SendEnabled[] = [];
  for (const [key, v] of prefixStore(store, SEND_ENABLED_PREFIX).iterator()) sendEnabled.push({ denom: fromUtf8(key), enabled: v[0] === 1 });
  return {
    params: storedParams(k.getParams(ctx)),
    balances: [...balances.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([address, coins]) => ({ address, coins })),
    supply,
    denom_metadata: metas,
    send_enabled: sendEnabled,
  };
}
