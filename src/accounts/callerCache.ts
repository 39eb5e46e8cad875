import { type Clock, systemClock } from '../clock.ts';
import { ACCESS_CHANNEL } from '../db/channels.ts';
import type { ChangeListener } from '../db/listener.ts';
import type { Caller, CallerRepository } from './callerRepository.ts';

interface Entry {
  caller: Caller;
  /** After this instant (ms) the entry is read again: its maximum age, or when a subscription or add-on expires. */
  staleAt: number;
}

/**
 * Wires a cache of access decisions to PostgreSQL's announcements: `account` when one account's
 * key, subscription or add-ons changed, `all` when a plan changed or announcements may have been
 * missed (the connection dropped).
 */
export function onAccessChange(listener: ChangeListener, drop: { account(accountId: string): void; all(): void }): void {
  listener.on(ACCESS_CHANNEL, (payload) => (payload.startsWith('account:') ? drop.account(payload.slice('account:'.length)) : drop.all()));
  listener.onReset(() => drop.all());
}

/**
 * Callers by API key hash, kept in memory so a keyed request needs no database round trip.
 *
 * It never outlives a change: PostgreSQL announces every change to a key, account, subscription,
 * add-on or plan in the changing transaction (migrations/*_access_cache.ts) and the entry goes;
 * a subscription or add-on that expires by time is read again at its expiry; while the announcing
 * connection is down nothing is cached. The maximum age is only a safety net.
 */
export class CallerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly keysOfAccount = new Map<string, Set<string>>();
  // Bumped by every invalidation: a read that overlapped one may hold the old state and is not kept.
  private generation = 0;

  constructor(
    private readonly repo: CallerRepository,
    private readonly listener: ChangeListener,
    private readonly maxAgeMs = 60_000,
    private readonly maxEntries = 200_000,
    /** What expiries are read against (tests move it instead of waiting for one). */
    private readonly clock: Clock = systemClock,
  ) {
    onAccessChange(listener, { account: (id) => this.dropAccount(id), all: () => this.clear() });
  }

  async byKeyHash(hash: Buffer): Promise<Caller | undefined> {
    return this.cached(hash.toString('base64'), () => this.repo.byKeyHash(hash));
  }

  /** An account's grants without a key: for work done on its behalf (webhook deliveries, at delivery time). */
  async byAccountId(accountId: string): Promise<Caller | undefined> {
    return this.cached(`account:${accountId}`, () => this.repo.byAccountId(accountId));
  }

  private async cached(k: string, read: () => Promise<Caller | undefined>): Promise<Caller | undefined> {
    const hit = this.entries.get(k);
    if (hit !== undefined && this.clock.now() < hit.staleAt) return hit.caller;
    const generation = this.generation;
    const caller = await read();
    if (caller && this.listener.connected && generation === this.generation) this.keep(k, caller);
    else if (hit) this.drop(k, hit.caller.accountId);
    return caller;
  }

  private keep(k: string, caller: Caller): void {
    if (this.entries.size >= this.maxEntries) this.clear();
    const staleAt = Math.min(this.clock.now() + this.maxAgeMs, caller.refreshAt ?? Infinity);
    this.entries.set(k, { caller, staleAt });
    let keys = this.keysOfAccount.get(caller.accountId);
    if (!keys) this.keysOfAccount.set(caller.accountId, (keys = new Set()));
    keys.add(k);
  }

  private drop(k: string, accountId: string): void {
    this.entries.delete(k);
    this.keysOfAccount.get(accountId)?.delete(k);
  }

  // A plan change clears everything: rare enough to start afresh rather than index entries by plan.
  private dropAccount(accountId: string): void {
    this.generation++;
    for (const k of this.keysOfAccount.get(accountId) ?? []) this.entries.delete(k);
    this.keysOfAccount.delete(accountId);
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
    this.keysOfAccount.clear();
  }
}
