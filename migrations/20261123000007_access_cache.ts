import type { Knex } from 'knex';

// What lets the API keep callers in memory without ever serving a stale plan:
// 1. every change to what a key may do (the key, its account, subscription, add-ons or plan) is
//    announced on the `nishaan_access` channel (ACCESS_CHANNEL, src/db/channels.ts) by a trigger, in
//    the same transaction as the change, so no write path (API, admin CLI, SQL by hand) can forget it;
// 2. monthly credits move from PostgreSQL to a shared balance in Redis in blocks (see
//    src/limits/credits.ts); nishaan_take_credits hands out a block atomically and never past the limit.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function nishaan_access_changed() returns trigger language plpgsql as $$
    declare
      r record;
    begin
      if tg_op = 'DELETE' then r := old; else r := new; end if;
      if tg_table_name = 'plans' then
        perform pg_notify('nishaan_access', 'plan:' || r.id);
      elsif tg_table_name = 'accounts' then
        perform pg_notify('nishaan_access', 'account:' || r.id);
      else
        perform pg_notify('nishaan_access', 'account:' || r.account_id);
        if tg_op = 'UPDATE' and old.account_id is distinct from new.account_id then
          perform pg_notify('nishaan_access', 'account:' || old.account_id);
        end if;
      end if;
      return null;
    end $$;

    create trigger plans_access after update or delete on plans
      for each row execute function nishaan_access_changed();
    create trigger accounts_access after update or delete on accounts
      for each row execute function nishaan_access_changed();
    create trigger subscriptions_access after insert or update or delete on subscriptions
      for each row execute function nishaan_access_changed();
    create trigger account_addons_access after insert or update or delete on account_addons
      for each row execute function nishaan_access_changed();
    -- Not on last_used_at: it is written once a minute per key and changes nothing a key may do.
    create trigger api_keys_access after update of revoked_at, key_hash, account_id or delete on api_keys
      for each row execute function nishaan_access_changed();

    -- Moves up to a block of credits into circulation for (account, month, resource) and returns how
    -- many it moved (0 when none are left). It moves at least p_units when that many remain, at most
    -- p_block, and never more than an eighth of what remains, so that near the limit credits move one
    -- request at a time and none sit idle in a block while another request is refused.
    create function nishaan_take_credits(p_account uuid, p_month date, p_resource text, p_units bigint, p_block bigint, p_limit bigint)
    returns bigint language plpgsql as $$
    declare
      taken bigint;
    begin
      insert into usage_counters (account_id, month, resource, used) values (p_account, p_month, p_resource, 0)
        on conflict do nothing;
      update usage_counters u set used = u.used + g.n
        from (select least(greatest(p_units, least(p_block, (p_limit - c.used) / 8)), p_limit - c.used) as n
              from usage_counters c
              where c.account_id = p_account and c.month = p_month and c.resource = p_resource for update) g
        where u.account_id = p_account and u.month = p_month and u.resource = p_resource and g.n > 0
        returning g.n into taken;
      return coalesce(taken, 0);
    end $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger plans_access on plans;
    drop trigger accounts_access on accounts;
    drop trigger subscriptions_access on subscriptions;
    drop trigger account_addons_access on account_addons;
    drop trigger api_keys_access on api_keys;
    drop function nishaan_access_changed();
    drop function nishaan_take_credits(uuid, date, text, bigint, bigint, bigint);
  `);
}
