import { type Clock, systemClock } from '../clock.ts';
import type { ChangeListener } from '../db/listener.ts';
import { onAccessChange } from './callerCache.ts';
import type { CallerRepository } from './callerRepository.ts';
import type { Subscription } from './planRules.ts';

export type PlanState = Subscription;

// The maximum age is only a safety net, as in CallerCache.
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 100_000;

/**
 * Whether an account's subscription is active, for signed file links, which name an account rather
 * than a key. Kept in memory on the same terms as CallerCache: an entry goes when PostgreSQL announces
 * a change to the account or to any plan, is read again when the subscription expires by time, and
 * nothing is kept while the announcing connection is down, so a plan made inactive refuses the next
 * download. A download then costs no database round trip.
 */
export class PlanCache {
  private readonly entries = new Map<string, { plan: PlanState | undefined; staleAt: number }>();
  private generation = 0;

  constructor(
    private readonly repo: CallerRepository,
    private readonly listener: ChangeListener,
    /** What expiries are read against (tests move it instead of waiting for one). */
    private readonly clock: Clock = systemClock,
  ) {
    onAccessChange(listener, {
      account: (id) => {
        this.generation++;
        this.entries.delete(id);
      },
      all: () => {
        this.generation++;
        this.entries.clear();
      },
    });
  }

  async get(accountId: string): Promise<PlanState | undefined> {
    const hit = this.entries.get(accountId);
    if (hit && this.clock.now() < hit.staleAt) return hit.plan;
    const generation = this.generation;
    const c = await this.repo.byAccountId(accountId);
    const plan = c && { subscriptionActive: c.subscriptionActive, subscriptionStatus: c.subscriptionStatus, expiresAt: c.expiresAt };
    // A read that overlapped an announcement may hold the old state: used once, not kept.
    if (this.listener.connected && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(accountId, { plan, staleAt: Math.min(this.clock.now() + MAX_AGE_MS, c?.refreshAt ?? Infinity) });
    } else {
      this.entries.delete(accountId);
    }
    return plan;
  }
}
