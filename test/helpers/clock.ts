import type { Clock } from '../../src/clock.ts';

/** A clock that stands still until a test moves it: expiry is tested without waiting. */
export class ManualClock implements Clock {
  constructor(private t = Date.now()) {}

  now(): number {
    return this.t;
  }

  advance(ms: number): void {
    this.t += ms;
  }
}
