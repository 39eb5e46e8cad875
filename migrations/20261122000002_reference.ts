import type { Knex } from 'knex';

// Reference tables, filled from data/reference by the reference loader (idempotently, after migrating).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table nice_classes (
      class_number smallint primary key check (class_number between 1 and 45),
      kind text not null,
      heading text not null,
      explanatory_note text,
      includes jsonb not null default '[]',
      excludes jsonb not null default '[]'
    );

    -- item_a: WIPO Nice item; item_b: Indian classification item (no public source yet, so null).
    create table class_items (
      id serial primary key,
      class_number smallint not null references nice_classes,
      basic_number text,
      item_a text,
      item_b text,
      search tsvector generated always as
        (to_tsvector('english', coalesce(item_a, '') || ' ' || coalesce(item_b, ''))) stored
    );
    create index class_items_class_idx on class_items (class_number, id);
    create index class_items_search_idx on class_items using gin (search);
    create index class_items_trgm_idx on class_items using gin ((coalesce(item_a, '') || ' ' || coalesce(item_b, '')) gin_trgm_ops);

    create table well_known_marks (
      id serial primary key,
      mark text not null,
      proprietor text,
      source_kind text not null,
      date_or_journal text,
      source_url text,
      confidence text not null
    );

    create table prohibited_marks (
      id text primary key,
      legal_basis text not null,
      kind text not null,
      subject text not null,
      description text,
      match_terms text[] not null default '{}',
      sources text,
      confidence text not null
    );

    create table inn_names (
      id serial primary key,
      eaeu_code text not null unique,
      inn_en text not null,
      inn_la text,
      inn_ru text
    );
    create index inn_names_en_trgm_idx on inn_names using gin (inn_en gin_trgm_ops);

    -- A stem can carry several meanings (the WHO list repeats stems across groups).
    create table inn_stems (
      id serial primary key,
      stem text not null,
      kind text not null,
      meaning text not null
    );

    create table stamp_duty (
      id serial primary key,
      instrument text not null,
      state text not null,
      iso_3166_2 text,
      amount_inr numeric,
      basis text,
      detail text,
      source text,
      source_type text,
      confidence text
    );

    create table states (
      iso_3166_2 text primary key,
      code text not null,
      name text not null,
      name_iso text not null,
      type text not null,
      gst_state_code text,
      tmr_office text,
      tmr_note text
    );

    create table registry_offices (
      code text primary key,
      name text not null,
      city text not null,
      head_office boolean not null default false,
      address text,
      jurisdiction text[] not null default '{}'
    );

    create table status_values (
      status text primary key,
      aliases text,
      stage text,
      is_live boolean not null,
      is_final boolean not null,
      meaning text
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop table if exists status_values, registry_offices, states, stamp_duty, inn_stems, inn_names,
    prohibited_marks, well_known_marks, class_items, nice_classes cascade;`);
}
