/**
 * `p`'s answer, or a rejection once `ms` have passed without one: a check that must answer in time (readiness, a
 * replica's health) stops waiting; the work itself is not cancelled.
 */
export function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
