/**
 * The Msg service of staking (`chain.staking.v1beta1.Msg`, Cosmos SDK v0.45 x/staking/keeper/msg_server.go):
 * each handler runs the message's ValidateBasic (types/msg.go) first, then the SDK's checks in order, then
 * the keeper's state transition, and emits the SDK's events (the module event, then
 * `message{module=staking, sender}`).
 */
import type { Coin, Context, MsgServer } from '@chain/app';
import { isValidDenom } from '@chain/app';
import { Errors } from '@chain/errors';
import { Dec } from '@chain/math';
import { StakingErrors } from './errors.js';
import { AttributeKey, EventType } from './events.js';
import type { CommissionRates, Description, MsgMethods, Validator } from './gen/chain/staking/v1beta1.js';
import { BondStatus } from './gen/chain/staking/v1beta1.js';
import type { StakingKeeper } from './keeper.js';
import { MODULE_NAME } from './keys.js';
import { decOf, decText, ratesOf, validateCommissionRates, validateNewRate } from './shares.js';
import { UNIX_EPOCH, dateTs, formatRFC3339 } from './time.js';

/** `DoNotModifyDesc`: a description field with this value keeps the old value (MsgEditValidator). */
export const DO_NOT_MODIFY_DESC = '[do-not-modify]';

/** Description length limits (types/validator.go). */
export const DESCRIPTION_LIMITS = { moniker: 70, identity: 3000, website: 140, security_contact: 140, details: 280 } as const;

const EMPTY_DESCRIPTION: Description = { moniker: '', identity: '', website: '', security_contact: '', details: '' };

/** `Description.EnsureLength`: sdk 18 `invalid <field> length; got: N, max: M` (byte lengths). */
export function ensureDescriptionLength(d: Description): Description {
  const names: Record<keyof typeof DESCRIPTION_LIMITS, string> = {
    moniker: 'moniker', identity: 'identity', website: 'website', security_contact: 'security contact', details: 'details',
  };
  for (const f of Object.keys(DESCRIPTION_LIMITS) as (keyof typeof DESCRIPTION_LIMITS)[]) {
    const n = Buffer.byteLength(d[f], 'utf8');
    if (n > DESCRIPTION_LIMITS[f]) throw Errors.InvalidRequest.wrap(`invalid ${names[f]} length; got: ${n}, max: ${DESCRIPTION_LIMITS[f]}`);
  }
  return d;
}

/** `Description.UpdateDescription`: `[do-not-modify]` keeps the old value; then `EnsureLength`. */
export function updateDescription(old: Description, d2: Description): Description {
  const pick = (n: string, o: string) => (n === DO_NOT_MODIFY_DESC ? o : n);
  return ensureDescriptionLength({
    moniker: pick(d2.moniker, old.moniker),
    identity: pick(d2.identity, old.identity),
    website: pick(d2.website, old.website),
    security_contact: pick(d2.security_contact, old.security_contact),
    details: pick(d2.details, old.details),
  });
}

const isEmptyDescription = (d: Description | null): boolean =>
  !d || (d.moniker === '' && d.identity === '' && d.website === '' && d.security_contact === '' && d.details === '');

/** A coin's `IsValid() && IsPositive()`. */
function positiveCoin(c: Coin | null): c is Coin {
  if (!c || !isValidDenom(c.denom) || !/^\d+$/.test(c.amount)) return false;
  return BigInt(c.amount) > 0n;
}

/** `Coin.String()`: `<amount><denom>`. */
const coinText = (c: Coin): string => `${c.amount}${c.denom}`;

/**
 * `Commission.String()` of v0.45: the YAML rendering of the Commission struct (gopkg.in/yaml.v2; the
 * embedded rates under `commissionrates`, the Decs quoted, the update time in RFC 3339).
 */
export function commissionYaml(v: Validator): string {
  const r = v.commission?.commission_rates;
  const q = (atomics: string | undefined) => `"${decOf(atomics ?? '').toString()}"`;
  const t = v.commission?.update_time ?? UNIX_EPOCH;
  const d = new Date(Number(t.seconds) * 1000 + Math.floor(t.nanos / 1e6)).toISOString();
  const nanos = t.nanos === 0 ? '' : '.' + t.nanos.toString().padStart(9, '0').replace(/0+$/, '');
  const time = d.slice(0, 19) + nanos + 'Z';
  return `commissionrates:\n  rate: ${q(r?.rate)}\n  max_rate: ${q(r?.max_rate)}\n  max_change_rate: ${q(r?.max_change_rate)}\nupdate_time: ${time}\n`;
}

export function createMsgServer(k: StakingKeeper): MsgServer<MsgMethods> {
  /** a delegator address of a message: the SDK's `AccAddressFromBech32` error, sdk 7 here */
  const accAddr = (s: string): Uint8Array => {
    try {
      return k.accCodec.decode(s);
    } catch (e) {
      throw Errors.InvalidAddress.wrap(`invalid delegator address: ${(e as Error).message}`);
    }
  };
  const valAddr = (s: string): Uint8Array => {
    try {
      return k.valCodec.decode(s);
    } catch (e) {
      throw Errors.InvalidAddress.wrap(`invalid validator address: ${(e as Error).message}`);
    }
  };
  const checkDenom = (ctx: Context, denom: string): void => {
    const bondDenom = k.bondDenom(ctx);
    if (denom !== bondDenom) throw Errors.InvalidRequest.wrap(`invalid coin denomination: got ${denom}, expected ${bondDenom}`);
  };
  const message = (ctx: Context, sender: string): void => {
    ctx.events.emit('message', [['module', MODULE_NAME], ['sender', sender]]);
  };
  const decField = (text: string, what: string): Dec => {
    try {
      return decOf(text);
    } catch {
      throw Errors.InvalidRequest.wrap(`invalid ${what}`);
    }
  };
  const intField = (text: string, what: string): bigint => {
    if (!/^-?\d+$/.test(text)) throw Errors.InvalidRequest.wrap(`invalid ${what}`);
    return BigInt(text);
  };

  return {
    CreateValidator: (ctx, m) => {
      // ValidateBasic: the delegator is decoded first (an empty one fails to decode, as the SDK's
      // AccAddressFromBech32), so the SDK's ErrEmptyDelegatorAddr check after it cannot fire
      const del = accAddr(m.delegator_address);
      if (m.validator_address === '') throw StakingErrors.EmptyValidatorAddr.error();
      const op = valAddr(m.validator_address);
      if (!Buffer.from(op).equals(Buffer.from(del))) throw Errors.InvalidRequest.wrap('validator address is invalid');
      if (!m.pubkey) throw StakingErrors.EmptyValidatorPubKey.error();
      if (!positiveCoin(m.value)) throw Errors.InvalidRequest.wrap('invalid delegation amount');
      if (isEmptyDescription(m.description)) throw Errors.InvalidRequest.wrap('empty description');
      const cr: CommissionRates = m.commission ?? { rate: '', max_rate: '', max_change_rate: '' };
      // `msg.Commission == (CommissionRates{})`: all three unset (a "0" is a set Dec)
      if (cr.rate === '' && cr.max_rate === '' && cr.max_change_rate === '') throw Errors.InvalidRequest.wrap('empty commission');
      const rates = ratesOf(cr);
      validateCommissionRates(rates);
      const minSelf = m.min_self_delegation === '' ? 0n : intField(m.min_self_delegation, 'minimum self delegation');
      if (minSelf <= 0n) throw Errors.InvalidRequest.wrap('minimum self delegation must be a positive integer');
      const value = BigInt(m.value.amount);
      if (value < minSelf) throw StakingErrors.SelfDelegationBelowMinimum.error();

      // msg server
      if (k.getValidator(ctx, op)) throw StakingErrors.ValidatorOwnerExists.error();
      let unpacked: { name: string; message: { key: Uint8Array } };
      try {
        unpacked = k.registry.unpackAny<{ key: Uint8Array }>(m.pubkey);
      } catch {
        throw Errors.InvalidType.wrap(`Expecting cryptotypes.PubKey, got ${m.pubkey.type_url}`);
      }
      const keyType = /ed25519\.PubKey$/.test(unpacked.name) ? 'ed25519' : /ethsecp256k1\.PubKey$/.test(unpacked.name) ? 'eth_secp256k1' : /secp256k1\.PubKey$/.test(unpacked.name) ? 'secp256k1' : undefined;
      if (!keyType) throw Errors.InvalidType.wrap(`Expecting cryptotypes.PubKey, got ${m.pubkey.type_url}`);
      const candidate = { operator_address: m.validator_address, consensus_pubkey: m.pubkey } as Validator;
      if (keyType === 'ed25519' && k.getValidatorByConsAddr(ctx, k.consAddress(candidate))) throw StakingErrors.ValidatorPubKeyExists.error();
      checkDenom(ctx, m.value.denom);
      const description = ensureDescriptionLength(m.description ?? EMPTY_DESCRIPTION);
      // the consensus params' validator pubkey types (CometBFT default: ed25519 only)
      if (keyType !== 'ed25519') throw StakingErrors.ValidatorPubKeyTypeNotSupported.wrap(`got: ${keyType}, expected: [ed25519]`);

      const now = dateTs(ctx.block.time);
      let validator: Validator = {
        operator_address: m.validator_address,
        // stored under the canonical type URL (as auth stores account keys), whichever spelling the tx used
        // (`/cosmos.crypto.ed25519.PubKey` from cosmjs): the state must not depend on the client, and a genesis
        // export (whose JSON names the canonical type) must import to the same bytes
        consensus_pubkey: k.registry.packAny(unpacked.name, unpacked.message),
        jailed: false,
        status: BondStatus.BOND_STATUS_UNBONDED,
        tokens: '0',
        delegator_shares: decText(Dec.zero()),
        description,
        unbonding_height: 0n,
        unbonding_time: UNIX_EPOCH,
        commission: {
          commission_rates: { rate: decText(rates.rate), max_rate: decText(rates.maxRate), max_change_rate: decText(rates.maxChangeRate) },
          update_time: now,
        },
        min_self_delegation: minSelf.toString(),
      };
      k.setValidator(ctx, validator);
      k.setValidatorByConsAddr(ctx, validator);
      k.setValidatorByPowerIndex(ctx, validator);
      k.hooks.call.afterValidatorCreated(ctx, op);
      validator = k.getValidator(ctx, op)!;
      k.delegate(ctx, del, value, BondStatus.BOND_STATUS_UNBONDED, validator, true);

      ctx.events.emit(EventType.CreateValidator, [[AttributeKey.Validator, m.validator_address], ['amount', coinText(m.value)]]);
      message(ctx, m.delegator_address);
      return {};
    },

    EditValidator: (ctx, m) => {
      // ValidateBasic
      if (m.validator_address === '') throw StakingErrors.EmptyValidatorAddr.error();
      if (isEmptyDescription(m.description)) throw Errors.InvalidRequest.wrap('empty description');
      let newMin: bigint | undefined;
      if (m.min_self_delegation !== '') {
        newMin = intField(m.min_self_delegation, 'minimum self delegation');
        if (newMin <= 0n) throw Errors.InvalidRequest.wrap('minimum self delegation must be a positive integer');
      }
      let newRate: Dec | undefined;
      if (m.commission_rate !== '') {
        newRate = decField(m.commission_rate, 'commission rate');
        if (newRate.gt(Dec.one()) || newRate.isNegative()) throw Errors.InvalidRequest.wrap('commission rate must be between 0 and 1 (inclusive)');
      }

      // msg server
      const op = valAddr(m.validator_address);
      const old = k.getValidator(ctx, op);
      if (!old) throw StakingErrors.NoValidatorFound.error();
      const validator: Validator = { ...old, description: updateDescription(old.description ?? EMPTY_DESCRIPTION, m.description!) };
      if (newRate !== undefined) {
        const c = old.commission;
        const now = dateTs(ctx.block.time);
        validateNewRate(ratesOf(c?.commission_rates ?? null), c?.update_time ?? UNIX_EPOCH, newRate, now);
        k.hooks.call.beforeValidatorModified(ctx, op);
        validator.commission = {
          commission_rates: { ...(c?.commission_rates ?? { max_rate: '0', max_change_rate: '0' }), rate: decText(newRate) } as CommissionRates,
          update_time: now,
        };
      }
      if (newMin !== undefined) {
        if (!(newMin > BigInt(old.min_self_delegation || '0'))) throw StakingErrors.MinSelfDelegationDecreased.error();
        if (newMin > BigInt(old.tokens || '0')) throw StakingErrors.SelfDelegationBelowMinimum.error();
        validator.min_self_delegation = newMin.toString();
      }
      k.setValidator(ctx, validator);

      ctx.events.emit(EventType.EditValidator, [
        [AttributeKey.CommissionRate, commissionYaml(validator)], [AttributeKey.MinSelfDelegation, validator.min_self_delegation],
      ]);
      message(ctx, m.validator_address);
      return {};
    },

    Delegate: (ctx, m) => {
      if (m.delegator_address === '') throw StakingErrors.EmptyDelegatorAddr.error();
      if (m.validator_address === '') throw StakingErrors.EmptyValidatorAddr.error();
      if (!positiveCoin(m.amount)) throw Errors.InvalidRequest.wrap('invalid delegation amount');

      const op = valAddr(m.validator_address);
      const validator = k.getValidator(ctx, op);
      if (!validator) throw StakingErrors.NoValidatorFound.error();
      const del = accAddr(m.delegator_address);
      checkDenom(ctx, m.amount.denom);
      const newShares = k.delegate(ctx, del, BigInt(m.amount.amount), BondStatus.BOND_STATUS_UNBONDED, validator, true);

      ctx.events.emit(EventType.Delegate, [
        [AttributeKey.Validator, m.validator_address], ['amount', coinText(m.amount)], [AttributeKey.NewShares, newShares.toString()],
      ]);
      message(ctx, m.delegator_address);
      return {};
    },

    BeginRedelegate: (ctx, m) => {
      if (m.delegator_address === '') throw StakingErrors.EmptyDelegatorAddr.error();
      if (m.validator_src_address === '') throw StakingErrors.EmptyValidatorAddr.error();
      if (m.validator_dst_address === '') throw StakingErrors.EmptyValidatorAddr.error();
      if (!positiveCoin(m.amount)) throw Errors.InvalidRequest.wrap('invalid shares amount');

      const src = valAddr(m.validator_src_address);
      const del = accAddr(m.delegator_address);
      const shares = k.validateUnbondAmount(ctx, del, src, BigInt(m.amount.amount));
      checkDenom(ctx, m.amount.denom);
      const dst = valAddr(m.validator_dst_address);
      const completion = k.beginRedelegation(ctx, del, src, dst, shares);

      ctx.events.emit(EventType.Redelegate, [
        [AttributeKey.SrcValidator, m.validator_src_address], [AttributeKey.DstValidator, m.validator_dst_address],
        ['amount', coinText(m.amount)], [AttributeKey.CompletionTime, formatRFC3339(completion)],
      ]);
      message(ctx, m.delegator_address);
      return { completion_time: completion };
    },

    Undelegate: (ctx, m) => {
      if (m.delegator_address === '') throw StakingErrors.EmptyDelegatorAddr.error();
      if (m.validator_address === '') throw StakingErrors.EmptyValidatorAddr.error();
      if (!positiveCoin(m.amount)) throw Errors.InvalidRequest.wrap('invalid shares amount');

      const op = valAddr(m.validator_address);
      const del = accAddr(m.delegator_address);
      const shares = k.validateUnbondAmount(ctx, del, op, BigInt(m.amount.amount));
      checkDenom(ctx, m.amount.denom);
      const completion = k.undelegate(ctx, del, op, shares);

      ctx.events.emit(EventType.Unbond, [
        [AttributeKey.Validator, m.validator_address], ['amount', coinText(m.amount)], [AttributeKey.CompletionTime, formatRFC3339(completion)],
      ]);
      message(ctx, m.delegator_address);
      return { completion_time: completion };
    },
  };
}
