import type { Knex } from 'knex';

// Word-mark search (src/search/).
// 1. A change feed for the in-process index: every insert, and every update that touches a searched
//    column, takes the next `search_seq`; deletions are recorded in search_deletions. A statement
//    trigger announces a change on `nishaan_search` so API processes pick it up at once.
// 2. The SQL reference path: the same normalisation as src/search/normalise.ts (nishaan_norm), the
//    Indian romanisation before Double Metaphone (nishaan_romanise, nishaan_codes), and the trigram index
//    of the normalised mark. The index of the words' phonetic codes that its sound-alikes need is not
//    made here: at 7.7M marks it takes minutes of every import for a path the API does not serve from;
//    bench/search.ts makes it (trademarks_codes_idx) before timing the SQL path.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create sequence trademarks_search_seq;
    alter table trademarks add column search_seq bigint not null default nextval('trademarks_search_seq');
    create index trademarks_search_seq_idx on trademarks (search_seq);

    -- Which database a saved index belongs to: a snapshot of another database (or of this name before it
    -- was dropped and made again) is never loaded.
    create table search_instance (id uuid primary key default gen_random_uuid());
    insert into search_instance default values;

    create table search_deletions (
      search_seq bigint primary key default nextval('trademarks_search_seq'),
      application_number text not null
    );

    create function nishaan_search_touch() returns trigger language plpgsql as $$
    begin
      new.search_seq := nextval('trademarks_search_seq');
      return new;
    end $$;
    create trigger trademarks_search_touch before update of word_mark, class_number, status, tm_type, filing_mode, state
      on trademarks for each row
      when ((old.word_mark, old.class_number, old.status, old.tm_type, old.filing_mode, old.state)
        is distinct from (new.word_mark, new.class_number, new.status, new.tm_type, new.filing_mode, new.state))
      execute function nishaan_search_touch();

    create function nishaan_search_deleted() returns trigger language plpgsql as $$
    begin
      insert into search_deletions (application_number) values (old.application_number);
      return null;
    end $$;
    create trigger trademarks_search_deleted after delete on trademarks
      for each row execute function nishaan_search_deleted();

    -- The channel is SEARCH_CHANNEL of src/db/channels.ts.
    create function nishaan_search_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('nishaan_search', '');
      return null;
    end $$;
    create trigger trademarks_search_changed after insert or update or delete on trademarks
      for each statement execute function nishaan_search_changed();

    create function nishaan_norm(t text) returns text language sql immutable parallel safe as $$
      select btrim(regexp_replace(upper(public.unaccent('public.unaccent'::regdictionary, coalesce(t, ''))), '[^[:alnum:]]+', ' ', 'g'))
    $$;

    -- Same folds as romanise() in src/search/normalise.ts; numbers are spelled digit by digit here
    -- (single digits the way the index does, 2 → TO, 4 → FOR).
    create function nishaan_romanise(w text) returns text language sql immutable parallel safe as $$
      select replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
        regexp_replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
          w, '0', 'ZERO'), '1', 'ONE'), '2', 'TO'), '3', 'THREE'), '4', 'FOR'), '5', 'FIVE'), '6', 'SIX'), '7', 'SEVEN'), '8', 'ATE'),
          '9', 'NINE'), 'IGH', 'I'), 'QU', 'KV'),
        '^TWO', 'TO'),
        'AA', 'A'), 'EE', 'I'), 'OO', 'U'), 'PH', 'F'), 'W', 'V'), 'Q', 'K'), 'SH', 'S'), 'BH', 'B'), 'KH', 'K'), 'GH', 'G'), 'TH', 'T'),
        'DH', 'D'), 'JH', 'J'), 'CK', 'K'), 'Z', 'J')
    $$;

    create function nishaan_codes(t text) returns text[] language sql immutable parallel safe as $$
      select coalesce(array_agg(distinct c) filter (where c <> ''), '{}')
      from unnest(string_to_array(nishaan_norm(t), ' ')) w,
        lateral (values (dmetaphone(nishaan_romanise(w))), (dmetaphone_alt(nishaan_romanise(w)))) v(c)
    $$;

    create index trademarks_norm_trgm_idx on trademarks using gin (nishaan_norm(word_mark) gin_trgm_ops);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index if exists trademarks_codes_idx;
    drop index trademarks_norm_trgm_idx;
    drop function nishaan_codes(text);
    drop function nishaan_romanise(text);
    drop function nishaan_norm(text);
    drop trigger trademarks_search_changed on trademarks;
    drop function nishaan_search_changed();
    drop trigger trademarks_search_deleted on trademarks;
    drop function nishaan_search_deleted();
    drop trigger trademarks_search_touch on trademarks;
    drop function nishaan_search_touch();
    drop table search_deletions;
    drop table search_instance;
    alter table trademarks drop column search_seq;
    drop sequence trademarks_search_seq;
  `);
}
