/**
 * slashing in a randomized simulation (x/slashing/simulation/operations.go of SDK v0.45): MsgUnjail of a
 * validator whose operator signs, valid when the SDK's rules allow it (jailed, the jail time over, not
 * tombstoned, a self-delegation of at least the minimum) and otherwise refused with the SDK's error, in the
 * SDK's order (unknown validator, no self-delegation, self-delegation too low, not jailed, tombstoned or
 * still jailed). Validators get jailed by the simulated consensus: missed blocks (liveness) and
 * misbehaviour (through evidence). Slashing has no invariant of its own.
 */
import { fails, noop, ok } from '@chain/simulation';
import type { Expectation, OperationInput, OperationResult, SimulationModule } from '@chain/simulation';
import { SlashingErrors } from './errors.js';
import type { StakingValidator } from './expected-keepers.js';
import type { SlashingKeeper } from './keeper.js';
import { timestampNanos, timestampOfDate, tokensFromShares } from './keeper.js';

export interface SlashingSimulationOptions {
  readonly weights?: { readonly unjail?: number };
}

/** slashing's operation for `runSimulation`. */
export function slashingSimulation(k: SlashingKeeper, o: SlashingSimulationOptions = {}): SimulationModule {
  /** what MsgUnjail of `v` must give (x/slashing/keeper/unjail.go) */
  const expectation = (input: OperationInput, v: StakingValidator): [Expectation, string] => {
    const op = k.valCodec.decode(v.operator_address);
    const self = k.sk.getDelegation(input.ctx, op, op);
    if (!self) return [fails(SlashingErrors.MissingSelfDelegation), 'no self-delegation'];
    if (tokensFromShares(v, self.shares).truncateInt() < BigInt(v.min_self_delegation || '0')) return [fails(SlashingErrors.SelfDelegationTooLowToUnjail), 'self-delegation too low'];
    if (!v.jailed) return [fails(SlashingErrors.ValidatorNotJailed), 'not jailed'];
    const info = k.getValidatorSigningInfo(input.ctx, k.sk.consAddress(v));
    if (info?.tombstoned) return [fails(SlashingErrors.ValidatorJailed), 'tombstoned'];
    if (info && timestampNanos(timestampOfDate(input.ctx.block.time)) < timestampNanos(info.jailed_until)) return [fails(SlashingErrors.ValidatorJailed), 'still jailed'];
    return [ok(), 'unjailed'];
  };

  const unjail = (input: OperationInput): OperationResult => {
    const { rand, ctx } = input;
    const unjailMsg = (validator: string) => [{ type: 'chain.slashing.v1beta1.MsgUnjail', value: { validator_addr: validator } }];
    if (rand.bool(0.05)) {
      const strangers = input.available.filter((a) => !k.sk.getValidator(ctx, a.addr));
      if (strangers.length === 0) return noop('every available account is a validator');
      const signer = rand.pick(strangers);
      return { msgs: unjailMsg(k.valCodec.encode(signer.addr)), signer, expect: fails(SlashingErrors.NoValidatorForAddress), label: 'unknown validator' };
    }
    const own = [...k.sk.iterateValidators(ctx)].filter((v) => input.availableByAddr(k.valCodec.decode(v.operator_address)));
    const jailed = own.filter((v) => v.jailed);
    // mostly the jailed ones: unjailing a validator that is not jailed is the rarer mistake
    const v = jailed.length > 0 && rand.bool(0.85) ? rand.pick(jailed) : rand.maybePick(own);
    if (!v) return noop('no available operator');
    const signer = input.availableByAddr(k.valCodec.decode(v.operator_address))!;
    const [expect, label] = expectation(input, v);
    return { msgs: unjailMsg(v.operator_address), signer, expect, label };
  };

  return {
    name: 'slashing',
    operations: [{ name: 'slashing/unjail', weight: o.weights?.unjail ?? 20, op: unjail }],
    invariants: [],
  };
}
