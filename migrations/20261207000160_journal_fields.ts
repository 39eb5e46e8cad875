import type { Knex } from 'knex';

// What the Trade Marks Journal prints of a mark beyond the register's summary (docs/journal.md): every class of a
// multi-class application (s.18(2), printed under class 99; class_number keeps the lowest, the one the search index
// files it under), the international registration of a Madrid designation, a priority claim (s.154), the marks it is to
// be associated with (s.16) and the conditions and disclaimers of its advertisement (s.17).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table trademarks
      add column classes smallint[] check (classes is null or (cardinality(classes) > 1 and 1 <= all(classes) and 45 >= all(classes))),
      add column international_registration text,
      add column priority_date date,
      add column priority_number text,
      add column priority_country text,
      add column associated_with text[],
      add column conditions text[];
    create index trademarks_classes_idx on trademarks using gin (classes) where classes is not null;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index if exists trademarks_classes_idx;
    alter table trademarks drop column classes, drop column international_registration, drop column priority_date,
      drop column priority_number, drop column priority_country, drop column associated_with, drop column conditions;
  `);
}
