import { type ChildProcess, fork, spawn } from 'node:child_process';
import net from 'node:net';
import { expect } from 'chai';
import { messageId } from '../../src/webhooks/signing.ts';
import type { TestApp } from '../helpers/app.ts';
import { Receiver } from '../helpers/receiver.ts';
import { importFixture, owner, startApp, until, webhookEnv } from './support.ts';

const WORKERS = new URL('../../workers/main.ts', import.meta.url).pathname;
const FENCE = new URL('../helpers/fenceInstall.ts', import.meta.url).pathname;

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** A redis-server of this test's own (never the shared one), keeping nothing on disk, like production's. */
async function startRedis(port: number): Promise<ChildProcess> {
  const p = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => {
        c.destroy();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    if (up) return p;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('redis-server did not start');
}

function stopHard(p: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) return resolve();
    p.once('exit', () => resolve());
    p.kill('SIGKILL');
  });
}

/** The real workers process (workers/main.ts), fenced like this one. */
function startWorkersProcess(env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(WORKERS, [], {
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    execArgv: ['--import', 'tsx', '--import', FENCE],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`workers process exited ${code}`)));
  });
}

describe('webhooks: durability across a killed worker and a Redis restart', function () {
  this.timeout(120_000);
  let t: TestApp;
  let receiver: Receiver;
  let redis: ChildProcess;
  let port: number;
  let env: Record<string, string>;
  const children: ChildProcess[] = [];

  before(async () => {
    port = await freePort();
    redis = await startRedis(port);
    receiver = await new Receiver().start();
    env = webhookEnv({
      REDIS_URL: `redis://127.0.0.1:${port}/0`,
      WEBHOOK_REQUEUE_AFTER_MS: '1000',
      WEBHOOK_RETRY_DELAY_MS: '300',
      WEBHOOK_CONCURRENCY: '4',
      // Every delivery fails once here: the disabling threshold is not what this test is about.
      WEBHOOK_DISABLE_AFTER: '1000',
    });
    t = await startApp(env);
    await importFixture(t, 'baseline');
  });
  after(async () => {
    for (const c of children) await stopHard(c);
    await receiver.close();
    await t.close();
    await stopHard(redis);
  });

  it('delivers every event to every webhook at least once, under one webhook-id each, losing nothing', async () => {
    const apps = ['4100001', '4100002', '4100003', '4100004'];
    const hooks: string[] = [];
    for (let i = 0; i < 3; i++) {
      const o = await owner(t);
      hooks.push(
        (await o.post('/user/v1/webhooks/').send({ url: `${receiver.url}/h${i}`, monitored_applications: apps, events: ['*'] })).body.id,
      );
    }
    // Every first attempt fails and answers slowly, so work is in flight, in retry and queued when things break.
    const firstSeen = new Set<string>();
    receiver.answer = (r) => {
      const id = r.headers['webhook-id'];
      if (!firstSeen.has(id)) {
        firstSeen.add(id);
        return { status: 503 };
      }
      return { status: 200 };
    };
    const config = { ...env, DATABASE_URL: t.deps.config.DATABASE_URL, OBJECT_STORE_DIR: t.deps.config.OBJECT_STORE_DIR };
    children.push(await startWorkersProcess(config));
    const delta = await importFixture(t, 'delta');
    expect(delta.events).to.equal(17);
    await receiver.waitFor(8, 30_000);

    // The worker dies mid-flight, then Redis restarts empty: every job, delayed retry and schedule is gone.
    await stopHard(children[0]);
    await stopHard(redis);
    redis = await startRedis(port);
    const lost = await t.deps.db('webhook_deliveries').whereNot({ status: 'delivered' }).count('* as n').first();
    children.push(await startWorkersProcess(config));

    const events = await t.deps.db('outbox').select('id');
    const expected = new Set(events.flatMap((e) => hooks.map((h) => messageId(e.id, h))));
    expect(expected.size).to.equal(17 * 3);
    const state = async () =>
      JSON.stringify(await t.deps.db('webhook_deliveries').select('status', 'attempts').count('* as n').groupBy('status', 'attempts'));
    await until(
      'every delivery to be made',
      async () =>
        Number((await t.deps.db('webhook_deliveries').where({ status: 'delivered' }).count('* as n').first())!.n) === expected.size,
      { ms: 60_000, state },
    );
    expect(Number(lost!.n)).to.be.above(0);
    const ok = new Set(
      receiver.received
        .filter(
          (r) =>
            firstSeen.has(r.headers['webhook-id']) &&
            r !== receiver.received.find((x) => x.headers['webhook-id'] === r.headers['webhook-id']),
        )
        .map((r) => r.headers['webhook-id']),
    );
    expect([...ok].sort()).to.deep.equal([...expected].sort());
    // Nothing was sent that is not one of these deliveries.
    expect(receiver.received.every((r) => expected.has(r.headers['webhook-id']))).to.equal(true);
    expect(await t.deps.db('outbox').whereNull('fanned_out_at').count('* as n').first()).to.deep.equal({ n: 0 });
  });
});
