import type { Services } from '../../root.ts';
import { appNoParam } from '../../schema/params.ts';
import { z } from '../../schema/zod.ts';
import * as S from '../../search/schemas.ts';
import { STRATEGIES } from '../../search/strategies.ts';
import type { Api } from '../endpoint.ts';
import { viewerOf } from '../viewer.ts';

const tags = ['Search'];
/** Callable from any site's page (src/http/cors.ts). */
export const PUBLIC_SEARCH_PATH = '/public/v1/trademarks/search/';
export const PUBLIC_MARK_PATH = '/public/v1/trademarks/:app_no/';
const distinct = ({ body }: { body: { application_numbers: string[] } }) => new Set(body.application_numbers).size;

export function searchRoutes(api: Api, { search, trademarks }: Pick<Services, 'search' | 'trademarks'>): void {
  api.add({
    method: 'get',
    path: '/v1/trademarks/',
    operationId: 'searchTrademarks',
    tags,
    security: 'apiKey',
    summary: 'Search word marks: SMART (fuzzy, ranked) or EXACT, with counts by status, type, filing mode, state and class',
    description:
      'SMART finds, strongest first: ' +
      STRATEGIES.join(', ') +
      ' (each result names its `strategy`). Queries of one or two ' +
      'characters use exact, prefix and whole-word matching only. EXACT: the whole mark equals the query, ignoring case and ' +
      'runs of whitespace. `count` and `groups` cover every match; page with `limit`/`offset` (offset at most 10,000) or ' +
      'with `next_cursor`. Repeated searches come from a cache (`from_cache`) until the register changes. See docs/search.md.',
    query: S.SearchQuery,
    response: S.SearchResponse,
    handler: ({ query }) => search.search(query),
  });

  api.add({
    method: 'get',
    path: PUBLIC_SEARCH_PATH,
    operationId: 'publicSearch',
    tags,
    security: 'none',
    summary: 'Free search: SMART, at most 10 results with a few fields; 60 searches per hour per address',
    description:
      'No credential. `class_number` narrows it to one Nice class. Every answer, refusals included, carries ' +
      'RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset for the hourly window (429 adds Retry-After). ' +
      "Callable from any site's page: CORS with Access-Control-Allow-Origin: * for GET, without credentials " +
      '(the preflight is answered 204), and those headers exposed.',
    publicSearchLimit: true,
    query: S.PublicSearchQuery,
    response: S.PublicSearchResponse,
    handler: ({ query }) => search.publicSearch(query),
  });

  api.add({
    method: 'get',
    path: PUBLIC_MARK_PATH,
    operationId: 'publicTrademark',
    tags,
    security: 'none',
    summary: 'Free: one mark with the few fields the free search shows; counted in the same 60 per hour per address',
    description:
      'What the public mark page shows to a visitor without an account (the full record is GET /v1/trademarks/{app_no}/). ' +
      'CORS and RateLimit-* headers as the free search; an application number not on the register is 404.',
    publicSearchLimit: true,
    params: z.object({ app_no: appNoParam }),
    response: S.PublicResult,
    errors: [404],
    handler: ({ params }) => search.publicMark(params.app_no),
  });

  api.add({
    method: 'post',
    path: '/v1/trademarks/bulk/',
    operationId: 'bulkTrademarks',
    tags,
    security: 'apiKey',
    summary: 'Look up to 100 application numbers at once (summaries); one api_calls credit per distinct number',
    description:
      "Needs a plan with bulk search; at most the plan's bulk size per request (pro 50, business 100). Word marks are refused (400).",
    body: S.BulkRequest,
    response: S.BulkResponse,
    bulk: { family: 'search', items: distinct },
    cost: { resource: 'api_calls', units: distinct },
    handler: ({ body }) => trademarks.bulk(body.application_numbers),
  });

  api.add({
    method: 'post',
    path: '/v1/trademarks/bulk-detail/',
    operationId: 'bulkTrademarkDetail',
    tags,
    security: 'apiKey',
    summary: 'Full detail (core data plus the linked tables the plan enables) of up to 100 marks; one api_calls credit per distinct number',
    description: 'Same request, bulk rules and costs as /v1/trademarks/bulk/; each result is shaped like GET /v1/trademarks/{app_no}/.',
    body: S.BulkRequest,
    response: S.BulkDetailResponse,
    bulk: { family: 'search', items: distinct },
    cost: { resource: 'api_calls', units: distinct },
    handler: ({ body, req }) => trademarks.bulkDetail(body.application_numbers, viewerOf(req)),
  });

  api.add({
    method: 'get',
    path: '/v1/trademarks/:app_no/phonetic/',
    operationId: 'getPhonetic',
    tags,
    security: 'apiKey',
    summary: 'How a mark sounds to search: its normalised form, phonetic codes and closest spelling variants and sound-alikes',
    params: S.PhoneticParams,
    response: S.PhoneticResponse,
    errors: [404],
    handler: ({ params }) => search.phonetic(params.app_no),
  });
}
