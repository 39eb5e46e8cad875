import { z } from '../schema/zod.ts';

const EXPIRES_IN = z.string().openapi({ example: '30 minutes', description: 'How long the link stays valid, as text' });
const presignedUrl = z.string().openapi({
  description:
    'A link valid 30 minutes, for the account it was issued to while its plan is active. Each one handed out costs one doc_views credit',
});

export const DocumentEntry = z
  .object({
    id: z.number().int().openapi({ description: 'Pass to GET /v1/documents/{doc_id}/url/ for a fresh link' }),
    name: z.string(),
    document_type: z.string().openapi({ example: 'Examination Report' }),
    upload_date: z.string().openapi({ format: 'date' }),
    content_type: z.string().openapi({ example: 'application/pdf' }),
    size_bytes: z.number().int().nullable(),
    presigned_url: presignedUrl,
    url_expires_in: EXPIRES_IN,
    url_expires_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('DocumentEntry');

export const OppositionDocumentEntry = DocumentEntry.extend({
  opposition_id: z.number().int(),
  opposition_number: z.string().nullable(),
}).openapi('OppositionDocumentEntry');

export const DocumentList = z
  .object({ application_number: z.string(), count: z.number().int(), documents: z.array(DocumentEntry) })
  .openapi('DocumentList');

export const OppositionDocumentList = z
  .object({ application_number: z.string(), count: z.number().int(), documents: z.array(OppositionDocumentEntry) })
  .openapi('OppositionDocumentList');

export const DocumentUrl = z
  .object({
    document_id: z.number().int(),
    presigned_url: presignedUrl,
    expires_in: EXPIRES_IN,
    expires_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('DocumentUrl');

export const JournalDownload = z
  .object({
    journal_id: z.number().int(),
    journal_number: z.string(),
    presigned_url: presignedUrl,
    expires_in: EXPIRES_IN,
    expires_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('JournalDownload');
