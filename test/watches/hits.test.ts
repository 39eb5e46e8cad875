import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { importSet } from '../../src/ingest/importer/index.ts';
import type { TestApp } from '../helpers/app.ts';
import { filing, writeFilings } from '../helpers/marks.ts';
import { Receiver } from '../helpers/receiver.ts';
import { importFixture, type Owner, owner, startApp } from '../webhooks/support.ts';

// Watch hits are records (docs/watches.md): every match is stored and listed whatever the state of any webhook (none,
// or one disabled), with the advertising journal and its opposition deadline, filtered, paged and triaged by its
// account alone; a mark advertised after its hit was recorded gives the hit its deadline, and nothing twice.

const ADVERTISED = filing('4300001', 'SUNRIZE FOODS', 30, 2);
const FILED = filing('4300002', 'SUNRISE GOLD', 30, null);
const MARKS = [ADVERTISED, FILED, filing('4300003', 'MOONLIGHT', 30, null)];

/** A calendar date plus whole months, as the law counts them (the same day of the later month, or its last day). */
function plusMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const last = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, last))).toISOString().slice(0, 10);
}

const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * 86_400_000).toISOString().slice(0, 10);

interface Hit {
  id: string;
  watch_id: string;
  application_number: string;
  risk_level: string;
  state: string;
  note: string | null;
  journal: { id: number; journal_number: string; publication_date: string } | null;
  opposition_deadline: string | null;
  opposition_deadline_unextended: string | null;
  reasons: string[];
}

describe('similarity watches: hits as records', () => {
  let t: TestApp;
  let o: Owner;
  let other: Owner;
  let bare: string;
  let muted: string;
  let live: string;
  let liveHook: string;
  let dir: string;
  let receiver: Receiver;

  const write = (marks: object[]) => writeFilings(dir, marks);
  const inbox = async (query = '', who: Owner = o) => {
    const r = await who.get(`/user/v1/watches/hits/${query}`);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body as { count: number; next_cursor: string | null; hits: Hit[] };
  };

  before(async function () {
    this.timeout(90_000);
    receiver = await new Receiver().start();
    t = await startApp();
    await importFixture(t, 'baseline');
    o = await owner(t);
    other = await owner(t);
    // One watch without a webhook, one whose webhook is disabled (as the delivery worker leaves an unreachable one).
    const w1 = await o.post('/user/v1/watches/').send({ word_mark: 'Sunrise', classes: [30] });
    expect(w1.status, JSON.stringify(w1.body)).to.equal(201);
    expect(w1.body).to.include({ webhook_id: null, webhook_active: null, hits: 0, new_hits: 0 });
    bare = w1.body.id;
    const h = await o
      .post('/user/v1/webhooks/')
      .send({ url: `${receiver.url}/w`, monitored_applications: [], events: ['trademark.status_changed'] });
    expect(h.status, JSON.stringify(h.body)).to.equal(201);
    const w2 = await o.post('/user/v1/watches/').send({ word_mark: 'Sunrise', classes: [30], webhook_id: h.body.id });
    expect(w2.status, JSON.stringify(w2.body)).to.equal(201);
    muted = w2.body.id;
    const h2 = await o
      .post('/user/v1/webhooks/')
      .send({ url: `${receiver.url}/l`, monitored_applications: [], events: ['trademark.status_changed'] });
    liveHook = h2.body.id;
    live = (await o.post('/user/v1/watches/').send({ word_mark: 'Sunrise', classes: [30], webhook_id: liveHook })).body.id;
    await t.deps
      .db('webhooks')
      .where({ id: h.body.id })
      .update({ active: false, disabled_at: t.deps.db.fn.now(), disabled_reason: 'test' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-hits-'));
    write(MARKS);
    await importSet({ db: t.deps.db, store: t.deps.store, dir });
    expect(await t.deps.services.watchMatcher.matchPending()).to.equal(1);
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const events = () => t.deps.db('outbox').where({ event: 'trademark.similar_filed' }).orderBy('id');
  const named = (id: string) => ({ [bare]: 'bare', [muted]: 'muted', [live]: 'live' })[id] ?? id;

  it('records every hit of a watch without a webhook and of one whose webhook is disabled, and sends no event for them', async () => {
    const all = await inbox();
    const pairs = all.hits.map((h) => `${named(h.watch_id)} ${h.application_number}`);
    expect(pairs.sort()).to.deep.equal(['bare 4300001', 'bare 4300002', 'live 4300001', 'live 4300002', 'muted 4300001', 'muted 4300002']);
    expect(all.count).to.equal(6);
    expect(all.next_cursor).to.equal(null);
    // Only the watch whose webhook is on sends events: each names its hit, the journal and the deadline (null unadvertised).
    const sent = await events();
    expect(sent.map((e) => [e.webhook_id, e.application_number])).to.deep.equal([
      [liveHook, '4300001'],
      [liveHook, '4300002'],
    ]);
    const liveHits = all.hits.filter((h) => h.watch_id === live);
    for (const e of sent) {
      const hit = liveHits.find((h) => h.application_number === e.application_number)!;
      expect(e.new_value).to.include({ hit_id: hit.id, watch_id: live, opposition_deadline: hit.opposition_deadline });
      expect(e.new_value.journal).to.deep.equal(hit.journal);
    }
    for (const h of all.hits) {
      expect(h.state).to.equal('new');
      expect(h.note).to.equal(null);
      expect(['Medium', 'High']).to.include(h.risk_level);
      expect(h.reasons.join(' ')).to.match(/SUNRI[SZ]E/);
    }
    const watch = (await o.get(`/user/v1/watches/${bare}/`)).body;
    expect(watch).to.include({ hits: 2, new_hits: 2 });
    // The Watches page names the watch whose webhook is off.
    expect((await o.get(`/user/v1/watches/${muted}/`)).body).to.include({ webhook_active: false, hits: 2 });
    expect((await o.get(`/user/v1/watches/${live}/`)).body).to.include({ webhook_active: true, hits: 2 });
  });

  it('carries the advertising journal and the opposition deadline four months from it (null until advertised)', async () => {
    const [journal] = await t.deps
      .db('journals')
      .where({ id: 2 })
      .select('journal_number', t.deps.db.raw("to_char(publication_date, 'YYYY-MM-DD') as d"));
    const hits = (await inbox(`?watch_id=${bare}`)).hits;
    const advertised = hits.find((h) => h.application_number === '4300001')!;
    expect(advertised.journal).to.deep.equal({ id: 2, journal_number: journal.journal_number, publication_date: journal.d });
    expect(advertised.opposition_deadline).to.equal(plusMonths(journal.d, 4));
    expect(advertised.opposition_deadline_unextended).to.equal(plusMonths(journal.d, 3));
    const filed = hits.find((h) => h.application_number === '4300002')!;
    expect(filed).to.include({ journal: null, opposition_deadline: null, opposition_deadline_unextended: null });
    // Deadline filter: only advertised hits, on or before the day.
    const due = await inbox(`?deadline_before=${plusMonths(journal.d, 4)}`);
    expect(due.hits.map((h) => h.application_number)).to.deep.equal(['4300001', '4300001', '4300001']);
    expect((await inbox(`?deadline_before=${plusMonths(journal.d, 3)}`)).count).to.equal(0);
  });

  it('filters by watch, state, risk and the day recorded, and refuses bad filters naming them', async () => {
    expect((await inbox(`?watch_id=${muted}`)).hits.every((h) => h.watch_id === muted)).to.equal(true);
    expect((await o.get(`/user/v1/watches/${muted}/hits/`)).body.count).to.equal(2);
    const high = await inbox('?min_risk=high');
    expect(high.hits.every((h) => h.risk_level === 'High')).to.equal(true);
    expect(high.count).to.equal((await inbox()).hits.filter((h) => h.risk_level === 'High').length);
    const today = new Date().toISOString().slice(0, 10);
    expect((await inbox(`?created_from=${today}&created_to=${today}`)).count).to.equal(6);
    expect((await inbox('?created_to=2020-01-01')).count).to.equal(0);
    expect((await inbox('?state=acknowledged,dismissed')).count).to.equal(0);
    for (const [q, parameter] of [
      ['?state=read', 'state'],
      ['?min_risk=severe', 'min_risk'],
      ['?deadline_before=31/02/2026', 'deadline_before'],
      ['?cursor=nonsense', 'cursor'],
      ['?watch_id=12', 'watch_id'],
      ['?limit=0', 'limit'],
      ['?colour=red', 'colour'],
    ]) {
      const r = await o.get(`/user/v1/watches/hits/${q}`);
      expect(r.status, q).to.equal(400);
      expect(JSON.stringify(r.body), q).to.include(parameter);
    }
  });

  it('pages newest first by cursor, every hit once', async () => {
    const whole = (await inbox('?limit=100')).hits.map((h) => h.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof inbox>> = await inbox(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.count).to.equal(6);
      seen.push(...page.hits.map((h) => h.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).to.deep.equal(whole);
    expect(new Set(seen).size).to.equal(6);
  });

  it("triages a hit (state and note), and only its account's", async () => {
    const [first] = (await inbox(`?watch_id=${bare}`)).hits;
    const r = await o.patch(`/user/v1/watches/hits/${first.id}/`).send({ state: 'Acknowledged', note: 'sent to client' });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body).to.include({
      id: first.id,
      state: 'acknowledged',
      note: 'sent to client',
      application_number: first.application_number,
    });
    expect((await o.get(`/user/v1/watches/${bare}/`)).body).to.include({ hits: 2, new_hits: 1 });
    expect((await inbox('?state=acknowledged')).hits.map((h) => h.id)).to.deep.equal([first.id]);
    const cleared = await o.patch(`/user/v1/watches/hits/${first.id}/`).send({ note: null });
    expect(cleared.body).to.include({ state: 'acknowledged', note: null });
    expect((await o.patch(`/user/v1/watches/hits/${first.id}/`).send({})).status).to.equal(400);
    expect((await o.patch(`/user/v1/watches/hits/${first.id}/`).send({ state: 'read' })).status).to.equal(400);
    expect((await o.patch(`/user/v1/watches/hits/${first.id}/`).send({ state: 'new', colour: 'red' })).status).to.equal(400);
    // Another account sees none of it.
    expect((await other.patch(`/user/v1/watches/hits/${first.id}/`).send({ state: 'dismissed' })).status).to.equal(404);
    expect((await other.get(`/user/v1/watches/${bare}/hits/`)).status).to.equal(404);
    expect((await inbox('', other)).count).to.equal(0);
    expect((await inbox(`?watch_id=${bare}`, other)).count).to.equal(0);
    expect((await o.patch('/user/v1/watches/hits/00000000-0000-4000-8000-000000000000/').send({ state: 'new' })).status).to.equal(404);
  });

  it('gives a hit its deadline when its mark is advertised later, notifies it once more, and records it once', async () => {
    write([{ ...FILED, journal_id: 2 }]);
    await importSet({ db: t.deps.db, store: t.deps.store, dir });
    expect(await t.deps.services.watchMatcher.matchPending()).to.equal(1);
    const all = await inbox();
    expect(all.count).to.equal(6);
    const advertised = all.hits.find((h) => h.application_number === '4300001')!;
    const filed = all.hits.filter((h) => h.application_number === '4300002');
    expect(filed).to.have.length(3);
    for (const h of filed) expect(h).to.deep.include({ journal: advertised.journal, opposition_deadline: advertised.opposition_deadline });
    // One more event, for the watch with a webhook that is on, now with the journal and the deadline.
    const sent = await events();
    expect(sent).to.have.length(3);
    expect(sent[2]).to.deep.include({ webhook_id: liveHook, application_number: '4300002' });
    const again = filed.find((h) => h.watch_id === live)!;
    expect(sent[2].new_value).to.deep.include({ hit_id: again.id, opposition_deadline: advertised.opposition_deadline });
    // Matching the run again writes nothing: the hit was notified for this journal.
    const [{ id: run }] = await t.deps.db('import_runs').orderBy('id', 'desc').limit(1);
    expect(await t.deps.services.watchMatcher.matchRun(run)).to.deep.include({ hits: 0 });
    expect(await events()).to.have.length(3);
  });

  it('reminds open hits 30 and 7 days before their deadline, once each, through the webhook that is on', async () => {
    const all = await inbox();
    const deadline = all.hits[0].opposition_deadline!;
    const dismissed = all.hits.find((h) => h.watch_id === bare)!;
    expect((await o.patch(`/user/v1/watches/hits/${dismissed.id}/`).send({ state: 'dismissed' })).status).to.equal(200);
    const reminders = t.deps.repos.watchReminders;
    const sent = () => t.deps.db('outbox').where({ event: 'watch.deadline_approaching' }).orderBy('id');
    expect(await reminders.writeDue(plusDays(deadline, -31))).to.equal(0);
    // 20 days before: the 30-day reminder of the five open hits; events for the live watch's two.
    expect(await reminders.writeDue(plusDays(deadline, -20))).to.equal(5);
    expect(await reminders.writeDue(plusDays(deadline, -20))).to.equal(0);
    expect(await reminders.writeDue(plusDays(deadline, -19))).to.equal(0);
    const first = await sent();
    expect(first.map((e) => [e.webhook_id, e.new_value.days_before, e.new_value.days_left])).to.deep.equal([
      [liveHook, 30, 20],
      [liveHook, 30, 20],
    ]);
    const liveIds = all.hits.filter((h) => h.watch_id === live).map((h) => h.id);
    expect(first.map((e) => e.new_value.hit_id).sort()).to.deep.equal([...liveIds].sort());
    expect(first[0].new_value).to.include({ opposition_deadline: deadline, watch_id: live });
    // 5 days before: the 7-day reminder; after the deadline, nothing.
    expect(await reminders.writeDue(plusDays(deadline, -5))).to.equal(5);
    expect((await sent()).slice(2).map((e) => e.new_value.days_before)).to.deep.equal([7, 7]);
    expect(await reminders.writeDue(plusDays(deadline, 1))).to.equal(0);
    // Never in the public changes feed.
    const feed = await t.get('/v1/changes/?since=0&limit=100');
    expect(feed.body.changes.map((c: { event: string }) => c.event)).not.to.include('watch.deadline_approaching');
  });

  it("serves the open hits' deadlines as an iCalendar feed behind an address that can be rotated and turned off", async () => {
    expect((await o.get('/user/v1/watches/calendar/')).body).to.deep.equal({ enabled: false, created_at: null });
    const made = await o.post('/user/v1/watches/calendar/');
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body.enabled).to.equal(true);
    const feedPath = (url: string) => new URL(url).pathname;
    const feed = (url: string) => request(t.app).get(feedPath(url));
    const res = await feed(made.body.url);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/calendar/);
    const text = res.text;
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).to.equal(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).to.equal(true);
    const lines = text.split('\r\n');
    for (const l of lines) expect(Buffer.byteLength(l), l).to.be.at.most(75);
    // One event per open hit of an advertised mark: the dismissed one is left out.
    const open = (await inbox()).hits.filter((h) => h.state !== 'dismissed' && h.opposition_deadline);
    expect(open).to.have.length(5);
    const unfolded = text.replace(/\r\n /g, '');
    expect(unfolded.match(/BEGIN:VEVENT/g)).to.have.length(5);
    for (const h of open) {
      expect(unfolded).to.include(`UID:watch-hit-${h.id}@`);
      expect(unfolded).to.include(`DTSTART;VALUE=DATE:${h.opposition_deadline!.replaceAll('-', '')}`);
    }
    expect(unfolded).to.include('SUMMARY:Opposition deadline: SUNRIZE FOODS (4300001\\, class 30)');
    // Another account's feed is its own.
    const theirs = await other.post('/user/v1/watches/calendar/');
    expect((await feed(theirs.body.url)).text).not.to.include('VEVENT');
    // A new address replaces the old one at once; turning the feed off ends it.
    const next = await o.post('/user/v1/watches/calendar/');
    expect(next.body.url).not.to.equal(made.body.url);
    expect((await feed(made.body.url)).status).to.equal(404);
    expect((await feed(next.body.url)).status).to.equal(200);
    expect((await o.del('/user/v1/watches/calendar/')).body).to.deep.equal({ enabled: false, created_at: null });
    expect((await feed(next.body.url)).status).to.equal(404);
    expect((await o.get('/user/v1/watches/calendar/')).body.enabled).to.equal(false);
    for (const bad of ['x.ics', `${'a'.repeat(43)}.ics`, `${'a'.repeat(43)}`]) {
      const r = await request(t.app).get(`/v1/watches/calendar/${bad}`);
      expect(r.status, bad).to.equal(404);
      expect(r.body.code).to.equal('not_found');
    }
  });

  it('keeps a watch and its hits when its webhook is deleted', async () => {
    const hook = (await o.get(`/user/v1/watches/${muted}/`)).body.webhook_id;
    expect((await o.del(`/user/v1/webhooks/${hook}/`)).status).to.equal(200);
    const w = await o.get(`/user/v1/watches/${muted}/`);
    expect(w.status).to.equal(200);
    expect(w.body).to.include({ webhook_id: null, hits: 2 });
    expect((await inbox(`?watch_id=${muted}`)).count).to.equal(2);
  });
});
