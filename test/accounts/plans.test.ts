import fs from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { CATEGORIES, type Category } from '../../src/accounts/access.ts';
import type { PublicPlan } from '../../src/accounts/planCatalogue.ts';
import type { TestApp } from '../helpers/app.ts';
import { startApp } from '../webhooks/support.ts';

// GET /user/v1/plans/ against docs/plans.md's table, cell by cell, and against what a request gets: a trial of
// each seeded plan, made by signup with no admin step, is let through or refused exactly as the list says.

const NOBODY = '9999999';
/** One endpoint per category: refused with 403 before the mark is looked up when the plan lacks it. */
const CATEGORY_PROBES: Record<Category, string> = {
  cat_status_history: `/v1/trademarks/${NOBODY}/status/`,
  cat_alert_changes: `/v1/trademarks/${NOBODY}/alerts/`,
  cat_proprietor: `/v1/trademarks/${NOBODY}/proprietor/`,
  cat_attorney: `/v1/trademarks/${NOBODY}/attorney/`,
  cat_oppositions: `/v1/trademarks/${NOBODY}/oppositions/`,
  cat_opp_docs: `/v1/trademarks/${NOBODY}/opp-docs/`,
  cat_hearings: `/v1/trademarks/${NOBODY}/hearings/`,
  cat_documents: `/v1/trademarks/${NOBODY}/documents/`,
  cat_exam_reports: `/v1/trademarks/${NOBODY}/exam-report/`,
  cat_journal: '/v1/journals/',
  cat_threats: `/v1/trademarks/${NOBODY}/threats/`,
  cat_well_known: '/v1/reference/well-known-marks/?q=sun',
  cat_prohibited: '/v1/reference/prohibited-marks/?q=sun',
  cat_inn_names: '/v1/reference/non-proprietary-names/?q=sun',
  cat_stamp_duty: '/v1/reference/stamp-duty/',
  cat_tm_class: '/v1/tm-classes/',
};

const n = (x: number) => x.toLocaleString('en-US');
const yesNo = (b: boolean) => (b ? 'yes' : 'no');
const bulk = (x: number) => (x > 0 ? n(x) : 'not on plan');

/** What each row of the docs' table says of a plan, as the API's answer would write it. */
const ROWS: Record<string, (p: PublicPlan) => string> = {
  Categories: (p) => p.categories.map((c) => `\`${c}\``).join(', '),
  '`api_calls` / month': (p) => n(p.quotas.api_calls),
  '`doc_views` / month': (p) => n(p.quotas.doc_views),
  '`logo_searches` / month': (p) => n(p.quotas.logo_searches),
  '`pdf_reports` / month': (p) => n(p.quotas.pdf_reports),
  '`excel_reports` / month': (p) => n(p.quotas.excel_reports),
  '`clearances` / month': (p) => n(p.quotas.clearances),
  '`clearances` / month during the trial': (p) => n(p.trial_quotas.clearances),
  'Concurrent requests in flight': (p) => n(p.concurrency),
  'Bulk search (items per request)': (p) => bulk(p.bulk_search_limit),
  'Bulk logo search (items per request)': (p) => bulk(p.bulk_logo_limit),
  Webhooks: (p) => yesNo(p.features.webhooks),
  'Clearance and batch clearance': (p) => yesNo(p.features.clearance),
  'Similarity watches': (p) => yesNo(p.features.watches),
  'Monitored marks (all webhooks and similarity watches together)': (p) =>
    p.monitored_marks_limit === null ? 'unlimited' : n(p.monitored_marks_limit),
};

function docsTable(): { plans: string[]; rows: Map<string, string[]> } {
  const md = fs.readFileSync('docs/plans.md', 'utf8');
  const section = md.slice(md.indexOf('## Seeded plans'), md.indexOf('### Clearance and watches'));
  const lines = section.split('\n').filter((l) => l.startsWith('|'));
  const cells = (l: string) =>
    l
      .slice(1, -1)
      .split(' | ')
      .map((c) => c.trim());
  const [head, , ...body] = lines;
  return { plans: cells(head).slice(1), rows: new Map(body.map((l) => [cells(l)[0], cells(l).slice(1)])) };
}

describe('GET /user/v1/plans/: the plans as sold and as enforced', () => {
  let t: TestApp;
  let plans: PublicPlan[];

  before(async () => {
    t = await startApp();
    const res = await request(t.app).get('/user/v1/plans/');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    plans = res.body.plans;
    expect(res.body.trial_days).to.equal(14);
    expect(res.body.add_ons).to.deep.equal([
      'cat_threats',
      'cat_well_known',
      'cat_prohibited',
      'cat_inn_names',
      'cat_stamp_duty',
      'cat_tm_class',
    ]);
  });
  after(() => t.close());

  it('is public, and lists the seeded plans exactly as docs/plans.md does, cell by cell', () => {
    const docs = docsTable();
    expect(docs.plans).to.deep.equal(plans.map((p) => p.code));
    expect([...docs.rows.keys()]).to.deep.equal(Object.keys(ROWS));
    for (const [row, cell] of Object.entries(ROWS)) {
      expect(docs.rows.get(row), row).to.deep.equal(plans.map(cell));
    }
    expect(plans.find((p) => p.code === 'business')?.features.clearance).to.equal(true);
  });

  for (const code of ['basic', 'pro', 'business']) {
    it(`lets a new ${code} trial through, or refuses it, exactly as the list says`, async () => {
      const plan = plans.find((p) => p.code === code)!;
      const signup = await request(t.app)
        .post('/user/v1/signup/')
        .send({ first_name: 'Asha', last_name: 'Rao', email: `asha-${code}@example.in`, password: 'correct horse', plan: code });
      expect(signup.status, JSON.stringify(signup.body)).to.equal(201);
      const key = signup.body.api_key as string;
      const bearer = `Bearer ${signup.body.token}`;
      const keyed = (m: 'get' | 'post', path: string) => request(t.app)[m](path).set('X-API-Key', key);
      const user = (path: string) => request(t.app).post(path).set('Authorization', bearer);

      const usage = await request(t.app).get('/user/v1/usage/').set('Authorization', bearer);
      for (const [r, limit] of Object.entries(plan.trial_quotas)) expect(usage.body.usage[r].limit, r).to.equal(limit);

      for (const c of CATEGORIES) {
        const res = await keyed('get', CATEGORY_PROBES[c]);
        if (plan.categories.includes(c)) expect(res.status, `${code} ${c}`).to.not.equal(403);
        else {
          expect(res.body.code, `${code} ${c}`).to.equal('category_not_on_plan');
          expect(res.body.details.plans, c).to.deep.equal(plans.filter((p) => p.categories.includes(c)).map((p) => p.code));
        }
      }

      const expectFeature = (res: request.Response, on: boolean, refusal: string, what: string) => {
        if (on) expect(res.status, `${code} ${what}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 201, 202]);
        else {
          expect(res.body.code, `${code} ${what}`).to.equal(refusal);
          expect(res.body.details.plans, what).to.deep.equal(
            plans.filter((p) => p.features[res.body.details.feature as 'clearance']).map((p) => p.code),
          );
        }
      };
      const clearance = await keyed('post', '/v1/clearance/').send({ word_mark: 'SUNRISE', classes: [30] });
      expectFeature(clearance, plan.features.clearance, 'clearance_not_on_plan', 'clearance');
      const batch = await keyed('post', '/v1/clearance/batch/').send({ proposals: [{ word_mark: 'SUNRISE', classes: [30] }] });
      expectFeature(batch, plan.features.clearance, 'clearance_not_on_plan', 'batch clearance');
      const hook = await user('/user/v1/webhooks/').send({ url: 'https://127.0.0.1:9/hook', monitored_applications: [], events: ['*'] });
      expectFeature(hook, plan.features.webhooks, 'webhooks_not_on_plan', 'webhooks');
      const watch = await user('/user/v1/watches/').send({ word_mark: 'SUNRISE', classes: [30], webhook_id: hook.body.id ?? NOBODY });
      expectFeature(watch, plan.features.watches, 'watches_not_on_plan', 'watches');
      const bulkSearch = await keyed('post', '/v1/trademarks/bulk/').send({ application_numbers: [NOBODY] });
      expectFeature(bulkSearch, plan.features.bulk_search, 'bulk_not_on_plan', 'bulk search');
      const bulkLogo = await keyed('post', '/v1/logo-search/bulk-text/').send({ queries: [{ query_text: 'SUN' }] });
      expectFeature(bulkLogo, plan.features.bulk_logo, 'bulk_not_on_plan', 'bulk logo search');
      if (plan.bulk_search_limit > 0 && plan.bulk_search_limit < 100) {
        const over = Array.from({ length: plan.bulk_search_limit + 1 }, (_, i) => String(9_000_000 + i));
        const big = await keyed('post', '/v1/trademarks/bulk/').send({ application_numbers: over });
        expect(big.body.code).to.equal('bulk_size_exceeds_plan');
        expect(big.body.details.plans).to.deep.equal(plans.filter((p) => p.bulk_search_limit > plan.bulk_search_limit).map((p) => p.code));
      }
    });
  }
});
