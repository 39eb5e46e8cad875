import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import request from 'supertest';
import { AdminError, runAdmin } from '../../scripts/admin.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

describe('admin CLI (scripts/admin.ts)', () => {
  let t: TestApp;
  let a: TestAccount;
  before(async () => {
    t = await createTestApp();
    a = await createAccount(t.deps.db, { categories: ['cat_journal'] });
  });
  after(async () => t.close());

  /** Runs one command against the test database; resolves to what it printed. */
  const admin = async (...argv: string[]): Promise<string> => {
    const lines: string[] = [];
    await runAdmin(argv, t.deps, (l) => lines.push(l));
    // The API hears of the change once PostgreSQL announces it.
    await t.synced();
    return lines.join('\n');
  };
  const refused = async (pattern: RegExp, ...argv: string[]) => {
    const err = await admin(...argv).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err, argv.join(' ')).to.be.instanceOf(AdminError);
    expect((err as Error).message).to.match(pattern);
  };
  const subscription = async (accountId: string) =>
    (
      await t.deps.db.raw(
        `select p.code, s.status, extract(epoch from s.expires_at - now()) / 86400 as days_left
       from subscriptions s join plans p on p.id = s.plan_id where s.account_id = ?`,
        [accountId],
      )
    ).rows[0];
  const keyed = (path: string, key = a.key) => request(t.app).get(path).set('X-API-Key', key);

  it('lists the seeded plans with their limits', async () => {
    const out = await admin('plans', 'list');
    expect(out).to.contain('basic: Basic').and.contain('pro: Pro').and.contain('business: Business');
    expect(out).to.contain('api_calls=25000').and.contain('api_calls=75000').and.contain('api_calls=300000');
    expect(out).to.contain('monitored marks unlimited');
  });

  it('creates a custom plan from flags, missing quotas at 0', async () => {
    const out = await admin(
      'plans',
      'create',
      'agency',
      '--name',
      'Agency',
      '--categories',
      'cat_journal,cat_tm_class',
      '--quota',
      'api_calls=1000,doc_views=10',
      '--concurrency',
      '3',
      '--bulk-search',
      '20',
      '--bulk-logo',
      '0',
      '--webhooks',
      'yes',
      '--monitored',
      'unlimited',
    );
    expect(out).to.contain('agency (custom): Agency');
    const p = await t.deps.db('plans').where({ code: 'agency' }).first();
    expect(p).to.deep.include({
      name: 'Agency',
      custom: true,
      categories: ['cat_journal', 'cat_tm_class'],
      concurrency: 3,
      bulk_search_limit: 20,
      bulk_logo_limit: 0,
      webhook_enabled: true,
      monitored_marks_limit: null,
    });
    expect(p.quotas).to.deep.equal({ api_calls: 1000, doc_views: 10, logo_searches: 0, pdf_reports: 0, excel_reports: 0, clearances: 0 });
  });

  it('refuses bad plan definitions with a message, changing nothing', async () => {
    const base = ['plans', 'create', 'other', '--name', 'Other', '--quota', 'api_calls=5'];
    await refused(/already exists/, 'plans', 'create', 'agency', '--name', 'Again', '--quota', 'api_calls=1');
    await refused(/unknown category "cat_nope"/, ...base, '--categories', 'cat_journal,cat_nope');
    await refused(/unknown resource "calls"/, 'plans', 'create', 'other', '--name', 'O', '--quota', 'calls=5');
    await refused(/--quota: "api_calls" is not resource=N/, 'plans', 'create', 'other', '--name', 'O', '--quota', 'api_calls');
    await refused(/needs --quota/, 'plans', 'create', 'other', '--name', 'O');
    await refused(/needs --name/, 'plans', 'create', 'other', '--quota', 'api_calls=5');
    await refused(/--concurrency must be a whole number from 1 to 10/, ...base, '--concurrency', '11');
    await refused(/--bulk-search must be a whole number from 0 to 100/, ...base, '--bulk-search', '101');
    await refused(/--webhooks must be yes or no/, ...base, '--webhooks', 'maybe');
    await refused(/--monitored must be/, ...base, '--monitored', 'lots');
    await refused(/plan code "Bad Code"/, 'plans', 'create', 'Bad Code', '--name', 'B', '--quota', 'api_calls=1');
    await refused(/Unknown option '--colour'/, ...base, '--colour', 'red');
    expect(await t.deps.db('plans').where({ code: 'other' }).first()).to.equal(undefined);
  });

  it('assigns a plan, active, for N days; the API applies it on the very next request', async () => {
    expect((await keyed('/v1/tm-classes/')).status).to.equal(403);
    const out = await admin('assign', a.email.toUpperCase(), 'agency', '--days', '30');
    expect(out).to.contain('active on agency for 30 day(s)');
    const s = await subscription(a.accountId);
    expect(s).to.include({ code: 'agency', status: 'active' });
    expect(Number(s.days_left)).to.be.within(29.99, 30);
    expect((await keyed('/v1/tm-classes/')).status).to.equal(200);
  });

  it('refuses an unknown email or plan', async () => {
    await refused(/no account with email "nobody@example.in"/, 'assign', 'nobody@example.in', 'pro');
    await refused(/unknown plan "gold"/, 'assign', a.email, 'gold');
    await refused(/--days must be a whole number/, 'assign', a.email, 'pro', '--days', 'ten');
    await refused(/expected 2 argument/, 'assign', a.email);
  });

  it('expires a subscription: keys get 403 subscription_inactive; activate brings them back', async () => {
    expect(await admin('expire', a.email)).to.contain('subscription ended');
    expect((await subscription(a.accountId)).status).to.equal('inactive');
    const res = await keyed('/v1/journals/');
    expect(res.status).to.equal(403);
    expect(res.body.code).to.equal('subscription_inactive');
    expect(await admin('activate', a.email)).to.contain('active with no expiry');
    const s = await subscription(a.accountId);
    expect(s).to.include({ status: 'active', code: 'agency', days_left: null });
    expect((await keyed('/v1/journals/')).status).to.equal(200);
    await admin('activate', a.email, '--days', '7');
    expect(Number((await subscription(a.accountId)).days_left)).to.be.within(6.99, 7);
  });

  it('grants and revokes an add-on category for one account', async () => {
    const b = await createAccount(t.deps.db, { categories: [] });
    expect((await keyed('/v1/reference/stamp-duty/', b.key)).status).to.equal(403);
    expect(await admin('addon', 'grant', b.email, 'cat_stamp_duty', '--days', '10')).to.contain('cat_stamp_duty granted for 10 day(s)');
    expect((await keyed('/v1/reference/stamp-duty/', b.key)).status).to.equal(200);
    expect(await admin('show', b.email)).to.match(/add-ons: cat_stamp_duty until \d{4}-/);
    expect(await admin('addon', 'revoke', b.email, 'cat_stamp_duty')).to.contain('revoked');
    expect((await keyed('/v1/reference/stamp-duty/', b.key)).status).to.equal(403);
    await refused(/has no add-on cat_stamp_duty/, 'addon', 'revoke', b.email, 'cat_stamp_duty');
    await refused(/unknown category "cat_gold"/, 'addon', 'grant', b.email, 'cat_gold');
    await refused(/does not take --days/, 'addon', 'revoke', b.email, 'cat_stamp_duty', '--days', '3');
  });

  it("shows an account: plan, status, add-ons, keys and this month's usage", async () => {
    const out = await admin('show', a.email);
    expect(out).to.contain(a.email).and.contain('plan agency, status active').and.contain('ACTIVE');
    expect(out).to.contain(`${a.key.slice(0, 8)}… "test"`);
    expect(out).to.match(/usage this month: api_calls=\d+ doc_views=0/);
    expect(out).to.not.contain(a.key);
  });

  it('refuses unknown commands with the usage text', async () => {
    await refused(/unknown command "frobnicate"[\s\S]*usage:/, 'frobnicate');
    await refused(/usage:/);
  });

  it('runs as a command: exit 0 on success, 2 with a message on stderr when refused', function () {
    this.timeout(60_000);
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
        cwd: new URL('../..', import.meta.url).pathname,
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: t.deps.config.DATABASE_URL, NODE_ENV: 'test' },
      });
    const ok = run('show', a.email);
    expect(ok.status, ok.stderr).to.equal(0);
    expect(ok.stdout).to.contain('plan agency');
    const bad = run('show', 'nobody@example.in');
    expect(bad.status).to.equal(2);
    expect(bad.stderr).to.contain('no account with email "nobody@example.in"');
    expect(bad.stdout).to.equal('');
  });
});
