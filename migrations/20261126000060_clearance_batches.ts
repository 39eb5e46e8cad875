import type { Knex } from 'knex';

// Batch clearance (POST /v1/clearance/batch/): a job row and one row per proposal, written in the
// request's transaction. The rows are the job's truth; BullMQ carries only (job, chunk) pairs, and the
// workers' relay enqueues the chunks of any job that did not reach the queue. A proposal is answered
// once: its answer, and the credits it cost, are written in one transaction that only a pending row takes.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table clearance_batches (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts on delete cascade,
      status text not null default 'queued' check (status in ('queued', 'running', 'completed', 'failed')),
      total integer not null,
      -- A chunk's retries ran out: its unanswered proposals were answered with an error, and the job is failed.
      gave_up boolean not null default false,
      created_at timestamptz not null default now(),
      enqueued_at timestamptz,
      started_at timestamptz,
      finished_at timestamptz
    );
    create index clearance_batches_account_idx on clearance_batches (account_id, created_at desc);
    create index clearance_batches_pending_idx on clearance_batches (created_at) where status in ('queued', 'running');

    create table clearance_batch_items (
      batch_id uuid not null references clearance_batches on delete cascade,
      idx integer not null,
      -- The proposal as validated (classes as numbers, status groups defaulted).
      proposal jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'done', 'error')),
      -- The single clearance's answer, each listed mark's logo as its object key (signed when read).
      result jsonb,
      -- {code, message} when the proposal could not be screened.
      error jsonb,
      -- Credits this proposal cost, taken in the transaction that wrote its answer.
      api_calls integer not null default 0,
      logo_searches integer not null default 0,
      answered_at timestamptz,
      primary key (batch_id, idx)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists clearance_batch_items, clearance_batches');
}
