/** The bank AppModule: message server (Send, MultiSend), query server, genesis. */
import type { AppModule, Context, ServiceRegistrar, Coin } from '@chain/app';
import { paginate, validateCoins, isValidDenom, addCoins, coinsToString } from '@chain/app';
import type { ProtoObject } from '@chain/codec';
import { fromUtf8 } from '@chain/crypto';
import { Errors, statusError, GrpcCode } from '@chain/errors';
import { prefixStore } from '@chain/store';
import type { BankKeeper, BankParams, Metadata } from './keeper.js';
import { BankErrors, DEFAULT_BANK_PARAMS } from './keeper.js';
import { MODULE_NAME, STORE_KEY, denomOwnersPrefix, SEND_ENABLED_PREFIX } from './keys.js';

/** Version of the module's state layout (the SDK's ConsensusVersion). */
export const CONSENSUS_VERSION = 2;

export const BANK_PROTO_DIR = new URL('../proto', import.meta.url).pathname;

interface GenesisState {
  params: BankParams | null;
  balances: { address: string; coins: Coin[] }[];
  supply: Coin[];
  denom_metadata: Metadata[];
  send_enabled: { denom: string; enabled: boolean }[];
}

export class BankModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  readonly protoDirs = [BANK_PROTO_DIR];
  readonly genesisType = 'chain.bank.v1beta1.GenesisState';

  constructor(readonly keeper: BankKeeper) {}

  defaultGenesis(): ProtoObject {
    return { params: { ...DEFAULT_BANK_PARAMS }, balances: [], supply: [], denom_metadata: [], send_enabled: [] };
  }

  validateGenesis(g: ProtoObject): void {
    const gen = g as unknown as GenesisState;
    const seen = new Set<string>();
    for (const b of gen.balances) {
      if (seen.has(b.address)) throw new Error(`duplicate balance for address ${b.address}`);
      seen.add(b.address);
      this.keeper.ak.addressCodec.decode(b.address);
      validateCoins(b.coins);
    }
    for (const m of gen.denom_metadata) if (!isValidDenom(m.base)) throw new Error(`invalid metadata base denom ${m.base}`);
  }

  initGenesis(ctx: Context, g: ProtoObject): void {
    const gen = g as unknown as GenesisState;
    const k = this.keeper;
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

  exportGenesis(ctx: Context): ProtoObject {
    const k = this.keeper;
    const store = ctx.kv(STORE_KEY);
    const balances = new Map<string, Coin[]>();
    for (const [key, v] of store.iterator(Uint8Array.of(0x02), Uint8Array.of(0x03))) {
      const len = key[1]!;
      const addr = k.ak.addressCodec.encode(key.subarray(2, 2 + len));
      const list = balances.get(addr) ?? [];
      list.push({ denom: fromUtf8(key.subarray(2 + len)), amount: fromUtf8(v) });
      balances.set(addr, list);
    }
    const supply: Coin[] = [];
    for (const [key, v] of k.supplyStore(ctx).iterator()) supply.push({ denom: fromUtf8(key), amount: fromUtf8(v) });
    const metas: Metadata[] = [];
    for (const [, v] of k.metadataStore(ctx).iterator()) metas.push(this.keeper.registry.decode<Metadata>('chain.bank.v1beta1.Metadata', v));
    const sendEnabled: { denom: string; enabled: boolean }[] = [];
    for (const [key, v] of prefixStore(store, SEND_ENABLED_PREFIX).iterator()) sendEnabled.push({ denom: fromUtf8(key), enabled: v[0] === 1 });
    return {
      params: { send_enabled: [], default_send_enabled: k.getParams(ctx).default_send_enabled },
      balances: [...balances.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([address, coins]) => ({ address, coins })),
      supply, denom_metadata: metas, send_enabled: sendEnabled,
    };
  }

  registerServices(reg: ServiceRegistrar): void {
    const k = this.keeper;
    const codec = k.ak.addressCodec;
    const msgAddr = (s: string, what: string): Uint8Array => {
      try {
        return codec.decode(s);
      } catch (e) {
        throw Errors.InvalidAddress.wrap(`invalid ${what} address: ${(e as Error).message}`);
      }
    };
    const checkCoins = (coins: Coin[]): void => {
      try {
        validateCoins(coins, false);
      } catch (e) {
        throw Errors.InvalidCoins.wrap(coinsToString(coins) || (e as Error).message);
      }
    };

    reg.registerMsgService('chain.bank.v1beta1.Msg', {
      Send: (ctx, m) => {
        const from = msgAddr(String(m.from_address), 'from');
        const to = msgAddr(String(m.to_address), 'to');
        const amount = m.amount as Coin[];
        checkCoins(amount);
        k.isSendEnabledCoins(ctx, amount);
        if (k.isBlockedAddress(String(m.to_address))) throw Errors.Unauthorized.wrap(`${m.to_address} is not allowed to receive funds`);
        k.sendCoins(ctx, from, to, amount);
        return {};
      },
      MultiSend: (ctx, m) => {
        const inputs = m.inputs as { address: string; coins: Coin[] }[];
        const outputs = m.outputs as { address: string; coins: Coin[] }[];
        if (inputs.length === 0) throw BankErrors.NoInputs.error();
        if (inputs.length !== 1) throw BankErrors.MultipleSenders.error();
        if (outputs.length === 0) throw BankErrors.NoOutputs.error();
        let inSum: Coin[] = [];
        let outSum: Coin[] = [];
        for (const i of inputs) { msgAddr(i.address, 'input'); checkCoins(i.coins); inSum = addCoins(inSum, i.coins); }
        for (const o of outputs) { msgAddr(o.address, 'output'); checkCoins(o.coins); outSum = addCoins(outSum, o.coins); }
        if (coinsToString(inSum) !== coinsToString(outSum)) throw BankErrors.InputOutputMismatch.error();
        k.isSendEnabledCoins(ctx, inSum);
        for (const o of outputs) if (k.isBlockedAddress(o.address)) throw Errors.Unauthorized.wrap(`${o.address} is not allowed to receive funds`);
        const input = inputs[0]!;
        const from = codec.decode(input.address);
        k.subCoins(ctx, from, input.coins);
        ctx.events.emit('message', [['sender', input.address]]);
        for (const o of outputs) {
          const to = codec.decode(o.address);
          k.addCoins(ctx, to, o.coins);
          if (!k.ak.hasAccount(ctx, to)) k.ak.createAccount(ctx, to);
          ctx.events.emit('transfer', [['recipient', o.address], ['amount', coinsToString(o.coins)]]);
        }
        return {};
      },
    });

    const qAddr = (s: unknown): Uint8Array => {
      const text = String(s ?? '');
      if (!text) throw statusError(GrpcCode.INVALID_ARGUMENT, 'address cannot be empty');
      try {
        return codec.decode(text);
      } catch (e) {
        throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid address: ${(e as Error).message}`);
      }
    };
    const qDenom = (s: unknown): string => {
      const d = String(s ?? '');
      if (!isValidDenom(d)) throw statusError(GrpcCode.INVALID_ARGUMENT, d ? `invalid denom: ${d}` : 'invalid denom');
      return d;
    };
    const balancesPage = (ctx: Context, req: ProtoObject): ProtoObject => {
      const addr = qAddr(req.address);
      const { items, pagination } = paginate(k.accountBalances(ctx, addr), req.pagination as never, (key, v) => ({ denom: fromUtf8(key), amount: fromUtf8(v) }));
      return { balances: items, pagination };
    };

    reg.registerQueryService('chain.bank.v1beta1.Query', {
      Balance: (ctx, req) => {
        const addr = qAddr(req.address);
        const denom = qDenom(req.denom);
        return { balance: { denom, amount: k.getBalance(ctx, addr, denom).toString() } };
      },
      AllBalances: balancesPage,
      SpendableBalances: balancesPage,
      TotalSupply: (ctx, req) => {
        const { items, pagination } = paginate(k.supplyStore(ctx), req.pagination as never, (key, v) => ({ denom: fromUtf8(key), amount: fromUtf8(v) }));
        return { supply: items, pagination };
      },
      SupplyOf: (ctx, req) => {
        const denom = qDenom(req.denom);
        return { amount: { denom, amount: k.getSupply(ctx, denom).toString() } };
      },
      Params: (ctx) => {
        const p = k.getParams(ctx);
        return { params: { send_enabled: [], default_send_enabled: p.default_send_enabled } };
      },
      DenomMetadata: (ctx, req) => {
        const denom = qDenom(req.denom);
        const m = k.getDenomMetadata(ctx, denom);
        if (!m) throw statusError(GrpcCode.NOT_FOUND, `client metadata for denom ${denom}`);
        return { metadata: m };
      },
      DenomsMetadata: (ctx, req) => {
        const { items, pagination } = paginate(k.metadataStore(ctx), req.pagination as never, (_key, v) => k.registry.decode('chain.bank.v1beta1.Metadata', v));
        return { metadatas: items, pagination };
      },
      DenomOwners: (ctx, req) => {
        const denom = qDenom(req.denom);
        const owners = prefixStore(ctx.kv(STORE_KEY), denomOwnersPrefix(denom));
        const { items, pagination } = paginate(owners, req.pagination as never, (key) => {
          const addr = key.subarray(1, 1 + key[0]!);
          return { address: codec.encode(addr), balance: { denom, amount: k.getBalance(ctx, addr, denom).toString() } };
        });
        return { denom_owners: items, pagination };
      },
      SendEnabled: (ctx, req) => {
        const denoms = (req.denoms as string[] | undefined) ?? [];
        if (denoms.length > 0) {
          const out: { denom: string; enabled: boolean }[] = [];
          for (const d of denoms) { const e = k.getSendEnabled(ctx, d); if (e !== undefined) out.push({ denom: d, enabled: e }); }
          return { send_enabled: out, pagination: null };
        }
        const { items, pagination } = paginate(prefixStore(ctx.kv(STORE_KEY), SEND_ENABLED_PREFIX), req.pagination as never, (key, v) => ({ denom: fromUtf8(key), enabled: v[0] === 1 }));
        return { send_enabled: items, pagination };
      },
    });
  }
}
