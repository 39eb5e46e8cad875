import { databaseUnavailable } from './db/unavailable.ts';
import type { Logger } from './logger.ts';
import { redisUnreachable } from './redis.ts';

/** What a piece of repeated background work says of each round. */
export interface RoundReport {
  failed(err: unknown): void;
  succeeded(): void;
}

/** Whether an error means PostgreSQL or Redis is away (the work waits for it), rather than a fault of ours. */
export function dependencyAway(err: unknown): 'PostgreSQL' | 'Redis' | null {
  if (databaseUnavailable(err)) return 'PostgreSQL';
  if (redisUnreachable(err)) return 'Redis';
  return null;
}

/**
 * Work that runs again and again (a relay, a sweep, a planner, a change feed): while what it needs is away it
 * says so once, then nothing until a round works again, when it says how long it waited and how many rounds
 * failed meanwhile. A failure that is not a dependency being away is a fault, logged each time. So an outage
 * costs two lines per kind of work, not one a second.
 */
export class Retrying implements RoundReport {
  private waiting: { since: number; rounds: number } | null = null;

  constructor(
    private readonly log: Logger,
    private readonly what: string,
  ) {}

  failed(err: unknown): void {
    const away = dependencyAway(err);
    if (!away) {
      this.log.error({ err }, `${this.what} failed; retrying`);
      return;
    }
    if (this.waiting) {
      this.waiting.rounds++;
      return;
    }
    this.waiting = { since: Date.now(), rounds: 1 };
    this.log.warn({ cause: (err as Error).message }, `${this.what} waits for ${away} (unavailable); retrying quietly until it works again`);
  }

  succeeded(): void {
    const w = this.waiting;
    if (!w) return;
    this.waiting = null;
    this.log.info(
      { waited_ms: Date.now() - w.since, failed_rounds: w.rounds },
      `${this.what} works again after ${((Date.now() - w.since) / 1000).toFixed(1)} s`,
    );
  }

  /** Runs one round, reporting its outcome; never throws. */
  async round(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
      this.succeeded();
    } catch (err) {
      this.failed(err);
    }
  }
}
