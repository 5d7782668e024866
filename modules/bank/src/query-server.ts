/** The Query service of bank (`chain.bank.v1beta1.Query`): balances, supply, params, metadata, owners. */
import type { Context, QueryServer } from '@chain/app';
import { isValidDenom, paginate } from '@chain/app';
import { fromUtf8 } from '@chain/crypto';
import { GrpcCode, statusError } from '@chain/errors';
import { prefixStore } from '@chain/store';
import type {
  Metadata, QueryAllBalancesRequest, QueryMethods, QuerySpendableBalancesRequest, SendEnabled,
} from './gen/chain/bank/v1beta1.js';
import type { BankKeeper } from './keeper.js';
import { SEND_ENABLED_PREFIX, STORE_KEY, denomOwnersPrefix } from './keys.js';
import { storedParams } from './params.js';

export function createQueryServer(k: BankKeeper): QueryServer<QueryMethods> {
  const codec = k.ak.addressCodec;
  /** a request address: InvalidArgument `address cannot be empty` / `invalid address: …` */
  const qAddr = (text: string): Uint8Array => {
    if (!text) throw statusError(GrpcCode.INVALID_ARGUMENT, 'address cannot be empty');
    try {
      return codec.decode(text);
    } catch (e) {
      throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid address: ${(e as Error).message}`);
    }
  };
  /** a request denom: InvalidArgument `invalid denom: X` */
  const qDenom = (d: string): string => {
    if (!isValidDenom(d)) throw statusError(GrpcCode.INVALID_ARGUMENT, d ? `invalid denom: ${d}` : 'invalid denom');
    return d;
  };
  /** AllBalances and SpendableBalances (no locked coins yet: the same) */
  const balancesPage = (ctx: Context, req: QueryAllBalancesRequest | QuerySpendableBalancesRequest) => {
    const { items, pagination } = paginate(k.accountBalances(ctx, qAddr(req.address)), req.pagination, (key, v) => ({ denom: fromUtf8(key), amount: fromUtf8(v) }));
    return { balances: items, pagination };
  };

  return {
    Balance: (ctx, req) => {
      const addr = qAddr(req.address);
      const denom = qDenom(req.denom);
      return { balance: { denom, amount: k.getBalance(ctx, addr, denom).toString() } };
    },
    AllBalances: balancesPage,
    SpendableBalances: balancesPage,
    TotalSupply: (ctx, req) => {
      const { items, pagination } = paginate(k.supplyStore(ctx), req.pagination, (key, v) => ({ denom: fromUtf8(key), amount: fromUtf8(v) }));
      return { supply: items, pagination };
    },
    SupplyOf: (ctx, req) => {
      const denom = qDenom(req.denom);
      return { amount: { denom, amount: k.getSupply(ctx, denom).toString() } };
    },
    Params: (ctx) => ({ params: storedParams(k.getParams(ctx)) }),
    DenomMetadata: (ctx, req) => {
      const denom = qDenom(req.denom);
      const metadata = k.getDenomMetadata(ctx, denom);
      if (!metadata) throw statusError(GrpcCode.NOT_FOUND, `client metadata for denom ${denom}`);
      return { metadata };
    },
    DenomsMetadata: (ctx, req) => {
      const { items, pagination } = paginate(k.metadataStore(ctx), req.pagination, (_key, v) => k.registry.decode<Metadata>('chain.bank.v1beta1.Metadata', v));
      return { metadatas: items, pagination };
    },
    DenomOwners: (ctx, req) => {
      const denom = qDenom(req.denom);
      const owners = prefixStore(ctx.kv(STORE_KEY), denomOwnersPrefix(denom));
      const { items, pagination } = paginate(owners, req.pagination, (key) => {
        const addr = key.subarray(1, 1 + key[0]!);
        return { address: codec.encode(addr), balance: { denom, amount: k.getBalance(ctx, addr, denom).toString() } };
      });
      return { denom_owners: items, pagination };
    },
    SendEnabled: (ctx, req) => {
      if (req.denoms.length > 0) {
        const out: SendEnabled[] = [];
        for (const denom of req.denoms) {
          const enabled = k.getSendEnabled(ctx, denom);
          if (enabled !== undefined) out.push({ denom, enabled });
        }
        return { send_enabled: out, pagination: null };
      }
      const store = prefixStore(ctx.kv(STORE_KEY), SEND_ENABLED_PREFIX);
      const { items, pagination } = paginate(store, req.pagination, (key, v) => ({ denom: fromUtf8(key), enabled: v[0] === 1 }));
      return { send_enabled: items, pagination };
    },
  };
}
