import { Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { loadConfig } from '../src/config.ts';
import { RedisConnections, sentinelsOf } from '../src/redis.ts';
import { type PrivateSentinel, privateSentinel } from './helpers/privateServices.ts';

// Redis behind Sentinel (REDIS_SENTINELS, REDIS_SENTINEL_NAME), on real servers of the test's own: a master, its
// replica and one Sentinel, on free loopback ports. The master is killed; the Sentinel promotes the replica, and
// the process's connections, which asked the Sentinel where the master is, write to the new one without a restart.

/** Whether a write through `c` succeeds within `ms`, tried every 200 ms. */
async function writesWithin(c: RedisConnections, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; ) {
    const written = await c.commands.set('after', '1').then(
      () => true,
      () => false,
    );
    if (written) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

describe('Redis through Sentinel', function () {
  this.timeout(150_000);
  let trio: PrivateSentinel;
  before(async () => {
    trio = await privateSentinel();
  });
  after(async () => trio.close());

  it('reads REDIS_SENTINELS as host:port pairs, and refuses a malformed list naming it', () => {
    expect(sentinelsOf(' 10.0.0.1:26379, sentinel-b:26380 ', 'prod')).to.deep.equal({
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: 'sentinel-b', port: 26380 },
      ],
      name: 'prod',
    });
    expect(sentinelsOf('', 'prod')).to.equal(null);
    expect(() => loadConfig({ NODE_ENV: 'test', REDIS_SENTINELS: 'no-port' })).to.throw(/REDIS_SENTINELS/);
  });

  it('writes to the master the Sentinel names, then to the promoted replica once it is killed, keeping what was replicated', async () => {
    const config = loadConfig({ NODE_ENV: 'test', REDIS_SENTINELS: trio.sentinels, REDIS_SENTINEL_NAME: trio.name });
    const c = new RedisConnections(
      'redis://127.0.0.1:1/0',
      pino({ level: 'silent' }),
      2000,
      sentinelsOf(config.REDIS_SENTINELS, config.REDIS_SENTINEL_NAME),
    );
    const queue = new Queue('sentinel-test', { connection: c.queues, prefix: `sentinel-${process.pid}` });
    // Its connection's errors while the master is away (the process's health says it once, not here).
    queue.on('error', () => undefined);
    try {
      // REDIS_URL's own address (port 1) is never used: the Sentinel's answer is.
      expect(await c.ready()).to.equal(true);
      await queue.add('job', { n: 1 });
      await c.commands.set('before', '1');
      // Replication is asynchronous: a write counts as kept once the replica has it (docs/outages.md). WAIT waits for
      // this connection's last write, which the replication stream carries after the job's.
      let replicated = 0;
      for (let i = 0; i < 20 && replicated < 1; i++) replicated = await c.commands.wait(1, 1000);
      expect(replicated).to.equal(1);

      trio.killMaster();
      // Within a minute however loaded the machine: the Sentinel notices (1 s), promotes, and the client asks it again.
      const written = await writesWithin(c, 60_000);
      expect(written, `no write succeeded within a minute of the failover:\n${trio.logs()}`).to.equal(true);
      const role = (await c.commands.role()) as [string, ...unknown[]];
      expect(role[0]).to.equal('master');
      expect(await c.commands.config('GET', 'port')).to.deep.equal(['port', String(trio.ports.replica)]);
      expect(await c.commands.get('before')).to.equal('1');
      // BullMQ's connection found the new master too, and the job added before is there.
      await queue.add('job', { n: 2 });
      expect(await queue.getJobCounts('waiting')).to.deep.equal({ waiting: 2 });
    } finally {
      await queue.close();
      c.disconnect();
    }
  });

  it('reconnects after a failover announced while it was asking a Sentinel where the master is', async () => {
    // Three Sentinels: the first, asked first, stops answering while the master dies, so the connection's next
    // question hangs there while the other two promote the replica and announce it. ioredis took the announcement,
    // from the lost connection's watch, as a reason to give the reconnection up for good: every command since failed.
    const three = await privateSentinel('nishaan-three', 3);
    const sentinel = { ...sentinelsOf(three.sentinels, three.name)!, answerMs: 120_000 };
    const c = new RedisConnections('redis://127.0.0.1:1/0', pino({ level: 'silent' }), 2000, sentinel);
    const ask = (i: number) => new Redis({ port: three.ports.sentinels[i], host: '127.0.0.1', lazyConnect: true });
    const second = ask(1);
    try {
      expect(await c.ready()).to.equal(true);
      // The connection watches every Sentinel for announcements once it is made.
      const watching = async () => /\bsub=1\b/.test(String(await second.client('LIST')));
      for (const until = Date.now() + 30_000; Date.now() < until && !(await watching()); ) await new Promise((r) => setTimeout(r, 50));
      expect(await watching()).to.equal(true);

      // The announcement, as the connection's watch hears it: from each of the two Sentinels still answering.
      const listeners = [ask(1), ask(2)];
      const heard = listeners.map(
        (l) =>
          new Promise<string>((resolve) => {
            l.on('message', (_channel: string, message: string) => resolve(message));
          }),
      );
      await Promise.all(listeners.map((l) => l.subscribe('+switch-master')));
      three.pauseSentinel(0);
      three.killMaster();
      const announced = await Promise.race([Promise.all(heard), new Promise<null>((r) => setTimeout(() => r(null), 60_000))]);
      for (const l of listeners) l.disconnect();
      expect(announced, three.logs()).to.not.equal(null);
      expect(announced?.[0]).to.match(new RegExp(`${three.ports.replica}$`));
      three.resumeSentinel(0);

      const written = await writesWithin(c, 60_000);
      expect(written, `no write within a minute of the failover (connection ${c.commands.status}):\n${three.logs()}`).to.equal(true);
      expect(await c.commands.config('GET', 'port')).to.deep.equal(['port', String(three.ports.replica)]);
    } finally {
      second.disconnect();
      c.disconnect();
      await three.close();
    }
  });
});
