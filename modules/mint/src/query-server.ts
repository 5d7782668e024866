/** The Query service of mint (`chain.mint.v1beta1.Query`, x/mint/keeper/grpc_query.go of SDK v0.45). */
import type { QueryServer } from '@chain/app';
import type { QueryMethods } from './gen/chain/mint/v1beta1.js';
import type { MintKeeper } from './keeper.js';

export function createQueryServer(k: MintKeeper): QueryServer<QueryMethods> {
  return {
    Params: (ctx) => ({ params: k.getParamsProto(ctx) }),
    // bytes fields with the Dec customtype: the ASCII of the atomics (cosmjs: decodeCosmosSdkDecFromProto)
    Inflation: (ctx) => ({ inflation: k.getMinter(ctx).inflation.atomicsBytes() }),
    AnnualProvisions: (ctx) => ({ annual_provisions: k.getMinter(ctx).annualProvisions.atomicsBytes() }),
  };
}
