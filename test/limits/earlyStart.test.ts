import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { errorHandler } from '../../src/http/errorHandler.ts';
import { EarlyStart } from '../../src/limits/earlyStart.ts';
import { RateLimits } from '../../src/limits/rateLimits.ts';
import { z } from '../../src/schema/zod.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { standInApi } from '../helpers/standIn.ts';

describe('early start of read-only requests', () => {
  describe('policy', () => {
    it('lets a key start early only after an admission with room, and at most half that room at once', () => {
      const e = new EarlyStart();
      expect(e.tryStart('k')).to.equal(false);
      e.admitted('k', { key: 9, ip: 100, slots: 4 });
      expect(e.tryStart('k')).to.equal(true);
      expect(e.tryStart('k')).to.equal(true);
      expect(e.tryStart('k')).to.equal(false);
      e.end('k');
      expect(e.tryStart('k')).to.equal(true);
    });

    it('stops early starts after a refusal, with too little room, or when the last admission is old', () => {
      const e = new EarlyStart(50);
      e.admitted('a', { key: 9, ip: 100, slots: 4 });
      e.refused('a');
      expect(e.tryStart('a')).to.equal(false);
      e.admitted('b', { key: 1, ip: 100, slots: 4 });
      expect(e.tryStart('b')).to.equal(false);
      e.admitted('c', { key: 9, ip: 100, slots: 4 });
      const until = Date.now() + 60;
      while (Date.now() < until) {
        /* let the admission age */
      }
      expect(e.tryStart('c')).to.equal(false);
    });
  });

  describe('in the request pipeline', () => {
    // While set, admissions are held until this many have been asked for, then all go to Redis: the
    // requests that asked can only have started early, however slowly a loaded machine delivers them.
    // Without it the first admission could come back (leaving no room) before the third request arrived.
    let holdUntil = 0;
    let held: (() => void)[] = [];
    class HeldLimits extends RateLimits {
      override async admit(...args: Parameters<RateLimits['admit']>): ReturnType<RateLimits['admit']> {
        if (holdUntil > 0) {
          await new Promise<void>((go) => {
            held.push(go);
            if (held.length < holdUntil) return;
            for (const g of held) g();
            holdUntil = 0;
            held = [];
          });
        }
        return super.admit(...args);
      }
    }
    let t: TestApp;
    let app: express.Express;
    let calls = 0;
    before(async () => {
      t = await createTestApp();
      const { deps } = t;
      // Ten requests a minute from one address, so a second key can fill the window the first key's
      // early requests were counting on.
      const { api, router } = standInApi(t, { ipPerMinute: 10, keyPerSecond: 100, publicSearchPerHour: 60 }, HeldLimits);
      api.add({
        method: 'get',
        path: '/v1/test/probe/',
        operationId: 'testProbe',
        summary: 'stand-in read',
        tags: ['test'],
        security: 'apiKey',
        response: z.object({ secret: z.string() }),
        handler: async () => {
          calls++;
          return { secret: 'data only an admitted request may see' };
        },
      });
      app = express();
      app.use(router);
      app.use(errorHandler(deps.log));
    });
    after(async () => t.close());

    it('answers a refused early request with its 429 only: the handler ran, its data is not sent, nothing is charged', async () => {
      const a = await t.client();
      const b = await t.client();
      const get = (key: string) => request(app).get('/v1/test/probe/').set('X-API-Key', key);
      // a's first request waits for its admission, which leaves 9 of the IP window: a's next requests may start early.
      expect((await get(a.account.key)).status).to.equal(200);
      // b's eight fill the IP window but one.
      const bs = await Promise.all(Array.from({ length: 8 }, () => get(b.account.key)));
      expect(bs.map((r) => r.status)).to.deep.equal(Array(8).fill(200));
      const before = calls;
      holdUntil = 3;
      const res = await Promise.all([get(a.account.key), get(a.account.key), get(a.account.key)]);
      expect(res.map((r) => r.status).sort()).to.deep.equal([200, 429, 429]);
      // All three started before Redis answered: the handler ran for the refused ones too.
      expect(calls - before).to.equal(3);
      for (const r of res.filter((x) => x.status === 429)) {
        expect(r.body.code).to.equal('ip_rate_limited');
        expect(JSON.stringify(r.body)).to.not.contain('data only');
      }
      expect(await t.used(a.account.accountId, 'api_calls')).to.equal(2);
      // Refused: a's next request waits for its admission again, and does not run.
      const after = calls;
      expect((await get(a.account.key)).status).to.equal(429);
      expect(calls).to.equal(after);
    });
  });
});
