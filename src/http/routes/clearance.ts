import * as B from '../../clearance/batchSchemas.ts';
import * as S from '../../clearance/schemas.ts';
import { ACCEPTED, MAX_IMAGE_BYTES } from '../../logos/imageInput.ts';
import type { Services } from '../../root.ts';
import { z } from '../../schema/zod.ts';
import type { Api } from '../endpoint.ts';
import { multipartReader } from '../uploads.ts';

export function clearanceRoutes(
  api: Api,
  { clearance, clearanceBatches, uploads }: Pick<Services, 'clearance' | 'clearanceBatches' | 'uploads'>,
): void {
  api.add({
    method: 'post',
    path: '/v1/clearance/',
    operationId: 'clearance',
    tags: ['Clearance'],
    security: 'apiKey',
    summary:
      'Screen a proposed mark (words and/or a logo) in one or more classes: the marks it could be confused with, and why (pro, business)',
    description:
      'The analysis of GET /v1/trademarks/{app_no}/threats/ run on a mark not yet filed: spelling, sound after Indian romanisation, ' +
      'shared distinctive words, Hindi/English translations and logo likeness, with calibrated risk levels and reasons. A JSON body, ' +
      `or a multipart form with the logo as uploaded_file (a ${ACCEPTED}, judged as logo search judges it; over 5 MB a 413) ` +
      'and the same fields, or the logo by logo_url (fetched as logo search fetches image_url). At least ' +
      'one of word_mark and a logo. One clearances credit per class screened and one logo_searches credit with a logo, given back ' +
      'if the request fails. docs/clearance.md.',
    feature: 'clearance',
    multipart: multipartReader(uploads, 'uploaded_file', 1, MAX_IMAGE_BYTES),
    body: S.ClearanceForm,
    jsonBody: S.ClearanceBody,
    cost: { resource: 'clearances', deferred: true },
    errors: [413, 503],
    response: S.Clearance,
    handler: ({ body, caller, charge }) => clearance.clear(body, caller.accountId, charge),
  });

  api.add({
    method: 'get',
    path: '/v1/clearance/:clearance_id/',
    operationId: 'getClearance',
    tags: ['Clearance'],
    security: 'apiKey',
    summary: "Another page of a clearance's conflicts (free): every conflict it found is kept for 90 days",
    description:
      'The answer of POST /v1/clearance/ for limit conflicts from offset, riskiest first, read from what the clearance kept ' +
      '(nothing is screened again and nothing is charged; logo links signed anew). count says how many there are in all. ' +
      "Another account's clearance, an unknown or an expired one is 404.",
    feature: 'clearance',
    params: S.ClearanceParams,
    query: S.ClearancePageQuery,
    response: S.Clearance,
    errors: [404],
    cost: null,
    handler: ({ params, query, caller }) => clearance.page(params.clearance_id, caller.accountId, query),
  });

  api.add({
    method: 'post',
    path: '/v1/clearance/batch/',
    operationId: 'clearanceBatch',
    tags: ['Clearance'],
    security: 'apiKey',
    status: 202,
    summary:
      'Screen up to 1,000 proposed marks in the background (plans with clearance): a job to poll, each proposal charged as it is screened',
    description:
      'A JSON body {proposals: [...]}, each proposal the JSON body of POST /v1/clearance/ (a logo by logo_url only). Every ' +
      'proposal is checked first (a 400 names proposals.<index>.<field>); then 202 with the job (status queued) and its ' +
      'absolute status_url in Location. The request is free: each proposal costs what a single clearance costs (one clearances ' +
      'per class, one logo_searches with a logo) when the workers screen it; one the credits left do not cover is answered ' +
      'quota_exceeded and costs nothing. A clearance.completed webhook event when the job ends. docs/clearance.md.',
    feature: 'clearance',
    body: B.ClearanceBatchRequest,
    response: B.ClearanceBatchAccepted,
    cost: null,
    handler: async ({ body, caller, res }) => {
      const job = await clearanceBatches.request(body.proposals, caller.accountId);
      res.setHeader('Location', job.status_url);
      return job;
    },
  });

  api.add({
    method: 'get',
    path: '/v1/clearance/batch/:job_id/',
    operationId: 'getClearanceBatch',
    tags: ['Clearance'],
    security: 'apiKey',
    summary: "A batch clearance's progress and, once it has ended, a page of its proposals' answers (free)",
    description:
      'done of total while it runs; once completed (or failed) results holds the answers of limit proposals from offset, in ' +
      "request order: each the single clearance's answer, or its error. Another account's job is not found (404).",
    feature: 'clearance',
    params: z.object({ job_id: z.string().openapi({ format: 'uuid' }) }),
    query: B.ClearanceBatchQuery,
    response: B.ClearanceBatchJob,
    errors: [404],
    cost: null,
    handler: ({ params, query, caller }) => clearanceBatches.get(params.job_id, caller.accountId, query),
  });
}
