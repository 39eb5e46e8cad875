import type { Headroom } from './rateLimits.ts';

/**
 * Which read-only requests may start their work while their admission is still on its way to and
 * from Redis. The admission always decides: a refused request answers its 429 and whatever its
 * handler read is thrown away, never sent, never charged. Starting early only hides the round trip's
 * latency from requests that are going to be admitted anyway.
 *
 * So that a client at or over its limits cannot make us do work it will not be given, a key's request
 * starts early only while this process saw that key admitted within the last second with room to
 * spare, and only as many at once as half the smallest room left then (key window, IP window,
 * the account's concurrent slots). Everything else waits for its admission, as before.
 */
export class EarlyStart {
  private readonly lastSeen = new Map<string, { at: number; room: number }>();
  private readonly running = new Map<string, number>();

  constructor(
    private readonly windowMs = 1000,
    private readonly maxKeys = 100_000,
  ) {}

  /** Records what an admission of this key left: the room for the next requests. */
  admitted(keyId: string, h: Headroom | null): void {
    if (!h) return;
    if (this.lastSeen.size >= this.maxKeys) this.lastSeen.clear();
    this.lastSeen.set(keyId, { at: Date.now(), room: Math.min(h.key, h.ip, h.slots) });
  }

  /** A request of this key was refused: the next ones wait for their admission. */
  refused(keyId: string): void {
    this.lastSeen.delete(keyId);
  }

  /** Whether a request of this key may start now; if so, end() must be called when it is done. */
  tryStart(keyId: string): boolean {
    const seen = this.lastSeen.get(keyId);
    if (!seen || Date.now() - seen.at > this.windowMs) return false;
    const now = this.running.get(keyId) ?? 0;
    if (now >= Math.floor(seen.room / 2)) return false;
    this.running.set(keyId, now + 1);
    return true;
  }

  end(keyId: string): void {
    const now = (this.running.get(keyId) ?? 1) - 1;
    if (now <= 0) this.running.delete(keyId);
    else this.running.set(keyId, now);
  }
}
