// The workers process's webhook consumers, over what the root built: the relay that fans events out
// into deliveries and hands PostgreSQL's pending deliveries to BullMQ, the delivery worker, the daily
// renewal_due job and the mail relay. workers/main.ts starts it; tests start the same thing in-process.
import { Queue, QueueEvents, Worker } from 'bullmq';
import { DELIVERIES_CHANNEL, OUTBOX_CHANNEL } from '../src/db/channels.ts';
import { Retrying } from '../src/retrying.ts';
import type { Root } from '../src/root.ts';
import { DELIVERY_QUEUE, type DeliveryJob, OutboxRelay } from '../src/webhooks/outboxRelay.ts';
import { RENEWALS_QUEUE } from '../src/webhooks/renewals.ts';

export interface WebhookWorkersOptions {
  /** Milliseconds between relay passes when nothing announces work. */
  idleMs?: number;
  /** How long a job may run unconfirmed before another worker takes it over (BullMQ lock duration). */
  lockMs?: number;
}

export class WebhookWorkers {
  private readonly stop = new AbortController();
  private readonly queues: { deliveries: Queue; renewals: Queue };
  private readonly workers: Worker[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  readonly relay: OutboxRelay;
  private relayRun: Promise<void> | undefined;

  constructor(
    private readonly root: Root,
    private readonly opts: WebhookWorkersOptions = {},
  ) {
    const { config } = root;
    const connection = root.connections.queues;
    const prefix = config.QUEUE_PREFIX;
    const { health } = root.connections;
    this.queues = {
      deliveries: health.quiet(new Queue(DELIVERY_QUEUE, { connection, prefix }), 'delivery queue'),
      renewals: health.quiet(new Queue(RENEWALS_QUEUE, { connection, prefix }), 'renewals queue'),
    };
    this.relay = new OutboxRelay(root.repos.deliveries, this.queues.deliveries, {
      maxAttempts: root.delivery.maxAttempts,
      retryDelayMs: root.delivery.retryDelayMs,
      requeueAfterMs: config.WEBHOOK_REQUEUE_AFTER_MS,
    });
  }

  async start(): Promise<void> {
    const { config, log, listener, connections } = this.root;
    const { deliverer, mail } = this.root.services;
    const prefix = config.QUEUE_PREFIX;
    const { deliveries, renewals, watchReminders } = this.root.repos;

    listener.on(OUTBOX_CHANNEL, () => this.relay.kick());
    listener.on(DELIVERIES_CHANNEL, () => this.relay.kick());
    await listener.start();

    // The jobs a dead workers process held go back to the queue once their lock has lapsed and a stalled
    // check has seen them, about three lock durations; the lock is renewed on a timer whatever the job's
    // length, so a short one costs only that renewal (BullMQ's 30 s would hold deliveries up to 90 s).
    const lockDuration = this.opts.lockMs ?? 5_000;
    const workerOpts = { prefix, lockDuration, stalledInterval: lockDuration };
    const onFailed = (what: string) => (job: { id?: string } | undefined, err: Error) => {
      if (err.name !== 'RetryLater') log.error({ err, job: job?.id }, `${what} job failed`);
    };
    this.workers.push(
      new Worker<DeliveryJob>(
        DELIVERY_QUEUE,
        async (job) => {
          // A failure that has attempts left is recorded and thrown, so BullMQ retries it after the backoff.
          if ((await deliverer.attempt(job.data)) === 'retry')
            throw Object.assign(new Error('delivery failed; retried after the backoff'), { name: 'RetryLater' });
        },
        { ...workerOpts, connection: connections.blocking(), concurrency: config.WEBHOOK_CONCURRENCY },
      ).on('failed', onFailed('delivery')),
      new Worker(
        RENEWALS_QUEUE,
        async (job) => {
          // The day as the root's clock reads it (tests move it), unless the job names one.
          const date = (job.data as { date?: string }).date ?? new Date(this.root.clock.now()).toISOString().slice(0, 10);
          const n = await renewals.writeDue(date);
          const deadlines = await watchReminders.writeDue(date);
          // After the reminders, so that a digest lists the deadlines they announced.
          const digests = await this.root.services.watchDigest.writeDue(date);
          const purged = await deliveries.purge(config.WEBHOOK_LOG_DAYS);
          log.info(
            { reminders: n, deadlines, digests, purged },
            'renewal and deadline reminders and watch digests written, old logs purged',
          );
          return n;
        },
        { ...workerOpts, connection: connections.blocking(), concurrency: 1 },
      ).on('failed', onFailed('renewal')),
    );
    for (const w of this.workers) connections.health.quiet(w, 'webhook worker');

    this.relayRun = this.relay.run(this.stop.signal, this.opts.idleMs ?? 1000, new Retrying(log, 'outbox relay'));
    // The schedule lives in Redis, which keeps nothing across a restart: set it again every hour.
    const scheduling = new Retrying(log, 'scheduling renewal reminders');
    const schedule = () => scheduling.round(() => this.scheduleRenewals());
    await schedule();
    this.timers.push(setInterval(schedule, 3600_000));
    const mailing = new Retrying(log, 'mail relay');
    const send = () => void mailing.round(() => mail.sendPending());
    send();
    this.timers.push(setInterval(send, 30_000));
  }

  /** The daily repeatable job, plus one run today (idempotent: reminders already written are not written again). */
  async scheduleRenewals(): Promise<void> {
    await this.queues.renewals.upsertJobScheduler(
      'renewal-due-daily',
      { pattern: this.root.config.RENEWAL_CRON, tz: 'UTC' },
      { name: 'renewal_due' },
    );
    const today = new Date().toISOString().slice(0, 10);
    await this.queues.renewals.add('renewal_due', {}, { jobId: `renewal-due-${today}`, removeOnComplete: 50, removeOnFail: 50 });
  }

  /** Runs the daily job once now through the queue and waits for it (the admin's catch-up, and tests). */
  async runRenewalsNow(date?: string): Promise<number> {
    const connection = this.root.connections.blocking();
    const events = this.root.connections.health.quiet(
      new QueueEvents(RENEWALS_QUEUE, { connection, prefix: this.root.config.QUEUE_PREFIX }),
      'renewals events',
    );
    try {
      await events.waitUntilReady();
      const job = await this.queues.renewals.add('renewal_due', date ? { date } : {}, { removeOnComplete: 50, removeOnFail: 50 });
      return (await job.waitUntilFinished(events)) as number;
    } finally {
      await events.close();
      connection.disconnect();
    }
  }

  /** Sends unsent mail now. */
  sendMail(): Promise<number> {
    return this.root.services.mail.sendPending();
  }

  /** Stops the consumers; the connections, the listener and the mail transport are the root's to close. */
  async close(): Promise<void> {
    this.stop.abort();
    for (const t of this.timers) clearInterval(t);
    await this.relayRun;
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all(Object.values(this.queues).map((q) => q.close()));
  }
}
