import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verify as verifyGithubStyle } from '@octokit/webhooks-methods';
import { expect } from 'chai';
import request from 'supertest';
import { excerpt } from '../../src/clearance/goods.ts';
import { importSet } from '../../src/ingest/importer/index.ts';
import { WatchWorkers } from '../../workers/watches.ts';
import type { WebhookWorkers } from '../../workers/webhooks.ts';
import type { TestApp } from '../helpers/app.ts';
import { filing } from '../helpers/marks.ts';
import { Receiver } from '../helpers/receiver.ts';
import { importFixture, type Owner, owner, startApp, startWorkers, until } from '../webhooks/support.ts';

// A watch fires on an import of a similar new filing, through the real importer, the watch-matching
// worker, the outbox relay and signed delivery; not on an unrelated filing; never twice for one mark;
// and its preview over a past journal shows what it would have caught.

// Longer than a list's excerpt, so that the hit shows the excerpt a clearance shows.
const BAKERY = 'biscuits, cakes, pastry and confectionery; '.repeat(6);
const GOODS = `Tea, coffee, cocoa and artificial coffee; rice, pasta and noodles; ${BAKERY}honey.`;

const NEW_MARKS = [
  // A respelling of the watched SUNRISE, in its class.
  { ...filing('4200001', 'SUNRIZE FOODS', 30, 2), goods_services: GOODS },
  filing('4200002', 'BLUEBERRY JAM', 29, 2), // nothing alike, in a cognate class
  filing('4200003', 'SUNRISE', 9, null), // the same word in an unrelated class
  filing('4200004', 'MOONLIGHT', 30, null), // nothing alike, in the watched class
];

describe('similarity watches: matching new filings', () => {
  let t: TestApp;
  let receiver: Receiver;
  let hooks: WebhookWorkers;
  let watchers: WatchWorkers;
  let o: Owner;
  let hook: { id: string; secret: string };
  let sunrise: string;
  let deltaDir: string;

  const similarRows = () => t.deps.db('outbox').where({ event: 'trademark.similar_filed' }).orderBy('id');

  before(async function () {
    this.timeout(90_000);
    receiver = await new Receiver().start();
    t = await startApp();
    await importFixture(t, 'baseline');
    o = await owner(t);
    // The webhook wants only status changes of no mark: a watch's hits reach it all the same.
    const h = await o
      .post('/user/v1/webhooks/')
      .send({ url: `${receiver.url}/w`, monitored_applications: [], events: ['trademark.status_changed'] });
    expect(h.status, JSON.stringify(h.body)).to.equal(201);
    hook = h.body;
    const w = await o.post('/user/v1/watches/').send({ word_mark: 'Sunrise', classes: [30], webhook_id: hook.id });
    expect(w.status, JSON.stringify(w.body)).to.equal(201);
    sunrise = w.body.id;
    deltaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-watch-delta-'));
    fs.writeFileSync(path.join(deltaDir, 'trademarks.jsonl'), `${NEW_MARKS.map((m) => JSON.stringify(m)).join('\n')}\n`);
    hooks = await startWorkers(t);
    watchers = new WatchWorkers(t.deps, { scanMs: 100 });
    await watchers.start();
    await importSet({ db: t.deps.db, store: t.deps.store, dir: deltaDir });
    await until('the run to be matched', async () => (await t.deps.db('watch_runs')).length === 1, { ms: 60_000 });
    await receiver.waitFor(1);
    await until('deliveries to finish', async () => (await t.deps.db('webhook_deliveries').where({ status: 'pending' })).length === 0);
  });
  after(async () => {
    await watchers?.close();
    await hooks?.close();
    await receiver?.close();
    await t?.close();
    if (deltaDir) fs.rmSync(deltaDir, { recursive: true, force: true });
  });

  it('records the new filings of a delta import for the watches, and fires on the similar one only', async () => {
    const news = await t.deps.db('import_new_marks').orderBy('application_number').pluck('application_number');
    expect(news).to.deep.equal(['4200001', '4200002', '4200003', '4200004']);
    const hits = await t.deps.db('watch_hits').select('watch_id', 'application_number', 'risk_level');
    expect(hits.map((h) => [h.watch_id, h.application_number])).to.deep.equal([[sunrise, '4200001']]);
    expect(['Medium', 'High']).to.include(hits[0].risk_level);
    const rows = await similarRows();
    expect(rows.map((r) => [r.application_number, r.webhook_id])).to.deep.equal([['4200001', hook.id]]);
  });

  it('delivers trademark.similar_filed, signed, with the mark, the watch, the scores and the reasons', async () => {
    const got = receiver.received.filter((r) => r.path === '/w');
    expect(got).to.have.length(1);
    const r = got[0];
    expect(r.headers['x-nishaan-event']).to.equal('trademark.similar_filed');
    expect(await verifyGithubStyle(hook.secret, r.body, r.headers['x-nishaan-signature'])).to.equal(true);
    const body = JSON.parse(r.body);
    expect(body.event).to.equal('trademark.similar_filed');
    expect(body.trademark).to.deep.equal({ application_number: '4200001', word_mark: 'SUNRIZE FOODS', class_number: 30 });
    expect(body.change.old_value).to.equal(null);
    const hit = body.change.new_value;
    expect(hit).to.include({ watch_id: sunrise, application_number: '4200001', word_mark: 'SUNRIZE FOODS', class_number: 30 });
    expect(['Medium', 'High']).to.include(hit.risk_level);
    for (const k of ['overall_similarity_score', 'word_similarity_percentage', 'phonetic_similarity_percentage']) {
      expect(hit[k], k).to.be.a('number');
    }
    expect(hit.matching_criteria).to.be.a('string');
    expect(hit.reasons).to.be.an('array').that.is.not.empty;
    expect(hit.reasons.join(' ')).to.match(/SUNRI[SZ]E/);
    expect(body.full_record.application_number).to.equal('4200001');
    // The event names the hit, as the inbox lists it.
    const inbox = await o.get(`/user/v1/watches/${sunrise}/hits/`);
    expect(inbox.body.hits.map((x: { id: string }) => x.id)).to.deep.equal([hit.hit_id]);
    // The delivery log says which watch and hit a delivery was about, with its risk and reasons.
    const log = await o.get(`/user/v1/webhooks/${hook.id}/deliveries/`);
    const logged = log.body.deliveries.find((d: { event: string }) => d.event === 'trademark.similar_filed');
    expect(logged.watch).to.deep.include({ watch_id: sunrise, hit_id: hit.hit_id, word_mark: 'SUNRIZE FOODS', risk_level: hit.risk_level });
    expect(logged.watch.reasons).to.deep.equal(hit.reasons);
    // What the mark covers, as a clearance lists it.
    expect(hit.goods_services).to.equal(excerpt(GOODS));
    // The watch counts what it caught.
    expect((await o.get(`/user/v1/watches/${sunrise}/`)).body.hits).to.equal(1);
  });

  it('keeps the event out of the public changes feed', async () => {
    const feed = await t.get('/v1/changes/?since=0&limit=100');
    expect(feed.status).to.equal(200);
    expect(feed.body.changes.map((c: { event: string }) => c.event)).not.to.include('trademark.similar_filed');
    expect(feed.body.omitted_events).not.to.include('trademark.similar_filed');
  });

  it('never fires the same watch twice for one mark: re-importing, or matching the run again, sends nothing new', async () => {
    const before = (await similarRows()).length;
    const again = await importSet({ db: t.deps.db, store: t.deps.store, dir: deltaDir });
    // Nothing is new the second time, so the run has no new filings to match.
    expect(await t.deps.db('import_new_marks').where({ import_run_id: again.runId })).to.have.length(0);
    const [{ import_run_id: first }] = await t.deps.db('watch_runs').select('import_run_id');
    const rerun = await t.deps.services.watchMatcher.matchRun(first);
    expect(rerun).to.deep.equal({ marks: 4, hits: 0 });
    await watchers.scan();
    expect((await similarRows()).length).to.equal(before);
    expect(await t.deps.db('watch_hits')).to.have.length(1);
  });

  it("previews what a watch would have caught among a past journal's marks", async () => {
    const res = await o.get(`/user/v1/watches/${sunrise}/preview/?journal_id=2`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.watch_id).to.equal(sunrise);
    expect(res.body.journal).to.deep.include({ id: 2, journal_number: '2101' });
    expect(res.body.marks).to.be.at.least(2);
    expect(res.body.results.map((x: { application_number: string }) => x.application_number)).to.deep.equal(['4200001']);
    expect(res.body.count).to.equal(1);
    expect(res.body.results[0].reasons).to.be.an('array').that.is.not.empty;
    expect(res.body.results[0].goods_services).to.equal(excerpt(GOODS));
    expect(res.body.results[0]).not.to.have.property('watch_id');
    // A preview records and sends nothing.
    expect(await t.deps.db('watch_hits')).to.have.length(1);
    const lax = await request(t.app)
      .patch(`/user/v1/watches/${sunrise}/`)
      .set('Authorization', o.auth)
      .send({ word_mark: 'Blueberry', classes: [29] });
    expect(lax.status).to.equal(200);
    const other = await o.get(`/user/v1/watches/${sunrise}/preview/?journal_id=2`);
    expect(other.body.results.map((x: { application_number: string }) => x.application_number)).to.deep.equal(['4200002']);
    expect((await o.get(`/user/v1/watches/${sunrise}/preview/?journal_id=999`)).status).to.equal(404);
    expect((await o.get(`/user/v1/watches/${sunrise}/preview/`)).status).to.equal(400);
    expect((await o.get(`/user/v1/watches/${sunrise}/preview/?journal_id=x`)).status).to.equal(400);
  });

  it('meets the marks a delta advertises in a journal too, not only new filings', async () => {
    const w = await o.post('/user/v1/watches/').send({ word_mark: 'Sunrise', classes: [30], webhook_id: hook.id });
    expect(w.status).to.equal(201);
    // The fixture's delta advertises SUNRISE FOODS (filed before the watch) in journal 3.
    const run = await importFixture(t, 'delta');
    const advertised = await t.deps.db('outbox').where({ import_run_id: run.runId, event: 'trademark.journal_published' });
    expect(advertised.map((r) => r.application_number)).to.include('4100001');
    await until('the run to be matched', async () => (await t.deps.db('watch_runs').where({ import_run_id: run.runId })).length === 1);
    expect(await t.deps.db('watch_hits').where({ watch_id: w.body.id }).pluck('application_number')).to.deep.equal(['4100001']);
    await until('the delivery', () => receiver.received.filter((r) => r.path === '/w').length === 2);
    expect(JSON.parse(receiver.received.filter((r) => r.path === '/w')[1].body).trademark.application_number).to.equal('4100001');
  });

  it('estimates a watch not yet made over the latest journals, recording and sending nothing', async () => {
    const counted = async () => [(await t.deps.db('watch_hits')).length, (await t.deps.db('watches')).length, (await similarRows()).length];
    const before = await counted();
    const r = await o.post('/user/v1/watches/preview/').send({ word_mark: 'Sunrise', classes: [30], journals: 2 });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const latest = await t.deps
      .db('journals')
      .orderBy([
        { column: 'publication_date', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(2);
    expect(r.body.journals.map((j: { id: number }) => j.id)).to.deep.equal(latest.map((j) => j.id));
    for (const j of r.body.journals as { id: number; marks: number; hits: number }[]) {
      // The journal's marks in class 30 and its cognates (29-33 and 43).
      const marks = await t.deps.db('trademarks').where({ journal_id: j.id }).whereIn('class_number', [29, 30, 31, 32, 33, 43]);
      expect(j.marks).to.equal(marks.length);
      expect(j.hits).to.be.at.most(j.marks);
    }
    const total = r.body.journals.reduce((n: number, j: { hits: number }) => n + j.hits, 0);
    expect(r.body.hits).to.equal(total);
    expect(r.body.hits_per_journal).to.equal(Math.round((total / 2) * 10) / 10);
    expect(r.body.examples).to.have.length(Math.min(10, total));
    // The fixture's journals 2 and 3 are the latest; 2 advertises SUNRIZE FOODS, 3 SUNRISE FOODS.
    expect(latest.map((j) => j.id).sort()).to.deep.equal([2, 3]);
    const found = r.body.examples.map((x: { application_number: string }) => x.application_number);
    expect(found).to.include.members(['4200001', '4100001']);
    expect(await counted()).to.deep.equal(before);
    for (const body of [
      { word_mark: 'Sunrise', classes: [30], journals: 13 },
      { word_mark: ' -- ', classes: [30] },
      { classes: [30] },
      { word_mark: 'Sunrise', classes: [30], webhook_id: hook.id },
    ]) {
      expect((await o.post('/user/v1/watches/preview/').send(body)).status, JSON.stringify(body)).to.equal(400);
    }
  });
});
