import type { AccountRepository } from '../accounts/accountRepository.ts';
import { RESOURCES, type Resource } from '../accounts/callerRepository.ts';
import { AppError } from '../errors.ts';
import type { CreditLedger } from './credits.ts';
import { nextMonthStart } from './quotaRepository.ts';

export interface Meter {
  used: number;
  limit: number;
  remaining: number;
}

export interface UsageReport {
  month: string;
  plan: { code: string; name: string };
  subscription: { status: 'trial' | 'active' | 'inactive'; expires_at: string | null; active: boolean };
  resets_at: string;
  usage: Record<Resource, Meter>;
}

/** This calendar month's (UTC) use per resource type against the plan's monthly limits. */
export class UsageService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly credits: CreditLedger,
  ) {}

  async report(accountId: string): Promise<UsageReport> {
    const [sub, { month, used }] = await Promise.all([this.accounts.subscription(accountId), this.credits.usage(accountId)]);
    if (!sub) throw new AppError('not_found', 'this account has no subscription');
    const usage = {} as Record<Resource, Meter>;
    for (const r of RESOURCES) {
      const u = Number(used[r] ?? 0);
      const limit = Number(sub.quotas[r] ?? 0);
      usage[r] = { used: u, limit, remaining: Math.max(0, limit - u) };
    }
    return {
      month,
      plan: { code: sub.plan_code, name: sub.plan_name },
      subscription: { status: sub.status, expires_at: sub.expires_at, active: sub.active },
      resets_at: nextMonthStart().toISOString(),
      usage,
    };
  }
}
