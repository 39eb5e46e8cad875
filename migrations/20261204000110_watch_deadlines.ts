import type { Knex } from 'knex';

// Opposition deadlines of watch hits (docs/watches.md): the journal a hit's event last named (so that a mark hit
// before it was advertised is notified once more when it is, once per journal), the deadline reminders sent (one per
// hit, threshold and deadline: a deadline that moves is reminded again), and each account's calendar feed, whose
// URL token only needs verifying and is kept as its SHA-256.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table watch_hits add column notified_journal_id integer references journals on delete set null;
    update watch_hits h set notified_journal_id = t.journal_id from trademarks t where t.application_number = h.application_number;

    create table watch_reminders (
      hit_id uuid not null references watch_hits (id) on delete cascade,
      days_before smallint not null,
      deadline date not null,
      outbox_id bigint references outbox on delete set null,
      created_at timestamptz not null default now(),
      primary key (hit_id, days_before, deadline)
    );

    create table watch_calendars (
      account_id uuid primary key references accounts on delete cascade,
      token_hash bytea not null unique,
      created_at timestamptz not null default now()
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table if exists watch_calendars, watch_reminders;
    alter table watch_hits drop column if exists notified_journal_id;
  `);
}
