import * as S from '../../clearance/schemas.ts';
import { ACCEPTED, MAX_IMAGE_BYTES } from '../../logos/imageInput.ts';
import type { Services } from '../../root.ts';
import type { Api } from '../endpoint.ts';
import { multipartReader } from '../uploads.ts';

export function clearanceRoutes(api: Api, { clearance, uploadDir }: Pick<Services, 'clearance' | 'uploadDir'>): void {
  api.add({
    method: 'post',
    path: '/v1/clearance/',
    operationId: 'clearance',
    tags: ['Clearance'],
    security: 'apiKey',
    summary:
      'Screen a proposed mark (words and/or a logo) in one or more classes: the marks it could be confused with, and why (cat_threats)',
    description:
      'The analysis of GET /v1/trademarks/{app_no}/threats/ run on a mark not yet filed: spelling, sound after Indian romanisation, ' +
      'shared distinctive words, Hindi/English translations and logo likeness, with calibrated risk levels and reasons. A JSON body, ' +
      `or a multipart form with the logo as uploaded_file (a ${ACCEPTED}, judged as logo search judges it; over 5 MB a 413) ` +
      'and the same fields, or the logo by logo_url (fetched as logo search fetches image_url). At least ' +
      'one of word_mark and a logo. One api_calls credit per class screened and one logo_searches credit with a logo, given back ' +
      'if the request fails. docs/clearance.md.',
    category: 'cat_threats',
    multipart: multipartReader(uploadDir, 'uploaded_file', 1, MAX_IMAGE_BYTES),
    body: S.ClearanceForm,
    jsonBody: S.ClearanceBody,
    cost: { resource: 'api_calls', deferred: true },
    errors: [413, 503],
    response: S.ClearanceResponse,
    handler: ({ body, caller, charge }) => clearance.clear(body, caller.accountId, charge),
  });
}
