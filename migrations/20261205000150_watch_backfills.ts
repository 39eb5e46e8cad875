import type { Knex } from 'knex';

// Watch backfills (docs/watches.md): a watch run over the latest journals, as a job. PostgreSQL holds each request and
// its state, so a job lost with Redis is handed over again; one request at a time per watch and journal count.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table watch_backfills (
      id uuid primary key default gen_random_uuid(),
      watch_id uuid not null references watches on delete cascade,
      account_id uuid not null references accounts on delete cascade,
      journals smallint not null,
      state text not null default 'queued' check (state in ('queued', 'running', 'done', 'failed')),
      journals_done smallint not null default 0,
      marks integer not null default 0,
      hits integer not null default 0,
      error text,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index watch_backfills_watch_idx on watch_backfills (watch_id, created_at);
    create unique index watch_backfills_open_idx on watch_backfills (watch_id, journals) where state in ('queued', 'running');
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists watch_backfills');
}
