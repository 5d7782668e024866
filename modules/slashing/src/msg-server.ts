/** The Msg service of slashing (`chain.slashing.v1beta1.Msg`): Unjail (x/slashing/keeper/msg_server.go v0.45). */
import type { MsgServer } from '@chain/app';
import { SlashingErrors } from './errors.js';
import type { MsgMethods } from './gen/chain/slashing/v1beta1.js';
import type { SlashingKeeper } from './keeper.js';

export function createMsgServer(k: SlashingKeeper): MsgServer<MsgMethods> {
  return {
    Unjail: (ctx, m) => {
      // ValidateBasic: an empty address is ErrBadValidatorAddr
      if (m.validator_addr === '') throw SlashingErrors.BadValidatorAddr.error();
      let valAddr: Uint8Array;
      try {
        valAddr = k.valCodec.decode(m.validator_addr);
      } catch (e) {
        // v0.45 returns the bech32 error itself; ours is wrapped in slashing 3 so it carries a code
        throw SlashingErrors.BadValidatorAddr.wrap((e as Error).message);
      }
      k.unjail(ctx, valAddr);
      // the app has emitted message{action, sender=<valoper>, module=slashing} before the handler
      return {};
    },
  };
}
