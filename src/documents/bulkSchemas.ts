import { z } from '../schema/zod.ts';
import { BulkRequest } from '../search/schemas.ts';

export const BulkDocumentsRequest = BulkRequest.extend({
  document_types: z
    .array(z.string().trim().min(1, 'document_types must not hold empty names').max(100), {
      error: 'document_types must be an array of document type names',
    })
    .min(1, 'document_types must name at least one type (leave it out for all)')
    .max(20, 'document_types may name at most 20 types')
    .optional()
    .openapi({
      description: 'Only documents of these types (as in document_type, e.g. "Examination Report"); all types when absent',
      example: ['Examination Report'],
    }),
});

const Failure = z
  .object({
    document_id: z.number().int(),
    application_number: z.string().nullable(),
    reason: z.string(),
  })
  .openapi('BulkDocumentFailure');

export const BulkDocumentsJob = z
  .object({
    job_id: z.string().uuid(),
    status: z.enum(['queued', 'running', 'done', 'failed', 'expired']).openapi({
      description:
        "queued → running → done (or failed after its retries); a done job's zip is deleted after the retention period (expired)",
    }),
    status_url: z
      .string()
      .openapi({ description: "The job's absolute URL (also the 202's Location): poll it (free) until status is done" }),
    application_numbers: z.array(z.string()),
    document_types: z.array(z.string()).nullable(),
    not_found: z.array(z.string()).openapi({ description: 'Application numbers not in the register' }),
    documents_requested: z.number().int().openapi({ description: 'Documents matched and charged when the request was accepted' }),
    documents_included: z.number().int().nullable().openapi({ description: 'Documents in the zip (null until done)' }),
    failures: z.array(Failure).openapi({ description: 'Documents that could not be included; their credits are given back' }),
    credits_charged: z.number().int(),
    credits_refunded: z.number().int(),
    size_bytes: z.number().int().nullable(),
    error: z.string().nullable(),
    created_at: z.string().openapi({ format: 'date-time' }),
    finished_at: z.string().nullable().openapi({ format: 'date-time' }),
    download: z
      .object({
        presigned_url: z.string(),
        expires_in: z.string().openapi({ example: '30 minutes' }),
        expires_at: z.string().openapi({ format: 'date-time' }),
      })
      .nullable()
      .openapi({ description: 'A fresh 30-minute link to the zip on every poll once done' }),
  })
  .openapi('BulkDocumentsJob');

export const BulkDocumentsAccepted = BulkDocumentsJob.extend({
  opposition_documents_excluded: z
    .number()
    .int()
    .openapi({ description: 'Opposition filings left out because cat_opp_docs is not on the plan' }),
}).openapi('BulkDocumentsAccepted');
