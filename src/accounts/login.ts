import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../errors.ts';
import type { RateLimits } from '../limits/rateLimits.ts';
import type { AccountService } from './accountService.ts';

/**
 * An email and password checked under the login throttle, for every way of logging in (a bearer token, a
 * browser session): failed attempts are counted per address, per email and per pair and slowed, then refused
 * (429); a success clears the email's and the pair's counts. Only a wrong password is a failed attempt: one
 * whose check failed (PostgreSQL away) is given back, so an outage never locks an account. A wrong email and
 * a wrong password are the same 401.
 */
export async function logIn(accounts: AccountService, limits: RateLimits, email: string, password: string, ip: string) {
  const attempt = await limits.loginAttempt(email, ip);
  if (attempt.delayMs > 0) await sleep(attempt.delayMs);
  let account: Awaited<ReturnType<AccountService['authenticate']>>;
  try {
    account = await accounts.authenticate(email, password);
  } catch (err) {
    await attempt.abandoned();
    throw err;
  }
  if (!account) throw new AppError('invalid_credentials', 'wrong email or password');
  await attempt.succeeded();
  return account;
}

/** What both signups answer of a new account beside their credential: its key (shown once), plan and trial. */
export function signedUp<P>(r: Awaited<ReturnType<AccountService['signup']>>, plan: P) {
  return {
    api_key: r.apiKey,
    email: r.email,
    name: r.name,
    plan,
    subscription_status: 'trial' as const,
    trial_ends_at: r.trialEndsAt?.toISOString() ?? null,
  };
}
