/**
 * Gathers the calls made while a batch is open (at most `max`, at most `waitMs`) into one call of
 * `run`: deliveries running side by side share one database round trip to load their work and one to
 * record their successes, instead of one each.
 */
export class Batcher<K, V> {
  private pending: { key: K; resolve: (v: V) => void; reject: (e: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly run: (keys: K[]) => Promise<V[]>,
    private readonly waitMs = 2,
    private readonly max = 100,
  ) {}

  get(key: K): Promise<V> {
    return new Promise((resolve, reject) => {
      this.pending.push({ key, resolve, reject });
      if (this.pending.length >= this.max) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.waitMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (!batch.length) return;
    this.run(batch.map((b) => b.key)).then(
      (values) => batch.forEach((b, i) => b.resolve(values[i])),
      (err) => batch.forEach((b) => b.reject(err)),
    );
  }
}
