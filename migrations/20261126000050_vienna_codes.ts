import type { Knex } from 'knex';

// Vienna codes of logos (src/reference/vienna.ts, docs/logos.md). A mark has one logo (logos is keyed
// by its application number), so a logo's codes are its mark's `vienna_codes`, the field the register
// prints beside the device and the ingest format carries; no second copy is kept on logos. This adds:
// 1. vienna_codes, the classification itself, filled from data/reference by the reference loader;
// 2. stored codes written in another form the importer now reads (3.1.1, 030101) rewritten as printed
//    (03.01.01) with repeats dropped, so the filter can compare them as text; anything else is left;
// 3. a GIN index on trademarks.vienna_codes for logo search's filter (`&&` with the codes asked for
//    and every code below them).
const PRINTED = `'^[0-9]{2}([.][0-9]{2}){0,2}$'`;
const DOTTED = `'^[0-9]{1,2}([.][0-9]{1,2}){0,2}$'`;
const DIGITS = `'^([0-9]{2}){2,3}$'`;

// One code as printed: each dotted part padded to two digits, or bare digits cut into pairs.
const printed = (c: string) => `case
    when btrim(${c}) ~ ${DOTTED} then
      (select string_agg(lpad(p, 2, '0'), '.' order by n) from unnest(string_to_array(btrim(${c}), '.')) with ordinality x(p, n))
    when btrim(${c}) ~ ${DIGITS} then
      substr(btrim(${c}), 1, 2) || '.' || substr(btrim(${c}), 3, 2)
        || case when length(btrim(${c})) = 6 then '.' || substr(btrim(${c}), 5, 2) else '' end
    else ${c} end`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table vienna_codes (
      code text primary key,
      level text not null check (level in ('category', 'division', 'section')),
      category text not null,
      division text,
      description text
    );

    update trademarks t set vienna_codes = (
      select array_agg(code order by first) from (
        select ${printed('u.c')} as code, min(u.n) as first from unnest(t.vienna_codes) with ordinality u(c, n) group by 1) d)
    where exists (select 1 from unnest(t.vienna_codes) c where c !~ ${PRINTED})
       or cardinality(t.vienna_codes) <> (select count(distinct c) from unnest(t.vienna_codes) c);

    create index trademarks_vienna_idx on trademarks using gin (vienna_codes);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index trademarks_vienna_idx;
    drop table vienna_codes;
  `);
}
