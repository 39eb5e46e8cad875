import type { Knex } from 'knex';

// Every change an import makes is written here in the import's own transaction; the webhook
// relay (a later issue) moves rows to BullMQ and stamps relayed_at.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table import_runs (
      id serial primary key,
      source text not null,
      started_at timestamptz not null default now(),
      finished_at timestamptz,
      baseline boolean not null default false,
      counts jsonb not null default '{}',
      rejected integer not null default 0,
      events integer not null default 0
    );

    create table outbox (
      id bigserial primary key,
      event text not null,
      application_number text not null,
      old_value jsonb,
      new_value jsonb,
      changed_at timestamptz not null,
      import_run_id integer references import_runs(id),
      created_at timestamptz not null default now(),
      relayed_at timestamptz
    );
    create index outbox_unrelayed_idx on outbox (id) where relayed_at is null;
    create index outbox_app_idx on outbox (application_number, id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists outbox, import_runs cascade;');
}
