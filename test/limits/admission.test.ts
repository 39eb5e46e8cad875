import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { AdmissionBatcher, type AdmissionRequest, instanceKey, releaseInstance } from '../../src/limits/admission.ts';
import { createLogger } from '../../src/logger.ts';
import { ManualClock } from '../helpers/clock.ts';
import { unreachableRedis } from '../helpers/redis.ts';

// The batched admission script against the real Redis: every admission and release of one turn of
// the event loop go in one call, and each is decided as if it had come alone, in order.
describe('admission batches', () => {
  const redis = new Redis('redis://127.0.0.1:6379/0', { lazyConnect: true });
  const prefix = `test:${randomBytes(5).toString('hex')}`;
  const windows = { ipLimit: 1000, ipWindowMs: 60_000, keyLimit: 1000, keyWindowMs: 1000, slotTtlMs: 60_000 };
  after(() => redis.disconnect());

  const request = (account: string, i: number, over: Partial<AdmissionRequest> = {}): AdmissionRequest => ({
    ipKey: `${prefix}:ip:127.0.0.1`,
    keyKey: `${prefix}:key:${account}`,
    slotsKey: `${prefix}:inflight:${account}`,
    creditsKey: `${prefix}:credits:${account}`,
    slots: 4,
    member: `r${i}`,
    units: 0,
    creditLimit: '0',
    ...over,
  });

  it('admits as many as the plan has slots among requests of one turn, and frees slots with the next batch', async () => {
    const b = new AdmissionBatcher(redis, windows, createLogger('silent'), instanceKey(prefix, 'p1'));
    const first = await Promise.all(Array.from({ length: 10 }, (_, i) => b.admit(request('a', i))));
    expect(first.map((v) => v![0])).to.deep.equal([0, 0, 0, 0, 3, 3, 3, 3, 3, 3]);
    b.release(`${prefix}:inflight:a`, 'r0');
    b.release(`${prefix}:inflight:a`, 'r1');
    const second = await Promise.all(Array.from({ length: 3 }, (_, i) => b.admit(request('a', 20 + i))));
    expect(second.map((v) => v![0])).to.deep.equal([0, 0, 3]);
  });

  it('counts windows across the batch: the key window refuses past its limit, the IP window counts every request', async () => {
    const b = new AdmissionBatcher(redis, { ...windows, keyLimit: 2 }, createLogger('silent'), instanceKey(prefix, 'p1'));
    const v = await Promise.all(Array.from({ length: 4 }, (_, i) => b.admit(request('k', i, { slots: 10 }))));
    expect(v.map((x) => x![0])).to.deep.equal([0, 0, 2, 2]);
    expect(v[1]![1]).to.equal(2);
    // Slots in use after each admission, and the IP window's count.
    expect(v[1]![4]).to.equal(2);
    expect(v[3]![5]).to.be.at.least(4);
    expect(v[2]![2]).to.be.within(1, 1000);
  });

  it('keeps every verdict of a batch in its place when some are refused by the IP window', async () => {
    const b = new AdmissionBatcher(redis, { ...windows, ipLimit: 2 }, createLogger('silent'), instanceKey(prefix, 'p1'));
    const ip = `${prefix}:ip:10.0.0.1`;
    const v = await Promise.all(Array.from({ length: 4 }, (_, i) => b.admit(request(`i${i}`, i, { ipKey: ip, slots: 10 }))));
    expect(v.map((x) => x!.length)).to.deep.equal([6, 6, 6, 6]);
    expect(v.map((x) => [x![0], x![5]])).to.deep.equal([
      [0, 1],
      [0, 2],
      [1, 3],
      [1, 4],
    ]);
  });

  it('spends a credit only from a balance taken under the same limit, and only when enough is left', async () => {
    const b = new AdmissionBatcher(redis, windows, createLogger('silent'), instanceKey(prefix, 'p1'));
    await redis.hset(`${prefix}:credits:c`, 'b', '2', 'l', '500');
    const v = await Promise.all([
      b.admit(request('c', 1, { units: 1, creditLimit: '500' })),
      b.admit(request('c', 2, { units: 1, creditLimit: '500' })),
      b.admit(request('c', 3, { units: 1, creditLimit: '500' })),
      b.admit(request('c', 4, { units: 1, creditLimit: '999' })),
    ]);
    // The fourth value is the balance left after the charge, or -1 when nothing was charged.
    expect(v.map((x) => [x![0], x![3]])).to.deep.equal([
      [0, 1],
      [0, 0],
      [0, -1],
      [0, -1],
    ]);
    expect(await redis.hget(`${prefix}:credits:c`, 'b')).to.equal('0');
  });

  it('lists every slot a process holds under its instance, so that all of them can be freed when it dies', async () => {
    const one = new AdmissionBatcher(redis, windows, createLogger('silent'), instanceKey(prefix, 'dead'));
    const other = new AdmissionBatcher(redis, windows, createLogger('silent'), instanceKey(prefix, 'alive'));
    const v = await Promise.all([
      one.admit(request('x', 1)),
      one.admit(request('x', 2)),
      one.admit(request('y', 3)),
      other.admit(request('x', 4)),
    ]);
    expect(v.map((x) => x![0])).to.deep.equal([0, 0, 0, 0]);
    // A release sent before it died is struck off its list too.
    one.release(`${prefix}:inflight:x`, 'r2');
    await one.admit(request('z', 5, { slots: 0 }));
    expect(await redis.hgetall(instanceKey(prefix, 'dead'))).to.deep.equal({ r1: `${prefix}:inflight:x`, r3: `${prefix}:inflight:y` });
    expect(await releaseInstance(redis, prefix, 'dead')).to.equal(2);
    expect(await redis.zrange(`${prefix}:inflight:x`, '0', '-1')).to.deep.equal(['r4']);
    expect(await redis.zcard(`${prefix}:inflight:y`)).to.equal(0);
    expect(await redis.exists(instanceKey(prefix, 'dead'))).to.equal(0);
    expect(await releaseInstance(redis, prefix, 'dead')).to.equal(0);
  });

  it("keeps a slot for as long as its request lives, and lets a dead process's slot go after the TTL", async () => {
    // Slot times are read from a clock the test moves: two TTLs pass without anyone waiting for them.
    const clock = new ManualClock();
    const now = () => clock.now();
    const live = new AdmissionBatcher(redis, windows, createLogger('silent'), instanceKey(prefix, 'live'), undefined, now);
    const one = { slots: 1 };
    expect((await live.admit(request('long', 1, one)))![0]).to.equal(0);
    clock.advance(2 * windows.slotTtlMs);
    // The request still runs: its process renews its slot, so the account's one slot stays taken.
    expect(await live.heartbeat()).to.equal(1);
    expect((await live.admit(request('long', 2, one)))![0]).to.equal(3);
    // A process that died renews nothing: past the TTL its slot is taken over.
    const dead = new AdmissionBatcher(redis, windows, createLogger('silent'), instanceKey(prefix, 'dead2'), undefined, now);
    expect((await dead.admit(request('gone', 1, one)))![0]).to.equal(0);
    clock.advance(2 * windows.slotTtlMs);
    expect((await live.admit(request('gone', 2, one)))![0]).to.equal(0);
    // A released slot is not renewed back into the set.
    live.release(`${prefix}:inflight:long`, 'r1');
    await live.admit(request('other', 9, { slots: 10 }));
    expect(await live.heartbeat()).to.equal(2);
    expect(await redis.zrange(`${prefix}:inflight:long`, '0', '-1')).to.deep.equal([]);
  });

  it('answers null for every admission of a batch when Redis cannot be reached', async () => {
    const down = unreachableRedis();
    const b = new AdmissionBatcher(down, windows, createLogger('silent'), instanceKey(prefix, 'p1'));
    const v = await Promise.all([b.admit(request('d', 1)), b.admit(request('d', 2))]);
    expect(v).to.deep.equal([null, null]);
    down.disconnect();
  });
});
