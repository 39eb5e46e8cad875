import { expect } from 'chai';
import request from 'supertest';
import { type AdmitOptions, admit } from '../../../src/http/pipeline/admit.ts';
import { identify } from '../../../src/http/pipeline/identify.ts';
import type { LimitSettings } from '../../../src/limits/rateLimits.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { guardFor, stepApp } from './support.ts';

describe('request pipeline: admit', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  // Identifies and admits the request, then learns the admission (twice: a refusal is given each
  // time) and answers what the bill held before and after.
  const app = (o: AdmitOptions, limits: Partial<LimitSettings> = {}, hold?: { reached: () => void; until: Promise<void> }) => {
    const { guard } = guardFor(t, limits);
    return stepApp(t, async (req, res) => {
      const caller = await identify(guard, req, 'apiKey');
      const bill = guard.bill();
      const admission = await admit(guard, req, res, caller, true, o, bill);
      const out = {
        early: admission.early,
        known: admission.admitted !== undefined,
        heldBefore: bill.held('api_calls'),
        settled: [] as string[],
        heldAfter: 0,
      };
      try {
        if (req.query.hold) {
          hold!.reached();
          await hold!.until;
        }
        for (let i = 0; i < 2; i++)
          out.settled.push(
            await admission.settle(bill).then(
              () => 'admitted',
              (err) => err.code,
            ),
          );
      } finally {
        admission.end();
      }
      out.heldAfter = bill.held('api_calls');
      return out;
    });
  };
  const admitted = { early: false, known: true, settled: ['admitted', 'admitted'] };

  it('admits a keyed request with its RateLimit headers and its default credit on the bill', async () => {
    const c = await t.client();
    const res = await request(app({ defaultCredit: true, mayStartEarly: false }, { keyPerSecond: 5 }))
      .get('/step')
      .set('X-API-Key', c.account.key);
    expect(res.body).to.deep.equal({ ...admitted, heldBefore: 1, heldAfter: 1 });
    expect(res.headers['ratelimit-limit']).to.equal('5');
    expect(res.headers['ratelimit-remaining']).to.equal('4');
    expect(await t.used(c.account.accountId, 'api_calls')).to.equal(1);
    const free = await request(app({ defaultCredit: false, mayStartEarly: false }))
      .get('/step')
      .set('X-API-Key', c.account.key);
    expect(free.body).to.deep.equal({ ...admitted, heldBefore: 0, heldAfter: 0 });
    expect(await t.used(c.account.accountId, 'api_calls')).to.equal(1);
  });

  it('refuses past a window or without a free slot, charging nothing, and frees the slot when the response ends', async () => {
    const c = await t.client({ concurrency: 1 });
    let open!: () => void;
    let reached!: () => void;
    const holding = new Promise<void>((r) => (reached = r));
    const server = app(
      { defaultCredit: true, mayStartEarly: false },
      { keyPerSecond: 3 },
      { reached, until: new Promise<void>((r) => (open = r)) },
    );
    // The first request holds the one slot until it is let go.
    const held = request(server)
      .get('/step?hold=1')
      .set('X-API-Key', c.account.key)
      .then((r) => r);
    await holding;
    expect((await request(server).get('/step').set('X-API-Key', c.account.key)).body.code).to.equal('concurrency_limited');
    open();
    expect((await held).body.settled).to.deep.equal(['admitted', 'admitted']);
    expect((await request(server).get('/step').set('X-API-Key', c.account.key)).body.settled).to.deep.equal(['admitted', 'admitted']);
    expect((await request(server).get('/step').set('X-API-Key', c.account.key)).body.code).to.equal('key_rate_limited');
    // The two admitted; neither refusal took a credit.
    expect(await t.used(c.account.accountId, 'api_calls')).to.equal(2);
  });

  it('starts a cheap read early once its key was admitted with room, learning the admission and its credit at settle', async () => {
    const c = await t.client();
    const server = app({ defaultCredit: true, mayStartEarly: true });
    const get = () => request(server).get('/step').set('X-API-Key', c.account.key);
    expect((await get()).body).to.deep.equal({ ...admitted, heldBefore: 1, heldAfter: 1 });
    // One after another, each ended: they go on starting early (at most half the room, 4, at once).
    for (let i = 0; i < 6; i++) {
      expect((await get()).body).to.deep.equal({
        early: true,
        known: false,
        heldBefore: 0,
        settled: ['admitted', 'admitted'],
        heldAfter: 1,
      });
    }
    expect(await t.used(c.account.accountId, 'api_calls')).to.equal(7);
  });

  it("gives an early start's refusal at settle, each time it is asked, with nothing charged", async () => {
    const a = await t.client();
    const b = await t.client();
    const server = app({ defaultCredit: true, mayStartEarly: true }, { ipPerMinute: 10 });
    const get = (key: string) => request(server).get('/step').set('X-API-Key', key);
    expect((await get(a.account.key)).body.early).to.equal(false);
    // b fills what is left of the address's window while a's last admission is fresh.
    await Promise.all(Array.from({ length: 9 }, () => get(b.account.key)));
    const res = await get(a.account.key);
    expect(res.body).to.deep.equal({
      early: true,
      known: false,
      heldBefore: 0,
      settled: ['ip_rate_limited', 'ip_rate_limited'],
      heldAfter: 0,
    });
    expect(await t.used(a.account.accountId, 'api_calls')).to.equal(1);
    // Refused: a's next request waits for its admission, which refuses it.
    expect((await get(a.account.key)).body.code).to.equal('ip_rate_limited');
  });

  it('admits a bearer request as its caller and a public one as nobody, taking nothing', async () => {
    const { guard, callers } = guardFor(t);
    const caller = await callers.byAccountId(t.account.accountId);
    const o = { defaultCredit: true, mayStartEarly: true };
    const server = stepApp(t, async (req, res) => {
      const bill = guard.bill();
      const bearer = await admit(guard, req, res, caller, false, o, bill);
      const open = await admit(guard, req, res, undefined, false, o, bill);
      return { bearer: bearer.admitted?.caller.accountId, early: bearer.early, open: open.admitted ?? null, held: bill.held('api_calls') };
    });
    expect((await request(server).get('/step')).body).to.deep.equal({ bearer: t.account.accountId, early: false, open: null, held: 0 });
  });
});
