import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { importSet } from '../../src/ingest/importer/index.ts';
import type { TestApp } from '../helpers/app.ts';
import { filing, writeFilings } from '../helpers/marks.ts';
import { type Mail, smtpServer, unfolded } from '../helpers/smtp.ts';
import { importFixture, type Owner, owner, startApp, until } from '../webhooks/support.ts';

// The mail digest of watch hits (docs/watches.md), sent through a real SMTP server on loopback: off by default, daily
// or weekly (Mondays) per account, each hit mailed once, with the open hits whose opposition deadline is near.

const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * 86_400_000).toISOString().slice(0, 10);
const MONDAY = '2026-12-07';
const TUESDAY = '2026-12-08';

describe('similarity watches: mail digests', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let o: Owner;
  let quiet: Owner;
  let dir: string;

  const deliver = async (n: number): Promise<Mail[]> => {
    await t.deps.services.mail.sendPending();
    await until(`${n} mails`, () => smtp.mails.length === n);
    return smtp.mails;
  };
  const bring = async (marks: object[]) => {
    writeFilings(dir, marks);
    await importSet({ db: t.deps.db, store: t.deps.store, dir });
    await t.deps.services.watchMatcher.matchPending();
  };
  const digests = (date: string) => t.deps.services.watchDigest.writeDue(date);

  before(async function () {
    this.timeout(90_000);
    smtp = await smtpServer();
    t = await startApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Nishaan <alerts@nishaan.test>' });
    await importFixture(t, 'baseline');
    o = await owner(t);
    quiet = await owner(t);
    for (const who of [o, quiet]) {
      const w = await who.post('/user/v1/watches/').send({ word_mark: 'Sunrise', classes: [30] });
      expect(w.status, JSON.stringify(w.body)).to.equal(201);
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-digest-'));
  });
  after(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is off until set, and refuses a frequency it does not know', async () => {
    expect((await o.get('/user/v1/watches/digest/')).body).to.deep.equal({ frequency: 'off', since: null, last_sent_at: null });
    for (const body of [{ frequency: 'hourly' }, {}, { frequency: 'daily', to: 'x@y.in' }]) {
      const r = await o.put('/user/v1/watches/digest/').send(body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
    }
    const set = await o.put('/user/v1/watches/digest/').send({ frequency: 'Daily' });
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    expect(set.body.frequency).to.equal('daily');
    expect(set.body.since).to.be.a('string');
  });

  it('mails the new hits once, highest risk first, to the account alone', async () => {
    await bring([filing('4400001', 'SUNRIZE FOODS', 30, 2), filing('4400002', 'SUNRISE GOLD', 30, null)]);
    expect(await digests(TUESDAY)).to.equal(1);
    const [mail] = await deliver(1);
    expect(mail.to).to.deep.equal([o.account.email]);
    const text = unfolded(mail);
    expect(text).to.match(/Subject: Nishaan: 2 new watch hits/);
    const [journal] = await t.deps.db('journals').where({ id: 2 }).select(t.deps.db.raw("to_char(publication_date, 'YYYY-MM-DD') as d"));
    const deadline = (await o.get('/user/v1/watches/hits/')).body.hits.find(
      (h: { application_number: string }) => h.application_number === '4400001',
    ).opposition_deadline;
    expect(deadline > journal.d).to.equal(true);
    expect(text).to.contain(`SUNRIZE FOODS (application 4400001, class 30), against your watch Sunrise; opposition deadline ${deadline}`);
    expect(text).to.contain('SUNRISE GOLD (application 4400002, class 30), against your watch Sunrise; not advertised yet');
    // Nothing new since: no mail; the other account, whose digest is off, never gets one.
    expect(await digests(plusDays(TUESDAY, 1))).to.equal(0);
    expect((await o.get('/user/v1/watches/digest/')).body.last_sent_at).to.be.a('string');
  });

  it('lists open hits whose opposition deadline is within 30 days', async () => {
    const hits = (await o.get('/user/v1/watches/hits/')).body.hits as { application_number: string; opposition_deadline: string }[];
    const deadline = hits.find((h) => h.application_number === '4400001')!.opposition_deadline;
    expect(await digests(plusDays(deadline, -10))).to.equal(1);
    const text = unfolded((await deliver(2))[1]);
    expect(text).to.match(/Subject: Nishaan: 1 opposition deadline within 30 days/);
    expect(text).to.contain('Opposition deadlines within 30 days');
    expect(text).to.contain(`SUNRIZE FOODS (application 4400001, class 30), against your watch Sunrise; opposition deadline ${deadline}`);
    expect(text).not.to.contain('SUNRISE GOLD');
  });

  it('sends a weekly digest on Mondays only, and none when off', async () => {
    expect((await o.put('/user/v1/watches/digest/').send({ frequency: 'weekly' })).body.frequency).to.equal('weekly');
    await bring([filing('4400003', 'SUNRISE TEA', 30, null)]);
    expect(await digests(TUESDAY)).to.equal(0);
    expect(await digests(MONDAY)).to.equal(1);
    const text = unfolded((await deliver(3))[2]);
    expect(text).to.match(/Subject: Nishaan: 1 new watch hit\b/);
    expect(text).to.contain('SUNRISE TEA (application 4400003');
    await o.put('/user/v1/watches/digest/').send({ frequency: 'off' });
    await bring([filing('4400004', 'SUNRISE RICE', 30, null)]);
    expect(await digests(MONDAY)).to.equal(0);
    expect(smtp.mails.every((m) => m.to[0] === o.account.email)).to.equal(true);
  });
});
