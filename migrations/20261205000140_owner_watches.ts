import type { Knex } from 'knex';

// Owner and portfolio watches (docs/watches.md): a watch follows an owner entity's every new filing (optionally in
// classes: none is every class) or, as a portfolio watch, meets new filings with every live mark of the account's own
// entity; each may exclude owners, and the account's own is excluded unless the watch includes it. A hit of an owner
// watch has no risk level: it is a filing by the owner, not a likeness.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table accounts add column owner_id text;
    alter table watches
      add column owner_id text,
      add column portfolio boolean not null default false,
      add column exclude_owner_ids text[] not null default '{}',
      add column include_own boolean not null default false;
    alter table watch_hits alter column risk_level drop not null;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    delete from watch_hits where risk_level is null;
    alter table watch_hits alter column risk_level set not null;
    alter table watches drop column owner_id, drop column portfolio, drop column exclude_owner_ids, drop column include_own;
    alter table accounts drop column owner_id;
  `);
}
