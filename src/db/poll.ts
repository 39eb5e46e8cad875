import type { RoundReport } from '../retrying.ts';

/**
 * Runs `once` until the signal aborts: again at once while it reports more work waiting, after `idleMs` when
 * it does not. Each round's outcome goes to `report`; while rounds fail (PostgreSQL away, say) the wait doubles
 * from `idleMs` to at most MAX_BACKOFF_MS, so an outage costs a few tries, not one every `idleMs`. Outbox relays
 * and planners poll PostgreSQL this way.
 */
export function pollUntilAborted(signal: AbortSignal, once: () => Promise<boolean>, idleMs: number, report: RoundReport): Promise<void> {
  return (async () => {
    let failures = 0;
    while (!signal.aborted) {
      let more = false;
      try {
        more = await once();
        failures = 0;
        report.succeeded();
      } catch (err) {
        failures++;
        report.failed(err);
      }
      if (!more) await sleep(backoff(idleMs, failures), signal);
    }
  })();
}

/** The most a failing loop waits between its tries: a dependency back is noticed within this. */
export const MAX_BACKOFF_MS = 4000;

/** The wait after `failures` failed rounds in a row. */
export function backoff(idleMs: number, failures: number): number {
  return failures ? Math.min(idleMs * 2 ** (failures - 1), Math.max(idleMs, MAX_BACKOFF_MS)) : idleMs;
}

// The abort listener goes when the sleep ends either way: one left per round would pile up on a loop
// that runs for the life of the process.
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
