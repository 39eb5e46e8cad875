import type { Knex } from 'knex';

// Owner entities (docs/owners.md): each proprietor name of the register joined to the entity it is one owner with, the
// keys through which later names join (src/owners/grouping.ts), and the import runs whose names are grouped. An
// entity merged into another leaves no row: its id is the id of one of its keys, which then resolves to the entity
// kept. Marks are listed by owner through their proprietor name, hence the index.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table owner_entities (
      id text primary key,
      name text not null,
      created_at timestamptz not null default now()
    );
    create table owner_names (
      name text primary key,
      entity_id text not null references owner_entities on delete cascade
    );
    create index owner_names_entity_idx on owner_names (entity_id);
    create table owner_keys (
      kind char(1) not null check (kind in ('K', 'T')),
      key text collate "C" not null,
      qual text not null,
      skeleton text not null,
      entity_id text not null references owner_entities on delete cascade,
      key_id text not null,
      primary key (key, kind, qual, entity_id)
    );
    create index owner_keys_entity_idx on owner_keys (entity_id);
    create index owner_keys_id_idx on owner_keys (key_id);
    create index owner_keys_skeleton_idx on owner_keys (skeleton);
    create table owner_runs (
      import_run_id integer primary key references import_runs on delete cascade,
      names integer not null,
      grouped_at timestamptz not null default now()
    );
    create index trademarks_proprietor_name_idx on trademarks (proprietor_name);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index if exists trademarks_proprietor_name_idx;
    drop table if exists owner_runs, owner_keys, owner_names, owner_entities;
  `);
}
