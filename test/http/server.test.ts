import http from 'node:http';
import { expect } from 'chai';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import { cloneTestDatabase } from '../helpers/db.ts';

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('API server process', () => {
  it('listens, answers, lets an in-flight request finish on close, then refuses connections', async () => {
    const { url: dbUrl, db } = await cloneTestDatabase();
    await db.destroy();
    const server = await startServer(
      loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', DATABASE_URL: dbUrl, SEARCH_SNAPSHOT: '' }),
    );
    const res = await get(`${server.url}/healthz`);
    expect(res.status).to.equal(200);
    expect(JSON.parse(res.body)).to.deep.equal({ ok: true });

    // A POST whose body is held back. `Expect: 100-continue` makes the "100 Continue" the sign that the
    // server has read the headers, so the request is in flight (not an idle connection) when close() starts.
    const body = JSON.stringify({ hello: 'world' });
    const req = http.request(`${server.url}/healthz`, {
      method: 'POST',
      agent: false,
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Expect: '100-continue' },
    });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (r) => {
        let text = '';
        r.on('data', (c) => (text += c));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
    });
    await new Promise<void>((resolve) => req.once('continue', () => resolve()));
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    // New connections are refused as soon as close() starts, while the held request is still open.
    await new Promise((r) => setImmediate(r));
    const refused = await get(`${server.url}/healthz`).then(
      () => 'answered',
      (e: NodeJS.ErrnoException) => e.code,
    );
    expect(refused).to.equal('ECONNREFUSED');
    expect(closed).to.equal(false);

    req.end(body);
    const late = await response;
    // The body was read and routed: /healthz has no POST, so a JSON 405, not a cut connection.
    expect(late.status).to.equal(405);
    expect(JSON.parse(late.body).code).to.equal('method_not_allowed');
    await closing;
    expect(closed).to.equal(true);
  });

  it(
    'closes a kept-alive connection once its request in flight is answered, ' +
      'so close() ends with the requests, not at the grace period',
    async () => {
      const { url: dbUrl, db } = await cloneTestDatabase();
      await db.destroy();
      // A grace period longer than the test may run: only the requests may decide when close() ends.
      const server = await startServer(
        loadConfig({
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          PORT: '0',
          DATABASE_URL: dbUrl,
          SEARCH_SNAPSHOT: '',
          SHUTDOWN_GRACE_MS: '600000',
        }),
      );
      const agent = new http.Agent({ keepAlive: true });
      const body = JSON.stringify({ hello: 'world' });
      const req = http.request(`${server.url}/healthz`, {
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Expect: '100-continue' },
      });
      const response = new Promise<{ status: number; connection?: string }>((resolve, reject) => {
        req.on('response', (r) => {
          r.resume();
          r.on('end', () => resolve({ status: r.statusCode ?? 0, connection: r.headers.connection }));
        });
        req.on('error', reject);
      });
      await new Promise<void>((resolve) => req.once('continue', () => resolve()));
      const closing = server.close();
      await new Promise((r) => setImmediate(r));
      req.end(body);
      const late = await response;
      expect(late.status).to.equal(405);
      // The client is told the connection ends with this answer.
      expect(late.connection).to.equal('close');
      await closing;
      agent.destroy();
    },
  );
});
