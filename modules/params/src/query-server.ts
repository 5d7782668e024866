/** The Query service of params (`chain.params.v1beta1.Query`): Params. */
import type { QueryServer } from '@chain/app';
import { GrpcCode, statusError } from '@chain/errors';
import type { QueryMethods } from './gen/chain/params/v1beta1.js';
import type { ParamsKeeper } from './keeper.js';

export function createQueryServer(k: ParamsKeeper): QueryServer<QueryMethods> {
  return {
    /**
     * One parameter, live from its module: `{param: {subspace, key, value}}`, value in amino JSON. An empty
     * subspace or key is InvalidArgument `invalid request` (400); an unknown subspace `params` 2 and an
     * unknown key `sdk` 22, both NotFound (404).
     */
    Params: (ctx, req) => {
      if (req.subspace === '' || req.key === '') throw statusError(GrpcCode.INVALID_ARGUMENT, 'invalid request');
      return { param: { subspace: req.subspace, key: req.key, value: k.getParam(ctx, req.subspace, req.key) } };
    },
  };
}
