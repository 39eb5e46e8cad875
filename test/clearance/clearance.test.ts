import { expect } from 'chai';
import type { Threat } from '../../src/threats/service.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks, type MarkSpec } from '../helpers/marks.ts';

// POST /v1/clearance/ with words: the threats analysis of a mark not yet filed, in the classes asked
// for, through its JSON and multipart entry points. Logos: logo.test.ts.

const MARKS: MarkSpec[] = [
  { app: '8000001', mark: 'SUNRISE OIL', cls: 29 }, // the planted look-alike: the distinctive word kept, the trade word changed
  { app: '8000002', mark: 'SUNRIZE', cls: 30 }, // a respelling, in the other class screened
  { app: '8000003', mark: 'SUNRISE', cls: 32 }, // the same word in a cognate class
  { app: '8000004', mark: 'SUNRISE', cls: 9 }, // the same word in an unrelated class
  { app: '8000005', mark: 'SUNRISE FOODS', cls: 30, status: 'Abandoned' }, // dead: listed only when asked for
  { app: '8000006', mark: 'BLUEBERRY', cls: 29 }, // nothing alike
  { app: '8000007', mark: 'SUNRISE DAIRY', cls: 29, status: 'Objected' }, // pending
  { app: '8000008', mark: 'SUNRISEFOOD', cls: 30 }, // joined, a letter dropped
  { app: '8000010', mark: 'SHREE GANESH', cls: 30 },
  { app: '8000020', mark: 'SURAJ', cls: 32 },
  { app: '8000030', mark: 'KAVERI TEA', cls: 30, owner: 'KAVERI LTD' },
  { app: '8000031', mark: 'KAVERI', cls: 30, date: '2023-01-01' },
];

interface Result {
  application_number: string;
  class_number: number;
  risk_level: string;
  overall_similarity_score: number;
  word_similarity_percentage: number;
  reasons: string[];
  logo_url: unknown;
}

describe('POST /v1/clearance/ (words)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await insertMarks(t.deps.db, MARKS);
  });
  after(async () => t.close());

  const clear = async (body: object) => {
    const res = await t.post('/v1/clearance/').send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { query: object; classes: number[]; count: number; groups: Record<string, unknown>; results: Result[] };
  };
  const byApp = (list: Result[]) => new Map(list.map((x) => [x.application_number, x]));

  it('answers the envelope and the fields of each result, best first', async () => {
    const body = await clear({ word_mark: 'Sunrise Foods', classes: [30, 29] });
    expect(Object.keys(body)).to.deep.equal([
      'clearance_id',
      'query',
      'classes',
      'classes_from_goods',
      'registrability',
      'overall_risk',
      'count',
      'groups',
      'results',
    ]);
    expect((body as { clearance_id?: string }).clearance_id).to.match(/^[0-9a-f-]{36}$/);
    expect(body.classes).to.deep.equal([29, 30]);
    expect(body.query).to.deep.equal({
      word_mark: 'Sunrise Foods',
      goods_services: null,
      logo: null,
      risk_level: null,
      status: ['live', 'pending'],
      limit: 50,
      offset: 0,
    });
    expect(body.count).to.equal(body.results.length);
    expect(Object.keys(body.results[0])).to.deep.equal([
      'application_number',
      'word_mark',
      'class_number',
      'status',
      'application_date',
      'proprietor_name',
      'goods_services',
      'logo_url',
      'risk_level',
      'overall_similarity_score',
      'word_similarity_percentage',
      'phonetic_similarity_percentage',
      'visual_similarity_percentage',
      'matching_criteria',
      'reasons',
    ]);
    const scores = body.results.map((x) => x.overall_similarity_score);
    expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
    expect(
      body.results.every((x) => x.logo_url === null),
      'no mark here has a logo',
    ).to.equal(true);
  });

  it('finds the planted look-alike with the shared distinctive word and the class among its reasons', async () => {
    const m = byApp((await clear({ word_mark: 'SUNRISE FOODS', classes: [29, 30] })).results);
    const oil = m.get('8000001')!;
    expect(oil).to.include({ class_number: 29 });
    expect(oil.reasons).to.include('shared distinctive word SUNRISE');
    expect(oil.reasons).to.include('same class 29');
    expect(['High', 'Medium']).to.include(oil.risk_level);
    expect(m.get('8000002')!.reasons).to.include('same class 30');
    expect(m.get('8000002')!.reasons.some((r) => /^(sounds|spelled) alike: SUNRISE \/ SUNRIZE$/.test(r))).to.equal(true);
    expect(m.get('8000003')!.reasons).to.include('related class 32 ↔ 29');
    expect(m.get('8000004')!.reasons).to.include('unrelated class 9');
    expect(m.has('8000006'), 'BLUEBERRY is no conflict').to.equal(false);
    expect(m.get('8000007')!.reasons).to.include('shared distinctive word SUNRISE');
    expect(m.get('8000008')!.reasons).to.include('run together alike: SUNRISEFOODS / SUNRISEFOOD');
  });

  it('gives sound-alike and translation reasons', async () => {
    const sound = byApp((await clear({ word_mark: 'SHRI GANESH', classes: [30] })).results).get('8000010')!;
    expect(sound.reasons).to.include('sounds alike: SHRI / SHREE');
    const meaning = byApp((await clear({ word_mark: 'SUN', classes: [32] })).results).get('8000020')!;
    expect(meaning.reasons).to.include('Hindi SURAJ = SUN');
  });

  it('lists live and pending marks by default, dead ones when asked, and keeps risk levels at or above the one given', async () => {
    const all = await clear({ word_mark: 'SUNRISE FOODS', classes: [29, 30] });
    expect(byApp(all.results).has('8000005')).to.equal(false);
    const dead = await clear({ word_mark: 'SUNRISE FOODS', classes: [29, 30], status: 'dead' });
    expect(dead.results.map((x) => x.application_number)).to.deep.equal(['8000005']);
    expect(dead.results[0].reasons).to.include('not live: Abandoned');
    const both = await clear({ word_mark: 'SUNRISE FOODS', classes: [29, 30], status: ['LIVE', 'dead'] });
    expect(byApp(both.results).has('8000005')).to.equal(true);
    expect(byApp(both.results).has('8000007'), 'pending is not asked for').to.equal(false);
    const medium = await clear({ word_mark: 'SUNRISE FOODS', classes: [29, 30], risk_level: 'medium' });
    expect(medium.results.every((x) => x.risk_level !== 'Low')).to.equal(true);
    expect(medium.count).to.equal(all.results.filter((x) => x.risk_level !== 'Low').length);
  });

  it('counts by risk level and by class, and pages with limit and offset', async () => {
    const all = await clear({ word_mark: 'SUNRISE FOODS', classes: [29, 30] });
    const risks = { High: 0, Medium: 0, Low: 0 } as Record<string, number>;
    const classes = new Map<number, number>();
    for (const r of all.results) {
      risks[r.risk_level]++;
      classes.set(r.class_number, (classes.get(r.class_number) ?? 0) + 1);
    }
    expect(all.groups).to.deep.equal({
      risk_level: risks,
      class_number: [...classes].sort((a, b) => a[0] - b[0]).map(([class_number, count]) => ({ class_number, count })),
    });
    const page = await clear({ word_mark: 'SUNRISE FOODS', classes: [29, 30], limit: 2, offset: 1 });
    expect(page.count).to.equal(all.count);
    expect(page.results).to.deep.equal(all.results.slice(1, 3));
  });

  it('takes a multipart form with the same fields (a list as one field or the field repeated)', async () => {
    const json = await clear({ word_mark: 'SUNRISE FOODS', classes: [29, 30], limit: 5 });
    for (const form of [
      (r: ReturnType<TestApp['post']>) => r.field('word_mark', 'SUNRISE FOODS').field('classes', '29,30').field('limit', '5'),
      (r: ReturnType<TestApp['post']>) =>
        r.field('word_mark', 'SUNRISE FOODS').field('classes', '29').field('classes', '30').field('limit', '5'),
    ]) {
      const res = await form(t.post('/v1/clearance/'));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.results).to.deep.equal(json.results);
    }
  });

  it("scores as the mark's own threats do: one analysis, two entry points", async () => {
    const res = await t.get('/v1/trademarks/8000030/threats/');
    expect(res.status).to.equal(200);
    const threats = res.body.threats as Threat[];
    expect(threats.map((x) => x.threat_application_number)).to.include('8000031');
    const cleared = byApp((await clear({ word_mark: 'KAVERI TEA', classes: [30], status: 'live,pending,dead' })).results);
    for (const x of threats) {
      const c = cleared.get(x.threat_application_number)!;
      // The mark's threats discount marks filed after it; a proposal is filed after none.
      const later = x.threat_application_number === '8000031' ? 0.8 : 1;
      expect(x.overall_similarity_score, x.threat_word_mark).to.be.closeTo(c.overall_similarity_score * later, 0.11);
      expect(x.word_similarity_percentage).to.equal(c.word_similarity_percentage);
    }
    // A clearance leaves nothing out: the mark itself is its closest conflict.
    expect(cleared.get('8000030')).to.include({ overall_similarity_score: 100, risk_level: 'High' });
  });

  it('refuses bad input with 400 naming the field, and charges nothing', async () => {
    const c = await t.client();
    for (const [body, parameter] of [
      [{ word_mark: 'SUNRISE' }, 'classes'],
      [{ word_mark: 'SUNRISE', classes: [] }, 'classes'],
      [{ word_mark: 'SUNRISE', classes: [46] }, 'classes'],
      [{ word_mark: 'SUNRISE', classes: [0] }, 'classes'],
      [{ word_mark: 'SUNRISE', classes: [29, 29] }, 'classes'],
      [{ word_mark: 'SUNRISE', classes: '29,30,29' }, 'classes'],
      [{ word_mark: 'SUNRISE', classes: [29.5] }, 'classes'],
      [{ word_mark: '', classes: [29] }, 'word_mark'],
      [{ word_mark: '!!!', classes: [29] }, 'word_mark'],
      [{ classes: [29] }, 'word_mark'],
      [{ word_mark: 'SUNRISE', classes: [29], colour: 'red' }, 'colour'],
      [{ word_mark: 'SUNRISE', classes: [29], logo_url: 'ftp://example.com/a.png' }, 'logo_url'],
      [{ word_mark: 'SUNRISE', classes: [29], risk_level: 'Severe' }, 'risk_level'],
      [{ word_mark: 'SUNRISE', classes: [29], status: ['alive'] }, 'status'],
      [{ word_mark: 'SUNRISE', classes: [29], status: 'Registered' }, 'status'],
      [{ word_mark: 'SUNRISE', classes: [29], limit: 0 }, 'limit'],
      [{ word_mark: 'SUNRISE', classes: [29], limit: 101 }, 'limit'],
      [{ word_mark: 'SUNRISE', classes: [29], offset: -1 }, 'offset'],
      [{ word_mark: 'SUNRISE', classes: [29], uploaded_file: { path: '/etc/passwd', sha256: 'x', head: 'x' } }, 'uploaded_file'],
    ] as const) {
      const res = await c.post('/v1/clearance/').send(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.code, JSON.stringify(body)).to.equal('validation_error');
      expect(
        res.body.details.map((d: { parameter: string }) => d.parameter),
        JSON.stringify(body),
      ).to.include(parameter);
    }
    expect(await t.used(c.account.accountId, 'clearances')).to.equal(0);
  });

  it('refuses an upload that is not an image with 400, charging nothing', async () => {
    const c = await t.client();
    const res = await c
      .post('/v1/clearance/')
      .field('word_mark', 'SUNRISE')
      .field('classes', '29')
      .attach('uploaded_file', Buffer.from('just some text, not a picture'), 'logo.png');
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.code).to.equal('not_an_image');
    expect(await t.used(c.account.accountId, 'clearances')).to.equal(0);
    expect(await t.used(c.account.accountId, 'logo_searches')).to.equal(0);
  });

  it('charges one clearances credit per class screened, and refuses with 429 when fewer remain, charging nothing', async () => {
    const c = await t.client();
    expect((await c.post('/v1/clearance/').send({ word_mark: 'SUNRISE FOODS', classes: [29, 30, 32] })).status).to.equal(200);
    expect(await t.used(c.account.accountId, 'clearances')).to.equal(3);
    expect(await t.used(c.account.accountId, 'logo_searches')).to.equal(0);
    const poor = await t.client({ quotas: { clearances: 2 } });
    const res = await poor.post('/v1/clearance/').send({ word_mark: 'SUNRISE FOODS', classes: [29, 30, 32] });
    expect(res.status).to.equal(429);
    expect(res.body.code).to.equal('quota_exceeded');
    expect(await t.used(poor.account.accountId, 'clearances')).to.equal(0);
  });

  it('judges registrability on every clearance: a well-known mark in any class is High with no conflict on the register', async () => {
    const body = (await clear({ word_mark: 'PAYTM WALLET', classes: [36] })) as unknown as {
      count: number;
      overall_risk: string | null;
      registrability: { verdict: string; grounds: { ground: string; basis: string; matched: string; reason: string }[] };
    };
    expect(body.count).to.equal(0);
    expect(body.overall_risk).to.equal('High');
    expect(body.registrability.verdict).to.equal('objection_likely');
    expect(body.registrability.grounds).to.have.length(1);
    expect(body.registrability.grounds[0]).to.include({ ground: 'well_known', basis: 'Trade Marks Act 1999, s.11(2)', matched: 'PAYTM' });
    const inn = (await clear({ word_mark: 'PARACETAMOL PLUS', classes: [5] })) as unknown as { registrability: { grounds: object[] } };
    expect(inn.registrability.grounds).to.deep.include.members([
      {
        ground: 'inn',
        basis: 'Trade Marks Act 1999, s.13(b)',
        matched: 'paracetamol',
        reason: 'paracetamol is an international non-proprietary name (INN) for a medicine: no one may register it as a trade mark.',
      },
    ]);
    const plain = (await clear({ word_mark: 'Sunrise Foods', classes: [30] })) as unknown as { registrability: object };
    expect(plain.registrability).to.deep.equal({ verdict: 'no_objection_found', grounds: [] });
  });

  it('is sold by plan, not by cat_threats: a plan with no clearances is refused with 403 naming the plans that have it', async () => {
    const c = await t.client({ quotas: { clearances: 0 } });
    const clearance = await c.post('/v1/clearance/').send({ word_mark: 'SUNRISE', classes: [29] });
    expect(clearance.status).to.equal(403);
    expect(clearance.body.code).to.equal('clearance_not_on_plan');
    expect(clearance.body.details.plans).to.deep.equal(['pro', 'business']);
    expect(clearance.body.error).to.contain('included in Pro, Business');
    const noThreats = await t.without('cat_threats');
    const open = await noThreats.post('/v1/clearance/').send({ word_mark: 'SUNRISE', classes: [29] });
    expect(open.status, 'the threats add-on gates only GET …/threats/').to.equal(200);
    expect((await noThreats.get('/v1/trademarks/8000001/threats/')).body.code).to.equal('category_not_on_plan');
    expect(await t.used(noThreats.account.accountId, 'api_calls'), 'a clearance costs clearances, not api_calls').to.equal(0);
    expect(await t.used(c.account.accountId, 'clearances')).to.equal(0);
  });
});
