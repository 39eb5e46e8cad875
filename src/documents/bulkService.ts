import type { Queue } from 'bullmq';
import type { Viewer } from '../accounts/access.ts';
import { AppError, notFound } from '../errors.ts';
import { monthOf } from '../limits/quotaRepository.ts';
import type { Logger } from '../logger.ts';
import { type RedisHealth, RedisUnavailable } from '../redis.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { gateOf } from '../trademarks/gate.ts';
import type { BulkJobRepository, BulkJobRow } from './bulkRepository.ts';
import type { DocumentRepository } from './documentRepository.ts';
import type { Charge } from './documentService.ts';

export const BULK_QUEUE = 'documents-bulk';

export interface BulkJobOptions {
  attempts: number;
  backoffMs: number;
}
export const DEFAULT_BULK_JOB: BulkJobOptions = { attempts: 3, backoffMs: 5000 };

/** The queue's job for a row: its id is the row's, so adding it again (a relay, a retry) is a no-op. */
export async function enqueueBulkJobs(queue: Queue, ids: string[], o: BulkJobOptions = DEFAULT_BULK_JOB): Promise<void> {
  await queue.addBulk(
    ids.map((id) => ({
      name: 'zip',
      data: { id },
      opts: {
        jobId: id,
        attempts: o.attempts,
        backoff: { type: 'exponential', delay: o.backoffMs },
        removeOnComplete: 1000,
        removeOnFail: 1000,
      },
    })),
  );
}

/**
 * Bulk document view and download: a request names up to 100 marks; its documents are charged at
 * once (one doc_views each, refused whole with 429 when short) and zipped by a worker; the client
 * polls the job and gets a 30-minute link to the zip. What could not be zipped is listed and refunded.
 */
export class BulkDocumentService {
  constructor(
    private readonly docs: DocumentRepository,
    private readonly jobs: BulkJobRepository,
    private readonly queue: () => Queue,
    private readonly store: ObjectStore,
    private readonly log: Logger,
    /** Where clients reach this API: status_url is absolute, as a Location header must be. */
    private readonly baseUrl: () => string,
    private readonly health: RedisHealth,
  ) {}

  async request(appNos: string[], types: string[] | null, viewer: Viewer, charge: Charge) {
    const wanted = [...new Set(appNos)];
    // The gate decides each document (opposition filings need cat_opp_docs); what it withholds is
    // left out, and the answer says how many.
    const { rows: all, known } = await this.docs.forMarks(wanted, types);
    const rows = gateOf(viewer.categories).rows('documents', all);
    const notFoundApps = wanted.filter((a) => !known.includes(a));
    if (!rows.length) {
      throw new AppError(
        'not_found',
        types ? 'the marks asked for have no documents of those types' : 'the marks asked for have no documents',
        { not_found: notFoundApps },
      );
    }
    const month = monthOf(new Date());
    await charge(rows.length, 'doc_views');
    // Committed before it is enqueued: a worker never looks for a row that is not there yet. If the
    // enqueue fails, the workers' relay enqueues the row (workers/bulkDocuments.ts).
    const job = await this.jobs.create({
      accountId: viewer.accountId,
      appNos: wanted,
      types,
      documentIds: rows.map((d) => d.id),
      notFound: notFoundApps,
      charge: { units: rows.length, month },
    });
    try {
      // Bounded: without Redis the job waits in PostgreSQL for the relay, and the request does not wait at all.
      await this.health.run('bulk document queue', () => enqueueBulkJobs(this.queue(), [job.id]));
      await this.jobs.markEnqueued([job.id]);
    } catch (err) {
      if (!(err instanceof RedisUnavailable)) this.log.warn({ err, job: job.id }, 'bulk document job not enqueued; the relay will');
    }
    return { ...this.view(job), opposition_documents_excluded: all.length - rows.length };
  }

  async get(id: string, viewer: Viewer) {
    const job = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
      ? await this.jobs.get(id, viewer.accountId)
      : undefined;
    if (!job) throw notFound(`bulk document job ${id}`);
    return this.view(job);
  }

  private view(job: BulkJobRow) {
    const link =
      job.status === 'done' && job.object_key
        ? this.store.signedUrl(job.object_key, { accountId: job.account_id, filename: `documents-${job.id.slice(0, 8)}.zip` })
        : null;
    return {
      job_id: job.id,
      status: job.status,
      status_url: `${this.baseUrl()}/v3/documents/bulk/${job.id}/`,
      application_numbers: job.application_numbers,
      document_types: job.document_types,
      not_found: job.not_found,
      documents_requested: job.document_ids.length,
      documents_included: job.result?.included ?? null,
      failures: job.result?.failures ?? [],
      credits_charged: job.charge.units,
      credits_refunded: job.refunded,
      size_bytes: job.size_bytes,
      error: job.status === 'failed' ? job.error : null,
      created_at: job.created_at,
      finished_at: job.finished_at,
      download: link ? { presigned_url: link.url, expires_in: '30 minutes', expires_at: link.expiresAt.toISOString() } : null,
    };
  }
}
