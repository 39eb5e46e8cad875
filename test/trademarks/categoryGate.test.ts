import { expect } from 'chai';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { CATEGORIES, type Category } from '../../src/accounts/access.ts';
import type { WebhookWorkers } from '../../workers/webhooks.ts';
import type { TestApp } from '../helpers/app.ts';
import { binary } from '../helpers/http.ts';
import { insertMarks } from '../helpers/marks.ts';
import { pdfText } from '../helpers/pdf.ts';
import { Receiver } from '../helpers/receiver.ts';
import { type Owner, owner, startApp, startWorkers, until } from '../webhooks/support.ts';

// Walks every category of the plan catalogue over every surface that shows a mark's data: a plan
// lacking exactly one category sees none of that category's data anywhere, and everything else; a
// plan with every category sees all of it. Each category's rows carry a word of their own (MK…), so
// what a surface shows is read off its output, whatever its shape (JSON, PDF text, workbook cells).

const APP = '4200001';
const marker = (c: Category) => `MK${c.slice(4).replace(/_/g, '').toUpperCase()}`;
const MARKERS = CATEGORIES.map((c) => [c, marker(c)] as const);
const seenIn = (text: string) => new Set(MARKERS.filter(([, m]) => text.includes(m)).map(([c]) => c));

/** The detail's linked data, by category (alert changes and cited marks have endpoints of their own). */
const RECORD: Category[] = [
  'cat_status_history',
  'cat_proprietor',
  'cat_attorney',
  'cat_oppositions',
  'cat_hearings',
  'cat_documents',
  'cat_opp_docs',
  'cat_exam_reports',
];

/** The contract's events and the category whose data each carries (docs/webhooks.md); null: core data. */
const EVENTS: [string, Category | null][] = [
  ['trademark.status_changed', 'cat_status_history'],
  ['trademark.alert_changed', 'cat_alert_changes'],
  ['trademark.expiry_changed', null],
  ['trademark.journal_published', 'cat_journal'],
  ['trademark.opposition_filed', 'cat_oppositions'],
  ['trademark.opposition_updated', 'cat_oppositions'],
  ['trademark.opposition_document_added', 'cat_opp_docs'],
  ['trademark.hearing_scheduled', 'cat_hearings'],
  ['trademark.hearing_updated', 'cat_hearings'],
  ['trademark.exam_report_added', 'cat_exam_reports'],
  ['trademark.document_added', 'cat_documents'],
  ['trademark.proprietor_changed', 'cat_proprietor'],
  ['trademark.attorney_changed', 'cat_attorney'],
  ['trademark.cited_mark_added', 'cat_exam_reports'],
  ['trademark.renewal_due', null],
];
const EVENT_DATA = [...new Set(EVENTS.map(([, c]) => c).filter((c): c is Category => c !== null))];

/** Per-table endpoints, the category of what they list, and the documents' own links. */
const LISTINGS: [string, Category | null][] = [
  [`/v1/trademarks/${APP}/status/`, 'cat_status_history'],
  [`/v1/trademarks/${APP}/alerts/`, 'cat_alert_changes'],
  [`/v1/trademarks/${APP}/proprietor/`, 'cat_proprietor'],
  [`/v1/trademarks/${APP}/attorney/`, 'cat_attorney'],
  [`/v1/trademarks/${APP}/oppositions/`, 'cat_oppositions'],
  [`/v1/trademarks/${APP}/hearings/`, 'cat_hearings'],
  [`/v1/trademarks/${APP}/exam-report/`, 'cat_exam_reports'],
  [`/v1/trademarks/${APP}/documents/`, 'cat_documents'],
  [`/v1/trademarks/${APP}/opp-docs/`, 'cat_opp_docs'],
  [`/v1/trademarks/${APP}/cited/`, null],
];
const DOCUMENT_URLS: [string, Category][] = [
  ['/v1/documents/9001/url/', 'cat_documents'],
  ['/v1/documents/9002/url/', 'cat_opp_docs'],
];

/** Categories that open an endpoint rather than a mark's linked data. */
const ENDPOINTS: [string, Category][] = [
  ['/v1/journals/', 'cat_journal'],
  [`/v1/trademarks/${APP}/threats/`, 'cat_threats'],
  ['/v1/reference/well-known-marks/?q=sun', 'cat_well_known'],
  ['/v1/reference/prohibited-marks/?q=sun', 'cat_prohibited'],
  ['/v1/reference/non-proprietary-names/?q=sun', 'cat_inn_names'],
  ['/v1/reference/stamp-duty/', 'cat_stamp_duty'],
  ['/v1/tm-classes/', 'cat_tm_class'],
];

async function seedMark(t: TestApp): Promise<void> {
  const db = t.deps.db;
  await insertMarks(db, [
    { app: APP, mark: 'GATEWALK', owner: 'GATE OWNER' },
    { app: '4200002', mark: 'CITEDMARK' },
  ]);
  const at = '2021-03-04T05:06:07Z';
  await db('status_history').insert({
    id: 9001,
    application_number: APP,
    old_status: null,
    new_status: marker('cat_status_history'),
    changed_at: at,
  });
  await db('alerts').insert({ id: 9001, application_number: APP, old_alert: null, new_alert: marker('cat_alert_changes'), changed_at: at });
  await db('proprietors').insert({ id: 9001, application_number: APP, name: marker('cat_proprietor'), address: 'Pune' });
  await db('attorneys').insert({ id: 9001, application_number: APP, name: marker('cat_attorney'), agent_code: 'AG-9' });
  await db('oppositions').insert({
    id: 9001,
    application_number: APP,
    opposition_number: 'OPP-9001',
    opponent_name: marker('cat_oppositions'),
    opposition_date: '2021-02-01',
    status: 'Pending',
  });
  await db('hearings').insert({
    id: 9001,
    application_number: APP,
    hearing_date: '2021-05-01',
    hearing_type: marker('cat_hearings'),
    status: 'Held',
  });
  await db('documents').insert([
    {
      id: 9001,
      application_number: APP,
      opposition_id: null,
      name: marker('cat_documents'),
      document_type: 'Reply',
      upload_date: '2021-01-01',
      object_key: 'blobs/9001.pdf',
    },
    {
      id: 9002,
      application_number: APP,
      opposition_id: 9001,
      name: marker('cat_opp_docs'),
      document_type: 'TM-O',
      upload_date: '2021-02-01',
      object_key: 'blobs/9002.pdf',
    },
  ]);
  await db('exam_reports').insert({
    id: 9001,
    application_number: APP,
    report_date: '2021-01-01',
    objection_reasons: [marker('cat_exam_reports')],
  });
  await db('cited_marks').insert({ id: 9001, exam_report_id: 9001, application_number: APP, cited_application_number: '4200002' });
}

async function workbookText(buf: Buffer): Promise<string> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const cells: string[] = [];
  wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value)))));
  return cells.join('\n');
}

const sorted = (s: Iterable<Category>) => [...s].sort();
const minus = (all: readonly Category[], c: Category | null) => all.filter((x) => x !== c);

describe('one gate per category: every category over every surface', function () {
  this.timeout(180_000);
  let t: TestApp;
  let receiver: Receiver;
  let workers: WebhookWorkers;
  // One plan with every category (missing: null), and one lacking each category in turn.
  const plans = new Map<Category | null, Owner>();
  const label = (c: Category | null) => c ?? 'all';

  before(async () => {
    receiver = await new Receiver().start();
    t = await startApp();
    await seedMark(t);
    for (const missing of [null, ...CATEGORIES]) {
      const o = await owner(t, { categories: minus(CATEGORIES, missing) });
      const hook = await o
        .post('/user/v1/webhooks/')
        .send({ url: `${receiver.url}/${label(missing)}`, monitored_applications: [APP], events: ['*'] });
      expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
      plans.set(missing, o);
    }
    workers = await startWorkers(t);
    await t.deps.db('outbox').insert(
      EVENTS.map(([event, c]) => ({
        event,
        application_number: APP,
        old_value: null,
        new_value: { data: c ? marker(c) : 'core' },
        changed_at: new Date(),
      })),
    );
    const owed = plans.size * EVENTS.length;
    await until(
      `${owed} deliveries to finish`,
      async () => {
        const r = await t.deps
          .db('webhook_deliveries')
          .whereIn('status', ['delivered', 'cancelled'])
          .count<{ count: string }[]>('* as count');
        return Number(r[0].count) === owed;
      },
      { ms: 120_000 },
    );
  });
  after(async () => {
    await workers?.close();
    await receiver?.close();
    await t?.close();
  });

  const key = (missing: Category | null) => plans.get(missing)!.account.key;
  const get = (missing: Category | null, path: string) => request(t.app).get(path).set('X-API-Key', key(missing));

  /** What each surface showed the plan lacking `missing`: surface name → categories whose data it carried. */
  async function surfaces(missing: Category | null): Promise<{ seen: Map<string, Category[]>; problems: string[] }> {
    const seen = new Map<string, Category[]>();
    const problems: string[] = [];
    const see = (surface: string, text: string) => seen.set(surface, sorted(seenIn(text)));

    const detail = await get(missing, `/v1/trademarks/${APP}/`);
    expect(detail.status).to.equal(200);
    see('detail', JSON.stringify(detail.body));
    const omitted = missing && RECORD.includes(missing) ? [missing] : [];
    if (JSON.stringify(detail.body.omitted_categories) !== JSON.stringify(omitted)) {
      problems.push(`detail omitted_categories ${JSON.stringify(detail.body.omitted_categories)}, expected ${JSON.stringify(omitted)}`);
    }

    const bulk = await request(t.app)
      .post('/v1/trademarks/bulk-detail/')
      .set('X-API-Key', key(missing))
      .send({ application_numbers: [APP] });
    expect(bulk.status).to.equal(200);
    see('bulk detail', JSON.stringify(bulk.body));
    if (JSON.stringify(bulk.body.results[0].omitted_categories) !== JSON.stringify(omitted)) {
      problems.push(`bulk detail omitted_categories ${JSON.stringify(bulk.body.results[0].omitted_categories)}`);
    }

    for (const [path, category] of [...LISTINGS, ...DOCUMENT_URLS]) {
      const res = await get(missing, path);
      if (category !== null && category === missing) {
        if (res.status !== 403 || res.body.code !== 'category_not_on_plan')
          problems.push(`${path} answered ${res.status} without ${category}`);
        see(path, '');
      } else {
        if (res.status !== 200) problems.push(`${path} answered ${res.status} ${JSON.stringify(res.body)}`);
        // A document link shows its document (the file name is in the link); the rest show their rows.
        see(path, res.status === 200 && path.startsWith('/v1/documents/') ? marker(category!) : JSON.stringify(res.body));
      }
    }

    const pdf = await get(missing, `/v1/reports/trademarks/${APP}/pdf/`).buffer(true).parse(binary);
    expect(pdf.status).to.equal(200);
    const text = await pdfText(pdf.body as Buffer);
    see('pdf report', text);
    if (missing && RECORD.includes(missing) && !text.includes(missing))
      problems.push(`the pdf report does not say ${missing} is not on the plan`);

    const xlsx = await get(missing, '/v1/reports/search/xlsx/?word_mark=GATEWALK&match_type=EXACT').buffer(true).parse(binary);
    expect(xlsx.status).to.equal(200);
    const cells = await workbookText(xlsx.body as Buffer);
    if (!cells.includes(APP)) problems.push('the xlsx export does not list the mark');
    see('xlsx export', cells);

    // Delivery is at least once under one webhook-id (docs/webhooks.md): an attempt that outlives the test's
    // 2 s timeout on a busy machine is sent again, and a receiver keeps one message per webhook-id.
    const messages = new Map(receiver.received.filter((r) => r.path === `/${label(missing)}`).map((r) => [r.headers['webhook-id'], r]));
    const hooks = [...messages.values()].map((r) => JSON.parse(r.body));
    see('webhook full_record', JSON.stringify(hooks.map((b) => b.full_record)));
    see('webhook change', JSON.stringify(hooks.map((b) => b.change)));
    const delivered = hooks.map((b) => b.event).sort();
    const owed = EVENTS.filter(([, c]) => c === null || c !== missing)
      .map(([e]) => e)
      .sort();
    if (JSON.stringify(delivered) !== JSON.stringify(owed)) problems.push(`webhook events ${delivered}, expected ${owed}`);

    const feed = await get(missing, `/v1/changes/?since=0&limit=100&application_numbers=${APP}`);
    expect(feed.status).to.equal(200);
    see('changes feed', JSON.stringify(feed.body.changes));
    const omittedEvents = EVENTS.filter(([, c]) => c !== null && c === missing)
      .map(([e]) => e)
      .sort();
    if (JSON.stringify([...feed.body.omitted_events].sort()) !== JSON.stringify(omittedEvents)) {
      problems.push(`changes feed omitted_events ${feed.body.omitted_events}, expected ${omittedEvents}`);
    }

    for (const [path, category] of ENDPOINTS) {
      const res = await get(missing, path);
      const refused = res.status === 403 && res.body.code === 'category_not_on_plan' && res.body.details?.category === category;
      if (refused !== (category === missing)) problems.push(`${path} answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      seen.set(path, res.status === 200 ? [category] : []);
    }
    return { seen, problems };
  }

  /** What each surface carries of the seeded mark for a plan with every category. */
  const EXPECTED = new Map<string, Category[]>([
    ['detail', RECORD],
    ['bulk detail', RECORD],
    ['pdf report', RECORD],
    ['xlsx export', []],
    ['webhook full_record', RECORD],
    ['webhook change', EVENT_DATA],
    ['changes feed', EVENT_DATA],
    ...[...LISTINGS, ...DOCUMENT_URLS].map(([p, c]) => [p, c ? [c] : []] as [string, Category[]]),
    ...ENDPOINTS.map(([p, c]) => [p, [c]] as [string, Category[]]),
  ]);

  for (const missing of [null, ...CATEGORIES]) {
    it(
      missing
        ? `a plan without ${missing} sees none of its data on any surface, and all the rest`
        : 'a plan with every category sees all of it everywhere',
      async () => {
        const { seen, problems } = await surfaces(missing);
        for (const [surface, all] of EXPECTED) {
          const want = sorted(minus(all, missing));
          const got = seen.get(surface) ?? [];
          if (JSON.stringify(got) !== JSON.stringify(want))
            problems.push(`${surface} showed ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
        }
        expect(problems, problems.join('\n')).to.deep.equal([]);
      },
    );
  }

  it('covers every category of the catalogue on some surface', () => {
    const covered = new Set([...EXPECTED.values()].flat());
    expect(CATEGORIES.filter((c) => !covered.has(c))).to.deep.equal([]);
  });
});
