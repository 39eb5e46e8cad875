import type { Knex } from 'knex';

// Which shipped reference files the reference tables hold (a hash of their contents), so a start with
// unchanged files skips the reload. One row at most.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table reference_version (
      singleton boolean primary key default true check (singleton),
      content_hash text not null,
      counts json not null, -- json, not jsonb: keeps the tables in load order for the start-up log
      loaded_at timestamptz not null default now()
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists reference_version;');
}
