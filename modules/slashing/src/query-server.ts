/**
 * The Query service of slashing (`chain.slashing.v1beta1.Query`), as x/slashing/keeper/grpc_query.go of SDK
 * v0.45: Params, SigningInfo (empty → InvalidArgument `invalid request`, missing → NotFound `SigningInfo not
 * found for validator <addr>`), SigningInfos (paginated over the 0x01 prefix, so the same order and keys).
 * One deliberate difference: a consensus address that does not decode is InvalidArgument here (v0.45 returns
 * the bare bech32 error, gRPC Unknown).
 */
import type { QueryServer } from '@chain/app';
import { paginate } from '@chain/app';
import { GrpcCode, statusError } from '@chain/errors';
import { prefixStore } from '@chain/store';
import type { QueryMethods, ValidatorSigningInfo } from './gen/chain/slashing/v1beta1.js';
import type { SlashingKeeper } from './keeper.js';
import { SIGNING_INFO_PREFIX, STORE_KEY } from './keys.js';

export function createQueryServer(k: SlashingKeeper): QueryServer<QueryMethods> {
  return {
    Params: (ctx) => ({ params: k.getParamsProto(ctx) }),
    SigningInfo: (ctx, req) => {
      if (req.cons_address === '') throw statusError(GrpcCode.INVALID_ARGUMENT, 'invalid request');
      let consAddr: Uint8Array;
      try {
        consAddr = k.consCodec.decode(req.cons_address);
      } catch (e) {
        throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid consensus address: ${(e as Error).message}`);
      }
      const info = k.getValidatorSigningInfo(ctx, consAddr);
      if (!info) throw statusError(GrpcCode.NOT_FOUND, `SigningInfo not found for validator ${req.cons_address}`);
      return { val_signing_info: info };
    },
    SigningInfos: (ctx, req) => {
      const store = prefixStore(ctx.kv(STORE_KEY), Uint8Array.of(SIGNING_INFO_PREFIX));
      const { items, pagination } = paginate(store, req.pagination, (_key, value) => (
        k.registry.decode<ValidatorSigningInfo>('chain.slashing.v1beta1.ValidatorSigningInfo', value)
      ));
      return { info: items, pagination };
    },
  };
}
