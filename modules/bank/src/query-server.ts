/** The Query service of bank (`chain.bank.v1beta1.Query`): balances, supply, params, metadata, owners. */
import type { Context, QueryServer } from '@chain/app';
import { isValidDenom, paginateCollection } from '@chain/app';
import { GrpcCode, statusError } from '@chain/errors';
import type {
  QueryAllBalancesRequest, QueryMethods, QuerySpendableBalancesRequest, SendEnabled,
} from './gen/chain/bank/v1beta1.js';
import type { BankKeeper } from './keeper.js';
import { storedParams } from './params.js';

const LONE_SURROGATE = /\p{Cs}/u;

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
    const { items, pagination } = paginateCollection(ctx, k.state.Balances, [qAddr(req.address)], req.pagination, ([, denom], amount) => ({ denom, amount: amount.toString() }));
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
      const { items, pagination } = paginateCollection(ctx, k.state.Supply, undefined, req.pagination, (denom, amount) => ({ denom, amount: amount.toString() }));
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
      const { items, pagination } = paginateCollection(ctx, k.state.DenomMetadata, undefined, req.pagination, (_denom, metadata) => metadata);
      return { metadatas: items, pagination };
    },
    DenomOwners: (ctx, req) => {
      const denom = qDenom(req.denom);
      const { items, pagination } = paginateCollection(ctx, k.state.DenomOwners, [denom], req.pagination, ([, addr]) => (
        { address: codec.encode(addr), balance: { denom, amount: k.getBalance(ctx, addr, denom).toString() } }
      ));
      return { denom_owners: items, pagination };
    },
    SendEnabled: (ctx, req) => {
      if (req.denoms.length > 0) {
        const out: SendEnabled[] = [];
        for (const denom of req.denoms) {
          // a lone surrogate (decoded from invalid UTF-8) is no key (stringKey refuses it) and names no denom
          if (LONE_SURROGATE.test(denom)) continue;
          const enabled = k.getSendEnabled(ctx, denom);
          if (enabled !== undefined) out.push({ denom, enabled });
        }
        return { send_enabled: out, pagination: null };
      }
      const { items, pagination } = paginateCollection(ctx, k.state.SendEnabled, undefined, req.pagination, (denom, enabled) => ({ denom, enabled }));
      return { send_enabled: items, pagination };
    },
  };
}

