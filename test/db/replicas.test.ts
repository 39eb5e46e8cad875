import { expect } from 'chai';
import { prepareDatabase } from '../../scripts/migrate.ts';
import { loadConfig } from '../../src/config.ts';
import { createDb, type Db } from '../../src/db/knex.ts';
import { ReplicaSet } from '../../src/db/replicas.ts';
import { type RunningServer, startServer } from '../../src/server.ts';
import { createAccount } from '../helpers/accounts.ts';
import { type PrivateService, privatePostgres } from '../helpers/privateServices.ts';

// Reads that may be a moment stale on a streaming replica (DATABASE_REPLICA_URLS), on real PostgreSQL: a primary of
// the test's own and a replica made from it with pg_basebackup. The replica serves while it is up and caught up;
// stopped, or holding back its replay past the bound, it leaves the rotation and reads go to the primary.

describe('PostgreSQL read replicas', function () {
  this.timeout(120_000);
  let primary: PrivateService;
  let replica: PrivateService;
  let db: Db;
  let set: ReplicaSet;
  const portOf = (s: ReplicaSet) => s.read(async (d) => (await d.raw('select inet_server_port() as port')).rows[0].port as number);

  before(async () => {
    primary = await privatePostgres();
    replica = await privatePostgres(primary);
    db = createDb(primary.url, 2);
    await db.raw('create table marks (n int primary key)');
    set = new ReplicaSet(db, [replica.url], 1, 200, 2);
  });
  after(async () => {
    await set?.close();
    await db?.destroy();
    await replica?.close();
    await primary?.close();
  });

  it('reads from the replica once it has caught up, and sees what the primary wrote', async () => {
    expect(await portOf(set)).to.equal(primary.port);
    await db.raw('insert into marks values (1)');
    // Caught up (lag 0: it replayed the primary's WAL past the insert). In rotation it may be earlier, within the 1 s
    // bound of the last transaction it replayed, and not have the row yet (a loaded CI run saw that).
    const caughtUp = () => set.state()[0].inRotation && set.state()[0].lagSeconds === 0;
    for (let i = 0; i < 50 && !caughtUp(); i++) {
      await set.check();
      if (!caughtUp()) await new Promise((r) => setTimeout(r, 100));
    }
    expect(set.state()[0]).to.include({ inRotation: true, lagSeconds: 0 });
    expect(await portOf(set)).to.equal(replica.port);
    expect(await set.read(async (d) => (await d.raw('select count(*)::int as n from marks')).rows[0].n)).to.equal(1);
  });

  it('leaves the rotation while the replica holds back its replay past the bound, and comes back once it replays', async () => {
    const direct = createDb(replica.url, 1);
    try {
      await direct.raw('select pg_wal_replay_pause()');
      await db.raw('insert into marks values (2)');
      // Behind by the age of its last replayed transaction: past 1 s, out.
      await new Promise((r) => setTimeout(r, 1500));
      await db.raw('insert into marks values (3)');
      await set.check();
      expect(set.state()[0].inRotation).to.equal(false);
      expect(await portOf(set)).to.equal(primary.port);
      await direct.raw('select pg_wal_replay_resume()');
      for (let i = 0; i < 50 && !set.state()[0].inRotation; i++) {
        await new Promise((r) => setTimeout(r, 100));
        await set.check();
      }
      expect(set.state()[0].inRotation).to.equal(true);
    } finally {
      await direct.destroy();
    }
  });

  it('sends every read to the primary while the replica is down, failing none', async () => {
    await replica.stop();
    await set.check();
    expect(set.state()[0]).to.include({ inRotation: false, lagSeconds: null });
    for (let i = 0; i < 5; i++) expect(await portOf(set)).to.equal(primary.port);
    await replica.start();
    for (let i = 0; i < 100 && !set.state()[0].inRotation; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await set.check();
    }
    expect(set.state()[0].inRotation).to.equal(true);
  });
});

describe('PostgreSQL read replicas behind the API', function () {
  this.timeout(180_000);
  let primary: PrivateService;
  let replica: PrivateService;
  let db: Db;
  let server: RunningServer;
  let key: string;
  const url = (p: PrivateService) => p.url.replace(/\/postgres$/, '/nishaan');
  const wordMark = async () => {
    const r = await fetch(`${server.url}/v1/trademarks/9300001/`, { headers: { 'X-API-Key': key } });
    expect(r.status).to.equal(200);
    return ((await r.json()) as { word_mark: string }).word_mark;
  };

  before(async () => {
    primary = await privatePostgres();
    await prepareDatabase(url(primary), () => undefined);
    db = createDb(url(primary), 2);
    await db.raw(`insert into trademarks (application_number, word_mark, class_number, status, application_date, proprietor_name,
      tm_type, slug) values ('9300001', 'FIRST WORDS', 9, 'Registered', '2020-01-01', 'OWNER', 'WORD', 'first-words-9300001')`);
    ({ key } = await createAccount(db));
    replica = await privatePostgres(primary);
    server = await startServer(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        PORT: '0',
        DATABASE_URL: url(primary),
        DATABASE_REPLICA_URLS: url(replica),
        REPLICA_MAX_LAG_SECONDS: '600',
        SEARCH_SNAPSHOT: '',
        SEARCH_CACHE_TTL_SECONDS: '0',
      }),
    );
  });
  after(async () => {
    await server?.close();
    await db?.destroy();
    await replica?.close();
    await primary?.close();
  });

  /** Waits until GET /readyz lists the replica in rotation (it is checked every second). */
  const inRotation = async () => {
    let yes = false;
    for (let i = 0; i < 100 && !yes; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { replicas: { in_rotation: boolean }[] };
      yes = ready.replicas[0]?.in_rotation === true;
    }
    return yes;
  };
  const replay = async (on: boolean) => {
    const direct = createDb(url(replica), 1);
    await direct.raw(on ? 'select pg_wal_replay_resume()' : 'select pg_wal_replay_pause()');
    await direct.destroy();
  };
  let journals = 0;
  const publish = () =>
    db.raw(`insert into journals (id, journal_number, publication_date) values (?, ?, '2026-12-07')`, [++journals, `J${journals}`]);
  const journalCount = async (apiKey: string) => {
    const r = await fetch(`${server.url}/v1/journals/?limit=1`, { headers: { 'X-API-Key': apiKey } });
    expect(r.status).to.equal(200);
    return ((await r.json()) as { count: number }).count;
  };

  it("reads a caller's own writes: its reads stay off a replica that has not replayed them, another caller's do not", async () => {
    const writer = await createAccount(db);
    await publish();
    expect(await inRotation()).to.equal(true);
    // The replica stops replaying, within the lag bound: it stays in rotation.
    await replay(false);
    await publish();
    // Another caller reads the listing from the replica, a moment stale; so does the writer before it writes.
    expect(await journalCount(key)).to.equal(1);
    expect(await journalCount(writer.key)).to.equal(1);
    const made = await fetch(`${server.url}/v1/clearance/batch/`, {
      method: 'POST',
      headers: { 'X-API-Key': writer.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ proposals: [{ word_mark: 'FIRST WORDS', classes: [9] }] }),
    });
    expect(made.status, await made.clone().text()).to.equal(202);
    const job = ((await made.json()) as { job_id: string }).job_id;
    // The writer's next reads see its write (on the replica the job does not exist yet), and the primary's journals.
    const status = await fetch(`${server.url}/v1/clearance/batch/${job}/`, { headers: { 'X-API-Key': writer.key } });
    expect(status.status, await status.clone().text()).to.equal(200);
    expect(await journalCount(writer.key)).to.equal(2);
    expect(await journalCount(key)).to.equal(1);
    // Once the replica has replayed past the write, the writer's reads go back to it.
    await replay(true);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await inRotation()).to.equal(true);
    await replay(false);
    await publish();
    expect(await journalCount(writer.key)).to.equal(2);
    await replay(true);
  });

  it("follows the search index's change feed on the replica: a mark is searchable once the replica has replayed it", async () => {
    const found = async (word: string) => {
      const r = await fetch(`${server.url}/v1/trademarks/?word_mark=${word}&match_type=EXACT`, { headers: { 'X-API-Key': key } });
      expect(r.status, await r.clone().text()).to.equal(200);
      return ((await r.json()) as { results: { application_number: string }[] }).results.map((m) => m.application_number);
    };
    // A write the replica replays (one replayed transaction tells how far behind it is), and then it is in rotation.
    await db.raw(`update trademarks set word_mark = word_mark where application_number = '9300001'`);
    expect(await inRotation()).to.equal(true);
    await replay(false);
    try {
      await db.raw(`insert into trademarks (application_number, word_mark, class_number, status, application_date,
        proprietor_name, tm_type, slug) values ('9300002', 'ZORBIQUAN', 9, 'Registered', '2020-01-01', 'OWNER', 'WORD',
        'zorbiquan-9300002')`);
      // The primary announces it at once and the index polls every 2 s: reading the replica, it finds nothing yet.
      await new Promise((r) => setTimeout(r, 3000));
      expect(await found('ZORBIQUAN')).to.deep.equal([]);
    } finally {
      await replay(true);
    }
    let hits: string[] = [];
    for (let i = 0; i < 100 && !hits.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      hits = await found('ZORBIQUAN');
    }
    expect(hits).to.deep.equal(['9300002']);
  });

  it('answers a mark from the replica while it is in rotation, and from the primary once the replica is down', async () => {
    // A write the replica replays, and then it is in rotation (GET /readyz lists it).
    await db.raw(`update trademarks set word_mark = 'FIRST WORDS' where application_number = '9300001'`);
    expect(await inRotation()).to.equal(true);
    expect(await wordMark()).to.equal('FIRST WORDS');
    // The replica stops replaying (within the bound it stays in rotation): the API answers what it holds.
    await replay(false);
    await db.raw(`update trademarks set word_mark = 'SECOND WORDS' where application_number = '9300001'`);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await wordMark()).to.equal('FIRST WORDS');
    // The replica goes: reads go to the primary at once, none failing.
    await replica.stop();
    let seen = '';
    for (let i = 0; i < 50 && seen !== 'SECOND WORDS'; i++) {
      seen = await wordMark();
      if (seen !== 'SECOND WORDS') await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).to.equal('SECOND WORDS');
  });
});
