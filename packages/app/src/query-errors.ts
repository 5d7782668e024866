/** Query failures as ABCI results (the SDK's `rpc error: code = X desc = ...` logs). */
import { Errors, ChainError, grpcStatusOf, GrpcCode } from '@chain/errors';

const GRPC_NAMES = ['OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied', 'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated'];

/** Query failures as the SDK reports them through ABCI (status → sdk code, `rpc error: ...` log). */
export function queryErrorToAbci(e: unknown): { code: number; codespace: string; log: string } {
  if (e instanceof ChainError) return { code: e.code, codespace: e.codespace, log: e.message };
  const st = grpcStatusOf(e);
  const reg = st.code === GrpcCode.NOT_FOUND ? Errors.KeyNotFound
    : st.code === GrpcCode.INVALID_ARGUMENT || st.code === GrpcCode.FAILED_PRECONDITION ? Errors.InvalidRequest
    : st.code === GrpcCode.UNAUTHENTICATED ? Errors.Unauthorized
    : Errors.UnknownRequest;
  return { code: reg.code, codespace: reg.codespace, log: `rpc error: code = ${GRPC_NAMES[st.code] ?? 'Unknown'} desc = ${st.message}: ${reg.description}` };
}
