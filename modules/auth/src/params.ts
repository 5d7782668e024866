/** auth params: the proto type and the defaults. */
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
