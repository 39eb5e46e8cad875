import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { cloneTestDatabase } from '../helpers/db.ts';
import { children, freePort, spawnStack } from '../helpers/stack.ts';

// The supervisor never gives up for good: API processes that keep dying (here: their port is taken)
// are started again ever more slowly, the log says so, the workers and the ML sidecar keep serving,
// and the API serves as soon as the cause is gone. Every port is picked free and every folder is
// the test's own, so that it runs beside an `npm start` on its defaults.
describe('npm start when API processes keep crashing', function () {
  this.timeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-startcrash-'));
  let blocker: net.Server;
  let port: number;
  let dbUrl: string;

  before(async () => {
    const clone = await cloneTestDatabase();
    await clone.db.destroy();
    dbUrl = clone.url;
    blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    port = (blocker.address() as net.AddressInfo).port;
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    return new Promise<void>((resolve) => (blocker.listening ? blocker.close(() => resolve()) : resolve()));
  });

  /** A stack on the test's own ports, queues and folders (`tag` keeps each test's folders apart), with no demo data. */
  const stackEnv = (apiPort: number, mlPort: number, tag: string) => ({
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    ML_URL: `http://127.0.0.1:${mlPort}`,
    DATABASE_URL: dbUrl,
    DEMO_RECORDS: '0',
    DEMO_LOGOS: '0',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'development',
    QUEUE_PREFIX: `test-startcrash-${randomBytes(4).toString('hex')}`,
    RATE_LIMIT_PREFIX: `test:${randomBytes(5).toString('hex')}`,
    UPLOAD_DIR: path.join(dir, `uploads${tag}`),
    OBJECT_STORE_DIR: path.join(dir, `objects${tag}`),
    DEMO_DIR: path.join(dir, `demo${tag}`),
    SEARCH_SNAPSHOT: '',
  });

  it('backs off and says so while the port is taken, keeps the ML sidecar serving, and serves once the port is free', async () => {
    const mlPort = await freePort();
    const stack = spawnStack(stackEnv(port, mlPort, ''));
    try {
      await stack.waitFor(/backing off/, 120_000);
      const log = stack.log();
      expect(log).to.contain('EADDRINUSE');
      expect(log).to.match(/api process \d+ exited \(code 1\) after [\d.]+ s; starting another in \d+ ms; \d+ exits in a row/);
      expect(log).to.not.contain('giving up');
      // The waits grow.
      const delays = [...log.matchAll(/api process \d+ exited .*?starting another in (\d+) ms/g)].map((m) => Number(m[1]));
      expect(delays.length).to.be.at.least(3);
      expect(delays.slice(1).every((d, i) => d >= delays[i])).to.equal(true);
      expect(delays.at(-1)).to.be.greaterThan(delays[0]);
      expect(stack.child.exitCode).to.equal(null);
      // The sidecar serves all along (it may still be loading its model: ask until it answers, bounded).
      let health: { ok?: boolean } = {};
      for (let i = 0; i < 600 && !health.ok; i++) {
        health = await fetch(`http://127.0.0.1:${mlPort}/health`).then(
          (r) => r.json(),
          () => ({}),
        );
        if (!health.ok) await new Promise((r) => setTimeout(r, 100));
      }
      expect(health.ok).to.equal(true);

      // The cause goes away: the next try finds the port free.
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
      await stack.waitFor(/Nishaan API on/, 120_000);
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(res.status).to.equal(200);
    } finally {
      expect(await stack.stop(), stack.log()).to.equal(0);
    }
  });

  it('leaves no process behind when the supervisor itself is killed', async () => {
    const [apiPort, mlPort] = [await freePort(), await freePort()];
    const stack = spawnStack(stackEnv(apiPort, mlPort, '2'));
    await stack.waitFor(/Nishaan API on/, 150_000);
    const kids = children(stack.child.pid!);
    expect(kids.map((k) => k.cmd).join('\n'))
      .to.match(/workers\/main\.ts/)
      .and.match(/sidecar\/main\.ts/);
    stack.child.kill('SIGKILL');
    // Orphans would keep the ports, queues and database connections of a service nobody supervises.
    const alive = () =>
      kids.filter((k) => fs.existsSync(`/proc/${k.pid}`) && !/\) Z /.test(fs.readFileSync(`/proc/${k.pid}/stat`, 'utf8')));
    for (let i = 0; i < 300 && alive().length; i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive().map((k) => k.cmd)).to.deep.equal([]);
  });
});
