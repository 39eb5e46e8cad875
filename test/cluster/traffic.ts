// Mixed traffic through the cluster's HAProxy for test/cluster/cluster.test.ts: each request's kind, the phase it
// was sent and answered in, and what it got, so that each failover's effect can be read off afterwards.

export interface Answered {
  op: string;
  /** The phase when sent, and when answered: a request in flight as a part died belongs to neither alone. */
  phase: string;
  ended: string;
  sentAt: number;
  status: number | 'hang' | 'error';
  retryAfter: string | null;
}

/** The kinds of request sent; those that charge an API call credit when answered 200. */
export const CHARGED = ['detail', 'search', 'journals'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Traffic {
  readonly answered: Answered[] = [];
  /** The batch clearances accepted (202): every one must be screened in the end. */
  readonly batches: string[] = [];
  phase = 'start';
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly ops: Record<string, () => Promise<Response>>,
    private readonly order: string[],
    readonly concurrency = 3,
  ) {}

  start(): void {
    this.running = true;
    this.loops = Array.from({ length: this.concurrency }, (_, k) => this.loop(k));
  }

  /** Stops sending and waits for the requests in flight. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  enter(phase: string): void {
    this.phase = phase;
  }

  /** What the requests sent and answered in `phase` (of kind `op`) got, sent `fromMs` or later. */
  of(phase: string, o: { op?: string; from?: number } = {}): Answered[] {
    return this.answered.filter((a) => a.phase === phase && (!o.op || a.op === o.op) && a.sentAt >= (o.from ?? 0));
  }

  private async loop(k: number): Promise<void> {
    for (let i = k; this.running; i++) {
      const op = this.order[i % this.order.length]!;
      const phase = this.phase;
      const sentAt = Date.now();
      let status: Answered['status'];
      let retryAfter: string | null = null;
      try {
        const res = await this.ops[op]!();
        const body = await res.text();
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        if (op === 'batch' && res.status === 202) this.batches.push(JSON.parse(body).job_id);
      } catch (err) {
        status = (err as Error).name === 'TimeoutError' ? 'hang' : 'error';
      }
      this.answered.push({ op, phase, ended: this.phase, sentAt, status, retryAfter });
      await sleep(30);
    }
  }
}

/** Whether an answer is a success for its kind. */
export const ok = (a: Answered) => typeof a.status === 'number' && a.status >= 200 && a.status < 300;

/** Counts by kind and status, for a failure message. */
export function tally(answers: Answered[]): string {
  const t: Record<string, Record<string, number>> = {};
  for (const a of answers) {
    t[a.op] ??= {};
    t[a.op][a.status] = (t[a.op][a.status] ?? 0) + 1;
  }
  return JSON.stringify(t);
}
