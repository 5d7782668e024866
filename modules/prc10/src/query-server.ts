/**
 * The Query service of the token module (`chain.prc10.Query`, the original's `plugchain.prc10.Query`):
 * Token, Tokens, Fees, Params, with the original's errors (InvalidArgument) and shapes (the tokens as `Any`
 * in the capitalized fields `Token` / `Tokens`, the unused `res` of the params answer).
 */
import type { QueryServer } from '@chain/app';
import { paginateCollection } from '@chain/app';
import type { AnyMsg } from '@chain/codec';
import { GrpcCode, statusError } from '@chain/errors';
import type { QueryMethods, Token } from './gen/chain/prc10.js';
import type { Prc10Keeper } from './keeper.js';
import { validateSymbol } from './token.js';

export const TOKEN_TYPE = 'chain.prc10.Token';

export function createQueryServer(k: Prc10Keeper): QueryServer<QueryMethods> {
  const pack = (t: Token): AnyMsg => k.registry.packAny(TOKEN_TYPE, t);
  /** a failure of a fee computation: Internal with its message, as the original */
  const internal = <T>(f: () => T): T => {
    try {
      return f();
    } catch (e) {
      throw statusError(GrpcCode.INTERNAL, (e as Error).message);
    }
  };

  return {
    Token: (ctx, req) => {
      const t = k.getToken(ctx, req.denom);
      if (!t) throw statusError(GrpcCode.INVALID_ARGUMENT, `token ${req.denom} not found`);
      return { Token: pack(t) };
    },

    Tokens: (ctx, req) => {
      if (req.owner.length === 0) {
        const { items, pagination } = paginateCollection(ctx, k.state.Tokens, undefined, req.pagination, (_symbol, t) => pack(t));
        return { Tokens: items, pagination };
      }
      let owner: Uint8Array;
      try {
        owner = k.ak.addressCodec.decode(req.owner);
      } catch (e) {
        throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid owner address (${(e as Error).message})`);
      }
      const { items, pagination } = paginateCollection(ctx, k.state.OwnerTokens, [owner], req.pagination, (_key, symbol) => {
        const t = k.getToken(ctx, symbol.value);
        if (!t) throw statusError(GrpcCode.INVALID_ARGUMENT, `paginate:token: ${symbol.value} does not exist`);
        return pack(t);
      });
      return { Tokens: items, pagination };
    },

    Fees: (ctx, req) => {
      try {
        validateSymbol(req.symbol);
      } catch (e) {
        throw statusError(GrpcCode.INVALID_ARGUMENT, (e as Error).message);
      }
      return {
        exist: k.hasSymbol(ctx, req.symbol),
        issue_fee: internal(() => k.getIssueTokenFee(ctx, req.symbol)),
        operate_fee: internal(() => k.getOperateTokenFee(ctx, req.symbol)),
      };
    },

    Params: (ctx) => ({ params: k.getParams(ctx), res: null }),
  };
}

