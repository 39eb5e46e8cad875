// Everything the workers process runs for webhooks, built from the configuration: the relay that fans
// events out into deliveries and hands PostgreSQL's pending deliveries to BullMQ, the delivery worker,
// the daily renewal_due job and the mail relay. workers/main.ts starts it; tests start the same thing in-process.
import { Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { Db } from '../db/knex.ts';
import type { Logger } from '../logger.ts';
import { ChangeListener } from '../db/listener.ts';
import { CallerCache } from '../accounts/callerCache.ts';
import { CallerRepository } from '../accounts/callerRepository.ts';
import { TrademarkRepository } from '../trademarks/repository.ts';
import { TrademarkService } from '../trademarks/service.ts';
import { LocalObjectStore } from '../storage/localStore.ts';
import { UrlSigner } from '../storage/urlSigner.ts';
import { OutboundClient, outboundClient } from '../outbound/client.ts';
import { MailRelay } from '../mail/mailer.ts';
import { DeliveryRepository } from './deliveryRepository.ts';
import { Deliverer } from './delivery.ts';
import { DELIVERY_QUEUE, OutboxRelay, type DeliveryJob } from './outboxRelay.ts';
import { writeRenewalReminders } from './renewals.ts';
import { SecretBox } from './secrets.ts';

export const RENEWALS_QUEUE = 'renewal-reminders';
export const OUTBOX_CHANNEL = 'nishaan_outbox';
export const DELIVERIES_CHANNEL = 'nishaan_deliveries';

export interface WebhookWorkersOptions {
  /** Milliseconds between relay passes when nothing announces work. */
  idleMs?: number;
  /** How long a job may run unconfirmed before another worker takes it over (BullMQ lock duration). */
  lockMs?: number;
}

export class WebhookWorkers {
  private readonly stop = new AbortController();
  private readonly connection: Redis;
  private readonly queues: { deliveries: Queue; renewals: Queue };
  private readonly workers: Worker[] = [];
  private readonly listener: ChangeListener;
  private readonly mail: MailRelay;
  private readonly client: OutboundClient;
  private readonly timers: NodeJS.Timeout[] = [];
  readonly relay: OutboxRelay;
  private relayRun: Promise<void> | undefined;

  constructor(private readonly config: Config, private readonly db: Db, private readonly log: Logger, private readonly opts: WebhookWorkersOptions = {}) {
    const prefix = config.QUEUE_PREFIX;
    this.connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
    this.connection.on('error', () => undefined); // ioredis reconnects; BullMQ reports what matters
    this.queues = {
      deliveries: new Queue(DELIVERY_QUEUE, { connection: this.connection, prefix }),
      renewals: new Queue(RENEWALS_QUEUE, { connection: this.connection, prefix }),
    };
    const maxAttempts = config.WEBHOOK_MAX_RETRIES + 1;
    this.relay = new OutboxRelay(db, this.queues.deliveries, { maxAttempts, retryDelayMs: config.WEBHOOK_RETRY_DELAY_MS, requeueAfterMs: config.WEBHOOK_REQUEUE_AFTER_MS });
    this.listener = new ChangeListener(config.DATABASE_URL, log);
    this.mail = new MailRelay(db, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }, log);
    this.client = outboundClient(config);
  }

  async start(): Promise<void> {
    const { config, db, log } = this;
    const prefix = config.QUEUE_PREFIX;
    const repo = new DeliveryRepository(db);
    const callers = new CallerRepository(db);
    const signer = new UrlSigner(config.URL_SIGNING_SECRET);
    const baseUrl = config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}`;
    const trademarks = new TrademarkService(new TrademarkRepository(db), new LocalObjectStore(config.objectStoreDir, signer, () => baseUrl));
    const maxAttempts = config.WEBHOOK_MAX_RETRIES + 1;
    const deliverer = new Deliverer(repo, new CallerCache(callers, this.listener), trademarks, new SecretBox(config.WEBHOOK_SECRET_KEY), this.client,
      { maxAttempts, retryDelayMs: config.WEBHOOK_RETRY_DELAY_MS, disableAfter: config.WEBHOOK_DISABLE_AFTER }, log,
      () => void this.mail.sendPending().catch((err) => log.error({ err }, 'mail relay failed')));

    this.listener.on(OUTBOX_CHANNEL, () => this.relay.kick());
    this.listener.on(DELIVERIES_CHANNEL, () => this.relay.kick());
    await this.listener.start();

    // The jobs a dead workers process held go back to the queue once their lock has lapsed and a stalled
    // check has seen them, about three lock durations; the lock is renewed on a timer whatever the job's
    // length, so a short one costs only that renewal (BullMQ's 30 s would hold deliveries up to 90 s).
    const lockDuration = this.opts.lockMs ?? 5_000;
    const workerOpts = { prefix, lockDuration, stalledInterval: lockDuration };
    const onFailed = (what: string) => (job: { id?: string } | undefined, err: Error) => {
      if (err.name !== 'RetryLater') log.error({ err, job: job?.id }, `${what} job failed`);
    };
    this.workers.push(
      new Worker<DeliveryJob>(DELIVERY_QUEUE, async (job) => {
        // A failure that has attempts left is recorded and thrown, so BullMQ retries it after the backoff.
        if ((await deliverer.attempt(job.data)) === 'retry') throw Object.assign(new Error('delivery failed; retried after the backoff'), { name: 'RetryLater' });
      }, { ...workerOpts, connection: this.workerConnection(), concurrency: config.WEBHOOK_CONCURRENCY }).on('failed', onFailed('delivery')),
      new Worker(RENEWALS_QUEUE, async (job) => {
        const n = await writeRenewalReminders(db, (job.data as { date?: string }).date);
        const purged = await repo.purge(config.WEBHOOK_LOG_DAYS);
        log.info({ reminders: n, purged }, 'renewal reminders written, old delivery logs purged');
        return n;
      }, { ...workerOpts, connection: this.workerConnection(), concurrency: 1 }).on('failed', onFailed('renewal')),
    );
    for (const w of this.workers) w.on('error', (err) => log.error({ err }, 'queue worker error'));

    this.relayRun = this.relay.run(this.stop.signal, this.opts.idleMs ?? 1000, (err) => log.error({ err }, 'outbox relay failed; retrying'));
    // The schedule lives in Redis, which keeps nothing across a restart: set it again every hour.
    const schedule = () => this.scheduleRenewals().catch((err) => log.error({ err }, 'scheduling renewal reminders failed'));
    await schedule();
    this.timers.push(setInterval(schedule, 3600_000));
    const mail = () => void this.mail.sendPending().catch((err) => log.error({ err }, 'mail relay failed'));
    mail();
    this.timers.push(setInterval(mail, 30_000));
  }

  /** The daily repeatable job, plus one run today (idempotent: reminders already written are not written again). */
  async scheduleRenewals(): Promise<void> {
    await this.queues.renewals.upsertJobScheduler('renewal-due-daily', { pattern: this.config.RENEWAL_CRON, tz: 'UTC' }, { name: 'renewal_due' });
    const today = new Date().toISOString().slice(0, 10);
    await this.queues.renewals.add('renewal_due', {}, { jobId: `renewal-due-${today}`, removeOnComplete: 50, removeOnFail: 50 });
  }

  /** Runs the daily job once now through the queue and waits for it (the admin's catch-up, and tests). */
  async runRenewalsNow(date?: string): Promise<number> {
    const events = new QueueEvents(RENEWALS_QUEUE, { connection: this.workerConnection(), prefix: this.config.QUEUE_PREFIX });
    try {
      await events.waitUntilReady();
      const job = await this.queues.renewals.add('renewal_due', date ? { date } : {}, { removeOnComplete: 50, removeOnFail: 50 });
      return (await job.waitUntilFinished(events)) as number;
    } finally {
      await events.close();
    }
  }

  /** Sends unsent mail now. */
  sendMail(): Promise<number> {
    return this.mail.sendPending();
  }

  private readonly connections: Redis[] = [];

  private workerConnection(): Redis {
    const c = new Redis(this.config.REDIS_URL, { maxRetriesPerRequest: null });
    c.on('error', () => undefined);
    this.connections.push(c);
    return c;
  }

  async close(): Promise<void> {
    this.stop.abort();
    for (const t of this.timers) clearInterval(t);
    await this.relayRun;
    await Promise.all(this.workers.map((w) => w.close()));
    for (const c of this.connections) c.disconnect();
    await Promise.all(Object.values(this.queues).map((q) => q.close()));
    this.connection.disconnect();
    await this.listener.close();
    this.mail.close();
    this.client.close();
  }
}
