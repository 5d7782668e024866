/** bank genesis: the default state, validation, InitGenesis and ExportGenesis on `GenesisState`. */
import type { Coin, Context } from '@chain/app';
import { addCoins, coinsToString, isValidDenom, validateCoins } from '@chain/app';
import type { BankAccountKeeper } from './expected-keepers.js';
import type { GenesisState, SendEnabled } from './gen/chain/bank/v1beta1.js';
import type { BankKeeper } from './keeper.js';
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

/** The GenesisState, read from the collections of `BankKeeper.state`. */
export function exportGenesis(ctx: Context, k: BankKeeper): GenesisState {
  const { Balances, Supply, DenomMetadata, SendEnabled } = k.state;
  // balances are keyed (address, denom): group by address, then sort by the bech32 text
  const balances = new Map<string, Coin[]>();
  for (const { key: [addr, denom], value } of Balances.iterate(ctx)) {
    const address = k.ak.addressCodec.encode(addr);
    const list = balances.get(address) ?? [];
    list.push({ denom, amount: value.toString() });
    balances.set(address, list);
  }
  const supply: Coin[] = [];
  for (const { key, value } of Supply.iterate(ctx)) supply.push({ denom: key, amount: value.toString() });
  const sendEnabled: SendEnabled[] = [];
  for (const { key, value } of SendEnabled.iterate(ctx)) sendEnabled.push({ denom: key, enabled: value });
  return {
    params: storedParams(k.getParams(ctx)),
    balances: [...balances.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([address, coins]) => ({ address, coins })),
    supply,
    denom_metadata: DenomMetadata.values(ctx).toArray(),
    send_enabled: sendEnabled,
  };
}
