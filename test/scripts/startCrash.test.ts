import { expect } from 'chai';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { cloneTestDatabase } from '../helpers/db.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

describe('npm start when API processes keep crashing', function () {
  this.timeout(120_000);
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
  after(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it('gives up with a non-zero exit and says why when the port is taken, instead of forking forever', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      cwd: ROOT,
      env: {
        ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: dbUrl, DEMO_RECORDS: '0', LOG_LEVEL: 'silent',
        QUEUE_PREFIX: `test-startcrash-${process.pid}`,
      },
    });
    let log = '';
    child.stderr!.on('data', (d) => (log += d));
    child.stdout!.on('data', (d) => (log += d));
    // Without a limit the primary would fork forever: the bound is the failure.
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    clearTimeout(timer);
    expect(code, log).to.equal(1);
    expect(log).to.contain('EADDRINUSE');
    expect(log).to.match(/exited 5 times within 30 s .*giving up/);
  });
});
