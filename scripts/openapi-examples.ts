// Writes docs/examples.json: one request and its answer for every operation of the API, made by a real run of
// the app (a cloned test database with the ingest fixture, the ML sidecar, the workers it needs) and recorded as
// they went. `npm run openapi` puts them into the document; test/http/examples.test.ts checks each against its
// operation's schemas and that no operation lacks one.
//   npx tsx scripts/openapi-examples.ts
// Long arrays are cut to their first three items; files are described, not copied.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { EXAMPLES_FILE, type Example } from '../src/http/examples.ts';
import { importSet } from '../src/ingest/importer/index.ts';
import { bearer } from '../test/accounts/support.ts';
import { buildTemplate, dropTestDatabases } from '../test/helpers/db.ts';
import { binary } from '../test/helpers/http.ts';
import { startImageServer } from '../test/helpers/imageServer.ts';
import { addLogos, closeSharedSidecar, createLogoApp, drawLogo, indexPending } from '../test/helpers/logos.ts';
import { filing, writeFilings } from '../test/helpers/marks.ts';
import { Receiver } from '../test/helpers/receiver.ts';
import { importFixture, startWorkers, webhookEnv } from '../test/webhooks/support.ts';
import { startBulkDocumentWorker } from '../workers/bulkDocuments.ts';
import { startClearanceBatchWorker } from '../workers/clearanceBatch.ts';

process.env.NODE_ENV ??= 'test';
process.env.LOG_LEVEL ??= 'silent';

const examples: Record<string, Example> = {};

/** Long lists cut to three items, recursively: an example shows the shape, not the register. */
function cut(v: unknown): unknown {
  if (Array.isArray(v)) return v.slice(0, 3).map(cut);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x)]));
  return v;
}

interface Call {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The path with {name} placeholders, filled from params. */
  path: string;
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Multipart fields; a Buffer is a file. */
  form?: Record<string, string | Buffer>;
  headers?: Record<string, string>;
  agent?: ReturnType<typeof request.agent>;
}

await buildTemplate();
const logo = await drawLogo({ slug: 'docker', size: 140, ink: [200, 30, 30] });
const server = await startImageServer({ '/logo.png': (res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(logo) });
const receiver = await new Receiver().start();
const l = await createLogoApp({ ...webhookEnv(), IMAGE_FETCH_TEST_ALLOW: server.hostPort, IMAGE_FETCH_TEST_CA: server.caFile });
const t = l.app;
const key = { 'X-API-Key': t.account.key };
const auth = { Authorization: bearer(t, t.account.accountId) };

async function call(operationId: string, c: Call): Promise<request.Response> {
  const url = c.path.replace(/\{(\w+)\}/g, (_m, k: string) => encodeURIComponent(String(c.params?.[k])));
  const client = c.agent ?? request(t.app);
  let req = client[c.method](url).set(c.headers ?? {});
  if (c.query) req = req.query(c.query);
  if (c.form) for (const [k, v] of Object.entries(c.form)) req = Buffer.isBuffer(v) ? req.attach(k, v, 'logo.png') : req.field(k, v);
  else if (c.body !== undefined) req = req.send(c.body as object);
  const res = await req.buffer(true).parse(binary);
  const raw = res.body as Buffer;
  if (res.status >= 300) throw new Error(`${operationId}: ${res.status} ${raw.toString('utf8').slice(0, 500)}`);
  const type = String(res.headers['content-type'] ?? '');
  const json = type.startsWith('application/json') ? JSON.parse(raw.toString('utf8')) : undefined;
  const body = json !== undefined ? cut(json) : `(${type.split(';')[0]}, ${raw.length} bytes: the file itself)`;
  res.body = json;
  const form = c.form && Object.fromEntries(Object.entries(c.form).map(([k, v]) => [k, Buffer.isBuffer(v) ? '(a PNG file)' : v]));
  examples[operationId] = {
    request: {
      ...(c.params && { params: c.params }),
      ...(c.query && { query: c.query }),
      ...((form ?? c.body) !== undefined && { body: form ?? c.body }),
    },
    status: res.status,
    response: body,
  };
  console.error(`${operationId} ${res.status}`);
  return res;
}

async function until<T>(what: string, f: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const batchWorker = startClearanceBatchWorker(t.deps, { intervalMs: 500 });
const bulkWorker = startBulkDocumentWorker(t.deps, { concurrency: 1, intervalMs: 500 });
const hooks = await startWorkers(t);
try {
  await importFixture(t, 'baseline');
  await t.deps.services.owners.catchUp();
  await addLogos(t, [{ app: '6500001', mark: 'ORCHID', draw: { slug: 'docker' } }]);
  await indexPending(l);
  await t.deps.search.sync();
  const db = t.deps.db;
  const APP = String((await db('documents').first('application_number')).application_number);
  const journal = await db('journals').whereNotNull('object_key').first('id');
  const doc = await db('documents').where({ application_number: APP }).first('id');

  // Accounts, sessions and keys.
  const person = { first_name: 'Asha', last_name: 'Rao', password: 'correct horse battery', plan: 'business' };
  await call('listPlans', { method: 'get', path: '/user/v1/plans/' });
  await call('signup', {
    method: 'post',
    path: '/user/v1/signup/',
    body: { ...person, email: 'asha@example.in', organisation: 'Rao & Associates' },
  });
  await call('login', { method: 'post', path: '/user/v1/login/', body: { email: 'asha@example.in', password: person.password } });
  const browser = request.agent(t.app);
  await call('signupWithSession', {
    method: 'post',
    path: '/user/v1/session/signup/',
    body: { ...person, email: 'meera@example.in' },
    agent: browser,
  });
  const session = await call('startSession', {
    method: 'post',
    path: '/user/v1/session/',
    body: { email: 'meera@example.in', password: person.password },
    agent: browser,
  });
  await call('getSession', { method: 'get', path: '/user/v1/session/', agent: browser });
  await call('getUsage', { method: 'get', path: '/user/v1/usage/', headers: auth });
  const made = await call('createApiKey', { method: 'post', path: '/user/v1/keys/', body: { name: 'ci-server' }, headers: auth });
  await call('listApiKeys', { method: 'get', path: '/user/v1/keys/', headers: auth });
  const rotated = await call('rotateApiKey', {
    method: 'post',
    path: '/user/v1/keys/{key_id}/rotate/',
    params: { key_id: made.body.key.id },
    headers: auth,
  });
  await call('revokeApiKey', { method: 'delete', path: '/user/v1/keys/{key_id}/', params: { key_id: rotated.body.key.id }, headers: auth });

  // The register.
  await call('publicSearch', { method: 'get', path: '/public/v1/trademarks/search/', query: { word_mark: 'sunrise' } });
  await call('publicTrademark', { method: 'get', path: '/public/v1/trademarks/{app_no}/', params: { app_no: APP } });
  await call('publicClasses', { method: 'get', path: '/public/v1/tm-classes/' });
  await call('searchTrademarks', { method: 'get', path: '/v1/trademarks/', query: { word_mark: 'sunrise', limit: 2 }, headers: key });
  await call('getTrademark', { method: 'get', path: '/v1/trademarks/{app_no}/', params: { app_no: APP }, headers: key });
  const linked: [string, string][] = [
    ['getStatusHistory', 'status'],
    ['getAlerts', 'alerts'],
    ['getProprietor', 'proprietor'],
    ['getAttorney', 'attorney'],
    ['getOppositions', 'oppositions'],
    ['getHearings', 'hearings'],
    ['getExamReports', 'exam-report'],
    ['getCitedMarks', 'cited'],
    ['listDocuments', 'documents'],
    ['listOppositionDocuments', 'opp-docs'],
    ['getPhonetic', 'phonetic'],
    ['getThreats', 'threats'],
  ];
  for (const [op, suffix] of linked)
    await call(op, { method: 'get', path: `/v1/trademarks/{app_no}/${suffix}/`, params: { app_no: APP }, headers: key });
  await call('bulkTrademarks', {
    method: 'post',
    path: '/v1/trademarks/bulk/',
    body: { application_numbers: [APP, '9999999'] },
    headers: key,
  });
  await call('bulkTrademarkDetail', {
    method: 'post',
    path: '/v1/trademarks/bulk-detail/',
    body: { application_numbers: [APP] },
    headers: key,
  });
  await call('listChanges', { method: 'get', path: '/v1/changes/', query: { limit: 2 }, headers: key });
  await call('listJournals', { method: 'get', path: '/v1/journals/', query: { limit: 2 }, headers: key });
  await call('getJournal', { method: 'get', path: '/v1/journals/{journal_id}/', params: { journal_id: journal.id }, headers: key });
  await call('listJournalTrademarks', {
    method: 'get',
    path: '/v1/journals/{journal_id}/trademarks/',
    params: { journal_id: journal.id },
    headers: key,
  });
  const { proprietor_name: ownerName } = await db('trademarks').where({ application_number: APP }).first('proprietor_name');
  const owners = await call('searchOwners', { method: 'get', path: '/v1/owners/', query: { q: ownerName, limit: 2 }, headers: key });
  const owner = { owner_id: owners.body.owners[0].id };
  await call('getOwner', { method: 'get', path: '/v1/owners/{owner_id}/', params: owner, headers: key });
  await call('listOwnerTrademarks', {
    method: 'get',
    path: '/v1/owners/{owner_id}/trademarks/',
    params: owner,
    query: { limit: 2 },
    headers: key,
  });
  await call('downloadJournal', {
    method: 'get',
    path: '/v1/journals/{journal_id}/download/',
    params: { journal_id: journal.id },
    headers: key,
  });
  await call('getDocumentUrl', { method: 'get', path: '/v1/documents/{doc_id}/url/', params: { doc_id: doc.id }, headers: key });
  const bulkDocs = await call('requestBulkDocuments', {
    method: 'post',
    path: '/v3/documents/bulk/',
    body: { application_numbers: [APP] },
    headers: key,
  });
  await until('bulk documents', async () => {
    const r = await request(t.app).get(`/v3/documents/bulk/${bulkDocs.body.job_id}/`).set(key);
    if (r.body.status === 'failed') throw new Error(`bulk documents failed: ${r.text}`);
    return r.body.status === 'done' ? r : undefined;
  });
  await call('getBulkDocuments', {
    method: 'get',
    path: '/v3/documents/bulk/{job_id}/',
    params: { job_id: bulkDocs.body.job_id },
    headers: key,
  });

  // Reference data.
  await call('listWellKnownMarks', { method: 'get', path: '/v1/reference/well-known-marks/', query: { q: 'tata' }, headers: key });
  await call('listProhibitedMarks', { method: 'get', path: '/v1/reference/prohibited-marks/', query: { q: 'ashoka' }, headers: key });
  await call('listNonProprietaryNames', {
    method: 'get',
    path: '/v1/reference/non-proprietary-names/',
    query: { q: 'paracetamol' },
    headers: key,
  });
  await call('listStampDuty', { method: 'get', path: '/v1/reference/stamp-duty/', headers: key });
  await call('listViennaCodes', { method: 'get', path: '/v1/reference/vienna-codes/', query: { q: 'star' }, headers: key });
  await call('listClasses', { method: 'get', path: '/v1/tm-classes/', headers: key });
  await call('getClass', { method: 'get', path: '/v1/tm-classes/{class_number}/', params: { class_number: 30 }, headers: key });
  await call('searchClassItems', { method: 'get', path: '/v1/tm-classes/search/', query: { q: 'tea' }, headers: key });

  // Logos.
  await call('logoSearchText', { method: 'post', path: '/v1/logo-search/text/', body: { query_text: 'ORCHID' }, headers: key });
  await call('logoSearchImage', {
    method: 'post',
    path: '/v1/logo-search/image/',
    form: { uploaded_file: logo, img_cnt: '3' },
    headers: key,
  });
  await call('logoViennaCodes', {
    method: 'post',
    path: '/v1/logo-search/vienna-codes/',
    form: { uploaded_file: logo, max_results: '3' },
    headers: key,
  });
  const imageUrl = `${server.origin}/logo.png`;
  await call('logoSearchImageUrl', {
    method: 'post',
    path: '/v1/logo-search/image-url/',
    body: { image_url: imageUrl, img_cnt: 3 },
    headers: key,
  });
  await call('logoSearchBulkText', {
    method: 'post',
    path: '/v1/logo-search/bulk-text/',
    body: { queries: [{ query_text: 'ORCHID' }] },
    headers: key,
  });
  await call('logoSearchBulkImage', { method: 'post', path: '/v1/logo-search/bulk-image/', form: { uploaded_files: logo }, headers: key });
  await call('logoSearchBulkImageUrl', {
    method: 'post',
    path: '/v1/logo-search/bulk-image-url/',
    body: { image_urls: [imageUrl] },
    headers: key,
  });

  // Clearance and reports.
  const cleared = await call('clearance', {
    method: 'post',
    path: '/v1/clearance/',
    body: { word_mark: 'SUNRISE FOODS', classes: [29, 30], limit: 3 },
    headers: key,
  });
  await call('getClearance', {
    method: 'get',
    path: '/v1/clearance/{clearance_id}/',
    params: { clearance_id: cleared.body.clearance_id },
    query: { offset: 3, limit: 3 },
    headers: key,
  });
  const batch = await call('clearanceBatch', {
    method: 'post',
    path: '/v1/clearance/batch/',
    body: {
      proposals: [
        { word_mark: 'SUNRISE FOODS', classes: [30] },
        { word_mark: 'KAVERI', classes: [30] },
      ],
    },
    headers: key,
  });
  await until('batch clearance', async () => {
    const r = await request(t.app).get(`/v1/clearance/batch/${batch.body.job_id}/`).set(key);
    return r.body.status === 'completed' ? r : undefined;
  });
  await call('getClearanceBatch', {
    method: 'get',
    path: '/v1/clearance/batch/{job_id}/',
    params: { job_id: batch.body.job_id },
    query: { limit: 2 },
    headers: key,
  });
  await call('clearancePdfReport', {
    method: 'get',
    path: '/v1/reports/clearance/{job_id}/pdf/',
    params: { job_id: cleared.body.clearance_id },
    headers: key,
  });
  await call('clearanceExcelReport', {
    method: 'get',
    path: '/v1/reports/clearance/{job_id}/xlsx/',
    params: { job_id: batch.body.job_id },
    headers: key,
  });
  await call('trademarkPdfReport', { method: 'get', path: '/v1/reports/trademarks/{app_no}/pdf/', params: { app_no: APP }, headers: key });
  await call('searchExcelExport', { method: 'get', path: '/v1/reports/search/xlsx/', query: { word_mark: 'sunrise' }, headers: key });

  // Webhooks and watches.
  const hook = await call('createWebhook', {
    method: 'post',
    path: '/user/v1/webhooks/',
    body: { url: receiver.url, monitored_applications: ['4100001'], events: ['*'] },
    headers: auth,
  });
  const hookId = hook.body.id as string;
  await call('listWebhooks', { method: 'get', path: '/user/v1/webhooks/list/', headers: auth });
  await call('getWebhook', { method: 'get', path: '/user/v1/webhooks/{webhook_id}/', params: { webhook_id: hookId }, headers: auth });
  await call('updateWebhook', {
    method: 'put',
    path: '/user/v1/webhooks/{webhook_id}/',
    params: { webhook_id: hookId },
    body: { events: ['trademark.status_changed', 'trademark.similar_filed'] },
    headers: auth,
  });
  await call('pingWebhook', {
    method: 'post',
    path: '/user/v1/webhooks/{webhook_id}/test/',
    params: { webhook_id: hookId },
    headers: auth,
  });
  await importFixture(t, 'delta');
  const delivery = await until('a delivery of the import', async () => {
    const r = await request(t.app).get(`/user/v1/webhooks/${hookId}/deliveries/`).set(auth);
    const done = (r.body.deliveries as { id: string; event: string; status: string }[]).find(
      (d) => d.event !== 'webhook.ping' && d.status === 'delivered',
    );
    return done?.id;
  });
  await call('listWebhookDeliveries', {
    method: 'get',
    path: '/user/v1/webhooks/{webhook_id}/deliveries/',
    params: { webhook_id: hookId },
    query: { limit: 2 },
    headers: auth,
  });
  await call('replayWebhookDelivery', {
    method: 'post',
    path: '/user/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/replay/',
    params: { webhook_id: hookId, delivery_id: delivery },
    headers: auth,
  });
  const watch = await call('createWatch', {
    method: 'post',
    path: '/user/v1/watches/',
    body: { word_mark: 'SUNRISE FOODS', classes: [29, 30], min_risk: 'Medium', webhook_id: hookId },
    headers: auth,
  });
  const watchId = watch.body.id as string;
  await call('backfillWatch', {
    method: 'post',
    path: '/user/v1/watches/{watch_id}/backfill/',
    params: { watch_id: watchId },
    body: { journals: 4 },
    headers: auth,
  });
  await call('listWatchBackfills', {
    method: 'get',
    path: '/user/v1/watches/{watch_id}/backfills/',
    params: { watch_id: watchId },
    headers: auth,
  });
  await call('setWatchOwner', { method: 'put', path: '/user/v1/watches/owner/', body: owner, headers: auth });
  await call('getWatchOwner', { method: 'get', path: '/user/v1/watches/owner/', headers: auth });
  await call('listWatches', { method: 'get', path: '/user/v1/watches/', headers: auth });
  await call('getWatch', { method: 'get', path: '/user/v1/watches/{watch_id}/', params: { watch_id: watchId }, headers: auth });
  await call('updateWatch', {
    method: 'patch',
    path: '/user/v1/watches/{watch_id}/',
    params: { watch_id: watchId },
    body: { min_risk: 'High' },
    headers: auth,
  });
  await call('previewWatch', {
    method: 'get',
    path: '/user/v1/watches/{watch_id}/preview/',
    params: { watch_id: watchId },
    query: { journal_id: journal.id },
    headers: auth,
  });
  // A new filing like the watch's words, matched as the workers match an import: the watch's hit.
  const filings = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-examples-'));
  writeFilings(filings, [filing('4900001', 'SUNRIZE FOODS', 30, journal.id)]);
  await importSet({ db: t.deps.db, store: t.deps.store, dir: filings });
  fs.rmSync(filings, { recursive: true, force: true });
  await t.deps.services.watchMatcher.matchPending();
  const hits = await call('listWatchHits', {
    method: 'get',
    path: '/user/v1/watches/hits/',
    query: { state: 'new', limit: 2 },
    headers: auth,
  });
  await call('listHitsOfWatch', {
    method: 'get',
    path: '/user/v1/watches/{watch_id}/hits/',
    params: { watch_id: watchId },
    query: { min_risk: 'Medium' },
    headers: auth,
  });
  await call('updateWatchHit', {
    method: 'patch',
    path: '/user/v1/watches/hits/{hit_id}/',
    params: { hit_id: hits.body.hits[0].id },
    body: { state: 'acknowledged', note: 'Client told; opposition to be considered' },
    headers: auth,
  });
  await call('rotateWatchCalendar', { method: 'post', path: '/user/v1/watches/calendar/', headers: auth });
  await call('getWatchCalendar', { method: 'get', path: '/user/v1/watches/calendar/', headers: auth });
  await call('disableWatchCalendar', { method: 'delete', path: '/user/v1/watches/calendar/', headers: auth });
  await call('setWatchDigest', { method: 'put', path: '/user/v1/watches/digest/', body: { frequency: 'weekly' }, headers: auth });
  await call('getWatchDigest', { method: 'get', path: '/user/v1/watches/digest/', headers: auth });
  await call('estimateWatch', {
    method: 'post',
    path: '/user/v1/watches/preview/',
    body: { word_mark: 'SUNRISE', classes: [30], min_risk: 'Medium', journals: 2 },
    headers: auth,
  });
  await call('deleteWatch', { method: 'delete', path: '/user/v1/watches/{watch_id}/', params: { watch_id: watchId }, headers: auth });
  await call('deleteWebhook', { method: 'delete', path: '/user/v1/webhooks/{webhook_id}/', params: { webhook_id: hookId }, headers: auth });
  await call('endSession', {
    method: 'delete',
    path: '/user/v1/session/',
    headers: { 'X-CSRF-Token': session.body.csrf_token },
    agent: browser,
  });

  const sorted = Object.fromEntries(Object.entries(examples).sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(EXAMPLES_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
  console.error(`wrote ${path.relative(process.cwd(), EXAMPLES_FILE)}: ${Object.keys(sorted).length} operations`);
} finally {
  await hooks.close();
  await bulkWorker.close();
  await batchWorker.close();
  await l.close();
  await receiver.close();
  await server.close();
  await closeSharedSidecar();
  await dropTestDatabases();
}
