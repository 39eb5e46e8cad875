import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import { RedisConnections, RedisUnavailable } from '../src/redis.ts';
import { type PrivateService, privateRedis } from './helpers/privateServices.ts';

// The process's view of whether Redis is there (src/redis.ts), on a Redis server of the test's own that is
// stopped, frozen and started again: while it is away a call fails at once, without being made, but for one
// probe a second; the outage is said once and its end once.

/** A logger whose lines are kept, parsed. */
function capture() {
  const lines: { level: number; msg: string; [k: string]: unknown }[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
}

describe('RedisHealth', function () {
  this.timeout(60_000);
  let redis: PrivateService;
  before(async () => {
    redis = await privateRedis();
  });
  after(async () => redis.close());

  it('fails a call at once while Redis is away, says so once, and serves again once it is back', async () => {
    const { log, lines } = capture();
    const c = new RedisConnections(redis.url, log, 500);
    try {
      expect(await c.ready()).to.equal(true);
      expect(await c.health.run('test', () => c.commands.ping())).to.equal('PONG');
      await redis.stop();
      const first = await c.health.run('test', () => c.commands.ping()).catch((e: unknown) => e);
      expect(first).to.be.instanceOf(RedisUnavailable);
      expect(c.health.available).to.equal(false);
      // Within the probe's second, later calls are not even made.
      let made = 0;
      const call = () => {
        made++;
        return c.commands.ping();
      };
      const later = await Promise.all(Array.from({ length: 5 }, () => c.health.run('limits', call).catch((e: unknown) => e)));
      expect(later.every((e) => e instanceof RedisUnavailable)).to.equal(true);
      expect(made).to.equal(0);
      await redis.start();
      expect(await c.ready(10_000)).to.equal(true);
      expect(await c.health.run('test', () => c.commands.ping())).to.equal('PONG');
      expect(c.health.available).to.equal(true);
      const away = lines.filter((l) => l.msg.startsWith('Redis unavailable'));
      const back = lines.filter((l) => l.msg.startsWith('Redis available again'));
      expect(away).to.have.length(1);
      expect(back).to.have.length(1);
      expect((back[0]!.calls_without_redis as Record<string, number>).limits).to.equal(5);
    } finally {
      c.disconnect();
    }
  });

  it('gives up on a Redis that accepts and never answers within the deadline, then fails at once', async () => {
    const { log } = capture();
    const c = new RedisConnections(redis.url, log, 300);
    try {
      expect(await c.ready()).to.equal(true);
      redis.pause!();
      const err = await c.health.run('test', () => c.commands.ping()).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(RedisUnavailable);
      let made = 0;
      const next = await c.health
        .run('test', () => {
          made++;
          return c.commands.ping();
        })
        .catch((e: unknown) => e);
      expect(next).to.be.instanceOf(RedisUnavailable);
      expect(made).to.equal(0);
    } finally {
      redis.resume!();
      c.disconnect();
    }
  });

  it('takes a refusal by Redis itself as an answer, not an outage', async () => {
    const { log } = capture();
    const c = new RedisConnections(redis.url, log, 500);
    try {
      const err = await c.health.run('test', () => c.commands.eval('this is not lua', 0)).catch((e: unknown) => e);
      expect((err as Error).name).to.equal('ReplyError');
      expect(c.health.available).to.equal(true);
    } finally {
      c.disconnect();
    }
  });
});
