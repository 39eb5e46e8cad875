import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../errors.ts';
import type { RateLimits } from '../limits/rateLimits.ts';
import type { AccountService } from './accountService.ts';

/**
 * An email and password checked under the login throttle, for every way of logging in (a bearer token, a
 * browser session): failed attempts are counted per email and per address and slowed, then refused (429);
 * a success clears the email's count. A wrong email and a wrong password are the same 401.
 */
export async function logIn(accounts: AccountService, limits: RateLimits, email: string, password: string, ip: string) {
  const { delayMs } = await limits.loginAttempt(email, ip);
  if (delayMs > 0) await sleep(delayMs);
  const account = await accounts.authenticate(email, password);
  if (!account) throw new AppError('invalid_credentials', 'wrong email or password');
  await limits.loginSucceeded(email);
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
