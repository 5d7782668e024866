/**
 * The Msg service of the token module (`chain.prc10.Msg`, the original's `plugchain.prc10.Msg`). Each handler
 * runs the message's ValidateBasic (x/prc10/types/msg.go) first, then the original handler's checks in its
 * order (x/prc10/keeper/msg_server.go): addresses, module-account recipients, the fee (taken and burned
 * before the token checks: a failure later in the tx undoes it), the keeper's checks and work, then
 * `message{module=token}` and the message's event.
 */
import type { MsgServer } from '@chain/app';
import { Errors } from '@chain/errors';
import { Prc10Errors } from './errors.js';
import {
  burnTokenEvent, editTokenEvent, emit, issueTokenEvent, messageEvent, mintTokenEvent, transferOwnerTokenEvent,
} from './events.js';
import type { MsgMethods } from './gen/chain/prc10.js';
import type { Prc10Keeper } from './keeper.js';
import { MODULE_NAME } from './keys.js';
import { DO_NOT_MODIFY, MIN_SYMBOL_LEN, newToken, validateAmount, validateName, validateSymbol, validateToken } from './token.js';


export function createMsgServer(k: Prc10Keeper): MsgServer<MsgMethods> {
  const codec = k.ak.addressCodec;
  /** a message address: sdk 7 `invalid <what> address (<reason>)`, the original's wording */
  const msgAddr = (text: string, what: string): Uint8Array => {
    try {
      return codec.decode(text);
    } catch (e) {
      throw Errors.InvalidAddress.wrap(`invalid ${what} address (${(e as Error).message})`);
    }
  };
  /** sdk 4 `<address> is a module account` */
  const notModuleAccount = (addr: Uint8Array, text: string): void => {
    if (k.isModuleAccount(addr)) throw Errors.Unauthorized.wrap(`${text} is a module account`);
  };

  return {
    IssueToken: (ctx, m) => {
      // ValidateBasic: the owner, then the token with the max_supply 0 rule applied
      const owner = msgAddr(m.owner, 'owner');
      validateToken(newToken(m), (o) => msgAddr(o, 'owner'));
      notModuleAccount(owner, m.owner);
      k.deductIssueTokenFee(ctx, owner, m.symbol);
      k.issueToken(ctx, m, owner);
      emit(ctx, messageEvent(MODULE_NAME), issueTokenEvent(m.symbol, m.scale, m.initial_supply, m.owner));
      return {};
    },

    MintToken: (ctx, m) => {
      // ValidateBasic: the owner only
      const owner = msgAddr(m.owner, 'owner');
      const to = m.to.length === 0 ? owner : msgAddr(m.to, 'to');
      notModuleAccount(to, codec.encode(to));
      // no token has a symbol that short, and the fee of one is undefined (the original divided by zero)
      if (new TextEncoder().encode(m.symbol).length < MIN_SYMBOL_LEN) throw Prc10Errors.TokenNotExists.wrap(`token symbol ${m.symbol} does not exist`);
      k.deductOperateTokenFee(ctx, owner, m.symbol);
      k.mintToken(ctx, m.symbol, m.amount, to, owner);
      emit(ctx, messageEvent(MODULE_NAME), mintTokenEvent(m.amount, m.symbol, m.owner));
      return {};
    },

    EditToken: (ctx, m) => {
      // ValidateBasic: the owner, the max supply (not 0), the symbol; and the new name (1 to 32 bytes)
      const owner = msgAddr(m.owner, 'owner');
      validateAmount(m.max_supply);
      validateSymbol(m.symbol);
      if (m.name !== DO_NOT_MODIFY) validateName(m.name);
      k.deductOperateTokenFee(ctx, owner, m.symbol);
      k.editToken(ctx, m.symbol, m.name === DO_NOT_MODIFY ? undefined : m.name, m.max_supply, owner);
      emit(ctx, messageEvent(MODULE_NAME), editTokenEvent(m.owner, m.symbol));
      return {};
    },

    BurnToken: (ctx, m) => {
      // ValidateBasic: the owner, the amount (not 0), the symbol
      const owner = msgAddr(m.owner, 'owner');
      validateAmount(m.amount);
      validateSymbol(m.symbol);
      k.deductOperateTokenFee(ctx, owner, m.symbol);
      k.burnToken(ctx, m.symbol, m.amount, owner);
      emit(ctx, messageEvent(MODULE_NAME), burnTokenEvent(m.owner, m.amount, m.symbol));
      return {};
    },

    TransferOwnerToken: (ctx, m) => {
      // ValidateBasic: the owner, the symbol
      const owner = msgAddr(m.owner, 'owner');
      validateSymbol(m.symbol);
      const to = msgAddr(m.to, 'to');
      notModuleAccount(to, m.to);
      k.deductOperateTokenFee(ctx, owner, m.symbol);
      k.transferOwnerToken(ctx, m.symbol, owner, to);
      emit(ctx, messageEvent(MODULE_NAME), transferOwnerTokenEvent(m.symbol, m.owner, m.to));
      return {};
    },
  };
}
