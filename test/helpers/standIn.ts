import { randomBytes } from 'node:crypto';
import express from 'express';
import { CallerCache } from '../../src/accounts/callerCache.ts';
import { CallerRepository } from '../../src/accounts/callerRepository.ts';
import { TokenService } from '../../src/accounts/tokens.ts';
import { Api } from '../../src/http/endpoint.ts';
import { Guard } from '../../src/http/guard.ts';
import { EarlyStart } from '../../src/limits/earlyStart.ts';
import { type LimitSettings, RateLimits } from '../../src/limits/rateLimits.ts';
import type { TestApp } from './app.ts';

/**
 * An Api on a router of its own, guarded as the app guards (callers, credits, tokens) but with rate
 * limits given here, for stand-in endpoints that exercise the request pipeline. `Limits` lets a test
 * hold admissions back (a subclass of RateLimits that still asks Redis).
 */
export function standInApi(
  t: TestApp,
  limits: Omit<LimitSettings, 'prefix'>,
  Limits: typeof RateLimits = RateLimits,
): { api: Api; router: express.Router } {
  const { deps } = t;
  const rateLimits = new Limits(deps.redis, { ...limits, prefix: `test:${randomBytes(5).toString('hex')}` }, deps.log);
  const callers = new CallerRepository(deps.db);
  const guard = new Guard(
    new CallerCache(callers, deps.listener),
    callers,
    t.ledger,
    rateLimits,
    new TokenService(deps.config.JWT_SECRET, 3600),
    false,
    undefined,
    // A key's admission stays fresh for early starts for a minute, not a second: tests that count on it
    // must not depend on how fast a loaded machine answers the requests in between.
    new EarlyStart(60_000),
  );
  const router = express.Router();
  return { api: new Api(router, guard, true), router };
}
