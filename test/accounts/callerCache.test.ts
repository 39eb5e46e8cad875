import { expect } from 'chai';
import { CallerCache } from '../../src/accounts/callerCache.ts';
import { type Caller, CallerRepository } from '../../src/accounts/callerRepository.ts';
import { hashApiKey } from '../../src/accounts/keys.ts';
import { ChangeListener } from '../../src/db/listener.ts';
import { createAccount } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ManualClock } from '../helpers/clock.ts';
import { seedRegistry } from '../helpers/seed.ts';

/** The real repository, counting the reads that reach PostgreSQL. */
class CountingRepository extends CallerRepository {
  reads = 0;
  override async byKeyHash(hash: Buffer): Promise<Caller | undefined> {
    this.reads++;
    return super.byKeyHash(hash);
  }
}

describe('caller cache', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await seedRegistry(t.deps.db);
  });
  after(async () => t.close());

  describe('through the API', () => {
    for (const [what, change] of [
      [
        'the plan loses the category',
        (c: { planId: number; accountId: string }) =>
          t.deps
            .db('plans')
            .where({ id: c.planId })
            .update({ categories: ['cat_status_history'] }),
      ],
      [
        'the subscription is expired by hand',
        (c: { planId: number; accountId: string }) =>
          t.deps.db('subscriptions').where({ account_id: c.accountId }).update({ status: 'inactive' }),
      ],
      [
        'the key is revoked by hand',
        (c: { planId: number; accountId: string }) =>
          t.deps.db('api_keys').where({ account_id: c.accountId }).update({ revoked_at: t.deps.db.fn.now() }),
      ],
    ] as const) {
      it(`refuses a cached key once PostgreSQL announces that ${what}`, async () => {
        const c = await t.client();
        expect((await c.get('/v1/journals/')).status).to.equal(200);
        expect((await c.get('/v1/journals/')).status).to.equal(200);
        await change(c.account);
        await t.synced();
        expect((await c.get('/v1/journals/')).status).to.be.oneOf([401, 403]);
      });
    }

    it('drops an add-on when it is revoked, and sees one granted', async () => {
      const c = await t.without('cat_threats', 'cat_journal');
      expect((await c.get('/v1/journals/')).status).to.equal(403);
      await t.deps.db('account_addons').insert({ account_id: c.account.accountId, category: 'cat_journal' });
      await t.synced();
      expect((await c.get('/v1/journals/')).status).to.equal(200);
      await t.deps.db('account_addons').where({ account_id: c.account.accountId }).delete();
      await t.synced();
      expect((await c.get('/v1/journals/')).status).to.equal(403);
    });
  });

  describe('on its own', () => {
    let listener: ChangeListener;
    let repo: CountingRepository;
    let cache: CallerCache;
    before(async () => {
      listener = new ChangeListener(t.deps.config.DATABASE_URL, t.deps.log);
      repo = new CountingRepository(t.deps.db);
      cache = new CallerCache(repo, listener);
      await listener.start();
    });
    after(async () => listener.close());

    it('reads a key from PostgreSQL once, then from memory', async () => {
      const a = await createAccount(t.deps.db);
      // Creating the account announced changes; a read overlapping them would not be kept.
      await listener.sync();
      const before = repo.reads;
      for (let i = 0; i < 5; i++) expect((await cache.byKeyHash(hashApiKey(a.key)))?.accountId).to.equal(a.accountId);
      expect(repo.reads - before).to.equal(1);
    });

    // Expiry by time, with no announcement: the cache reads again at the instant the answer changes (on a clock
    // the test moves, its maximum age a day so that only the expiry can be why), and PostgreSQL's answer then is
    // the expired one (set in the past, read without the cache).
    const expiring = async (
      expire: (accountId: string, at: string) => Promise<unknown>,
      categories?: ('cat_journal' | 'cat_threats')[],
    ) => {
      const a = await createAccount(t.deps.db, categories ? { categories } : {});
      await expire(a.accountId, `now() + interval '1 hour'`);
      await listener.sync();
      const clock = new ManualClock();
      const timed = new CallerCache(repo, listener, 86_400_000, 1000, clock);
      const hash = hashApiKey(a.key);
      const first = await timed.byKeyHash(hash);
      const reads = repo.reads;
      clock.advance(59 * 60_000);
      await timed.byKeyHash(hash);
      expect(repo.reads, 'still cached before the expiry').to.equal(reads);
      clock.advance(2 * 60_000);
      await timed.byKeyHash(hash);
      expect(repo.reads, 'read again once it has passed').to.equal(reads + 1);
      await expire(a.accountId, `now() - interval '1 second'`);
      return { first, after: await repo.byKeyHash(hash) };
    };

    it('reads again when the subscription expires by time, with no announcement', async () => {
      const { first, after } = await expiring((id, at) =>
        t.deps
          .db('subscriptions')
          .where({ account_id: id })
          .update({ expires_at: t.deps.db.raw(at) }),
      );
      expect(first?.subscriptionActive).to.equal(true);
      expect(after?.subscriptionActive).to.equal(false);
    });

    it('reads again when a granted add-on expires by time', async () => {
      const { first, after } = await expiring(
        (id, at) =>
          t.deps.db.raw(
            `insert into account_addons (account_id, category, expires_at) values (?, 'cat_threats', ${at})
             on conflict (account_id, category) do update set expires_at = excluded.expires_at`,
            [id],
          ),
        ['cat_journal'],
      );
      expect(first?.categories).to.include('cat_threats');
      expect(after?.categories).to.not.include('cat_threats');
    });

    it('caches nothing while the announcing connection is down, and again once it is back', async () => {
      const a = await createAccount(t.deps.db);
      const hash = hashApiKey(a.key);
      await cache.byKeyHash(hash);
      // The listening connections' last statements were LISTEN or sync()'s select 1.
      await t.deps.db.raw(`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and (query ilike 'listen%' or query = 'select 1')`);
      for (let i = 0; i < 100 && listener.connected; i++) await new Promise((r) => setTimeout(r, 10));
      expect(listener.connected).to.equal(false);
      // Changed while nobody listened: a cache that kept its entry would still say active.
      await t.deps.db('subscriptions').where({ account_id: a.accountId }).update({ status: 'inactive' });
      expect((await cache.byKeyHash(hash))?.subscriptionActive).to.equal(false);
      const reads = repo.reads;
      await cache.byKeyHash(hash);
      expect(repo.reads - reads).to.equal(1);
      for (let i = 0; i < 300 && !listener.connected; i++) await new Promise((r) => setTimeout(r, 10));
      expect(listener.connected).to.equal(true);
      await cache.byKeyHash(hash);
      const after = repo.reads;
      await cache.byKeyHash(hash);
      expect(repo.reads).to.equal(after);
    });

    it('has heard every committed change after sync()', async () => {
      let heard = 0;
      listener.on('nishaan_test_sync', () => heard++);
      await listener.sync();
      for (let i = 1; i <= 200; i++) {
        await t.deps.db.raw(`select pg_notify('nishaan_test_sync', '')`);
        await listener.sync();
        expect(heard).to.equal(i);
      }
    });
  });
});
