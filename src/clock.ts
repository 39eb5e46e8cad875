/**
 * Time as the code that decides expiries reads it (signed links). Tests give the app a clock they
 * move forward instead of waiting half an hour.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
