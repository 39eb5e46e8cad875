import { expect } from 'chai';
import { WatchWorkers } from '../../workers/watches.ts';
import type { TestApp } from '../helpers/app.ts';
import { insertMarks } from '../helpers/marks.ts';
import { importFixture, type Owner, owner, startApp, until } from '../webhooks/support.ts';

// Backfills (docs/watches.md): a watch run over the latest journals by the workers' job, its hits recorded once per
// watch and mark (a second run of the same journals records nothing), sent to no webhook; asking twice while one is
// open answers that one.

interface Backfill {
  id: string;
  state: string;
  journals: number;
  journals_done: number;
  marks: number;
  hits: number;
}

describe('watch backfills', () => {
  let t: TestApp;
  let o: Owner;
  let watchId: string;
  let workers: WatchWorkers;

  const backfill = async (journals: number): Promise<Backfill> => {
    const r = await o.post(`/user/v1/watches/${watchId}/backfill/`).send({ journals });
    expect(r.status, JSON.stringify(r.body)).to.equal(202);
    return r.body;
  };
  const finished = async (id: string): Promise<Backfill> => {
    let b: Backfill | undefined;
    await until(`backfill ${id} finished`, async () => {
      const r = await o.get(`/user/v1/watches/${watchId}/backfills/`);
      b = (r.body.backfills as Backfill[]).find((x) => x.id === id);
      return b?.state === 'done' || b?.state === 'failed';
    });
    return b!;
  };
  const hits = async () =>
    ((await o.get(`/user/v1/watches/${watchId}/hits/`)).body.hits as { application_number: string }[])
      .map((h) => h.application_number)
      .sort();

  before(async function () {
    this.timeout(90_000);
    t = await startApp();
    await importFixture(t, 'baseline');
    await insertMarks(t.deps.db, [
      { app: '5300001', mark: 'LOTUSPRIME', cls: 30 },
      { app: '5300002', mark: 'LOTUSPRIME', cls: 30 },
      { app: '5300003', mark: 'MOONLIGHT', cls: 30 },
    ]);
    // The latest journal (2, 2024-01-15) advertises the first and third, the one before it the second.
    await t.deps.db('trademarks').whereIn('application_number', ['5300001', '5300003']).update({ journal_id: 2 });
    await t.deps.db('trademarks').where({ application_number: '5300002' }).update({ journal_id: 1 });
    o = await owner(t);
    const hook = await o
      .post('/user/v1/webhooks/')
      .send({ url: 'https://127.0.0.1:9/w', monitored_applications: [], events: ['trademark.status_changed'] });
    const w = await o.post('/user/v1/watches/').send({ word_mark: 'LOTUSPRIME', classes: [30], webhook_id: hook.body.id });
    expect(w.status, JSON.stringify(w.body)).to.equal(201);
    watchId = w.body.id;
    workers = new WatchWorkers(t.deps, { scanMs: 100 });
  });
  after(async () => {
    await workers?.close();
    await t?.close();
  });

  it('answers the open request when asked again, and runs it as a job over the latest journals', async () => {
    const first = await backfill(1);
    expect(first).to.include({ state: 'queued', journals: 1, journals_done: 0, hits: 0 });
    expect((await backfill(1)).id).to.equal(first.id);
    await workers.start();
    const done = await finished(first.id);
    expect(done).to.include({ state: 'done', journals_done: 1, hits: 1 });
    expect(done.marks).to.be.at.least(2);
    expect(await hits()).to.deep.equal(['5300001']);
  });

  it('records only the pairs not recorded before, and sends no event', async () => {
    const two = await finished((await backfill(2)).id);
    expect(two).to.include({ state: 'done', journals_done: 2, hits: 1 });
    expect(await hits()).to.deep.equal(['5300001', '5300002']);
    const again = await finished((await backfill(2)).id);
    expect(again).to.include({ state: 'done', hits: 0 });
    expect(await hits()).to.deep.equal(['5300001', '5300002']);
    const events = await t.deps.db('outbox').where({ event: 'trademark.similar_filed' }).count<{ count: string }[]>('* as count');
    expect(Number(events[0].count)).to.equal(0);
    const list = await o.get(`/user/v1/watches/${watchId}/backfills/`);
    expect(list.body.count).to.equal(3);
  });

  it("refuses another account's watch (404) and a journal count out of range (400 naming journals)", async () => {
    const stranger = await owner(t);
    expect((await stranger.post(`/user/v1/watches/${watchId}/backfill/`).send({ journals: 1 })).status).to.equal(404);
    expect((await stranger.get(`/user/v1/watches/${watchId}/backfills/`)).status).to.equal(404);
    for (const journals of [0, 53, 'x']) {
      const r = await o.post(`/user/v1/watches/${watchId}/backfill/`).send({ journals });
      expect(r.status, String(journals)).to.equal(400);
      expect(r.body.details[0].parameter).to.equal('journals');
    }
  });
});
