import pg from 'pg';
import type { Logger } from '../logger.ts';

export type NotifyHandler = (payload: string) => void;

/**
 * One LISTEN connection per process for PostgreSQL notifications. Triggers announce changes the
 * process caches (see migrations/*_access_notify.ts); whoever caches subscribes here.
 *
 * While the connection is down nothing can be announced, so `connected` is false and `onReset`
 * handlers run: caches must stop serving until it is back (and run again once it is, since
 * notifications sent in between were lost).
 */
export class ChangeListener {
  private client: pg.Client | undefined;
  private readonly handlers = new Map<string, NotifyHandler[]>();
  private readonly resets: (() => void)[] = [];
  private closed = false;
  private starting: Promise<void> | undefined;
  private retryMs = 100;
  connected = false;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  on(channel: string, handler: NotifyHandler): void {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    const list = this.handlers.get(channel);
    if (list) {
      list.push(handler);
      return;
    }
    this.handlers.set(channel, [handler]);
    // A channel added after connecting is listened to at once (and on every reconnect).
    this.client?.query(`listen ${channel}`).catch((err) => this.log.error({ err }, `listen ${channel} failed`));
  }

  /** Called when the connection is lost and again when it is re-established. */
  onReset(handler: () => void): void {
    this.resets.push(handler);
  }

  /** Connects (once); resolves when listening, or when the first attempt failed (it keeps retrying). */
  start(): Promise<void> {
    this.starting ??= this.connect();
    return this.starting;
  }

  /**
   * Resolves once every notification committed before the call has been handled: a round trip on
   * the listening connection, behind which PostgreSQL delivers what is pending. For tests, and for
   * writers in this process that must see their own change before they answer.
   */
  async sync(): Promise<void> {
    await this.start();
    if (this.client && this.connected) await this.client.query('select 1');
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = this.client;
    this.client = undefined;
    this.connected = false;
    await c?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (m) => {
      for (const h of this.handlers.get(m.channel) ?? []) h(m.payload ?? '');
    });
    let gone = false;
    const lost = (err?: unknown) => {
      if (gone) return;
      gone = true;
      this.lost(client, err);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`listen ${channel}`);
    } catch (err) {
      lost(err);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.connected = true;
    this.retryMs = 100;
    // Anything cached before this point may have missed a notification.
    for (const r of this.resets) r();
  }

  private lost(client: pg.Client, err?: unknown): void {
    if (this.closed) return;
    if (this.connected) this.log.error({ err }, 'change listener lost its connection; caches are off until it is back');
    this.connected = false;
    this.client = undefined;
    client.end().catch(() => undefined);
    for (const r of this.resets) r();
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 5000);
    setTimeout(() => void this.connect(), wait).unref();
  }
}
