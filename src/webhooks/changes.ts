// The changes feed (GET /v1/changes/): the registry's events for clients that poll instead of
// receiving webhooks. Its cursor is outbox.seq, drawn by the relay in commit order, so a reader that
// pages with next_since never skips an event committed late (see migrations/*_webhooks.ts).

import type { Category } from '../accounts/access.ts';
import { canonicalCase, limitParam } from '../schema/params.ts';
import { z } from '../schema/zod.ts';
import { gateOf } from '../trademarks/gate.ts';
import { ADDRESSED_EVENTS, EVENT_NAMES, isEventName } from './events.ts';
import type { FeedRepository } from './feedRepository.ts';

const list = (name: string, max: number, each: (s: string) => string | null) =>
  z.string().transform((s, ctx) => {
    const items = [
      ...new Set(
        s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    ];
    if (items.length > max) ctx.addIssue({ code: 'custom', message: `${name} takes at most ${max} values` });
    for (const i of items) {
      const problem = each(i);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }
    return items;
  });

const eventName = canonicalCase(EVENT_NAMES);

export const ChangesQuery = z.object({
  since: z
    .string()
    .regex(/^(\d{1,18}|\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?)$/, {
      error: 'since must be a cursor (next_since of an earlier page, 0 for the beginning) or an ISO 8601 date-time',
      abort: true,
    })
    .refine((s) => /^\d+$/.test(s) || !Number.isNaN(Date.parse(s)), 'since is not a valid date-time')
    .optional()
    .openapi({
      description: 'next_since of the previous page (0: from the beginning), or an ISO 8601 date-time: events recorded from then on',
      example: '0',
    }),
  limit: limitParam(50, 100),
  application_numbers: list('application_numbers', 100, (a) => (/^[1-9]\d{0,11}$/.test(a) ? null : `not an application number: ${a}`))
    .optional()
    .openapi({ type: 'string', description: 'Comma-separated application numbers (at most 100): only their events' }),
  events: list('events', EVENT_NAMES.length, (e) => (isEventName(eventName(e)) ? null : `unknown event: ${e}`))
    .transform((names) => [...new Set(names.map(eventName))])
    .optional()
    .openapi({ type: 'string', description: 'Comma-separated event names (any case): only these events' }),
});

const Change = z.object({
  event_id: z.string().openapi({ description: "The event's id, as in webhook payloads (event_id) and the delivery log" }),
  event: z.string(),
  trademark: z.object({ application_number: z.string(), word_mark: z.string().nullable(), class_number: z.number().int().nullable() }),
  change: z.object({ old_value: z.unknown(), new_value: z.unknown(), changed_at: z.string() }),
  recorded_at: z.string().openapi({ description: "When the event was recorded (the import's commit, or the reminder job's run)" }),
});

export const ChangesResponse = z
  .object({
    count: z.number().int(),
    next_since: z.string().openapi({ description: 'Pass as since to read what follows (the same value when nothing new has arrived)' }),
    has_more: z.boolean(),
    omitted_events: z.array(z.string()).openapi({ description: 'Events left out because their category is not on your plan' }),
    changes: z.array(Change),
  })
  .openapi('ChangesFeed');

export class ChangesFeed {
  constructor(private readonly repo: FeedRepository) {}

  async read(q: z.infer<typeof ChangesQuery>, categories: ReadonlySet<Category>) {
    const gate = gateOf(categories);
    const since = q.since ?? '0';
    const bySeq = /^\d+$/.test(since);
    const rows = await this.repo.read({
      events: gate.events.filter((e) => !ADDRESSED_EVENTS.has(e) && (!q.events || q.events.includes(e))),
      since: bySeq ? { seq: since } : { time: new Date(since) },
      applicationNumbers: q.application_numbers,
      limit: q.limit + 1,
    });
    const page = rows.slice(0, q.limit);
    return {
      count: page.length,
      // For a since given as a time after every event, what follows is whatever comes next.
      next_since: page.length ? page[page.length - 1].seq : bySeq ? since : await this.repo.lastCursor(),
      has_more: rows.length > q.limit,
      omitted_events: gate.omittedEvents.filter((e) => !ADDRESSED_EVENTS.has(e)),
      changes: page.map((x) => ({
        event_id: x.event_id,
        event: x.event,
        trademark: { application_number: x.application_number, word_mark: x.word_mark ?? null, class_number: x.class_number ?? null },
        change: { old_value: x.old_value, new_value: x.new_value, changed_at: x.changed_at },
        recorded_at: x.recorded_at,
      })),
    };
  }
}
