import { Writable } from 'node:stream';
import { expect } from 'chai';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { requestLog } from '../../src/http/requestLog.ts';

describe('request log', () => {
  it('logs the path and query parameter names, never a signed URL signature or search text', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const app = express();
    app.set('query parser', 'simple');
    app.use(requestLog(pino({ level: 'info' }, sink)));
    app.get('/files/*key', (_req, res) => void res.json({ ok: true }));
    await request(app).get('/files/blobs/a.pdf?acct=acct1&exp=1700000000&sig=SECRETSIG&q=confidential');
    await request(app).get('/files/blobs/b.pdf');
    const [signed, plain] = lines;
    expect(signed).to.include({ method: 'GET', path: '/files/blobs/a.pdf', status: 200 });
    expect(signed.query).to.deep.equal(['acct', 'exp', 'sig', 'q']);
    expect(JSON.stringify(lines)).to.not.contain('SECRETSIG').and.not.contain('confidential').and.not.contain('acct1');
    expect(plain).to.include({ path: '/files/blobs/b.pdf' }).and.not.have.property('query');
  });
});
