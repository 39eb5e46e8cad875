import { dateParam, valueList } from '../schema/markFilters.ts';
import { enumParam, limitParam, textParam } from '../schema/params.ts';
import { z } from '../schema/zod.ts';
import { RISK_LEVELS } from '../threats/schemas.ts';
import { WatchHit, WatchParams } from './schemas.ts';

// Watch hits as the account reads and triages them (/user/v1/watches/hits/, docs/watches.md).

export const HIT_STATES = ['new', 'acknowledged', 'dismissed'] as const;
export type HitState = (typeof HIT_STATES)[number];
const STATES_MESSAGE = `state must be one or more of ${HIT_STATES.join(', ')}, comma-separated`;

const states = valueList('state', `Only hits in these states, comma-separated: ${HIT_STATES.join(', ')}`)
  .refine((list) => list.every((s) => (HIT_STATES as readonly string[]).includes(s.toLowerCase())), STATES_MESSAGE)
  .transform((list) => list.map((s) => s.toLowerCase() as HitState));

const cursor = textParam('cursor', 200).openapi({ description: 'Where the next page starts: next_cursor of the page before' });

const watchFilters = {
  state: states.optional(),
  min_risk: enumParam(RISK_LEVELS, 'min_risk must be Low, Medium or High')
    .optional()
    .openapi({ description: 'Only hits at or above this risk level' }),
  deadline_before: dateParam('deadline_before', 'Only hits whose opposition deadline falls on or before this day'),
  created_from: dateParam('created_from', 'Only hits recorded on or after this day (UTC)'),
  created_to: dateParam('created_to', 'Only hits recorded on or before this day (UTC)'),
  limit: limitParam(50, 200),
  cursor: cursor.optional(),
};

export const WatchHitsQuery = z.object(watchFilters);

export const AccountHitsQuery = z.object({
  watch_id: WatchParams.shape.watch_id.optional().openapi({ description: "Only this watch's hits" }),
  ...watchFilters,
});

export type HitsQuery = z.infer<typeof AccountHitsQuery>;

export const HitParams = z.object({ hit_id: z.string().uuid('hit_id must be a hit id (UUID)') });

export const UpdateHit = z
  .object({
    state: enumParam(HIT_STATES, `state must be one of ${HIT_STATES.join(', ')}`).optional(),
    note: z
      .string({ error: 'note must be a string, or null to clear it' })
      .max(2000, 'note must be at most 2000 characters')
      .refine((s) => !s.includes('\0'), 'note must not contain NUL characters')
      .nullable()
      .optional()
      .openapi({ description: 'Your note on the hit (null clears it)' }),
  })
  .strict()
  .refine((b) => b.state !== undefined || b.note !== undefined, { message: 'nothing to update: give state, note or both' })
  .openapi('UpdateWatchHitRequest');

export type UpdateHitInput = z.infer<typeof UpdateHit>;

const date = (description: string) => z.string().nullable().openapi({ format: 'date', description });

export const StoredHit = WatchHit.extend({
  id: z.string().openapi({ description: "The hit's id, which trademark.similar_filed names as hit_id" }),
  watch_id: z.string(),
  journal: z
    .object({ id: z.number().int(), journal_number: z.string(), publication_date: z.string() })
    .nullable()
    .openapi({ description: 'The Trade Marks Journal that advertised the mark; null until it is advertised' }),
  opposition_deadline: date(
    "The last day to oppose: the journal's publication date plus four months (s.21(1)); null until the mark is advertised",
  ),
  opposition_deadline_unextended: date('Three months from the publication date: the period before any extension (s.21(1))'),
  state: z.enum(HIT_STATES),
  note: z.string().nullable(),
  created_at: z.string().openapi({ description: 'When the hit was recorded' }),
  updated_at: z.string(),
}).openapi('StoredWatchHit');

export const HitPage = z
  .object({
    count: z.number().int().openapi({ description: 'Hits matching the filters, on every page' }),
    next_cursor: z.string().nullable().openapi({ description: 'Pass as cursor for the next page; null on the last' }),
    hits: z.array(StoredHit).openapi({ description: 'Newest first' }),
  })
  .openapi('WatchHitPage');
