/** bank params: the proto type, the defaults, and the form kept in the store and served by queries. */
import type { Params } from './gen/chain/bank/v1beta1.js';

/** `chain.bank.v1beta1.Params`: `send_enabled` (deprecated) and `default_send_enabled`. */
export type BankParams = Params;

export const DEFAULT_BANK_PARAMS: BankParams = { send_enabled: [], default_send_enabled: true };

/**
 * The params as stored (`state.Params`), served by `Query/Params` and exported in genesis: `send_enabled`
 * is always empty there (its entries live in `state.SendEnabled`, one per denom).
 */
export function storedParams(p: BankParams): BankParams {
  return { send_enabled: [], default_send_enabled: p.default_send_enabled };
}
