import type { Knex } from 'knex';

// Watch hits as records (docs/watches.md, issue 42): each hit keeps what the analysis found when it was
// made (the finding as a clearance lists it), a state the owner triages it by and a note, whatever
// became of any webhook. A watch's webhook is optional: deleting the webhook leaves its watches (and
// their hits) watching, without one. The hit's id is what trademark.similar_filed names.
//
// Every hit recorded so far has its outbox event (written in the same transaction, and deleted only with
// the webhook, which deleted the watch and its hits with it), so the finding is read back from there.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table watch_hits
      add column id uuid not null default gen_random_uuid(),
      add column account_id uuid references accounts on delete cascade,
      add column result jsonb,
      add column state text not null default 'new' check (state in ('new', 'acknowledged', 'dismissed')),
      add column note text,
      add column updated_at timestamptz not null default now();
    update watch_hits h set account_id = w.account_id from watches w where w.id = h.watch_id;
    update watch_hits h set result = o.new_value - 'watch_id' from outbox o where o.id = h.outbox_id;
    delete from watch_hits where result is null or account_id is null;
    alter table watch_hits alter column account_id set not null, alter column result set not null;
    alter table watch_hits add constraint watch_hits_id_key unique (id);
    create index watch_hits_account_idx on watch_hits (account_id, created_at desc, id desc);
    create index watch_hits_watch_idx on watch_hits (watch_id, created_at desc, id desc);

    alter table watches alter column webhook_id drop not null;
    alter table watches drop constraint watches_webhook_id_fkey,
      add constraint watches_webhook_id_fkey foreign key (webhook_id) references webhooks on delete set null;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    delete from watches where webhook_id is null;
    alter table watches drop constraint watches_webhook_id_fkey,
      add constraint watches_webhook_id_fkey foreign key (webhook_id) references webhooks on delete cascade;
    alter table watches alter column webhook_id set not null;
    drop index if exists watch_hits_watch_idx;
    drop index if exists watch_hits_account_idx;
    alter table watch_hits drop constraint if exists watch_hits_id_key,
      drop column id, drop column account_id, drop column result, drop column state, drop column note, drop column updated_at;
  `);
}
