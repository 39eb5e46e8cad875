import type { Knex } from 'knex';

// Keys are listed in creation order. created_at cannot give that order reliably (two keys made
// within one clock tick, or a clock stepped back by time sync), a sequence always does.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table api_keys add column seq bigserial');
  await knex.raw('create index api_keys_account_seq_idx on api_keys (account_id, seq)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table api_keys drop column seq');
}
