import { expect } from 'chai';
import http from 'node:http';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import { cloneTestDatabase } from '../helpers/db.ts';

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

describe('API server process', () => {
  it('listens, answers, and shuts down gracefully', async () => {
    const { url: dbUrl, db } = await cloneTestDatabase();
    await db.destroy();
    const server = await startServer(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', DATABASE_URL: dbUrl }));
    const res = await get(`${server.url}/healthz`);
    expect(res.status).to.equal(200);
    expect(JSON.parse(res.body)).to.deep.equal({ ok: true });
    await server.close();
    const refused = await get(`${server.url}/healthz`).then(() => 'answered', (e: NodeJS.ErrnoException) => e.code);
    expect(refused).to.equal('ECONNREFUSED');
  });
});
