/**
 * Time as the code that decides expiries reads it (signed links). Tests give the app a clock they
 * move forward instead of waiting half an hour.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A value loaded on first use and again once it is older than `maxAgeMs` or dropped; a load that fails is not
 * kept, so the next use tries again. Callers share one load in flight.
 */
export class Expiring<T> {
  private cached: { value: Promise<T>; at: number } | null = null;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly maxAgeMs: number,
    private readonly clock: Clock = systemClock,
  ) {}

  get(): Promise<T> {
    const now = this.clock.now();
    if (!this.cached || now - this.cached.at > this.maxAgeMs) {
      const value = this.load();
      const entry = { value, at: now };
      this.cached = entry;
      value.catch(() => {
        if (this.cached === entry) this.cached = null;
      });
    }
    return this.cached.value;
  }

  /** Forgets the value: the next use loads it again. */
  drop(): void {
    this.cached = null;
  }
}
