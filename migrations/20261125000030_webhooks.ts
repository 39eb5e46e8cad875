import type { Knex } from 'knex';

// Webhooks (docs/webhooks.md). PostgreSQL is the truth for delivery: an outbox row is done when its
// deliveries are recorded (fanned_out_at), a delivery is done when its outcome is; Redis only carries
// the jobs, and the relays put back whatever PostgreSQL still calls pending.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table outbox add column fanned_out_at timestamptz;
    -- Rows the old relay handed to a queue nobody consumed: nothing is owed for them.
    update outbox set fanned_out_at = relayed_at where relayed_at is not null;
    drop index if exists outbox_unrelayed_idx;
    create index outbox_pending_idx on outbox (id) where fanned_out_at is null;
    -- The changes feed's cursor. Ids are drawn when rows are written, so a transaction that commits late
    -- can leave an id behind a cursor a reader has already passed; seq is drawn by the relay, which sees
    -- committed rows only and draws under a lock, so seq order is commit order and no reader skips a row.
    create sequence outbox_seq;
    alter table outbox add column seq bigint unique;
    update outbox set seq = nextval('outbox_seq') where id in (select id from outbox order by id);
    create index outbox_created_idx on outbox (created_at);

    -- Wakes the relay at the commit of every transaction that wrote outbox rows (imports, reminders).
    -- The channel is OUTBOX_CHANNEL of src/db/channels.ts.
    create function nishaan_outbox_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('nishaan_outbox', '');
      return null;
    end $$;
    create trigger outbox_notify after insert on outbox for each statement execute function nishaan_outbox_notify();

    create table webhooks (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts on delete cascade,
      url text not null,
      events text[] not null,
      -- AES-256-GCM: 12-byte IV, 16-byte tag, ciphertext; the webhook id is the associated data.
      secret bytea not null,
      active boolean not null default true,
      -- Failed attempts since the last success; reaching WEBHOOK_DISABLE_AFTER disables the webhook.
      failure_count integer not null default 0,
      last_failure_at timestamptz,
      disabled_at timestamptz,
      disabled_reason text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index webhooks_account_idx on webhooks (account_id, created_at);

    create table webhook_marks (
      webhook_id uuid not null references webhooks on delete cascade,
      application_number text not null,
      primary key (webhook_id, application_number)
    );
    create index webhook_marks_app_idx on webhook_marks (application_number, webhook_id);

    create table webhook_deliveries (
      id bigserial primary key,
      webhook_id uuid not null references webhooks on delete cascade,
      outbox_id bigint not null references outbox on delete cascade,
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed', 'cancelled')),
      -- Every attempt ever made; round_start is how many came before the current round (a replay starts one).
      attempts integer not null default 0,
      round_start integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      -- When the delivery was last handed to the queue; null asks the delivery relay to hand it over.
      queued_at timestamptz,
      last_attempt_at timestamptz,
      last_status_code integer,
      last_error text,
      created_at timestamptz not null default now(),
      finished_at timestamptz,
      unique (outbox_id, webhook_id)
    );
    create index webhook_deliveries_webhook_idx on webhook_deliveries (webhook_id, id);
    create index webhook_deliveries_pending_idx on webhook_deliveries (next_attempt_at) where status = 'pending';

    create table webhook_attempts (
      id bigserial primary key,
      delivery_id bigint not null references webhook_deliveries on delete cascade,
      attempt integer not null,
      attempted_at timestamptz not null default now(),
      status_code integer,
      latency_ms integer not null,
      error text,
      response_excerpt text
    );
    create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, attempt);

    -- One row per mark, threshold and expiry date: a reminder is sent once, and again only for a new expiry.
    create table renewal_reminders (
      application_number text not null,
      threshold_days smallint not null,
      expire_at date not null,
      outbox_id bigint references outbox on delete set null,
      created_at timestamptz not null default now(),
      primary key (application_number, threshold_days, expire_at)
    );
    create index trademarks_expire_idx on trademarks (expire_at) where expire_at is not null;

    -- Mail is written here in the transaction that causes it; the mail relay sends it over SMTP when
    -- SMTP_URL is set (otherwise it stays here, and a log line says so).
    create table mail_outbox (
      id bigserial primary key,
      to_address text not null,
      subject text not null,
      body text not null,
      created_at timestamptz not null default now(),
      sent_at timestamptz,
      attempts integer not null default 0,
      last_error text
    );
    create index mail_outbox_unsent_idx on mail_outbox (id) where sent_at is null;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table if exists mail_outbox, renewal_reminders, webhook_attempts, webhook_deliveries, webhook_marks, webhooks cascade;
    drop index if exists trademarks_expire_idx;
    drop trigger if exists outbox_notify on outbox;
    drop function if exists nishaan_outbox_notify();
    drop index if exists outbox_pending_idx, outbox_created_idx;
    alter table outbox drop column if exists fanned_out_at, drop column if exists seq;
    drop sequence if exists outbox_seq;
    create index outbox_unrelayed_idx on outbox (id) where relayed_at is null;
  `);
}
