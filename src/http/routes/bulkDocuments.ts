import * as S from '../../documents/bulkSchemas.ts';
import type { Services } from '../../root.ts';
import { z } from '../../schema/zod.ts';
import type { Api } from '../endpoint.ts';
import { viewerOf } from '../viewer.ts';

const tags = ['Documents'];

export function bulkDocumentRoutes(api: Api, { bulkDocuments: service }: Pick<Services, 'bulkDocuments'>): void {
  api.add({
    method: 'post',
    path: '/v3/documents/bulk/',
    operationId: 'requestBulkDocuments',
    tags,
    security: 'apiKey',
    status: 202,
    summary: 'Zip the documents of up to 100 marks (cat_documents; opposition filings with cat_opp_docs): one doc_views per document',
    description:
      "Accepted at once (202, with the job's absolute status_url in Location) and built by a worker; " +
      'poll status_url until status is done, then download the zip ' +
      '(one folder per application number and a manifest.json). Every matched document is charged when the request is accepted, ' +
      'refused whole with 429 when fewer doc_views remain; documents that cannot be included are listed in failures and refunded. ' +
      "Bulk rules as /v1/trademarks/bulk/ (the plan's bulk search size). 404 when no document matches.",
    category: 'cat_documents',
    body: S.BulkDocumentsRequest,
    response: S.BulkDocumentsAccepted,
    errors: [404],
    bulk: { family: 'search', items: ({ body }) => new Set(body.application_numbers).size },
    cost: { resource: 'doc_views', deferred: true },
    handler: async ({ body, req, res, charge }) => {
      const job = await service.request(body.application_numbers, body.document_types ?? null, viewerOf(req), charge);
      res.setHeader('Location', job.status_url);
      return job;
    },
  });

  api.add({
    method: 'get',
    path: '/v3/documents/bulk/:job_id/',
    operationId: 'getBulkDocuments',
    tags,
    security: 'apiKey',
    summary: 'A bulk document job: its status, failures and, once done, a 30-minute link to the zip (free)',
    params: z.object({ job_id: z.string().openapi({ format: 'uuid' }) }),
    response: S.BulkDocumentsJob,
    errors: [404],
    cost: null,
    handler: ({ params, req }) => service.get(params.job_id, viewerOf(req)),
  });
}
