// The slots of bulk logo search, shared between accounts. BullMQ's queue is one FIFO list (groups are
// a BullMQ Pro feature), so whoever adds 100 slow image URLs first would hold every slot until they are
// done. The workers process takes jobs off the queue freely and runs them here instead: each account
// waits in its own line, and a slot that frees goes to the waiting account with the fewest images
// running (among equals, the one served longest ago). So while another account waits, no account gets
// a slot beyond an equal share; an account alone uses every slot. A slot is never taken back: a running
// image keeps it until it is done, at most the image fetch's deadline plus its embedding.
//
// One workers process runs the bulk searches (README): its gate sees every account. Several API
// processes only add jobs.

interface Waiter {
  start: () => void;
  cancel: (reason: unknown) => void;
}

export class FairGate {
  private free: number;
  private readonly running = new Map<string, number>();
  private readonly lines = new Map<string, Waiter[]>();
  /** When each account with images running or waiting was last given a slot (a count of slots given). */
  private readonly served = new Map<string, number>();
  private given = 0;
  private closed: { reason: unknown } | null = null;

  constructor(slots: number) {
    this.free = slots;
  }

  /** Runs the task in a slot once the account's turn comes; an aborted signal takes it out of its line. */
  async run<T>(account: string, signal: AbortSignal | undefined, task: () => Promise<T>): Promise<T> {
    await this.turn(account, signal);
    try {
      return await task();
    } finally {
      this.running.set(account, (this.running.get(account) ?? 1) - 1);
      if (!this.running.get(account)) this.running.delete(account);
      this.forget(account);
      this.free++;
      this.dispatch();
    }
  }

  /** Every task waiting for its turn, now or later, is rejected with the reason; those running go on. */
  close(reason: unknown): void {
    this.closed = { reason };
    for (const line of [...this.lines.values()]) for (const w of [...line]) w.cancel(reason);
  }

  /** Images running and waiting per account (for tests and logs). */
  load(): Record<string, { running: number; waiting: number }> {
    const out: Record<string, { running: number; waiting: number }> = {};
    for (const a of new Set([...this.running.keys(), ...this.lines.keys()])) {
      out[a] = { running: this.running.get(a) ?? 0, waiting: this.lines.get(a)?.length ?? 0 };
    }
    return out;
  }

  private turn(account: string, signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (this.closed) return Promise.reject(this.closed.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => waiter.cancel(signal!.reason);
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.running.set(account, (this.running.get(account) ?? 0) + 1);
          resolve();
        },
        cancel: (reason) => {
          signal?.removeEventListener('abort', onAbort);
          const line = this.lines.get(account);
          const i = line?.indexOf(waiter) ?? -1;
          if (i < 0) return;
          line!.splice(i, 1);
          if (!line!.length) this.lines.delete(account);
          this.forget(account);
          reject(reason);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const line = this.lines.get(account);
      if (line) line.push(waiter);
      else this.lines.set(account, [waiter]);
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.free > 0 && this.lines.size) {
      let next = '';
      let best = [Infinity, Infinity];
      for (const a of this.lines.keys()) {
        const rank = [this.running.get(a) ?? 0, this.served.get(a) ?? -1];
        if (rank[0] < best[0] || (rank[0] === best[0] && rank[1] < best[1])) [next, best] = [a, rank];
      }
      const line = this.lines.get(next)!;
      const waiter = line.shift()!;
      if (!line.length) this.lines.delete(next);
      this.served.set(next, this.given++);
      this.free--;
      waiter.start();
    }
  }

  private forget(account: string): void {
    if (!this.running.has(account) && !this.lines.has(account)) this.served.delete(account);
  }
}
