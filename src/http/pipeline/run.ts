type Settled<T> = { ok: true; value: T } | { ok: false; err: unknown };

/**
 * The handler, started now when its request's admission is still pending (an early start, so its
 * work overlaps the admission's round trip), else when its result is asked for. What an early start
 * found, result or error, is only seen through the function returned: a refused request never asks.
 */
export function startHandler<T>(handler: () => Promise<T>, now: boolean): () => Promise<T> {
  if (!now) return handler;
  const running: Promise<Settled<T>> = handler().then(
    (value) => ({ ok: true as const, value }),
    (err: unknown) => ({ ok: false as const, err }),
  );
  return async () => {
    const s = await running;
    if (!s.ok) throw s.err;
    return s.value;
  };
}
