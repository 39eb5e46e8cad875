import http from 'node:http';
import { expect } from 'chai';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import { cloneTestDatabase } from '../helpers/db.ts';
import { freePort } from '../helpers/stack.ts';

function get(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) }));
      })
      .on('error', reject);
  });
}

const settings = (dbUrl: string, more: Record<string, string> = {}) =>
  loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', DATABASE_URL: dbUrl, SEARCH_SNAPSHOT: '', ...more });

describe('GET /readyz', () => {
  it('is ready with the index loaded and following the feed, PostgreSQL and Redis reachable; seq moves with a change', async () => {
    const { url: dbUrl, db } = await cloneTestDatabase();
    const server = await startServer(settings(dbUrl));
    try {
      const first = await get(`${server.url}/readyz`);
      expect(first.status).to.equal(200);
      expect(first.body).to.include({ ready: true, draining: false, db: true, redis: true });
      const index = first.body.index as { loaded: boolean; seq: number; lag_seconds: number };
      expect(index.loaded).to.equal(true);
      expect(index.seq).to.be.a('number').and.at.least(0);
      expect(index.lag_seconds).to.be.at.least(0).and.below(30);

      // A mark filed: once the index has it, readiness reports the later position.
      await db.raw(`insert into trademarks (application_number, word_mark, class_number, status, application_date, proprietor_name,
        tm_type, slug) values ('9100001', 'READY MARK', 9, 'Registered', '2020-01-01', 'OWNER', 'WORD', 'ready-mark-9100001')`);
      let seq = index.seq;
      for (let i = 0; i < 100 && seq === index.seq; i++) {
        await new Promise((r) => setTimeout(r, 100));
        seq = ((await get(`${server.url}/readyz`)).body.index as { seq: number }).seq;
      }
      expect(seq).to.be.above(index.seq);
    } finally {
      await server.close();
      await db.destroy();
    }
  });

  it('is 503 naming Redis while Redis cannot be reached, and answers within its checks’ bound', async () => {
    const { url: dbUrl, db } = await cloneTestDatabase();
    await db.destroy();
    // Nothing listens there.
    const server = await startServer(settings(dbUrl, { REDIS_URL: `redis://127.0.0.1:${await freePort()}` }));
    try {
      const r = await get(`${server.url}/readyz`);
      expect(r.status).to.equal(503);
      expect(r.body).to.include({ ready: false, redis: false, db: true, draining: false });
      expect((r.body.index as { loaded: boolean }).loaded).to.equal(true);
    } finally {
      await server.close();
    }
  });

  it('on close answers 503 draining for DRAIN_NOTICE_MS while still serving, then stops taking connections', async () => {
    const { url: dbUrl, db } = await cloneTestDatabase();
    await db.destroy();
    const server = await startServer(settings(dbUrl, { DRAIN_NOTICE_MS: '1500' }));
    expect((await get(`${server.url}/readyz`)).status).to.equal(200);
    const closing = server.close();
    const during = await get(`${server.url}/readyz`);
    expect(during.status).to.equal(503);
    expect(during.body).to.include({ ready: false, draining: true, db: true, redis: true });
    // Still serving everything else meanwhile.
    expect((await get(`${server.url}/healthz`)).status).to.equal(200);
    await closing;
    const after = await get(`${server.url}/healthz`).then(
      () => 'answered',
      (e: NodeJS.ErrnoException) => e.code,
    );
    expect(after).to.equal('ECONNREFUSED');
  });
});
