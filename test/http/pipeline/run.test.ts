import { expect } from 'chai';
import { startHandler } from '../../../src/http/pipeline/run.ts';

describe('request pipeline: starting the handler', () => {
  it('runs the handler when its result is asked for, unless it is to start now', async () => {
    let calls = 0;
    const handler = async () => ++calls;
    const later = startHandler(handler, false);
    expect(calls).to.equal(0);
    expect(await later()).to.equal(1);
    const now = startHandler(handler, true);
    expect(calls).to.equal(2);
    expect(await now()).to.equal(2);
  });

  it("keeps an early start's error until it is asked for, and never leaves it unhandled", async () => {
    const unhandled: unknown[] = [];
    const listener = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', listener);
    try {
      const refusedRun = startHandler(async () => {
        throw new Error('found nothing');
      }, true);
      const askedRun = startHandler(async () => {
        throw new Error('failed');
      }, true);
      void refusedRun; // its admission was refused: nobody asks
      // A rejection left unhandled is reported once the microtasks of its turn have run: two turns later, it would be.
      for (let i = 0; i < 2; i++) await new Promise((r) => setImmediate(r));
      expect(unhandled).to.deep.equal([]);
      const err = await askedRun().then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).to.equal('failed');
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
