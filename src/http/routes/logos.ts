import type { Request, Response } from 'express';
import { ACCEPTED, MAX_IMAGE_BYTES } from '../../logos/imageInput.ts';
import * as S from '../../logos/schemas.ts';
import { distinctFiles, distinctTexts } from '../../logos/service.ts';
import type { Services } from '../../root.ts';
import type { Api } from '../endpoint.ts';
import { multipartReader } from '../uploads.ts';
import { viewerOf } from '../viewer.ts';

const tags = ['Logo search'];
const cost = { resource: 'logo_searches' as const };
const account = (req: Request) => viewerOf(req).accountId;
/** Aborts when the client goes away before its answer is sent: its images still queued are withdrawn, not searched for no one. */
const gone = (res: Response) => {
  const ac = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) ac.abort();
  });
  return ac.signal;
};
/** What an image may be and what is refused; `how` says how (with a 400, or as a bulk item's error). */
const imageRules = (how: string) =>
  `An image must be a ${ACCEPTED}, judged by its bytes, not its name. Refused ${how}: anything else (not_an_image, ` +
  'unsupported_image_type); an upload whose name or type says another format (image_type_mismatch); a corrupt or truncated file ' +
  '(image_corrupt); a side under 16 or over 10,000 pixels (image_dimensions; an SVG may say it is up to 10,000 and is drawn 512 ' +
  'on its longer side); an SVG with a DOCTYPE or entity, a script or foreignObject, an XML stylesheet instruction or @import, ' +
  'or an href, src or url() naming anything but its own #elements or an inline base64 PNG, JPEG, GIF or WebP image, or that takes ' +
  'over 5 s to draw (svg_refused).';
const IMAGE_ERRORS = `${imageRules('with a 400')} Over 5 MB a 413.`;
const LEVELS_NOTE = 'Minimum similarities of high, medium and low depend on the model named in the response (docs/logos.md).';
const URL_ERRORS =
  'The URL must be http or https on a public host: a private, loopback or link-local address, also after DNS or a ' +
  'redirect, is 400 image_url_refused; no answer within 10 s, an HTTP error or a failed connection 400 image_url_unreachable; a body ' +
  'over 5 MB 400 image_url_too_large.';
const BULK =
  "Needs a plan with bulk_logo_limit above 0 (403 bulk_not_on_plan), at most the plan's bulk size (403 bulk_size_exceeds_plan; " +
  'above 100 a 400). One logo_searches credit per distinct item, taken before the search; when fewer remain the request is refused whole ' +
  '(429) and costs nothing. An item that fails has an `error` and its credit is given back.';

export function logoRoutes(api: Api, { logos, uploads }: Pick<Services, 'logos' | 'uploads'>): void {
  api.add({
    method: 'post',
    path: '/v1/logo-search/text/',
    operationId: 'logoSearchText',
    tags,
    security: 'apiKey',
    cost,
    summary: 'Logos whose words (read by OCR) match the text, as word marks match: spelling variants and sound-alikes included',
    description:
      'Ordered by text_score. similarity_level: high keeps exact, prefix, whole-word, near and compound matches (score 66+), medium adds ' +
      'all words, suffix, substring and spelling variants (24+), low adds sound-alikes and partial matches (1+). One logo_searches credit.',
    body: S.TextSearchBody,
    response: S.TextSearchResponse,
    handler: ({ body, req }) => logos.text(body, body.max_results, account(req), body),
  });

  api.add({
    method: 'post',
    path: '/v1/logo-search/image/',
    operationId: 'logoSearchImage',
    tags,
    security: 'apiKey',
    cost,
    summary: 'Registered logos similar to an uploaded image (multipart uploaded_file), most similar first, with clip_similarity',
    description: `${LEVELS_NOTE} ${IMAGE_ERRORS} One logo_searches credit.`,
    multipart: multipartReader(uploads, 'uploaded_file', 1, MAX_IMAGE_BYTES),
    errors: [413, 503],
    body: S.ImageSearchForm,
    response: S.ImageSearchResponse,
    handler: ({ body, req }) => logos.upload(body.uploaded_file, body.similarity_level, body.img_cnt, account(req), body),
  });

  api.add({
    method: 'post',
    path: '/v1/logo-search/vienna-codes/',
    operationId: 'logoViennaCodes',
    tags,
    security: 'apiKey',
    cost,
    summary: 'The Vienna sections most likely for an uploaded logo (multipart uploaded_file), with scores, best first',
    description:
      "The codes of the registered logos nearest to the image under the served model, each voted for by the logos holding it, a logo's " +
      `vote counting more the nearer it is (docs/logos.md). ${IMAGE_ERRORS} One logo_searches credit.`,
    multipart: multipartReader(uploads, 'uploaded_file', 1, MAX_IMAGE_BYTES),
    errors: [413, 503],
    body: S.ViennaForm,
    response: S.ViennaResponse,
    handler: ({ body }) => logos.vienna(body.uploaded_file, body.max_results),
  });

  api.add({
    method: 'post',
    path: '/v1/logo-search/image-url/',
    operationId: 'logoSearchImageUrl',
    tags,
    security: 'apiKey',
    cost,
    summary: 'Registered logos similar to the image at a public URL, most similar first',
    description: `${URL_ERRORS} ${imageRules('with a 400')} One logo_searches credit.`,
    errors: [503],
    body: S.ImageUrlBody,
    response: S.ImageSearchResponse,
    handler: ({ body, req }) => logos.url(body.image_url, body.similarity_level, body.img_cnt, account(req), body),
  });

  const texts = ({ body }: { body: { queries: { query_text: string; similarity_level: S.Level[] }[] } }) => distinctTexts(body.queries);
  api.add({
    method: 'post',
    path: '/v1/logo-search/bulk-text/',
    operationId: 'logoSearchBulkText',
    tags,
    security: 'apiKey',
    summary: 'Up to 100 text logo searches at once; results per query',
    description: BULK,
    body: S.BulkTextBody,
    response: S.BulkTextResponse,
    bulk: { family: 'logo', items: ({ body }) => body.queries.length },
    cost: { resource: 'logo_searches', units: texts },
    handler: ({ body, req }) => logos.bulkText(body.queries, body.max_results_per_query, account(req), body),
  });

  api.add({
    method: 'post',
    path: '/v1/logo-search/bulk-image/',
    operationId: 'logoSearchBulkImage',
    tags,
    security: 'apiKey',
    summary: 'Up to 100 uploaded images (multipart uploaded_files) searched at once; results per image',
    description:
      `${BULK} Files are searched by content: the same image twice is one search and one credit. ` +
      `${imageRules("as that item's error")} Over 5 MB a 413 for the whole request.`,
    multipart: multipartReader(uploads, 'uploaded_files', S.MAX_BULK, MAX_IMAGE_BYTES),
    errors: [413],
    body: S.BulkImageForm,
    response: S.BulkImageResponse,
    bulk: { family: 'logo', items: ({ body }) => body.uploaded_files.length },
    cost: { resource: 'logo_searches', units: ({ body }) => distinctFiles(body.uploaded_files) },
    handler: ({ body, req, res, uncharge }) =>
      logos.bulkUploads(body.uploaded_files, body.similarity_level, body.img_cnt, body, account(req), uncharge, gone(res)),
  });

  api.add({
    method: 'post',
    path: '/v1/logo-search/bulk-image-url/',
    operationId: 'logoSearchBulkImageUrl',
    tags,
    security: 'apiKey',
    summary: 'Up to 100 image URLs searched at once; results per URL',
    description:
      `${BULK} ${URL_ERRORS.replace(/ is 400 | 400 /g, ' ')} (each is that item's error). ${imageRules("as that item's error")} ` +
      'The exception to the refund: a URL ' +
      'that gave no answer within 10 s is charged, as it held a search slot all that time.',
    body: S.BulkUrlBody,
    response: S.BulkUrlResponse,
    bulk: { family: 'logo', items: ({ body }) => body.image_urls.length },
    cost: { resource: 'logo_searches', units: ({ body }) => new Set(body.image_urls).size },
    handler: ({ body, req, res, uncharge }) =>
      logos.bulkUrls(body.image_urls, body.similarity_level, body.img_cnt, body, account(req), uncharge, gone(res)),
  });
}
