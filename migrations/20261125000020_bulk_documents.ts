import type { Knex } from 'knex';

// Bulk document downloads (POST /v3/documents/bulk/): one row per request, written in the request's
// transaction. The row is the job's truth; BullMQ only carries its id (job id = row id), and the
// workers' relay enqueues any row that did not reach the queue, so no request is lost between the two.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table bulk_document_jobs (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts on delete cascade,
      status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed', 'expired')),
      application_numbers text[] not null,
      document_types text[],
      -- The documents charged for, fixed when the request was accepted.
      document_ids bigint[] not null,
      not_found text[] not null default '{}',
      -- Where the doc_views credits came from (month, limit), so failures give them back to the right month.
      charge jsonb not null,
      refunded integer not null default 0,
      -- {included, failures: [{document_id, application_number, reason}]} once built.
      result jsonb,
      object_key text,
      size_bytes bigint,
      attempts integer not null default 0,
      error text,
      created_at timestamptz not null default now(),
      enqueued_at timestamptz,
      started_at timestamptz,
      finished_at timestamptz
    );
    create index bulk_document_jobs_account_idx on bulk_document_jobs (account_id, created_at desc);
    create index bulk_document_jobs_pending_idx on bulk_document_jobs (created_at) where status in ('queued', 'running');
    create index bulk_document_jobs_done_idx on bulk_document_jobs (finished_at) where status = 'done';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists bulk_document_jobs');
}
