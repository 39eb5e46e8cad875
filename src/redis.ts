import { Redis, type RedisOptions, SentinelConnector } from 'ioredis';
import { isNetworkFailure } from './errors.ts';
import type { Logger } from './logger.ts';

/** How long a connection may take to be made and found ready. */
const CONNECT_MS = 2000;

/** What a 503 for want of Redis tells the client to wait (Retry-After): a second past the next probe. */
export const REDIS_RETRY_AFTER_SECONDS = 2;

/**
 * Every Redis connection a process opens is made here (src/root.ts owns one), each kind one way, and
 * all of them are closed together.
 *
 * Requests must never wait for a Redis that is away (docs/outages.md). The command connection queues
 * commands only until it first connects; after that, a command sent while it is not connected fails at
 * once, and one that gets no answer fails after REDIS_COMMAND_TIMEOUT_MS. `health` notices either and
 * says so once per outage, so every part of a request decides at once what to do without Redis.
 */
export class RedisConnections {
  /** Commands answered within a request (rate limits, credits, caches, sessions). Connects on first use. */
  readonly commands: Redis;
  readonly health: RedisHealth;
  private producer: Redis | undefined;
  private readonly made = new Set<Redis>();

  constructor(
    private readonly url: string,
    log: Logger,
    commandTimeoutMs = 1000,
    private readonly sentinel: RedisSentinel | null = null,
  ) {
    this.commands = this.connect({
      lazyConnect: true,
      // Only the first connection's commands wait for it (bounded by the command timeout): after that, a
      // command made while Redis is away fails at once instead of waiting in ioredis's queue.
      enableOfflineQueue: true,
      maxRetriesPerRequest: 1,
      commandTimeout: commandTimeoutMs,
      // A server that accepts the connection but never answers is given up on like one that refuses it.
      connectTimeout: CONNECT_MS,
      retryStrategy: (times) => Math.min(100 * times, 1000),
    });
    this.health = new RedisHealth(log, commandTimeoutMs);
    this.health.watch(this.commands, url);
  }

  /** BullMQ's shared connection for adding jobs and publishing events; made (and connected) on first use. */
  get queues(): Redis {
    this.producer ??= this.bullmq();
    return this.producer;
  }

  /** A connection of its own, for one BullMQ consumer (a Worker or QueueEvents reads by blocking). */
  blocking(): Redis {
    return this.bullmq();
  }

  /**
   * Connects the command connection now, for a process about to serve, waiting at most `ms`: false when Redis
   * did not answer by then (the process serves anyway, without what needs Redis, until it is back).
   */
  ready(ms = 5000): Promise<boolean> {
    const c = this.commands;
    if (c.status === 'ready') return Promise.resolve(true);
    if (c.status === 'wait') c.connect().catch(() => undefined);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        c.off('ready', onReady);
        resolve(ok);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      c.once('ready', onReady);
    });
  }

  disconnect(): void {
    this.health.closing = true;
    this.commands.disconnect();
    for (const c of this.made) c.disconnect();
  }

  /**
   * A connection to the master: REDIS_URL's own address, or, with Sentinels, the address they name now. Through
   * Sentinels every reconnection asks them again, and a promotion they announce moves the connection at once
   * (`failoverDetector`); REDIS_URL still gives the database number and the password.
   */
  private connect(options: RedisOptions): Redis {
    if (!this.sentinel) return new Redis(this.url, options);
    const { sentinels, name, answerMs = CONNECT_MS } = this.sentinel;
    // A Sentinel that takes connections but answers nothing is left for the next (ioredis would wait for it forever).
    return new Redis(this.url, {
      ...options,
      sentinels,
      name,
      failoverDetector: true,
      sentinelCommandTimeout: answerMs,
      Connector: SentinelReconnector,
    });
  }

  private bullmq(): Redis {
    // BullMQ's commands wait for Redis to come back instead of failing (it asks for maxRetriesPerRequest null);
    // what a request adds through them is bounded by RedisHealth.run's deadline instead.
    const options: RedisOptions = { maxRetriesPerRequest: null, retryStrategy: (times) => Math.min(200 * times, 2000) };
    const c = this.connect(options);
    // ioredis reconnects by itself; what the process does meanwhile is said once, by the health.
    c.on('error', (err) => this.health.report(err, this.url));
    c.on('ready', () => this.health.recovered());
    this.made.add(c);
    c.once('end', () => this.made.delete(c));
    return c;
  }
}

/**
 * ioredis's Sentinel connector, with the watch for failovers (its FailoverDetector) ended as soon as the connection
 * it watched is being replaced. ioredis keeps a lost connection's watch until a new one is made; the promotion it
 * then hears "disconnects" the reconnection under way, and one caught asking a Sentinel where the master is gives up
 * for good (status end: every later command fails, nothing reconnects; test/redisSentinel.test.ts). A reconnection
 * asks the Sentinels anyway, so the old watch has nothing left to do.
 */
class SentinelReconnector extends SentinelConnector {
  // ioredis hands a Connector its options untyped; they are the Sentinel options given below.
  constructor(options: unknown) {
    super(options as ConstructorParameters<typeof SentinelConnector>[0]);
  }

  override connect(emit: Parameters<SentinelConnector['connect']>[0]): ReturnType<SentinelConnector['connect']> {
    const own = this as unknown as { failoverDetector: { cleanup(): void } | null };
    own.failoverDetector?.cleanup();
    own.failoverDetector = null;
    return super.connect(emit);
  }
}

/** Redis Sentinels to ask for the master of `name` (REDIS_SENTINELS, REDIS_SENTINEL_NAME). */
export interface RedisSentinel {
  sentinels: { host: string; port: number }[];
  name: string;
  /** How long a Sentinel may take to say where the master is before the next is asked (2 s unless given). */
  answerMs?: number;
}

/** REDIS_SENTINELS as `host:port,host:port`; null when empty (REDIS_URL's own address is the master). */
export function sentinelsOf(list: string, name: string): RedisSentinel | null {
  const sentinels = list
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => {
      const at = x.lastIndexOf(':');
      return { host: x.slice(0, at), port: Number(x.slice(at + 1)) };
    });
  return sentinels.length ? { sentinels, name } : null;
}

/** Redis could not be asked (away, or no answer in time): the caller decides at once what to do without it. */
export class RedisUnavailable extends Error {
  constructor(
    readonly what: string,
    override readonly cause?: unknown,
  ) {
    super(`Redis unavailable (${what})${cause instanceof Error ? `: ${cause.message}` : ''}`);
    this.name = 'RedisUnavailable';
  }
}

/**
 * Errors that mean Redis could not be reached or did not answer in time. Redis's own refusals (a ReplyError),
 * a limiter's verdict (not an Error at all) and our own faults (a TypeError) are answers, and stay what they are.
 */
function unreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return !['ReplyError', 'TypeError', 'RangeError', 'ReferenceError', 'SyntaxError'].includes(err.name);
}

/** ioredis's words for a command it refused to send: the connection is not writeable and nothing may queue. */
const NOT_SENT = /^Stream isn't writeable/;
const IOREDIS_MESSAGES = [/^Connection is closed/, NOT_SENT, /^Reached the max retries per request/, /^Command timed out/];

/**
 * Whether an error raised outside RedisHealth.run (a BullMQ worker's, a queue's) means Redis is away: those
 * carry the connection's own error, which says so only by its code or its words.
 */
export function redisUnreachable(err: unknown): boolean {
  if (err instanceof RedisUnavailable) return true;
  if (!(err instanceof Error)) return false;
  if (isNetworkFailure(err)) return true;
  return err.name === 'MaxRetriesPerRequestError' || IOREDIS_MESSAGES.some((m) => m.test(err.message));
}

/**
 * Whether a call RedisHealth.run failed is known never to have reached Redis: refused at once during an outage
 * (no cause: nothing was called), or not sent by ioredis. A call sent whose answer was lost may have been applied.
 */
export function neverSent(err: unknown): boolean {
  if (!(err instanceof RedisUnavailable)) return false;
  return err.cause === undefined || (err.cause instanceof Error && NOT_SENT.test(err.cause.message));
}

/**
 * Whether Redis can be asked, per process: a circuit breaker over the command connection. While Redis is
 * away every call fails at once (RedisUnavailable) but for one probe a second, and the connection's own
 * reconnection ends the outage as soon as it succeeds. The first failure of an outage is logged once, with
 * what each part does meanwhile; the end is logged with how long it lasted and how many calls went without.
 */
export class RedisHealth {
  private down: { since: number; probeAt: number; without: Map<string, number> } | null = null;
  /** Until the connection is first ready, a call also waits for it to connect (and check Redis is ready). */
  private connected = false;
  closing = false;

  constructor(
    private readonly log: Logger,
    /** How long one call may take before Redis counts as away. */
    readonly deadlineMs: number,
    private readonly probeEveryMs = 1000,
  ) {}

  get available(): boolean {
    return this.down === null;
  }

  watch(client: Redis, url: string): void {
    // Queueing was only for the first connection; from here a command waits for nothing.
    const direct = () => {
      client.options.enableOfflineQueue = false;
    };
    client.on('ready', () => {
      this.connected = true;
      direct();
      this.recovered();
    });
    client.on('error', (err) => {
      direct();
      this.report(err, url);
    });
    client.on('close', () => {
      if (!this.closing) this.report(new Error('connection closed'), url);
    });
  }

  /**
   * Runs one Redis call within the deadline. RedisUnavailable when Redis is away (at once while an outage
   * lasts), or when the call failed to reach it or took longer than the deadline.
   */
  async run<T>(what: string, call: () => Promise<T>, deadline = this.deadlineMs): Promise<T> {
    const deadlineMs = this.connected ? deadline : deadline + CONNECT_MS;
    const d = this.down;
    if (d) {
      d.without.set(what, (d.without.get(what) ?? 0) + 1);
      const now = Date.now();
      if (now < d.probeAt) throw new RedisUnavailable(what);
      d.probeAt = now + this.probeEveryMs;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        call(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs);
        }),
      ]);
      this.recovered();
      return result;
    } catch (err) {
      if (!unreachable(err)) {
        this.recovered();
        throw err;
      }
      this.report(err);
      throw new RedisUnavailable(what, err);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A BullMQ queue, worker or event stream whose errors go here: Redis away is said once per outage (BullMQ
   * reports it again on every reconnection attempt, and prints it to stderr when nothing listens); anything
   * else is logged as the fault it is.
   */
  quiet<T extends { on(event: 'error', listener: (err: Error) => void): unknown }>(emitter: T, what: string): T {
    emitter.on('error', (err: Error) => {
      if (redisUnreachable(err)) this.report(err);
      else this.log.error({ err }, `${what} error`);
    });
    return emitter;
  }

  /** A connection or a call of this process could not reach Redis: the outage begins (said once). */
  report(err: unknown, url?: string): void {
    if (this.down || this.closing) return;
    const now = Date.now();
    this.down = { since: now, probeAt: now + this.probeEveryMs, without: new Map() };
    this.log.warn(
      { err, redis: url },
      'Redis unavailable: rate limits let requests through, credits are charged in PostgreSQL and searches skip the cache; ' +
        'logins, dashboard sessions, usage and bulk logo search answer 503; queued work waits in PostgreSQL until it is back',
    );
  }

  /** A connection or a call of this process reached Redis: the outage, if any, ends (said once). */
  recovered(): void {
    const d = this.down;
    if (!d) return;
    this.down = null;
    this.log.info(
      { outage_ms: Date.now() - d.since, calls_without_redis: Object.fromEntries(d.without) },
      `Redis available again after ${((Date.now() - d.since) / 1000).toFixed(1)} s`,
    );
  }
}
