import express, { type Router } from 'express';
import type { Services } from '../../root.ts';
import { enumParam } from '../../schema/params.ts';
import { z } from '../../schema/zod.ts';
import { CALENDAR_PATH, type CalendarService } from '../../watches/calendarService.ts';
import { DIGEST_FREQUENCIES } from '../../watches/digestRepository.ts';
import type { Api } from '../endpoint.ts';

const tags = ['Watches'];

const Calendar = z
  .object({
    enabled: z.boolean(),
    created_at: z.string().nullable().openapi({ description: 'When the current address was made; null when the feed is off' }),
  })
  .openapi('WatchCalendar');

const NewCalendar = Calendar.extend({
  url: z.string().openapi({ description: 'The feed (text/calendar), shown this once: subscribe to it from a calendar application' }),
}).openapi('NewWatchCalendar');

const FREQUENCY = `frequency must be one of ${DIGEST_FREQUENCIES.join(', ')}`;

const Digest = z
  .object({
    frequency: z.enum(DIGEST_FREQUENCIES),
    since: z.string().nullable().openapi({ description: 'Hits recorded from then on are mailed; null when the digest was never set' }),
    last_sent_at: z.string().nullable().openapi({ description: 'When the last digest was written; null: none yet' }),
  })
  .openapi('WatchDigest');

const SetDigest = z
  .object({
    frequency: enumParam(DIGEST_FREQUENCIES, FREQUENCY).openapi({
      description: 'off, daily (each morning, UTC), or weekly (Mondays, the day the journal is published)',
    }),
  })
  .strict()
  .openapi('SetWatchDigestRequest');

export function watchChannelRoutes(api: Api, { watchCalendar: s, watchDigest: d }: Pick<Services, 'watchCalendar' | 'watchDigest'>): void {
  const base = { tags, security: 'bearer' as const, cost: null, path: '/user/v1/watches/calendar/' };
  api.add({
    ...base,
    method: 'post',
    operationId: 'rotateWatchCalendar',
    summary: "A new address of your calendar feed of watch hits' opposition deadlines (the one before stops working)",
    description:
      'An iCalendar feed any calendar application can subscribe to: one all-day event per open hit (new or acknowledged) of an ' +
      'advertised mark, on its opposition deadline. The address is its own credential: it is shown once, here. docs/watches.md.',
    response: NewCalendar,
    status: 201,
    handler: ({ caller }) => s.rotate(caller),
  });
  api.add({
    ...base,
    method: 'get',
    operationId: 'getWatchCalendar',
    summary: 'Whether your calendar feed is on, and since when (its address is shown only when made)',
    response: Calendar,
    handler: ({ caller }) => s.status(caller),
  });
  api.add({
    ...base,
    method: 'delete',
    operationId: 'disableWatchCalendar',
    summary: 'Turns your calendar feed off: its address stops working',
    response: Calendar,
    handler: ({ caller }) => s.disable(caller),
  });
  const digest = { tags, security: 'bearer' as const, cost: null, path: '/user/v1/watches/digest/' };
  api.add({
    ...digest,
    method: 'get',
    operationId: 'getWatchDigest',
    summary: 'Your mail digest of watch hits: off, daily or weekly',
    response: Digest,
    handler: ({ caller }) => d.get(caller),
  });
  api.add({
    ...digest,
    method: 'put',
    operationId: 'setWatchDigest',
    summary: "Sets your mail digest of watch hits (new hits, and open hits' deadlines within 30 days) to off, daily or weekly",
    description:
      "Mailed to the account's address through SMTP_URL; a digest turned on covers the hits recorded from then on. docs/watches.md.",
    body: SetDigest,
    response: Digest,
    handler: ({ caller, body }) => d.set(caller, body.frequency),
  });
}

/** The feed itself: no key (a calendar application sends none), the unguessable address is the credential. */
export function calendarFeedRouter(calendar: CalendarService): Router {
  const router = express.Router();
  router.get(`${CALENDAR_PATH}:file`, async (req, res) => {
    const body = await calendar.feed(req.params.file);
    res.setHeader('Content-Type', 'text/calendar; charset=utf-8');
    res.setHeader('Cache-Control', 'private, no-cache');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.send(body);
  });
  return router;
}
