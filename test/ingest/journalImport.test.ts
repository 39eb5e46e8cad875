import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { importSet } from '../../src/ingest/importer/index.ts';
import { renderJournal } from '../../src/ingest/journal/render.ts';
import { JOURNAL, journalParts } from '../helpers/journal.ts';
import { createLogoApp, drawLogo, type LogoTestApp } from '../helpers/logos.ts';
import { type Owner, owner, until } from '../webhooks/support.ts';

// A journal imported (issue 43: docs/journal.md) over the ingest fixture: its entries become marks advertised in it (a
// mark already on the register updated in place, its other fields and records kept), with their proprietors, agents,
// classes, priority, associations and conditions; the corrigenda, the registered and the renewed lists applied; the
// damaged page and what could not be applied reported; the same journal again changes nothing. Then a new mark is found
// by search and by its logo, and watches record hits with their deadline, a multi-class application's in its other class.

const FIXTURE = new URL('../fixtures/ingest/baseline', import.meta.url).pathname;

describe('journal import', function () {
  this.timeout(120_000);
  let t: LogoTestApp;
  let o: Owner;
  let file: string;
  let device: Buffer;
  const watches: Record<string, string> = {};
  const mark = (app: string) => t.app.deps.db('trademarks').where({ application_number: app }).first();

  before(async () => {
    t = await createLogoApp({}, { plan: true });
    await importSet({ db: t.app.deps.db, store: t.app.deps.store, dir: FIXTURE });
    o = await owner(t.app);
    for (const [name, body] of Object.entries({
      care: { word_mark: 'DHANWANTRI CARE', classes: [5] },
      kesari: { word_mark: 'KESARI', classes: [30] },
    })) {
      const w = await o.post('/user/v1/watches/').send(body);
      expect(w.status, JSON.stringify(w.body)).to.equal(201);
      watches[name] = w.body.id;
    }
    device = await drawLogo({ slug: 'docker', size: 160 });
    const label = await drawLogo({ slug: 'github', size: 120, text: 'SUNRISE' });
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-tmj-')), 'tmj-2216.pdf');
    fs.writeFileSync(file, await renderJournal(JOURNAL, await journalParts({ device, label })));
  });
  after(async () => {
    await t?.close();
    if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('imports every section, reports what it could not read or apply, and counts what it took', async () => {
    const r = await t.app.deps.services.journalImport.importFile(file);
    expect(r.journal).to.deep.include({ journal_number: '2216', publication_date: '2025-07-07', pages: 19 });
    expect(r).to.deep.include({
      entries: 9,
      bySection: { advertised: 6, before_acceptance: 1, international: 1, corrigenda: 1 },
      byClass: { 1: 1, 3: 1, 5: 1, 9: 1, 25: 2, 29: 1, 30: 3 },
      images: 2,
      skipped: 2,
      refused: [{ page: 6, reason: 'no application number and filing date after the word mark' }],
    });
    expect(r.corrigenda).to.deep.equal({
      applied: 2,
      unapplied: [
        {
          page: 15,
          application_number: '4100001',
          text: 'The user detail should read Used Since :01/04/2009',
          reason: 'not a correction of the form "for … read …"; left for a person to apply',
        },
        { page: 15, application_number: '7000001', text: 'for SUNSHINE read SUNSHYNE', reason: 'not on the register' },
      ],
    });
    expect(r.lists).to.deep.equal({
      registered: 1,
      renewed: 1,
      unknown: [{ page: 17, application_number: '9999999', reason: 'registered, but not on the register' }],
    });
    expect(r.result.rejected, r.result.errors.join('\n')).to.equal(0);
    expect(r.result.counts.trademarks).to.include({ inserted: 7 });
  });

  it('writes each new mark with everything the journal prints of it', async () => {
    const long = await t.app.get('/v1/trademarks/5895460/');
    expect(long.status).to.equal(200);
    expect(long.body).to.deep.include({
      word_mark: 'NUTRIGROW',
      class_number: 1,
      classes: [1],
      status: 'Accepted & Advertised',
      proprietor_name: 'VOXNAT ORGANIC BIO FERTILIZER PVT. LTD.',
      state: 'MAHARASHTRA',
      used_since: '2013-09-25',
      registry_office: 'MUM',
      tm_type: 'WORD',
    });
    expect(long.body.goods_services).to.have.length.above(5000);
    expect(long.body.journal).to.deep.include({ journal_number: '2216', publication_date: '2025-07-07' });
    const multi = await t.app.get('/v1/trademarks/5930001/');
    expect(multi.body).to.deep.include({ class_number: 3, classes: [3, 30], registry_office: 'AHD', state: 'MADHYA PRADESH' });
    const madrid = await t.app.get('/v1/trademarks/1623344/');
    expect(madrid.body).to.deep.include({
      international_registration: '1623344',
      priority: { date: '2021-06-02', application_number: '30 2021 108 456', country: 'Germany' },
      state: null,
    });
    expect((await mark('5940001')).status).to.equal('Advertised bef acc');
    expect(await mark('5901122')).to.deep.include({
      tm_type: 'DEVICE',
      word_mark: '',
      proprietor_name: 'RAMESH KUMAR GUPTA trading as GUPTA SWEETS',
      associated_with: ['3865486', '3918097'],
      conditions: ['Device of a lamp.'],
      used_since: 'Proposed to be Used',
    });
    expect((await mark('5921001')).word_mark).to.equal('सनराइज श्री घी');
    const owners = await t.app.deps
      .db('proprietors')
      .whereIn('application_number', ['5901122', '1623344', '5921001'])
      .orderBy('application_number')
      .select('name', 'trading_as', 'entity_type', 'state', 'country');
    expect(owners).to.deep.equal([
      { name: 'NORDLICHT TECHNIK GMBH', trading_as: null, entity_type: null, state: null, country: 'Germany' },
      { name: 'RAMESH KUMAR GUPTA', trading_as: 'GUPTA SWEETS', entity_type: 'PROPRIETORSHIP', state: 'DELHI', country: 'India' },
      {
        name: 'किरण डेयरी प्राइवेट लिमिटेड',
        trading_as: null,
        entity_type: 'Private Limited Company',
        state: 'UTTAR PRADESH',
        country: 'India',
      },
    ]);
    const logos = await t.app.deps
      .db('logos')
      .whereIn('application_number', ['5901122', '4100001', '5895460'])
      .orderBy('application_number');
    expect(logos.map((l) => l.application_number)).to.deep.equal(['4100001', '5901122']);
  });

  it('updates a mark already on the register in place, keeping what the journal does not print, its status moving forward', async () => {
    expect(await mark('4100001')).to.deep.include({
      status: 'Accepted & Advertised',
      tm_type: 'COMPOSITE',
      filing_mode: 'E-FILING',
      registry_office: 'MUM',
    });
    const history = await t.app.deps.db('status_history').where({ application_number: '4100001' }).orderBy('changed_at');
    expect(history.at(-1)).to.deep.include({ old_status: 'Objected', new_status: 'Accepted & Advertised' });
    // Its own proprietor and agent rows, updated: not a second of each.
    const owners = await t.app.deps.db('proprietors').where({ application_number: '4100001' });
    expect(owners.map((p) => [p.id, p.address])).to.deep.equal([[21, '12 LINKING ROAD, BANDRA (WEST), MUMBAI 400050']]);
    const agents = await t.app.deps.db('attorneys').where({ application_number: '4100001' });
    expect(agents.map((a) => [a.id, a.agent_code, a.email, a.address])).to.deep.equal([
      [31, 'AG1234', 'tm@mehta.example', 'FORT, MUMBAI 400001'],
    ]);
    // The corrigendum, and the two lists.
    expect((await mark('4100004')).word_mark).to.equal('ROYAL STARR');
    const registered = await t.app.get('/v1/trademarks/4100003/');
    expect(registered.body).to.deep.include({ status: 'Registered', expire_at: '02/11/2029' });
    // Printed again among the corrigenda: its fields corrected, its status and advertising journal kept; then renewed.
    const reprinted = await t.app.get('/v1/trademarks/4100002/');
    expect(reprinted.body).to.deep.include({
      status: 'Registered',
      expire_at: '13/04/2039',
      tm_type: 'DEVICE',
      goods_services: 'Clothing, footwear, headgear; sarees and dress materials',
    });
    expect(reprinted.body.journal).to.deep.include({ journal_number: '2100' });
  });

  it('sends what changed to the change feed, as any delta does', async () => {
    const events = await t.app.deps
      .db('outbox')
      .whereIn('application_number', ['4100001', '4100002', '4100003'])
      .whereNotNull('import_run_id')
      .orderBy('id')
      .select('application_number', 'event');
    const of = (app: string) => events.filter((e) => e.application_number === app).map((e) => e.event);
    expect(of('4100001')).to.include.members(['trademark.status_changed', 'trademark.journal_published']);
    expect(of('4100003')).to.include('trademark.status_changed');
    expect(of('4100002')).to.include('trademark.expiry_changed');
  });

  it('changes nothing when the same journal is imported again', async () => {
    const before = await t.app.deps.db('proprietors').count<{ n: string }[]>({ n: '*' });
    const r = await t.app.deps.services.journalImport.importFile(file);
    expect(r.result.counts.trademarks).to.include({ inserted: 0, updated: 0, events: 0 });
    expect(r.result.events).to.equal(0);
    expect(r.corrigenda.applied).to.equal(2);
    expect(await t.app.deps.db('proprietors').count<{ n: string }[]>({ n: '*' })).to.deep.equal(before);
    expect(Number((await t.app.deps.db('journals').where({ journal_number: '2216' }).count({ n: '*' }).first())!.n)).to.equal(1);
  });

  it('finds a new mark by search and by its logo, and records watch hits with their opposition deadline', async () => {
    await t.app.deps.search.sync();
    const found = await t.app.get('/v1/trademarks/?word_mark=DHANVANTRI');
    expect(found.body.results.map((x: { application_number: string }) => x.application_number)).to.include('5895457');
    // The device mark's image, indexed by the logo workers, found by a smaller, recoloured copy of it.
    const state = async () => (await t.app.deps.db('logos').where({ application_number: '5901122' }).first())?.index_state;
    await until('the device logo indexed', async () => (await state()) === 'done', { ms: 60_000 });
    const query = await sharp(await drawLogo({ slug: 'docker', size: 110, ink: [160, 20, 20] }))
      .png()
      .toBuffer();
    const byLogo = await t.app.post('/v1/logo-search/image/').attach('uploaded_file', query, 'q.png').field('similarity_level', 'low');
    expect(byLogo.status, JSON.stringify(byLogo.body)).to.equal(200);
    expect(byLogo.body.results[0].application_number).to.equal('5901122');
    await t.app.deps.services.watchMatcher.matchPending();
    const hit = async (watch: string, app: string) => {
      const hits = await o.get(`/user/v1/watches/${watch}/hits/`);
      return hits.body.hits.find((h: { application_number: string }) => h.application_number === app);
    };
    const care = await hit(watches.care, '5895457');
    expect(care, 'DHANVANTRI CARE').to.not.equal(undefined);
    expect(care.journal).to.deep.include({ journal_number: '2216', publication_date: '2025-07-07' });
    expect(care.opposition_deadline).to.equal('2025-11-07');
    // Class 30 is the multi-class application's second class, unrelated to its first (3).
    const kesari = await hit(watches.kesari, '5930001');
    expect(kesari, 'KESARI HERBALS in class 30').to.not.equal(undefined);
    expect(kesari.class_number).to.equal(30);
  });
});
