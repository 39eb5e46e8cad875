import type { Knex } from 'knex';

// Single clearances kept for their reports (GET /v1/reports/clearance/{id}/pdf|xlsx/): each
// POST /v1/clearance/ writes its answer here under the account, with each listed mark's logo as its
// object key (signed when read). Kept CLEARANCE_RETENTION_DAYS (src/clearance/repository.ts) after they
// were made; older ones are not found and are deleted, with their proposal's logo thumbnail, by later
// clearances (docs/clearance.md, *Reports*).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table clearances (
      id uuid primary key,
      account_id uuid not null references accounts on delete cascade,
      result jsonb not null,
      -- The proposal's logo as a thumbnail in the object store, when it had one and it could be drawn.
      logo_key text,
      created_at timestamptz not null default now()
    );
    create index clearances_created_idx on clearances (created_at);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists clearances');
}
