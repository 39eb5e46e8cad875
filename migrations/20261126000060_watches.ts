import type { Knex } from 'knex';

// Similarity watches (docs/watches.md): a proposed mark (words and/or a logo's vector) in classes, watched
// for new filings that could be confused with it. The importer records the marks new in each delta run
// (import_new_marks); the watch matcher reads them per run, records each watch's hit once
// (watch_hits: the same new mark never fires the same watch twice) and writes one trademark.similar_filed
// outbox row per hit, addressed to the watch's webhook alone (outbox.webhook_id), which the relay fans
// out to that webhook only and the public changes feed never shows.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table import_new_marks (
      import_run_id integer not null references import_runs(id) on delete cascade,
      application_number text not null,
      primary key (import_run_id, application_number)
    );

    alter table outbox add column webhook_id uuid references webhooks on delete cascade;

    create table watches (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts on delete cascade,
      webhook_id uuid not null references webhooks on delete cascade,
      word_mark text,
      logo_url text,
      logo_model text,
      -- pgvector's text form of the logo's embedding, made once at creation.
      logo_vector text,
      classes smallint[] not null,
      min_risk text not null check (min_risk in ('Low', 'Medium', 'High')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index watches_account_idx on watches (account_id, created_at);
    create index watches_webhook_idx on watches (webhook_id);

    create table watch_hits (
      watch_id uuid not null references watches on delete cascade,
      application_number text not null,
      outbox_id bigint references outbox on delete set null,
      risk_level text not null,
      created_at timestamptz not null default now(),
      primary key (watch_id, application_number)
    );

    create table watch_runs (
      import_run_id integer primary key references import_runs(id) on delete cascade,
      marks integer not null,
      hits integer not null,
      matched_at timestamptz not null default now()
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table if exists watch_runs, watch_hits, watches, import_new_marks cascade;
    alter table outbox drop column if exists webhook_id;
  `);
}
