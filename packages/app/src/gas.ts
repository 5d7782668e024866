/** Gas metering: a meter per tx (limit from the fee) and a KVStore wrapper that charges per access. */
import { Errors } from '@chain/errors';
import type { Bytes, KVStore } from '@chain/store';

export class OutOfGasError extends Error {
  constructor(readonly descriptor: string) {
    super(`out of gas in location: ${descriptor}`);
  }
}

export interface GasMeter {
  readonly limit: number;
  consumed(): number;
  consume(amount: number, descriptor: string): void;
  isInfinite(): boolean;
}

/** Gas meter with a limit; consuming past it throws OutOfGasError. */
export class BasicGasMeter implements GasMeter {
  private used = 0;
  constructor(readonly limit: number) {}
  consumed(): number { return this.used; }
  isInfinite(): boolean { return false; }
  consume(amount: number, descriptor: string): void {
    this.used += amount;
    if (this.used > this.limit) throw new OutOfGasError(descriptor);
  }
}

/** Counts gas without a limit (genesis, simulation, queries). Reports MaxUint64 as its limit. */
export class InfiniteGasMeter implements GasMeter {
  private used = 0;
  readonly limit = Number.MAX_SAFE_INTEGER;
  consumed(): number { return this.used; }
  isInfinite(): boolean { return true; }
  consume(amount: number): void { this.used += amount; }
}

/** Costs of store access (the SDK's KVGasConfig defaults). */
export const KV_GAS = {
  hasCost: 1000,
  deleteCost: 1000,
  readCostFlat: 1000,
  readCostPerByte: 3,
  writeCostFlat: 2000,
  writeCostPerByte: 30,
  iterNextCostFlat: 30,
} as const;

/** Charges the meter for every access to the wrapped store. */
export class GasKVStore implements KVStore {
  constructor(private readonly parent: KVStore, private readonly meter: GasMeter) {}

  get(key: Bytes): Bytes | undefined {
    this.meter.consume(KV_GAS.readCostFlat, 'ReadFlat');
    const v = this.parent.get(key);
    this.meter.consume(KV_GAS.readCostPerByte * (key.length + (v?.length ?? 0)), 'ReadPerByte');
    return v;
  }

  has(key: Bytes): boolean {
    this.meter.consume(KV_GAS.hasCost, 'Has');
    return this.parent.has(key);
  }

  set(key: Bytes, value: Bytes): void {
    this.meter.consume(KV_GAS.writeCostFlat, 'WriteFlat');
    this.meter.consume(KV_GAS.writeCostPerByte * (key.length + value.length), 'WritePerByte');
    this.parent.set(key, value);
  }

  delete(key: Bytes): void {
    this.meter.consume(KV_GAS.deleteCost, 'Delete');
    this.parent.delete(key);
  }

  *iterator(start?: Bytes, end?: Bytes, reverse?: boolean): IterableIterator<[Bytes, Bytes]> {
    for (const [k, v] of this.parent.iterator(start, end, reverse)) {
      this.meter.consume(KV_GAS.iterNextCostFlat, 'IterNextFlat');
      this.meter.consume(KV_GAS.readCostPerByte * (k.length + v.length), 'ValuePerByte');
      yield [k, v];
    }
  }
}

/** The SDK's out-of-gas log: `out of gas in location: X; gasWanted: W, gasUsed: U: out of gas`. */
export function outOfGasError(e: OutOfGasError, wanted: number, used: number): Error {
  return Errors.OutOfGas.wrap(`out of gas in location: ${e.descriptor}; gasWanted: ${wanted}, gasUsed: ${used}`);
}
