import { expect } from 'chai';
import { CATEGORIES, type Category } from '../../src/accounts/access.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { seedRegistry } from '../helpers/seed.ts';

// Each per-table endpoint: its envelope, an unknown mark (404) and a bad number (400).
const CASES: { path: string; key: string; first: Record<string, unknown>; count: number; category?: Category }[] = [
  {
    path: 'status',
    category: 'cat_status_history',
    key: 'history',
    count: 2,
    first: { id: 11, old_status: null, new_status: 'New Application', changed_at: '2019-04-12T09:00:00Z' },
  },
  { path: 'alerts', category: 'cat_alert_changes', key: 'alerts', count: 1, first: { id: 21, new_alert: 'Reply pending' } },
  {
    path: 'proprietor',
    category: 'cat_proprietor',
    key: 'proprietors',
    count: 1,
    first: { id: 31, entity_type: 'Company', country: 'India' },
  },
  { path: 'attorney', category: 'cat_attorney', key: 'attorneys', count: 1, first: { id: 41, name: 'A. SHARMA & CO' } },
  {
    path: 'oppositions',
    category: 'cat_oppositions',
    key: 'oppositions',
    count: 1,
    first: { id: 51, status: 'Decided', opposition_date: '2019-10-01' },
  },
  {
    path: 'hearings',
    category: 'cat_hearings',
    key: 'hearings',
    count: 1,
    first: { id: 61, hearing_type: 'Show Cause', hearing_date: '2019-12-01' },
  },
  {
    path: 'exam-report',
    category: 'cat_exam_reports',
    key: 'reports',
    count: 1,
    first: { id: 81, report_date: '2019-06-01', reply_due_date: '2019-07-01' },
  },
  {
    path: 'cited',
    key: 'cited',
    count: 2,
    first: { cited_application_number: '4000002', word_mark: 'SUNRYZE', status: 'Objected', exam_report_id: 81 },
  },
];

describe('per-trademark linked endpoints', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await seedRegistry(t.deps.db);
  });
  after(async () => t.close());

  for (const c of CASES) {
    describe(`GET /v1/trademarks/{app_no}/${c.path}/`, () => {
      it('returns the envelope with application_number, count and rows', async () => {
        const res = await t.get(`/v1/trademarks/4000001/${c.path}/`);
        expect(res.status).to.equal(200);
        expect(res.body.application_number).to.equal('4000001');
        expect(res.body.count).to.equal(c.count);
        expect(res.body[c.key]).to.have.length(c.count);
        expect(res.body[c.key][0]).to.deep.include(c.first);
      });

      it('returns an empty list for a mark without rows', async () => {
        const res = await t.get(`/v1/trademarks/4000003/${c.path}/`);
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({ application_number: '4000003', count: 0, [c.key]: [] });
      });

      const op = () =>
        (t.openapi as { paths: Record<string, { get: { description?: string; responses: object } }> }).paths[
          `/v1/trademarks/{app_no}/${c.path}/`
        ].get;

      if (c.category) {
        it(`is refused with 403 naming ${c.category} when the plan lacks it`, async () => {
          const res = await (await t.without(c.category!)).get(`/v1/trademarks/4000001/${c.path}/`);
          expect(res.status).to.equal(403);
          expect(res.body.code).to.equal('category_not_on_plan');
          expect(res.body.error).to.contain(c.category);
        });

        it('checks the category before reading the request, as every gated endpoint does', async () => {
          const res = await (await t.without(c.category!)).get(`/v1/trademarks/12a/${c.path}/`);
          expect(res.status).to.equal(403);
          expect(res.body.details).to.include({ category: c.category });
        });

        it('is documented as needing its category, with the 403', () => {
          expect(op().description).to.contain(`Requires the plan category \`${c.category}\``);
          expect(op().responses).to.have.property('403');
        });
      } else {
        it('is not gated by any category', async () => {
          const res = await (await t.without(...CATEGORIES)).get(`/v1/trademarks/4000001/${c.path}/`);
          expect(res.status).to.equal(200);
          expect(op().description ?? '').to.not.contain('Requires the plan category');
        });
      }

      it('answers 404 for an unknown mark and 400 for a malformed number', async () => {
        const missing = await t.get(`/v1/trademarks/7777777/${c.path}/`);
        expect(missing.status).to.equal(404);
        expect(missing.body.code).to.equal('not_found');
        const bad = await t.get(`/v1/trademarks/12a/${c.path}/`);
        expect(bad.status).to.equal(400);
        expect(bad.body.details[0].parameter).to.equal('app_no');
      });
    });
  }

  it('reports a cited mark outside the register with null details', async () => {
    const res = await t.get('/v1/trademarks/4000001/cited/');
    expect(res.body.cited[1]).to.deep.include({ cited_application_number: '9999999', word_mark: null, status: null });
  });
});
