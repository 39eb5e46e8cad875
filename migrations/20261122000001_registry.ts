import type { Knex } from 'knex';

// The registry's system of record. Linked tables are keyed by the registry's own ids (stable
// across imports, which is what makes re-imports idempotent) and point at their trademark.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create extension if not exists pg_trgm;
    create extension if not exists fuzzystrmatch;
    create extension if not exists unaccent;
    create extension if not exists vector;

    create table journals (
      id integer primary key,
      journal_number text not null unique,
      publication_date date not null,
      object_key text,
      page_count integer
    );

    create table trademarks (
      application_number text primary key,
      word_mark text not null default '',
      class_number smallint not null check (class_number between 1 and 45),
      status text not null,
      application_date date not null,
      expire_at date,
      proprietor_name text not null default '',
      state text,
      tm_type text not null,
      filing_mode text,
      alert text not null default '',
      slug text not null,
      goods_services text,
      used_since text,
      registry_office text,
      journal_id integer references journals(id),
      vienna_codes text[],
      updated_at timestamptz not null default now()
    );
    create index trademarks_journal_idx on trademarks (journal_id, application_number) where journal_id is not null;

    create table status_history (
      id bigint primary key,
      application_number text not null references trademarks on delete cascade,
      old_status text,
      new_status text not null,
      changed_at timestamptz not null
    );
    create index status_history_app_idx on status_history (application_number, changed_at);

    create table proprietors (
      id bigint primary key,
      application_number text not null references trademarks on delete cascade,
      name text not null,
      entity_type text,
      address text,
      state text,
      country text not null default 'India',
      trading_as text
    );
    create index proprietors_app_idx on proprietors (application_number);

    create table attorneys (
      id bigint primary key,
      application_number text not null references trademarks on delete cascade,
      name text not null,
      agent_code text,
      address text,
      email text,
      phone text
    );
    create index attorneys_app_idx on attorneys (application_number);

    create table oppositions (
      id bigint primary key,
      application_number text not null references trademarks on delete cascade,
      opposition_number text not null,
      opponent_name text not null,
      opponent_address text,
      opposition_date date not null,
      status text not null,
      decision text,
      decision_date date
    );
    create index oppositions_app_idx on oppositions (application_number);

    create table hearings (
      id bigint primary key,
      application_number text not null references trademarks on delete cascade,
      hearing_date date not null,
      hearing_type text not null,
      virtual_room_link text,
      time_slot text,
      status text not null default 'Scheduled'
    );
    create index hearings_app_idx on hearings (application_number, hearing_date);

    create table documents (
      id bigint primary key,
      application_number text not null references trademarks on delete cascade,
      opposition_id bigint references oppositions(id) on delete set null,
      name text not null,
      document_type text not null,
      upload_date date not null,
      object_key text not null,
      content_type text not null default 'application/pdf',
      size_bytes bigint
    );
    create index documents_app_idx on documents (application_number);
    create index documents_opposition_idx on documents (opposition_id) where opposition_id is not null;

    create table exam_reports (
      id bigint primary key,
      application_number text not null references trademarks on delete cascade,
      report_date date not null,
      objection_reasons text[] not null default '{}',
      reply_due_date date
    );
    create index exam_reports_app_idx on exam_reports (application_number);

    -- The cited mark may be outside the imported set, so it is not a foreign key.
    create table cited_marks (
      id bigint primary key,
      exam_report_id bigint not null references exam_reports on delete cascade,
      application_number text not null references trademarks on delete cascade,
      cited_application_number text not null
    );
    create index cited_marks_app_idx on cited_marks (application_number);
    create index cited_marks_cited_idx on cited_marks (cited_application_number);
    create index cited_marks_report_idx on cited_marks (exam_report_id);

    create table alerts (
      id bigint primary key,
      application_number text not null references trademarks on delete cascade,
      old_alert text,
      new_alert text not null,
      changed_at timestamptz not null
    );
    create index alerts_app_idx on alerts (application_number, changed_at);

    create table logos (
      application_number text primary key references trademarks on delete cascade,
      object_key text not null,
      content_type text not null default 'image/png',
      width integer,
      height integer,
      ocr_text text,
      embedding vector(128),
      embedding_model text,
      indexed_at timestamptz
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table if exists logos, alerts, cited_marks, exam_reports, documents, hearings, oppositions,
      attorneys, proprietors, status_history, trademarks, journals cascade;
  `);
}
