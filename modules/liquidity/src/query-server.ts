/**
 * The Query service of the liquidity module (`chain.liquidity.v1beta1.Query`, the original's
 * `tendermint.liquidity.v1beta1.Query`): the original's queries (x/liquidity/keeper/grpc_query.go) and the
 * fork's success-record queries, with their gRPC errors (InvalidArgument `empty request`, NotFound with the
 * original's messages).
 */
import type { Context, QueryServer } from '@chain/app';
import { paginateCollection } from '@chain/app';
import { GrpcCode, statusError } from '@chain/errors';
import type { Pool, QueryMethods } from './gen/chain/liquidity/v1beta1.js';
import type { LiquidityKeeper } from './keeper.js';

const empty = (): never => {
  throw statusError(GrpcCode.INVALID_ARGUMENT, 'empty request');
};
const notFound = (msg: string): never => {
  throw statusError(GrpcCode.NOT_FOUND, msg);
};

export function createQueryServer(k: LiquidityKeeper): QueryServer<QueryMethods> {
  const s = k.state;
  const pool = (ctx: Context, id: bigint): Pool => k.getPool(ctx, id) ?? notFound(`liquidity pool ${id} doesn't exist`);
  const addr = (text: string, what: string): Uint8Array => {
    try {
      return k.ak.addressCodec.decode(text);
    } catch {
      throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid ${what} address ${text}`);
    }
  };

  return {
    Params: (ctx) => ({ params: k.getParams(ctx) }),

    LiquidityPool: (ctx, req) => {
      if (req.pool_id === 0n) empty();
      return { pool: pool(ctx, req.pool_id) };
    },

    LiquidityPoolByPoolCoinDenom: (ctx, req) => {
      if (req.pool_coin_denom === '') empty();
      const msg = `liquidity pool with pool coin denom ${req.pool_coin_denom} doesn't exist`;
      const p = k.isPoolCoinDenom(ctx, req.pool_coin_denom)
        ? k.getAllPools(ctx).find((x) => x.pool_coin_denom === req.pool_coin_denom)
        : undefined;
      return { pool: p ?? notFound(msg) };
    },

    LiquidityPoolByReserveAcc: (ctx, req) => {
      if (req.reserve_acc === '') empty();
      let acc: Uint8Array;
      try {
        acc = k.ak.addressCodec.decode(req.reserve_acc);
      } catch {
        return notFound(`the reserve account address ${req.reserve_acc} is not valid`);
      }
      return { pool: k.getPoolByReserveAcc(ctx, acc) ?? notFound(`liquidity pool with pool reserve account ${req.reserve_acc} doesn't exist`) };
    },

    LiquidityPoolBatch: (ctx, req) => {
      if (req.pool_id === 0n) empty();
      pool(ctx, req.pool_id);
      return { batch: k.getBatch(ctx, req.pool_id) ?? notFound(`liquidity pool batch ${req.pool_id} doesn't exist`) };
    },

    LiquidityPools: (ctx, req) => {
      const { items, pagination } = paginateCollection(ctx, s.Pools, undefined, req.pagination, (_id, p) => p);
      if (items.length === 0) notFound('There are no pools present.');
      return { pools: items, pagination };
    },

    PoolBatchSwapMsg: (ctx, req) => {
      if (req.pool_id === 0n && req.msg_index === 0n) empty();
      return { swap: s.SwapMsgStates.get(ctx, [req.pool_id, req.msg_index]) ?? notFound(`the msg given msg_index ${req.msg_index} doesn't exist or deleted`) };
    },
    PoolBatchSwapMsgs: (ctx, req) => {
      if (req.pool_id === 0n && !req.pagination) empty();
      pool(ctx, req.pool_id);
      const { items, pagination } = paginateCollection(ctx, s.SwapMsgStates, [req.pool_id], req.pagination, (_k, v) => v);
      return { swaps: items, pagination };
    },
    PoolBatchDepositMsg: (ctx, req) => {
      if (req.pool_id === 0n && req.msg_index === 0n) empty();
      return { deposit: s.DepositMsgStates.get(ctx, [req.pool_id, req.msg_index]) ?? notFound(`the msg given msg_index ${req.msg_index} doesn't exist or deleted`) };
    },
    PoolBatchDepositMsgs: (ctx, req) => {
      if (req.pool_id === 0n && !req.pagination) empty();
      pool(ctx, req.pool_id);
      const { items, pagination } = paginateCollection(ctx, s.DepositMsgStates, [req.pool_id], req.pagination, (_k, v) => v);
      return { deposits: items, pagination };
    },
    PoolBatchWithdrawMsg: (ctx, req) => {
      if (req.pool_id === 0n && req.msg_index === 0n) empty();
      return { withdraw: s.WithdrawMsgStates.get(ctx, [req.pool_id, req.msg_index]) ?? notFound(`the msg given msg_index ${req.msg_index} doesn't exist or deleted`) };
    },
    PoolBatchWithdrawMsgs: (ctx, req) => {
      if (req.pool_id === 0n && !req.pagination) empty();
      pool(ctx, req.pool_id);
      const { items, pagination } = paginateCollection(ctx, s.WithdrawMsgStates, [req.pool_id], req.pagination, (_k, v) => v);
      return { withdraws: items, pagination };
    },

    PoolDepositSuccessMsg: (ctx, req) => {
      if (req.pool_id === 0n && req.msg_index === 0n) empty();
      pool(ctx, req.pool_id);
      return { deposit: k.getDepositSuccess(ctx, req.pool_id, req.msg_index) ?? notFound(`the msg given msg_index ${req.msg_index} doesn't exist`) };
    },
    PoolDepositSuccessMsgs: (ctx, req) => {
      if (req.pool_id === 0n && req.depositor_address === '' && !req.pagination) empty();
      pool(ctx, req.pool_id);
      const under = req.depositor_address === '' ? [req.pool_id] as [bigint] : [req.pool_id, addr(req.depositor_address, 'depositor')] as [bigint, Uint8Array];
      const { items, pagination } = paginateCollection(ctx, s.DepositSuccess, under, req.pagination, (_k, v) => v);
      return { deposits: items, pagination };
    },
    PoolSwapSuccessMsg: (ctx, req) => {
      if (req.pool_id === 0n && req.msg_index === 0n) empty();
      pool(ctx, req.pool_id);
      return { swap: k.getSwapSuccess(ctx, req.pool_id, req.msg_index) ?? notFound(`the msg given msg_index ${req.msg_index} doesn't exist`) };
    },
    PoolSwapSuccessMsgs: (ctx, req) => {
      if (req.pool_id === 0n && req.swap_address === '' && !req.pagination) empty();
      pool(ctx, req.pool_id);
      const under = req.swap_address === '' ? [req.pool_id] as [bigint] : [req.pool_id, addr(req.swap_address, 'swap')] as [bigint, Uint8Array];
      const { items, pagination } = paginateCollection(ctx, s.SwapSuccess, under, req.pagination, (_k, v) => v);
      return { swaps: items, pagination };
    },
    PoolWithdrawSuccessMsg: (ctx, req) => {
      if (req.pool_id === 0n && req.msg_index === 0n) empty();
      pool(ctx, req.pool_id);
      return { withdraw: k.getWithdrawSuccess(ctx, req.pool_id, req.msg_index) ?? notFound(`the msg given msg_index ${req.msg_index} doesn't exist`) };
    },
    PoolWithdrawSuccessMsgs: (ctx, req) => {
      if (req.pool_id === 0n && req.withdraw_address === '' && !req.pagination) empty();
      pool(ctx, req.pool_id);
      const under = req.withdraw_address === '' ? [req.pool_id] as [bigint] : [req.pool_id, addr(req.withdraw_address, 'withdraw')] as [bigint, Uint8Array];
      const { items, pagination } = paginateCollection(ctx, s.WithdrawSuccess, under, req.pagination, (_k, v) => v);
      return { withdraws: items, pagination };
    },
  };
}
