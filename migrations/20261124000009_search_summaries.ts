import type { Knex } from 'knex';

// The search index now holds each mark's whole summary (src/search/summaries.ts), so a change to any
// summary field must reach it through the change feed, not only a change to what is searched.
const SEARCHED = 'word_mark, class_number, status, tm_type, filing_mode, state';
const SUMMARY = `${SEARCHED}, application_date, expire_at, proprietor_name, alert, slug`;

function touch(columns: string): string {
  const list = columns.split(', ');
  return `
    drop trigger trademarks_search_touch on trademarks;
    create trigger trademarks_search_touch before update of ${columns}
      on trademarks for each row
      when ((${list.map((c) => `old.${c}`).join(', ')}) is distinct from (${list.map((c) => `new.${c}`).join(', ')}))
      execute function nishaan_search_touch();`;
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(touch(SUMMARY));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(touch(SEARCHED));
}
