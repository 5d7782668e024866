/**
 * The order in which concurrent requests' broadcasts reach CheckTx.
 *
 * A client that pipelines one account's txs (a websocket's requests sent without waiting, a batch) needs them
 * checked in nonce order: CheckTx refuses a nonce above the account's next one. The requests still run at the same
 * time (their signatures are recovered on the worker threads together); only the broadcast itself waits for the
 * requests before it. Each request takes a ticket when it arrives, in order:
 * - `admit(broadcast)` waits until every earlier ticket has broadcast (or ended without broadcasting), then calls
 *   `broadcast`. With a source that admits in call order (the embedded engine queues a tx when `checkTx` is called)
 *   the next ticket may go as soon as the call is made; otherwise it waits for the answer.
 * - `done()` when the request has ended, whether it broadcast or not (an invalid tx must not hold the ones after it;
 *   its turn still comes after the tickets before it).
 */
export interface AdmissionTicket {
  admit<T>(broadcast: () => Promise<T>): Promise<T>;
  done(): void;
}

export class AdmissionQueue {
  private last: Promise<void> = Promise.resolve();

  /** @param inCallOrder the source admits broadcasts in the order they are called (ConsensusSource.admitsInCallOrder) */
  constructor(private readonly inCallOrder: boolean) {}

  ticket(): AdmissionTicket {
    const before = this.last;
    let release!: () => void;
    this.last = new Promise<void>((r) => { release = r; });
    const inCallOrder = this.inCallOrder;
    return {
      async admit<T>(broadcast: () => Promise<T>): Promise<T> {
        await before;
        let p: Promise<T>;
        try {
          p = broadcast();
        } catch (e) {
          release();
          throw e;
        }
        if (inCallOrder) release();
        else p.then(release, release);
        return p;
      },
      // (after the tickets before it: a request that ends early must not let later ones pass earlier ones)
      done: () => { void before.then(release); },
    };
  }
}
