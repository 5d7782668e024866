/**
 * Typed hooks between modules (the SDK's `StakingHooks` + `NewMultiStakingHooks`). The module that calls
 * hooks declares an interface and owns a `HookSlot` of it; the composition root wires the slot once, with
 * the implementations of the modules that listen, in order:
 *
 *   staking.hooks.set(distribution.stakingHooks(), slashing.stakingHooks());
 *
 * The module lists the slot in `AppModule.hookSlots`, so the manager refuses an app whose composition
 * forgot to wire it (`set()` with no arguments says "no listeners" explicitly).
 */

/** Any hooks interface: methods that return nothing (a hook that fails throws). */
export type HookMethods<H> = { [K in keyof H]: H[K] extends (...args: infer A) => void ? (...args: A) => void : never };

export class HookSlot<H extends HookMethods<H>> {
  private listeners: readonly Partial<H>[] | undefined;
  private fanOut: H | undefined;

  /** `methods`: the hook names, so the fan-out object has every method even if no listener has it. */
  constructor(readonly name: string, private readonly methods: readonly (keyof H & string)[]) {}

  /** Wires the listeners, called in this order for every hook. Refused once wired. */
  set(...listeners: Partial<H>[]): void {
    if (this.listeners) throw new Error(`hooks ${this.name} are already set`);
    this.listeners = listeners;
    const out: Record<string, (...args: unknown[]) => void> = {};
    for (const m of this.methods) {
      const bound: ((...args: unknown[]) => void)[] = [];
      for (const l of listeners) {
        const f = l[m] as ((...args: unknown[]) => void) | undefined;
        if (f) bound.push(f.bind(l));
      }
      out[m] = bound.length === 1 ? bound[0]! : (...args: unknown[]) => { for (const f of bound) f(...args); };
    }
    // every method of H is in `out` (built from the method list): the one place the fan-out is typed
    this.fanOut = out as unknown as H;
  }

  get isSet(): boolean {
    return this.listeners !== undefined;
  }

  /** The fan-out: calling a hook calls every listener's implementation in order. */
  get call(): H {
    if (!this.fanOut) throw new Error(`hooks ${this.name} were never set (wire them in the composition root)`);
    return this.fanOut;
  }
}
