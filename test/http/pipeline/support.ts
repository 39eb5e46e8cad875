import { randomBytes } from 'node:crypto';
import express from 'express';
import { CallerCache } from '../../../src/accounts/callerCache.ts';
import { type Caller, CallerRepository } from '../../../src/accounts/callerRepository.ts';
import { hashApiKey } from '../../../src/accounts/keys.ts';
import { TokenService } from '../../../src/accounts/tokens.ts';
import type { AppError } from '../../../src/errors.ts';
import { errorHandler } from '../../../src/http/errorHandler.ts';
import { Guard } from '../../../src/http/guard.ts';
import { type LimitSettings, RateLimits } from '../../../src/limits/rateLimits.ts';
import type { TestApp } from '../../helpers/app.ts';

const HIGH = { ipPerMinute: 1_000_000, keyPerSecond: 1_000_000, publicSearchPerHour: 1_000_000 };

/** A guard as the app builds it (real callers, Redis limits, credit ledger), with limits of its own; `unguarded` as the benchmark's. */
export function guardFor(
  t: TestApp,
  limits: Partial<Omit<LimitSettings, 'prefix'>> = {},
  unguarded = false,
): { guard: Guard; tokens: TokenService; callers: CallerRepository } {
  const { deps } = t;
  const rateLimits = new RateLimits(deps.redis, { ...HIGH, ...limits, prefix: `test:${randomBytes(5).toString('hex')}` }, deps.log);
  const callers = new CallerRepository(deps.db);
  const tokens = new TokenService(deps.config.JWT_SECRET, 3600);
  return { guard: new Guard(new CallerCache(callers, deps.listener), callers, t.ledger, rateLimits, tokens, unguarded), tokens, callers };
}

export async function callerOf(callers: CallerRepository, key: string): Promise<Caller> {
  return (await callers.byKeyHash(hashApiKey(key)))!;
}

/** An app whose one route runs `step` on the real request and answers what it resolves to (errors as the API answers them). */
export function stepApp(t: TestApp, step: (req: express.Request, res: express.Response) => Promise<unknown>): express.Express {
  const app = express();
  app.all('/step', async (req, res) => {
    res.json((await step(req, res)) ?? null);
  });
  app.use(errorHandler(t.deps.log));
  return app;
}

/** The error a step throws; fails the test when it throws none. */
export function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('not refused');
}

/** The error a step's promise rejects with; fails the test when it resolves. */
export function rejection(p: Promise<unknown>): Promise<AppError> {
  return p.then(
    () => {
      throw new Error('not refused');
    },
    (err: AppError) => err,
  );
}
