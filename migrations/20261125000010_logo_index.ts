import type { Knex } from 'knex';

// Logo search (src/logos/, docs/logos.md).
// 1. Each logo's index state is the outbox of logo indexing: a new logo starts `pending`, and so does
//    one whose image changes (trigger below, in the same transaction as the import that changed it);
//    the workers process moves pending logos to BullMQ jobs and records `done` or `failed` with the
//    reason. `index_after` is when a logo may be picked up again (a retry's backoff, or the lease of
//    a job in flight).
// 2. Vectors live in logo_vectors, one row per logo and model, as halfvec (half the size of vector,
//    no measurable loss of recall at 128 dimensions). Each model gets a partial HNSW cosine index on
//    its own dimension (src/logos/repository.ts ensureModelIndex), so a model can be swapped in
//    (indexed beside the old one) without a migration.
// 3. `text_seq` is the change feed of the OCR text index each API process keeps in memory.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create sequence logos_text_seq;
    alter table logos drop column embedding, drop column embedding_model;
    alter table logos
      add column index_state text not null default 'pending' check (index_state in ('pending', 'done', 'failed')),
      add column index_attempts integer not null default 0,
      add column index_error text,
      add column index_after timestamptz,
      add column ocr_detected text,
      add column ocr_confidence real,
      add column text_seq bigint not null default nextval('logos_text_seq');
    create index logos_todo_idx on logos (index_after nulls first, application_number) where index_state <> 'done';
    create index logos_text_seq_idx on logos (text_seq);

    create table logo_vectors (
      application_number text not null references logos on delete cascade,
      model text not null,
      embedding halfvec not null,
      created_at timestamptz not null default now(),
      primary key (application_number, model)
    );

    create function nishaan_logo_image_changed() returns trigger language plpgsql as $$
    begin
      new.index_state := 'pending';
      new.index_attempts := 0;
      new.index_error := null;
      new.index_after := null;
      new.indexed_at := null;
      new.ocr_detected := null;
      new.ocr_confidence := null;
      new.text_seq := nextval('logos_text_seq');
      delete from logo_vectors where application_number = new.application_number;
      return new;
    end $$;
    create trigger logos_image_changed before update of object_key on logos
      for each row when (old.object_key is distinct from new.object_key)
      execute function nishaan_logo_image_changed();

    create function nishaan_logo_text_touch() returns trigger language plpgsql as $$
    begin
      new.text_seq := nextval('logos_text_seq');
      return new;
    end $$;
    create trigger logos_text_touch before update of ocr_text, ocr_detected on logos
      for each row when ((old.ocr_text, old.ocr_detected) is distinct from (new.ocr_text, new.ocr_detected))
      execute function nishaan_logo_text_touch();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger logos_text_touch on logos;
    drop function nishaan_logo_text_touch();
    drop trigger logos_image_changed on logos;
    drop function nishaan_logo_image_changed();
    drop table logo_vectors;
    drop index logos_text_seq_idx;
    drop index logos_todo_idx;
    alter table logos drop column index_state, drop column index_attempts, drop column index_error,
      drop column index_after, drop column ocr_detected, drop column ocr_confidence, drop column text_seq;
    alter table logos add column embedding vector(128), add column embedding_model text;
    drop sequence logos_text_seq;
  `);
}
