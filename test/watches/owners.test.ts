import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { importSet } from '../../src/ingest/importer/index.ts';
import type { TestApp } from '../helpers/app.ts';
import { filing, insertMarks, writeFilings } from '../helpers/marks.ts';
import { importFixture, type Owner, owner, startApp } from '../webhooks/support.ts';

// Owner and portfolio watches (docs/watches.md): an owner watch records every new filing by the owner it follows (in
// its classes, when it has them) as an owner hit; a portfolio watch meets new filings with every live mark of the
// account's own entity; filings by the account's own entity are left out unless a watch includes them, and so are
// filings by the owners a watch excludes. Matching the same delta again records nothing twice.

const OWN = 'NIMBUS FOODS PVT LTD';
const RIVAL = 'KRISHNA AGRO INDUSTRIES LIMITED';
const by = (name: string, f: ReturnType<typeof filing>) => ({ ...f, proprietor_name: name });
const DELTA = [
  by('KRISHNA AGRO INDUSTRIES LTD.', filing('5200101', 'HARVEST MOON', 30, null)),
  filing('5200102', 'NIMBUSKA', 30, null),
  by('NIMBUS FOODS PRIVATE LIMITED', filing('5200103', 'NIMBUSKA', 30, null)),
  by('M/S KRISHNA AGRO INDUSTRIES LIMITED', filing('5200104', 'NIMBUSKA', 30, null)),
];

describe('owner and portfolio watches', () => {
  let t: TestApp;
  let o: Owner;
  let dir: string;
  let own: string;
  let rival: string;
  const watches: Record<string, string> = {};

  const entity = async (app: string) => (await t.get(`/v1/trademarks/${app}/`)).body.owner_id as string;
  const watch = async (name: string, body: object) => {
    const r = await o.post('/user/v1/watches/').send(body);
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    watches[name] = r.body.id;
    return r.body;
  };
  const hitsOf = async (name: string) => {
    const r = await o.get(`/user/v1/watches/${watches[name]}/hits/`);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.hits as { application_number: string; match: string; risk_level: string | null; reasons: string[] }[];
  };
  const apps = async (name: string) => (await hitsOf(name)).map((h) => h.application_number).sort();
  const match = async () => {
    await importSet({ db: t.deps.db, store: t.deps.store, dir });
    await t.deps.services.owners.catchUp();
    await t.deps.services.watchMatcher.matchPending();
  };

  before(async function () {
    this.timeout(90_000);
    t = await startApp();
    await importFixture(t, 'baseline');
    await insertMarks(t.deps.db, [
      { app: '5200001', mark: 'NIMBUSKA', cls: 30, owner: OWN },
      { app: '5200002', mark: 'KRISHNA GOLD', cls: 29, owner: RIVAL },
    ]);
    await t.deps.services.owners.catchUp({ force: true });
    own = await entity('5200001');
    rival = await entity('5200002');
    o = await owner(t);
    const set = await o.put('/user/v1/watches/owner/').send({ owner_id: own });
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    expect(set.body).to.deep.equal({ owner_id: own, name: OWN });
    expect((await watch('rival', { owner_id: rival })).kind).to.equal('owner');
    await watch('rival31', { owner_id: rival, classes: [31] });
    expect((await watch('portfolio', { portfolio: true })).kind).to.equal('portfolio');
    await watch('mark', { word_mark: 'NIMBUSKA', classes: [30] });
    await watch('mine too', { word_mark: 'NIMBUSKA', classes: [30], include_own: true });
    await watch('not rival', { word_mark: 'NIMBUSKA', classes: [30], exclude_owner_ids: [rival] });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-owner-watch-'));
    writeFilings(dir, DELTA);
    await match();
  });
  after(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('records every new filing by the owner followed, in its classes, as an owner hit with no risk', async () => {
    expect(await apps('rival')).to.deep.equal(['5200101', '5200104']);
    const [hit] = await hitsOf('rival');
    expect(hit).to.include({ match: 'owner', risk_level: null });
    expect(hit.reasons[0]).to.contain(RIVAL);
    expect(await apps('rival31')).to.deep.equal([]);
  });

  it("meets new filings with the account's live marks, and leaves out its own filings unless a watch includes them", async () => {
    expect(await apps('portfolio')).to.deep.equal(['5200102', '5200104']);
    const [hit] = await hitsOf('portfolio');
    expect(hit.match).to.equal('similar');
    expect(hit.risk_level).to.equal('High');
    expect(await apps('mark')).to.deep.equal(['5200102', '5200104']);
    expect(await apps('mine too')).to.deep.equal(['5200102', '5200103', '5200104']);
    expect(await apps('not rival')).to.deep.equal(['5200102']);
  });

  it('records nothing twice when the same delta is matched again', async () => {
    const before = await t.deps.db('watch_hits').count<{ count: string }[]>('* as count');
    await match();
    const after = await t.deps.db('watch_hits').count<{ count: string }[]>('* as count');
    expect(after[0].count).to.equal(before[0].count);
  });

  it('refuses a watch of two kinds, an owner of no entity, a portfolio without an own entity', async () => {
    const two = await o.post('/user/v1/watches/').send({ word_mark: 'X', classes: [30], owner_id: rival });
    expect(two.status).to.equal(400);
    expect(two.body.details[0].parameter).to.equal('owner_id');
    expect((await o.post('/user/v1/watches/').send({ owner_id: 'own_0000000000000000' })).status).to.equal(404);
    const excluded = await o.post('/user/v1/watches/').send({ owner_id: rival, exclude_owner_ids: ['own_0000000000000000'] });
    expect(excluded.status).to.equal(400);
    expect(excluded.body.details[0].parameter).to.equal('exclude_owner_ids');
    const noClasses = await o.post('/user/v1/watches/').send({ word_mark: 'NIMBUS' });
    expect(noClasses.status).to.equal(400);
    expect(noClasses.body.details[0].parameter).to.equal('classes');
    const stranger = await owner(t);
    const portfolio = await stranger.post('/user/v1/watches/').send({ portfolio: true });
    expect(portfolio.status).to.equal(400);
    expect(portfolio.body.details[0].parameter).to.equal('portfolio');
    const unknown = await stranger.put('/user/v1/watches/owner/').send({ owner_id: 'own_0000000000000000' });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.details[0].parameter).to.equal('owner_id');
    expect((await stranger.get('/user/v1/watches/owner/')).body).to.deep.equal({ owner_id: null, name: null });
  });
});
