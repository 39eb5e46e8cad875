import type { Knex } from 'knex';

// Mail digests of watch hits (docs/watches.md): each account's choice (off, daily, weekly) and when it was made,
// and each hit marked once it has been in a digest, so that no hit is mailed twice or skipped, however the
// digest job and the matcher interleave.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table watch_digests (
      account_id uuid primary key references accounts on delete cascade,
      frequency text not null check (frequency in ('off', 'daily', 'weekly')),
      since timestamptz not null default now(),
      last_sent_at timestamptz
    );
    alter table watch_hits add column digested_at timestamptz;
    create index watch_hits_undigested_idx on watch_hits (account_id) where digested_at is null;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index if exists watch_hits_undigested_idx;
    alter table watch_hits drop column if exists digested_at;
    drop table if exists watch_digests;
  `);
}
