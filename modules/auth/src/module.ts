/** The auth AppModule: genesis, services (queries) and type registrations. */
import type { AppModule, Context, ServiceRegistrar } from '@chain/app';
import { paginate } from '@chain/app';
import { prefixStore } from '@chain/store';
import type { ProtoObject, ProtoRegistry, AnyMsg } from '@chain/codec';
import { statusError, GrpcCode } from '@chain/errors';
import type { AccountKeeper, AuthParams, Account } from './keeper.js';
import { DEFAULT_AUTH_PARAMS } from './keeper.js';
import { MODULE_NAME, STORE_KEY, ACCOUNT_PREFIX, BASE_ACCOUNT, MODULE_ACCOUNT, ETH_SECP256K1_PUBKEY } from './keys.js';

/** Version of the module's state layout (the SDK's ConsensusVersion). */
export const CONSENSUS_VERSION = 2;

export const AUTH_PROTO_DIR = new URL('../proto', import.meta.url).pathname;

interface GenesisState { params: AuthParams | null; accounts: AnyMsg[] }

export class AuthModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  readonly protoDirs = [AUTH_PROTO_DIR];
  readonly genesisType = 'chain.auth.v1beta1.GenesisState';

  constructor(readonly keeper: AccountKeeper) {}

  registerTypes(registry: ProtoRegistry): void {
    registry.registerAlias('/ethermint.crypto.v1.ethsecp256k1.PubKey', ETH_SECP256K1_PUBKEY, { cosmos: true });
  }

  defaultGenesis(): ProtoObject {
    return { params: { ...DEFAULT_AUTH_PARAMS }, accounts: [] };
  }

  validateGenesis(g: ProtoObject): void {
    const gen = g as unknown as GenesisState;
    const seen = new Set<string>();
    for (const any of gen.accounts) {
      const { message } = this.keeper.registry.unpackAny<Record<string, unknown>>(any);
      const addr = String((message.base_account as { address?: string } | undefined)?.address ?? message.address);
      if (seen.has(addr)) throw new Error(`duplicate account found in genesis state; address: ${addr}`);
      seen.add(addr);
    }
  }

  initGenesis(ctx: Context, g: ProtoObject): void {
    const gen = g as unknown as GenesisState;
    this.keeper.setParams(ctx, gen.params ?? { ...DEFAULT_AUTH_PARAMS });
    let maxNumber = -1n;
    for (const any of gen.accounts) {
      const { name, message } = this.keeper.registry.unpackAny<Record<string, unknown>>(any);
      const base = (name === MODULE_ACCOUNT ? message.base_account : message) as Account['base'];
      const address = this.keeper.addressCodec.decode(base.address);
      const acc: Account = name === MODULE_ACCOUNT
        ? { address, base, module: { name: String(message.name), permissions: message.permissions as string[] } }
        : { address, base };
      this.keeper.setAccount(ctx, acc);
      if (base.account_number > maxNumber) maxNumber = base.account_number;
    }
    // next account number continues after the highest genesis number (and stays 0 without genesis accounts)
    if (maxNumber >= 0n) while (this.keeper.nextAccountNumber(ctx) < maxNumber) { /* advance */ }
    for (const n of this.keeper.moduleAccountNames()) this.keeper.getModuleAccount(ctx, n);
  }

  exportGenesis(ctx: Context): ProtoObject {
    const accounts: AnyMsg[] = [];
    for (const acc of this.keeper.iterateAccounts(ctx)) accounts.push(this.packAccount(acc));
    return { params: this.keeper.getParams(ctx), accounts };
  }

  packAccount(acc: Account): AnyMsg {
    const r = this.keeper.registry;
    return acc.module
      ? r.packAny(MODULE_ACCOUNT, { base_account: acc.base, name: acc.module.name, permissions: [...acc.module.permissions] })
      : r.packAny(BASE_ACCOUNT, { ...acc.base });
  }

  registerServices(reg: ServiceRegistrar): void {
    const k = this.keeper;
    const codec = k.addressCodec;
    const parseAddr = (s: string): Uint8Array => {
      if (!s) throw statusError(GrpcCode.INVALID_ARGUMENT, 'Address cannot be empty');
      try {
        return codec.decode(s);
      } catch (e) {
        throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid address: ${(e as Error).message}`);
      }
    };
    reg.registerQueryService('chain.auth.v1beta1.Query', {
      Accounts: (ctx, req) => {
        const sub = prefixStore(ctx.kv(STORE_KEY), ACCOUNT_PREFIX);
        const { items, pagination } = paginate(sub, req.pagination as never, (key, value) => this.packAccount(k.decodeAccount(key, value)));
        return { accounts: items, pagination };
      },
      Account: (ctx, req) => {
        const addr = parseAddr(String(req.address ?? ''));
        const acc = k.getAccount(ctx, addr);
        if (!acc) throw statusError(GrpcCode.NOT_FOUND, `account ${req.address} not found`);
        return { account: this.packAccount(acc) };
      },
      AccountAddressByID: (ctx, req) => {
        const id = BigInt((req.account_id as bigint) || (req.id as bigint) || 0n);
        if (id < 0n) throw statusError(GrpcCode.INVALID_ARGUMENT, '-1 is not a valid account number');
        const addr = k.addressByAccountNumber(ctx, id);
        if (!addr) throw statusError(GrpcCode.NOT_FOUND, `account address not found with account number ${id}`);
        return { account_address: codec.encode(addr) };
      },
      Params: (ctx) => ({ params: k.getParams(ctx) }),
      ModuleAccounts: (ctx) => ({
        accounts: k.moduleAccountNames().sort()
          .map((n) => k.getAccount(ctx, k.getModuleAddress(n)))
          .filter((a): a is Account => a !== undefined)
          .map((a) => this.packAccount(a)),
      }),
      ModuleAccountByName: (ctx, req) => {
        const name = String(req.name ?? '');
        if (!name) throw statusError(GrpcCode.INVALID_ARGUMENT, 'module name is empty');
        const acc = k.moduleAccountNames().includes(name) ? k.getAccount(ctx, k.getModuleAddress(name)) : undefined;
        if (!acc) throw statusError(GrpcCode.NOT_FOUND, `account ${name} not found`);
        return { account: this.packAccount(acc) };
      },
      Bech32Prefix: () => ({ bech32_prefix: codec.prefix }),
      AddressBytesToString: (_ctx, req) => {
        const bz = req.address_bytes as Uint8Array;
        if (!bz || bz.length === 0) throw statusError(GrpcCode.INVALID_ARGUMENT, 'empty address bytes is not allowed');
        return { address_string: codec.encode(bz) };
      },
      AddressStringToBytes: (_ctx, req) => ({ address_bytes: parseAddr(String(req.address_string ?? '')) }),
      AccountInfo: (ctx, req) => {
        const addr = parseAddr(String(req.address ?? ''));
        const acc = k.getAccount(ctx, addr);
        if (!acc) throw statusError(GrpcCode.NOT_FOUND, `account ${req.address} not found`);
        return { info: acc.base };
      },
    });
  }
}
