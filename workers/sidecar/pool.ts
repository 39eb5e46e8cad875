import { Worker } from 'node:worker_threads';

// A fixed set of worker threads, each running one TypeScript script, fed one task at a time in
// arrival order. A thread that dies is replaced and its task fails; nothing waits forever. A thread may
// report part of a task's result before its end ({ partial }), which the task's onPartial hears.

interface Task {
  msg: unknown;
  transfer: ArrayBuffer[];
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  onPartial?: (v: unknown) => void;
}

export interface RunOptions {
  /**
   * Ahead of the tasks waiting (behind other such tasks, in their order), and taken even when the queue is full:
   * the rest of a task already admitted (a search's regions, after its image was decoded), which its request waits for.
   */
  first?: boolean;
  /** Hears what the thread reports before the task's end, in order. */
  onPartial?: (value: unknown) => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
  ready: Promise<void>;
}

export class ThreadPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  /** Tasks run ahead of the queue (RunOptions.first), in arrival order. */
  private readonly ahead: Task[] = [];
  private closed = false;
  /** What the first thread reported when it had loaded (the `loaded` field of its ready message). */
  info: unknown;

  constructor(
    private readonly script: URL,
    size: number,
    private readonly data: unknown,
    readonly maxQueue = 256,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  /** Resolves once every thread has loaded (or rejects with the first one's failure to). */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  get busy(): number {
    return this.slots.filter((s) => s.task).length;
  }

  get queued(): number {
    return this.ahead.length + this.queue.length;
  }

  get size(): number {
    return this.slots.length;
  }

  /** Runs a task; null when the queue is full (the caller answers "busy"). */
  run<T>(msg: unknown, transfer: ArrayBuffer[] = [], opts: RunOptions = {}): Promise<T> | null {
    if (this.closed) return Promise.reject(new Error('thread pool closed'));
    if (!opts.first && this.queue.length >= this.maxQueue) return null;
    return new Promise<T>((resolve, reject) => {
      const task: Task = { msg, transfer, resolve: resolve as (v: unknown) => void, reject, onPartial: opts.onPartial };
      (opts.first ? this.ahead : this.queue).push(task);
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of [...this.ahead.splice(0), ...this.queue.splice(0)]) t.reject(new Error('thread pool closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private spawn(): Slot {
    // Threads do not inherit the tsx loader: the script is imported after registering it.
    const src =
      `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}; register(); ` +
      `await import(${JSON.stringify(this.script.href)});`;
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(src)}`), { workerData: this.data });
    const slot: Slot = { worker, task: null, ready: Promise.resolve() };
    slot.ready = new Promise<void>((resolve, reject) => {
      const onFirst = (m: { ready?: boolean; failed?: string; loaded?: unknown }) => {
        this.info ??= m?.loaded;
        if (m?.ready) resolve();
        else if (m?.failed) reject(new Error(m.failed));
      };
      worker.once('message', onFirst);
      worker.once('error', reject);
    });
    slot.ready.then(
      () => {
        worker.on('message', (m: { ok: boolean; value?: unknown; error?: Error; partial?: unknown }) => {
          if ('partial' in m) {
            slot.task?.onPartial?.(m.partial);
            return;
          }
          const t = slot.task;
          slot.task = null;
          if (t) {
            if (m.ok) t.resolve(m.value);
            else t.reject(Object.assign(new Error(m.error?.message ?? 'task failed'), m.error));
          }
          this.pump();
        });
      },
      () => undefined,
    );
    worker.on('error', (err) => {
      slot.task?.reject(err);
      slot.task = null;
    });
    worker.on('exit', () => {
      if (this.closed) return;
      slot.task?.reject(new Error('worker thread exited'));
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots[i] = this.spawn();
      this.pump();
    });
    return slot;
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (!this.queued) return;
      if (slot.task) continue;
      const t = (this.ahead.length ? this.ahead : this.queue).shift()!;
      slot.task = t;
      slot.ready.then(
        () => slot.worker.postMessage(t.msg, t.transfer),
        (err: Error) => {
          slot.task = null;
          t.reject(err);
        },
      );
    }
  }
}
