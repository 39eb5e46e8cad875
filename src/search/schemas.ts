import { classList, dateParam, valueList } from '../schema/markFilters.ts';
import { classNumber, intParam, limitParam, textParam } from '../schema/params.ts';
import { z } from '../schema/zod.ts';
import { TrademarkDetail, TrademarkSummary } from '../trademarks/schemas.ts';
import { STRATEGIES } from './strategies.ts';

export const OFFSET_LIMIT = 10_000;

export const SORTS = ['relevance', 'application_date', '-application_date', 'expire_at', '-expire_at', 'word_mark', '-word_mark'] as const;
export type SortParam = (typeof SORTS)[number];

export const SearchQuery = z.object({
  word_mark: textParam('word_mark', 200)
    .pipe(z.string().min(1, 'word_mark must not be empty'))
    .openapi({ description: 'The word mark to search for' }),
  match_type: z
    .string()
    .optional()
    .default('SMART')
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(['SMART', 'EXACT'], { error: 'match_type must be SMART or EXACT' }))
    .openapi({
      type: 'string',
      enum: ['SMART', 'EXACT'],
      default: 'SMART',
      description: 'SMART (fuzzy, ranked) or EXACT (the whole mark, ignoring case and runs of whitespace)',
    }),
  class_number: classNumber.optional(),
  classes: classList.optional(),
  status: valueList(
    'status',
    'Only marks with one of these statuses, comma-separated, as groups.status spells them (any case), or the groups live, ' +
      'pending and dead (docs/search.md)',
  ).optional(),
  tm_type: valueList('tm_type', 'Only marks of these types, comma-separated (as groups.tm_type spells them, any case)').optional(),
  filing_mode: valueList('filing_mode', 'Only marks of these filing modes, comma-separated (as groups.filing_mode spells them)').optional(),
  state: valueList('state', 'Only marks of these states, comma-separated (as groups.state spells them)').optional(),
  proprietor: textParam('proprietor', 200)
    .optional()
    .openapi({
      description:
        "Only marks whose proprietor's name holds every word given, normalised as word marks are; a word of 3 characters or more " +
        'also matches the words it begins (TATA MOT finds TATA MOTORS LTD)',
    }),
  application_date_from: dateParam('application_date_from', 'Only marks applied for on or after this day'),
  application_date_to: dateParam('application_date_to', 'Only marks applied for on or before this day'),
  expire_from: dateParam('expire_from', 'Only marks expiring on or after this day (marks without an expiry date are left out)'),
  expire_to: dateParam('expire_to', 'Only marks expiring on or before this day (marks without an expiry date are left out)'),
  sort: z
    .string()
    .optional()
    .default('relevance')
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(SORTS, { error: 'sort must be relevance, application_date, expire_at or word_mark, each with - in front for descending' }))
    .openapi({
      type: 'string',
      enum: [...SORTS],
      default: 'relevance',
      description:
        'Order of results: relevance (default), or by application_date, expire_at or word_mark (normalised), - in front for ' +
        'descending; ties by application number in the same direction, marks without an expiry date last',
    }),
  limit: limitParam(50, 100),
  offset: intParam('offset', 0, OFFSET_LIMIT, {
    type: 'offset must be a non-negative integer',
    max: `offset must be at most ${OFFSET_LIMIT}: page further with cursor`,
  })
    .default(0)
    .openapi({ description: `Results to skip (default 0, at most ${OFFSET_LIMIT}; deeper pages with cursor)` }),
  cursor: textParam('cursor', 500)
    .optional()
    .openapi({ description: 'Opaque: next_cursor of the previous page of the same search. Not combined with offset' }),
});
export type SearchParams = z.infer<typeof SearchQuery>;

export const SearchResult = TrademarkSummary.extend({
  score: z
    .number()
    .int()
    .min(0)
    .max(100)
    .openapi({ description: 'Relevance 0-100: a band per strategy, less for spelling distance and extra length' }),
  strategy: z.enum(STRATEGIES).openapi({ description: 'How the mark matched (the strongest way)' }),
}).openapi('SearchResult');

const bucket = z
  .array(z.record(z.string(), z.number().int()))
  .openapi({ description: 'Single-entry {value: count} objects, largest first' });

export const Groups = z
  .object({
    status: bucket,
    tm_type: bucket,
    filing_mode: bucket,
    state: bucket,
    class_number: bucket,
  })
  .openapi('SearchGroups', {
    description: 'Counts over all matches (not just the page); marks without a value are not in that bucket list',
  });

export const SearchResponse = z
  .object({
    query: z.string(),
    match_type: z.enum(['SMART', 'EXACT']),
    count: z.number().int().openapi({ description: 'All matches' }),
    limit: z.number().int(),
    offset: z.number().int(),
    response_ms: z.number().int(),
    from_cache: z.boolean(),
    results: z.array(SearchResult),
    groups: Groups,
    next_cursor: z.string().nullable().openapi({ description: 'Pass as cursor for the page after this one; null on the last page' }),
  })
  .openapi('SearchResponse');

export const PublicResult = TrademarkSummary.pick({
  application_number: true,
  word_mark: true,
  class_number: true,
  status: true,
  application_date: true,
  state: true,
  tm_type: true,
}).openapi('PublicSearchResult');

/** How deep the free search pages: ten pages of ten, so that it stays a search and not a free export. */
export const PUBLIC_OFFSET_LIMIT = 90;

export const PublicSearchQuery = z.object({
  word_mark: textParam('word_mark', 200).pipe(z.string().min(1, 'word_mark must not be empty')),
  match_type: SearchQuery.shape.match_type,
  class_number: classNumber.optional().openapi({ description: 'Only marks in this Nice class (1-45)' }),
  classes: classList.optional(),
  status: SearchQuery.shape.status,
  offset: intParam('offset', 0, PUBLIC_OFFSET_LIMIT, {
    type: 'offset must be a non-negative integer',
    max: `offset must be at most ${PUBLIC_OFFSET_LIMIT}: the free search shows the first 100 matches`,
  })
    .default(0)
    .openapi({ description: `Results to skip (default 0, at most ${PUBLIC_OFFSET_LIMIT}): pages of 10` }),
});
export type PublicSearchParams = z.infer<typeof PublicSearchQuery>;

export const PublicSearchResponse = z
  .object({
    query: z.string(),
    match_type: z.enum(['SMART', 'EXACT']),
    count: z.number().int().openapi({ description: 'All matches (at most 10 are shown at a time, the first 100 in all)' }),
    offset: z.number().int(),
    results: z.array(PublicResult).max(10),
    groups: Groups.pick({ class_number: true, status: true }).openapi('PublicSearchGroups', {
      description: 'Counts by class and status over all matches (filters applied, paging not), largest first',
    }),
  })
  .openapi('PublicSearchResponse');

const appNumbers = z
  .union([z.string(), z.array(z.string({ error: 'application_numbers must hold strings' }))], {
    error: 'application_numbers must be a comma-separated string or an array of strings',
  })
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter((s) => s !== ''))
  .superRefine((list, ctx) => {
    if (list.length === 0) ctx.addIssue({ code: 'custom', message: 'application_numbers must name at least one application number' });
    if (list.length > 100)
      ctx.addIssue({ code: 'custom', message: `application_numbers may hold at most 100 items; this has ${list.length}` });
    const bad = list.filter((s) => !/^\d{1,12}$/.test(s));
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `application_numbers takes application numbers (digits only), never word marks: ${bad
          .slice(0, 5)
          .map((b) => JSON.stringify(b))
          .join(', ')}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''}`,
      });
    }
  })
  .openapi({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, maxItems: 100 }],
    description: 'Application numbers: one comma-separated string, or an array of at most 100 strings. Duplicates count once',
    example: ['1000005', '1000012'],
  });

export const BulkRequest = z.object({ application_numbers: appNumbers });

export const BulkResponse = z
  .object({
    requested: z.number().int().openapi({ description: 'Distinct application numbers asked for' }),
    found: z.number().int(),
    not_found: z.array(z.string()),
    results: z.array(TrademarkSummary),
  })
  .openapi('BulkTrademarkResponse');

export const BulkDetailResponse = z
  .object({
    requested: z.number().int(),
    found: z.number().int(),
    not_found: z.array(z.string()),
    results: z.array(TrademarkDetail),
  })
  .openapi('BulkDetailResponse');

export const PhoneticWord = z
  .object({
    word: z.string(),
    romanised: z.string().openapi({ description: 'Numbers spelled out and Indian romanisation folded (SH→S, EE→I, PH→F, …)' }),
    codes: z.array(z.string()).openapi({ description: 'Double Metaphone codes of the romanised word' }),
  })
  .openapi('PhoneticWord');

export const SoundAlike = TrademarkSummary.pick({ application_number: true, word_mark: true, class_number: true, status: true })
  .extend({ score: z.number().int(), strategy: z.enum(['near', 'spelling', 'phonetic']) })
  .openapi('SoundAlike');

export const PhoneticResponse = z
  .object({
    application_number: z.string(),
    word_mark: z.string(),
    normalised: z.string().openapi({ description: 'The mark as search compares it' }),
    words: z.array(PhoneticWord),
    sound_alikes: z
      .array(SoundAlike)
      .openapi({ description: 'The closest marks matched by spelling variants or sound-alikes, best first (at most 20)' }),
  })
  .openapi('PhoneticResponse');

export const PhoneticParams = z.object({ app_no: z.string().regex(/^\d{1,12}$/, 'app_no must be an application number (digits only)') });
