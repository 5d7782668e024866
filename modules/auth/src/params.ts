/** auth params: the proto type and the defaults. */
import { aminoJson, defineParamSubspace, paramKey } from '@chain/app';
import type { Context, ParamSubspace } from '@chain/app';
import type { Params } from './gen/chain/auth/v1beta1.js';

/** `chain.auth.v1beta1.Params` (all uint64, as bigint). */
export type AuthParams = Params;

export const DEFAULT_AUTH_PARAMS: AuthParams = {
  max_memo_characters: 256n,
  tx_sig_limit: 7n,
  tx_size_cost_per_byte: 10n,
  sig_verify_cost_ed25519: 590n,
  sig_verify_cost_secp256k1: 1000n,
};

/** What the auth subspace reads and writes: the keeper's params. */
export interface AuthParamsAccess {
  getParams(ctx: Context): AuthParams;
  setParams(ctx: Context, p: AuthParams): void;
}

/** `must be positive` validator of the SDK's auth params (`invalid <what>: 0`). */
function nonZero(what: string): (v: bigint) => void {
  return (v) => {
    if (v === 0n) throw new Error(`invalid ${what}: ${v}`);
  };
}

/**
 * The `auth` params subspace of x/params (SDK v0.45 x/auth/types/params.go): five uint64 keys, amino JSON
 * quoted (`"256"`), each validated by the SDK's validator (`invalid tx signature limit: 0`, ...).
 */
export function paramSubspace(k: AuthParamsAccess): ParamSubspace {
  const u64 = (key: string, field: keyof AuthParams, what: string) =>
    paramKey<AuthParams, bigint>(key, aminoJson.uint64, (p) => p[field], (p, v) => ({ ...p, [field]: v }), nonZero(what));
  return defineParamSubspace('auth', { get: (ctx) => k.getParams(ctx), set: (ctx, p) => k.setParams(ctx, p) }, [
    u64('MaxMemoCharacters', 'max_memo_characters', 'max memo characters'),
    u64('TxSigLimit', 'tx_sig_limit', 'tx signature limit'),
    u64('TxSizeCostPerByte', 'tx_size_cost_per_byte', 'tx size cost per byte'),
    u64('SigVerifyCostED25519', 'sig_verify_cost_ed25519', 'ED25519 signature verification cost'),
    u64('SigVerifyCostSecp256k1', 'sig_verify_cost_secp256k1', 'SECK256k1 signature verification cost'),
  ]);
}
