import type { Knex } from 'knex';

// Accounts, plans as data, subscriptions, add-ons, API keys and monthly usage counters.
// Seeded plans are documented in docs/plans.md; keep the two in step.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table plans (
      id serial primary key,
      code text not null unique check (code ~ '^[a-z0-9_-]{2,40}$'),
      name text not null,
      custom boolean not null default false,
      categories text[] not null default '{}',
      -- Monthly credits per resource type: api_calls, doc_views, logo_searches, pdf_reports, excel_reports.
      quotas jsonb not null,
      concurrency smallint not null check (concurrency between 1 and 10),
      -- Items allowed in one bulk request of each family; 0 means bulk is not on the plan.
      bulk_search_limit smallint not null default 0 check (bulk_search_limit between 0 and 100),
      bulk_logo_limit smallint not null default 0 check (bulk_logo_limit between 0 and 100),
      webhook_enabled boolean not null default false,
      -- Marks all of an account's webhooks may monitor together; null means unlimited.
      monitored_marks_limit integer check (monitored_marks_limit >= 0),
      created_at timestamptz not null default now()
    );

    create table accounts (
      id uuid primary key default gen_random_uuid(),
      email text not null unique check (email = lower(email)),
      password_hash text not null,
      first_name text not null,
      last_name text not null,
      organisation text,
      phone text,
      created_at timestamptz not null default now()
    );

    create table subscriptions (
      account_id uuid primary key references accounts on delete cascade,
      plan_id integer not null references plans,
      status text not null check (status in ('trial', 'active', 'inactive')),
      started_at timestamptz not null default now(),
      expires_at timestamptz,
      updated_at timestamptz not null default now()
    );

    create table account_addons (
      account_id uuid not null references accounts on delete cascade,
      category text not null,
      granted_at timestamptz not null default now(),
      expires_at timestamptz,
      primary key (account_id, category)
    );

    create table api_keys (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts on delete cascade,
      name text not null default 'default',
      -- SHA-256 of the whole key; the key itself is shown once and never stored.
      key_hash bytea not null unique,
      display_prefix text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    create index api_keys_account_idx on api_keys (account_id, created_at);

    create table usage_counters (
      account_id uuid not null references accounts on delete cascade,
      month date not null,
      resource text not null,
      used bigint not null default 0 check (used >= 0),
      primary key (account_id, month, resource)
    );
  `);

  const base = ['cat_status_history', 'cat_proprietor', 'cat_journal'];
  const pro = [...base, 'cat_alert_changes', 'cat_attorney', 'cat_oppositions', 'cat_hearings', 'cat_documents', 'cat_exam_reports'];
  const business = [...pro, 'cat_opp_docs'];
  await knex('plans').insert([
    {
      code: 'basic',
      name: 'Basic',
      categories: base,
      concurrency: 2,
      bulk_search_limit: 0,
      bulk_logo_limit: 0,
      webhook_enabled: false,
      monitored_marks_limit: 0,
      quotas: JSON.stringify({ api_calls: 25_000, doc_views: 500, logo_searches: 500, pdf_reports: 50, excel_reports: 20 }),
    },
    {
      code: 'pro',
      name: 'Pro',
      categories: pro,
      concurrency: 5,
      bulk_search_limit: 50,
      bulk_logo_limit: 50,
      webhook_enabled: true,
      monitored_marks_limit: 50,
      quotas: JSON.stringify({ api_calls: 75_000, doc_views: 5_000, logo_searches: 5_000, pdf_reports: 500, excel_reports: 200 }),
    },
    {
      code: 'business',
      name: 'Business',
      categories: business,
      concurrency: 10,
      bulk_search_limit: 100,
      bulk_logo_limit: 100,
      webhook_enabled: true,
      monitored_marks_limit: null,
      quotas: JSON.stringify({ api_calls: 300_000, doc_views: 25_000, logo_searches: 25_000, pdf_reports: 2_500, excel_reports: 1_000 }),
    },
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists usage_counters, api_keys, account_addons, subscriptions, accounts, plans cascade;');
}
