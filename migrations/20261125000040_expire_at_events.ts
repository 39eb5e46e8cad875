import type { Knex } from 'knex';

// expire_at reads DD/MM/YYYY in every response (the contract's format); events written before this
// carried YYYY-MM-DD in the changes feed and webhook payloads. Rewritten in place, so a feed read from
// the start is one format throughout.
const EVENTS = `('trademark.expiry_changed', 'trademark.renewal_due')`;

function rewrite(column: 'old_value' | 'new_value', from: string, to: string, pattern: string): string {
  return `update outbox
    set ${column} = jsonb_set(${column}, '{expire_at}', to_jsonb(to_char(to_date(${column}->>'expire_at', '${from}'), '${to}')))
    where event in ${EVENTS} and jsonb_typeof(${column}->'expire_at') = 'string' and ${column}->>'expire_at' ~ '${pattern}'`;
}

export async function up(knex: Knex): Promise<void> {
  for (const c of ['old_value', 'new_value'] as const) await knex.raw(rewrite(c, 'YYYY-MM-DD', 'DD/MM/YYYY', '^\\d{4}-\\d{2}-\\d{2}$'));
}

export async function down(knex: Knex): Promise<void> {
  for (const c of ['old_value', 'new_value'] as const) await knex.raw(rewrite(c, 'DD/MM/YYYY', 'YYYY-MM-DD', '^\\d{2}/\\d{2}/\\d{4}$'));
}
