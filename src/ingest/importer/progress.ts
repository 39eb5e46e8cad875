// Progress lines for long imports: lines read per file (at most every couple of seconds) and each
// merge step with its elapsed time.
const fmt = (n: number) => n.toLocaleString('en-US');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

export class Progress {
  private lastReport = 0;
  private readonly started = Date.now();

  constructor(
    private readonly out: ((msg: string) => void) | undefined,
    private readonly everyMs = 2000,
  ) {}

  private say(msg: string): void {
    this.out?.(`[import ${secs(Date.now() - this.started)}] ${msg}`);
  }

  note(msg: string): void {
    this.say(msg);
  }

  /** Called often while reading; prints only when the last report is old enough. */
  reading(file: string, lines: number, since: number): void {
    const now = Date.now();
    if (now - this.lastReport < this.everyMs) return;
    this.lastReport = now;
    const rate = Math.round((lines * 1000) / Math.max(1, now - since));
    this.say(`${file}: ${fmt(lines)} lines read (${fmt(rate)}/s)`);
  }

  doneReading(file: string, lines: number, staged: number, since: number): void {
    this.lastReport = Date.now();
    this.say(`${file}: ${fmt(lines)} lines read, ${fmt(staged)} staged in ${secs(Date.now() - since)}`);
  }

  /** Runs one merge step and reports it with its duration and, when the step returns one, a count. */
  async step<T>(label: string, fn: () => Promise<T>, count?: (r: T) => number): Promise<T> {
    const t0 = Date.now();
    const r = await fn();
    const n = count ? ` ${fmt(count(r))}` : '';
    this.say(`${label}${n} (${secs(Date.now() - t0)})`);
    return r;
  }
}
