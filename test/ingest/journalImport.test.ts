import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { importJournal } from '../../src/ingest/journal/importJournal.ts';
import { renderJournal } from '../../src/ingest/journal/render.ts';
import type { TestApp } from '../helpers/app.ts';
import { printed } from '../helpers/journal.ts';
import { importFixture, type Owner, owner, startApp } from '../webhooks/support.ts';

// A journal imported (docs/journal.md): its entries become marks advertised in it, with their proprietors and agents,
// the PDF kept as the journal's download; a damaged page is reported and the rest imported; the same journal imported
// again changes nothing; a new mark is then found by search and fires a watch with its opposition deadline.

describe('journal import', () => {
  let t: TestApp;
  let o: Owner;
  let file: string;
  let watchId: string;
  before(async function () {
    this.timeout(60_000);
    t = await startApp();
    await importFixture(t, 'baseline');
    o = await owner(t);
    const w = await o.post('/user/v1/watches/').send({ word_mark: 'DHANWANTRI CARE', classes: [5] });
    expect(w.status, JSON.stringify(w.body)).to.equal(201);
    watchId = w.body.id;
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-tmj-')), 'tmj-2216.pdf');
    fs.writeFileSync(file, await renderJournal(await printed(), { damaged: [2] }));
  });
  after(async () => {
    await t?.close();
    if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('imports the entries as marks advertised in the journal, with their owners and agents, and reports the damaged page', async () => {
    const r = await importJournal({ db: t.deps.db, store: t.deps.store, file });
    expect(r.refused).to.deep.equal([
      { page: 2, reason: 'no journal header (Trade Marks Journal No: …, date, class) at the top of the page' },
    ]);
    expect(r).to.deep.include({ entries: 3, images: 1, byClass: { 5: 1, 9: 1, 30: 1 } });
    // The device mark's image is its logo, waiting for the logo workers; the word marks have none.
    const logos = await t.deps
      .db('logos')
      .whereIn('application_number', ['5895457', '5901122', '1623344'])
      .select('application_number', 'width', 'height', 'content_type');
    expect(logos).to.deep.equal([{ application_number: '5901122', width: 96, height: 72, content_type: 'image/png' }]);
    expect(r.journal).to.deep.include({ journal_number: '2216', publication_date: '2025-07-07', pages: 4 });
    const journal = await t.deps.db('journals').where({ id: r.journal.id }).first();
    expect(journal).to.include({ journal_number: '2216', page_count: 4 });
    expect(journal.object_key).to.be.a('string');
    const mark = await t.get('/v1/trademarks/5895457/');
    expect(mark.status).to.equal(200);
    expect(mark.body).to.deep.include({
      word_mark: 'DHANVANTRI CARE',
      class_number: 5,
      status: 'Accepted & Advertised',
      application_date: '2023-04-17',
      proprietor_name: 'DHANVANTRI HEALTHCARE PRIVATE LIMITED',
      used_since: '2013-09-25',
      registry_office: 'MUM',
    });
    expect(mark.body.journal).to.deep.include({ id: r.journal.id, journal_number: '2216' });
    const device = await t.deps.db('trademarks').where({ application_number: '5901122' }).first('word_mark', 'tm_type', 'used_since');
    expect(device).to.deep.equal({ word_mark: '', tm_type: 'DEVICE', used_since: 'Proposed to be Used' });
    const owners = await t.deps.db('proprietors').whereIn('application_number', ['5895457', '5901122']).orderBy('application_number');
    expect(owners.map((p) => [p.name, p.entity_type, p.address])).to.deep.equal([
      [
        'DHANVANTRI HEALTHCARE PRIVATE LIMITED',
        'Private Limited Company',
        'PLOT NO. 14, MIDC AREA, ANDHERI (EAST), MUMBAI - 400093, MAHARASHTRA',
      ],
      ['RAMESH KUMAR GUPTA TRADING AS GUPTA SWEETS', 'PROPRIETORSHIP', '12, CHANDNI CHOWK, DELHI - 110006'],
    ]);
    const agents = await t.deps.db('attorneys').whereIn('application_number', ['5895457', '5901122', '1623344']).orderBy('name');
    expect(agents.map((a) => a.name)).to.deep.equal(['LALL & SETHI', 'R. K. DEWAN & CO.']);
  });

  it('changes nothing when the same journal is imported again', async () => {
    const before = await t.deps.db('proprietors').count<{ n: string }[]>({ n: '*' });
    const r = await importJournal({ db: t.deps.db, store: t.deps.store, file });
    expect(r.result.counts.trademarks).to.include({ inserted: 0, updated: 0, events: 0 });
    expect(r.result.events).to.equal(0);
    expect(await t.deps.db('proprietors').count<{ n: string }[]>({ n: '*' })).to.deep.equal(before);
    expect(Number((await t.deps.db('journals').where({ journal_number: '2216' }).count({ n: '*' }).first())!.n)).to.equal(1);
  });

  it('finds a new mark by search, and records it as a watch hit with its opposition deadline', async () => {
    await t.deps.search.sync();
    const found = await t.get('/v1/trademarks/?word_mark=DHANVANTRI');
    expect(found.body.results.map((x: { application_number: string }) => x.application_number)).to.include('5895457');
    await t.deps.services.watchMatcher.matchPending();
    const hits = await o.get(`/user/v1/watches/${watchId}/hits/`);
    const hit = hits.body.hits.find((h: { application_number: string }) => h.application_number === '5895457');
    expect(hit, JSON.stringify(hits.body)).to.not.equal(undefined);
    expect(hit.journal).to.deep.include({ journal_number: '2216', publication_date: '2025-07-07' });
    expect(hit.opposition_deadline).to.equal('2025-11-07');
  });
});
