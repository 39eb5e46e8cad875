import type { Knex } from 'knex';

// Similarity watches also meet the marks a delta advertises in a journal (their journal_published
// events, docs/watches.md): the matcher reads a run's such events by this index.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index outbox_journal_run_idx on outbox (import_run_id) where event = 'trademark.journal_published'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists outbox_journal_run_idx');
}
