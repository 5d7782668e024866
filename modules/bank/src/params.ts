/** bank params: the proto type, the defaults, and the form kept in the store and served by queries. */
import { aminoJson, defineKeyedParamSubspace, parseAminoJson, validateParamDenom } from '@chain/app';
import type { AminoCodec, Context, ParamSubspace } from '@chain/app';
import type { Params, SendEnabled } from './gen/chain/bank/v1beta1.js';
import type { BankKeeper } from './keeper.js';

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

/** The `SendEnabled` list's amino JSON: `[{"denom":"…","enabled":true}]` (`enabled` omitted when false, as amino's omitempty). */
const sendEnabledCodec: AminoCodec<SendEnabled[]> = {
  encode: (list) => JSON.stringify(list.map((se) => (se.enabled ? { denom: se.denom, enabled: true } : { denom: se.denom }))),
  decode: (json) => {
    const v = parseAminoJson(json);
    if (v === null) return [];
    if (!Array.isArray(v)) throw new Error(`json: cannot unmarshal ${typeof v === 'object' ? 'object' : typeof v} into Go value of type types.SendEnabledParams`);
    return v.map((e: unknown) => {
      if (typeof e !== 'object' || e === null || Array.isArray(e)) throw new Error('json: cannot unmarshal value into Go value of type types.SendEnabled');
      const o = e as Record<string, unknown>;
      const denom = o.denom ?? '';
      const enabled = o.enabled ?? false;
      if (typeof denom !== 'string') throw new Error(`json: cannot unmarshal ${typeof denom} into Go struct field SendEnabled.denom of type string`);
      if (typeof enabled !== 'boolean') throw new Error(`json: cannot unmarshal ${typeof enabled} into Go struct field SendEnabled.enabled of type bool`);
      return { denom, enabled };
    });
  },
};

/** `validateSendEnabledParams` of SDK v0.45: each denom once, each a valid denom. */
function validateSendEnabledList(list: readonly SendEnabled[]): void {
  const seen = new Set<string>();
  for (const se of list) {
    if (seen.has(se.denom)) throw new Error(`duplicate send enabled parameter found: '${se.denom}'`);
    validateParamDenom(se.denom);
    seen.add(se.denom);
  }
}

/**
 * The `bank` params subspace of x/params (SDK v0.45 x/bank/types/params.go): `SendEnabled` (the per-denom
 * list, kept in `state.SendEnabled`, ordered by denom; a change replaces the whole list) and
 * `DefaultSendEnabled` (bool).
 */
export function paramSubspace(k: BankKeeper): ParamSubspace {
  const list = (ctx: Context): SendEnabled[] => {
    const out: SendEnabled[] = [];
    for (const { key, value } of k.state.SendEnabled.iterate(ctx)) out.push({ denom: key, enabled: value });
    return out;
  };
  return defineKeyedParamSubspace('bank', [
    {
      key: 'SendEnabled',
      getCtx: (ctx) => sendEnabledCodec.encode(list(ctx)),
      setCtx: (ctx, value) => {
        const next = sendEnabledCodec.decode(value, list(ctx));
        try {
          validateSendEnabledList(next);
        } catch (e) {
          throw new Error(`invalid parameter value: ${(e as Error).message}`);
        }
        k.state.SendEnabled.clear(ctx);
        for (const se of next) k.setSendEnabled(ctx, se.denom, se.enabled);
      },
    },
    {
      key: 'DefaultSendEnabled',
      getCtx: (ctx) => aminoJson.bool.encode(k.getParams(ctx).default_send_enabled),
      setCtx: (ctx, value) => {
        const v = aminoJson.bool.decode(value);
        k.setParams(ctx, { ...k.getParams(ctx), send_enabled: [], default_send_enabled: v });
      },
    },
  ]);
}
