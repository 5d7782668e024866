/** The Query service of auth (`chain.auth.v1beta1.Query`): accounts, module accounts, params, bech32. */
import type { QueryServer } from '@chain/app';
import { paginate } from '@chain/app';
import { GrpcCode, statusError } from '@chain/errors';
import { prefixStore } from '@chain/store';
import type { QueryMethods } from './gen/chain/auth/v1beta1.js';
import type { Account, AccountKeeper } from './keeper.js';

export function createQueryServer(k: AccountKeeper): QueryServer<QueryMethods> {
  const codec = k.addressCodec;
  /** a request address: InvalidArgument `Address cannot be empty` / `invalid address: …` */
  const parseAddr = (s: string): Uint8Array => {
    if (!s) throw statusError(GrpcCode.INVALID_ARGUMENT, 'Address cannot be empty');
    try {
      return codec.decode(s);
    } catch (e) {
      throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid address: ${(e as Error).message}`);
    }
  };

  return {
    Accounts: (ctx, req) => {
      // page keys are the addresses: the store keys relative to the Accounts prefix
      const { storeKey, prefix, valueCodec } = k.state.Accounts;
      const { items, pagination } = paginate(prefixStore(ctx.kv(storeKey), prefix), req.pagination, (address, value) => (
        k.packAccount(k.accountFromAny(address, valueCodec.decode(value)))
      ));
      return { accounts: items, pagination };
    },
    Account: (ctx, req) => {
      const acc = k.getAccount(ctx, parseAddr(req.address));
      if (!acc) throw statusError(GrpcCode.NOT_FOUND, `account ${req.address} not found`);
      return { account: k.packAccount(acc) };
    },
    AccountAddressByID: (ctx, req) => {
      // `id` is deprecated (int64) but still honoured when `account_id` is 0
      const id = req.account_id || req.id || 0n;
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
        .map((a) => k.packAccount(a)),
    }),
    ModuleAccountByName: (ctx, req) => {
      const name = req.name;
      if (!name) throw statusError(GrpcCode.INVALID_ARGUMENT, 'module name is empty');
      const acc = k.moduleAccountNames().includes(name) ? k.getAccount(ctx, k.getModuleAddress(name)) : undefined;
      if (!acc) throw statusError(GrpcCode.NOT_FOUND, `account ${name} not found`);
      return { account: k.packAccount(acc) };
    },
    Bech32Prefix: () => ({ bech32_prefix: codec.prefix }),
    AddressBytesToString: (_ctx, req) => {
      const bz = req.address_bytes;
      if (!bz || bz.length === 0) throw statusError(GrpcCode.INVALID_ARGUMENT, 'empty address bytes is not allowed');
      return { address_string: codec.encode(bz) };
    },
    AddressStringToBytes: (_ctx, req) => ({ address_bytes: parseAddr(req.address_string) }),
    AccountInfo: (ctx, req) => {
      const acc = k.getAccount(ctx, parseAddr(req.address));
      if (!acc) throw statusError(GrpcCode.NOT_FOUND, `account ${req.address} not found`);
      return { info: acc.base };
    },
  };
}
