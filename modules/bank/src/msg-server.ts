/** The Msg service of bank (`chain.bank.v1beta1.Msg`): Send and MultiSend. */
import type { Coin, MsgServer } from '@chain/app';
import { addCoins, coinsToString, validateCoins } from '@chain/app';
import { Errors } from '@chain/errors';
import { BankErrors } from './errors.js';
import { emit, messageSenderEvent, outputTransferEvent } from './events.js';
import type { MsgMethods } from './gen/chain/bank/v1beta1.js';
import type { BankKeeper } from './keeper.js';

export function createMsgServer(k: BankKeeper): MsgServer<MsgMethods> {
  const codec = k.ak.addressCodec;
  /** a message address: sdk 7 `invalid <what> address: …` */
  const msgAddr = (s: string, what: string): Uint8Array => {
    try {
      return codec.decode(s);
    } catch (e) {
      throw Errors.InvalidAddress.wrap(`invalid ${what} address: ${(e as Error).message}`);
    }
  };
  /** non-empty valid coins: sdk 10 with the coins as text */
  const checkCoins = (coins: Coin[]): void => {
    try {
      validateCoins(coins, false);
    } catch (e) {
      throw Errors.InvalidCoins.wrap(coinsToString(coins) || (e as Error).message);
    }
  };
  const notBlocked = (address: string): void => {
    if (k.isBlockedAddress(address)) throw Errors.Unauthorized.wrap(`${address} is not allowed to receive funds`);
  };

  return {
    Send: (ctx, m) => {
      const from = msgAddr(m.from_address, 'from');
      const to = msgAddr(m.to_address, 'to');
      checkCoins(m.amount);
      k.isSendEnabledCoins(ctx, m.amount);
      notBlocked(m.to_address);
      k.sendCoins(ctx, from, to, m.amount);
      return {};
    },

    MultiSend: (ctx, m) => {
      const { inputs, outputs } = m;
      if (inputs.length === 0) throw BankErrors.NoInputs.error();
      if (inputs.length !== 1) throw BankErrors.MultipleSenders.error();
      if (outputs.length === 0) throw BankErrors.NoOutputs.error();
      let inSum: Coin[] = [];
      let outSum: Coin[] = [];
      for (const i of inputs) { msgAddr(i.address, 'input'); checkCoins(i.coins); inSum = addCoins(inSum, i.coins); }
      for (const o of outputs) { msgAddr(o.address, 'output'); checkCoins(o.coins); outSum = addCoins(outSum, o.coins); }
      if (coinsToString(inSum) !== coinsToString(outSum)) throw BankErrors.InputOutputMismatch.error();
      k.isSendEnabledCoins(ctx, inSum);
      for (const o of outputs) notBlocked(o.address);
      const input = inputs[0]!;
      k.subCoins(ctx, codec.decode(input.address), input.coins);
      emit(ctx, messageSenderEvent(input.address));
      for (const o of outputs) {
        const to = codec.decode(o.address);
        k.addCoins(ctx, to, o.coins);
        if (!k.ak.hasAccount(ctx, to)) k.ak.createAccount(ctx, to);
        emit(ctx, outputTransferEvent(o.address, coinsToString(o.coins)));
      }
      return {};
    },
  };
}
