/**
 * Runs `once` until the signal aborts: again at once while it reports more work waiting, after
 * `idleMs` when it does not (or failed, which `onError` hears). Outbox relays and planners poll
 * PostgreSQL this way.
 */
export function pollUntilAborted(
  signal: AbortSignal,
  once: () => Promise<boolean>,
  idleMs: number,
  onError: (err: unknown) => void,
): Promise<void> {
  return (async () => {
    while (!signal.aborted) {
      let more = false;
      try {
        more = await once();
      } catch (err) {
        onError(err);
      }
      if (!more) await sleep(idleMs, signal);
    }
  })();
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
