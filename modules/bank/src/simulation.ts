/**
 * bank in a randomized simulation (x/bank/simulation of SDK v0.45): MsgSend and MsgMultiSend with random
 * amounts the signer can pay (and a random fee), and deliberately invalid ones (more than the balance, a
 * blocked module account as recipient, a zero amount, inputs that do not match the outputs), each with
 * the exact error it must get; the invariants `bank/nonnegative-outstanding` and `bank/total-supply`.
 * Inputs are chosen from the keeper's state as the block has it so far.
 */
import type { Coin, Context } from '@chain/app';
import { Errors } from '@chain/errors';
import { amountOfDenom, fails, minCoins, noop, ok, positiveAmount, randomCoins, randomFees, subCoins } from '@chain/simulation';
import type { OperationInput, OperationResult, SimAccount, SimulationModule, WeightedOperation } from '@chain/simulation';
import { BankErrors } from './errors.js';
import { nonNegativeBalanceInvariant, totalSupplyInvariant } from './invariants.js';
import type { BankKeeper } from './keeper.js';

export interface BankSimulationOptions {
  /** module account names to try sending to (those that are blocked addresses must be refused) */
  readonly moduleAccounts?: readonly string[];
  readonly weights?: { readonly send?: number; readonly multiSend?: number };
}

const MSG_SEND = 'chain.bank.v1beta1.MsgSend';
const MSG_MULTI_SEND = 'chain.bank.v1beta1.MsgMultiSend';

/** bank's operations and invariants for `runSimulation`. */
export function bankSimulation(k: BankKeeper, o: BankSimulationOptions = {}): SimulationModule {
  const codec = k.ak.addressCodec;
  const blocked = (ctxAddr: readonly string[]): string[] =>
    ctxAddr.map((n) => codec.encode(k.ak.getModuleAddress(n))).filter((a) => k.isBlockedAddress(a));

  /** the signer's balances, the fee it pays (from what CheckTx also sees), and what is left to spend */
  const wallet = (input: OperationInput, signer: SimAccount): { balances: Coin[]; fee: Coin[]; spendable: Coin[] } => {
    const balances = k.getAllBalances(input.ctx, signer.addr);
    const fee = randomFees(input.rand, minCoins(k.getAllBalances(input.committed, signer.addr), balances));
    return { balances, fee, spendable: subCoins(balances, fee) };
  };

  /** a recipient: mostly an account of the run, sometimes a fresh address (a new account) */
  const recipient = (input: OperationInput): string =>
    input.rand.bool(0.1) ? codec.encode(input.rand.bytes(20)) : input.rand.pick(input.accounts).address;

  /** coins worth more than the signer holds of one denom it may or may not hold */
  const tooMuch = (input: OperationInput, balances: readonly Coin[], denoms: readonly string[]): Coin[] => {
    const denom = input.rand.pick(denoms);
    return [{ denom, amount: (amountOfDenom(balances, denom) + positiveAmount(input.rand, 10n ** 20n)).toString() }];
  };

  const denomsOf = (ctx: Context): string[] => [...k.state.Supply.iterate(ctx)].map((e) => e.key);

  const send = (input: OperationInput): OperationResult => {
    const { rand } = input;
    const signer = rand.pick(input.available);
    const { balances, fee, spendable } = wallet(input, signer);
    const msg = (to: string, amount: Coin[]) => [{ type: MSG_SEND, value: { from_address: signer.address, to_address: to, amount } }];
    const r = rand.float();
    if (r < 0.12) {
      const denoms = denomsOf(input.ctx);
      if (denoms.length === 0) return noop('no supply');
      return { msgs: msg(recipient(input), tooMuch(input, balances, denoms)), signer, expect: fails(Errors.InsufficientFunds), label: 'insufficient funds' };
    }
    if (r < 0.2) {
      const to = blocked(o.moduleAccounts ?? []);
      const coins = randomCoins(rand, spendable);
      if (to.length === 0 || coins.length === 0) return noop('no blocked module account or nothing to send');
      return { msgs: msg(rand.pick(to), coins), signer, expect: fails(Errors.Unauthorized), label: 'to a blocked module account' };
    }
    if (r < 0.25) {
      const denom = balances[0]?.denom ?? 'achain';
      return { msgs: msg(recipient(input), [{ denom, amount: '0' }]), signer, expect: fails(Errors.InvalidCoins), label: 'zero amount' };
    }
    const coins = randomCoins(rand, spendable);
    if (coins.length === 0) return noop('nothing to send');
    return { msgs: msg(recipient(input), coins), signer, fee, expect: ok() };
  };

  const multiSend = (input: OperationInput): OperationResult => {
    const { rand } = input;
    const signer = rand.pick(input.available);
    const { balances, fee, spendable } = wallet(input, signer);
    const r = rand.float();
    let total = randomCoins(rand, spendable);
    let expect = ok();
    let label = 'ok';
    if (r < 0.1) {
      const denoms = denomsOf(input.ctx);
      if (denoms.length === 0) return noop('no supply');
      total = tooMuch(input, balances, denoms);
      expect = fails(Errors.InsufficientFunds);
      label = 'insufficient funds';
    }
    if (total.length === 0) return noop('nothing to send');
    // split every coin of the input over 1-4 outputs
    const n = rand.int(1, 4);
    const outputs: { address: string; coins: Coin[] }[] = Array.from({ length: n }, () => ({ address: recipient(input), coins: [] }));
    for (const c of total) {
      let left = BigInt(c.amount);
      for (let i = 0; i < n && left > 0n; i++) {
        const part = i === n - 1 ? left : rand.bigint(0n, left);
        if (part > 0n) outputs[i]!.coins.push({ denom: c.denom, amount: part.toString() });
        left -= part;
      }
    }
    let outs = outputs.filter((x) => x.coins.length > 0);
    if (r >= 0.1 && r < 0.2) {
      // one more unit out than in
      const first = outs[0]!;
      first.coins = first.coins.map((c, i) => (i === 0 ? { denom: c.denom, amount: (BigInt(c.amount) + 1n).toString() } : c));
      expect = fails(BankErrors.InputOutputMismatch);
      label = 'inputs do not match outputs';
    } else if (r >= 0.2 && r < 0.25) {
      outs = [];
      expect = fails(BankErrors.NoOutputs);
      label = 'no outputs';
    }
    return {
      msgs: [{ type: MSG_MULTI_SEND, value: { inputs: [{ address: signer.address, coins: total }], outputs: outs } }],
      signer,
      fee: expect.ok ? fee : [],
      expect,
      label,
    };
  };

  const operations: WeightedOperation[] = [
    { name: 'bank/send', weight: o.weights?.send ?? 100, op: send },
    { name: 'bank/multi-send', weight: o.weights?.multiSend ?? 30, op: multiSend },
  ];
  const nonNegative = nonNegativeBalanceInvariant(k);
  const totalSupply = totalSupplyInvariant(k);
  return {
    name: 'bank',
    operations,
    invariants: [
      { name: 'bank/nonnegative-outstanding', check: nonNegative },
      { name: 'bank/total-supply', check: totalSupply },
    ],
  };
}

export { bankInvariants, nonNegativeBalanceInvariant, totalSupplyInvariant } from './invariants.js';
export type { Invariant as BankInvariant, InvariantResult as BankInvariantResult } from './invariants.js';
