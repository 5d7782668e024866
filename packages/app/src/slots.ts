/** At most `n` holders at a time; waiters are served in the order they came (a FIFO semaphore). */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(n: number) {
    this.free = n;
  }

  /** undefined when a slot was free (taken now), else a promise of the slot */
  acquire(): Promise<void> | undefined {
    if (this.free > 0 && this.waiting.length === 0) {
      this.free--;
      return undefined;
    }
    return new Promise<void>((r) => { this.waiting.push(r); });
  }

  /** Gives the slot to the longest waiter, or frees it. */
  release(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next();
    else this.free++;
  }
}
