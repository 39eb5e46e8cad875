import { canonicalCase, enumParam } from '../schema/params.ts';
import { z } from '../schema/zod.ts';
import { EVENT_NAMES, isEventName } from './events.ts';

/** Names in a list of events that are neither the contract's events nor `*`. */
export const unknownEvents = (list: string[]) => [...new Set(list.filter((e) => e !== '*' && !isEventName(e)))];

import { secretProblem } from './secrets.ts';

export const MAX_MONITORED_PER_REQUEST = 10_000;

const eventName = canonicalCase(EVENT_NAMES);

// The names a webhook's events may hold, as the OpenAPI document lists them (the dashboard's checkboxes are
// type-checked against it). Only the document says enum: the schema reads any string, in any case, so that an
// unknown name is refused by the service with a 400 naming it and the known ones (contract §6), as before.
const EventNameDoc = z
  .string()
  .openapi('WebhookEventName', { enum: [...EVENT_NAMES, '*'], description: 'An event of §6, or * for every event, now and later' });

const Url = z
  .string({ error: 'url is required' })
  .trim()
  .max(2048, 'url must be at most 2048 characters')
  .superRefine((s, ctx) => {
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'url must be an absolute URL' });
      return;
    }
    if (u.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: 'url must use https' });
    else if (u.username || u.password) ctx.addIssue({ code: 'custom', message: 'url must not contain credentials' });
    else if (u.hash) ctx.addIssue({ code: 'custom', message: 'url must not contain a fragment' });
  })
  .openapi({
    description: 'HTTPS endpoint that receives deliveries; private and loopback addresses are refused',
    example: 'https://hooks.example.in/nishaan',
  });

const Events = z
  .array(EventNameDoc, { error: 'events must be an array of event names' })
  .min(1, 'events must name at least one event')
  .max(EVENT_NAMES.length + 1)
  // "*" means every event, now and later; a list holding it is just ["*"]. Names are read in any case.
  .transform((list) => (list.includes('*') ? ['*'] : [...new Set(list.map(eventName))]))
  .openapi({ description: `Event names (${EVENT_NAMES.join(', ')}) or ["*"] for all`, example: ['trademark.status_changed'] });

const Monitored = z
  .array(z.string().regex(/^[1-9]\d{0,11}$/, 'each monitored application must be an application number (1-12 digits)'), {
    error: 'monitored_applications must be an array of application numbers',
  })
  .max(MAX_MONITORED_PER_REQUEST, `at most ${MAX_MONITORED_PER_REQUEST} monitored applications per webhook`)
  .transform((list) => [...new Set(list)])
  .openapi({ description: 'Application numbers whose changes this webhook receives (strings)', example: ['1234567'] });

const Secret = z
  .string()
  .superRefine((s, ctx) => {
    const problem = secretProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi({ description: 'Signing secret: 16-256 printable characters, or whsec_ and 24-64 bytes in base64. Generated when absent' });

export const CreateWebhook = z
  .object({
    url: Url,
    monitored_applications: Monitored,
    events: Events,
    secret: Secret.optional(),
  })
  .openapi('CreateWebhookRequest');

export const UpdateWebhook = z
  .object({
    url: Url.optional(),
    events: Events.optional(),
    monitored_applications: Monitored.optional(),
    active: z
      .boolean({ error: 'active must be true or false' })
      .optional()
      .openapi({ description: 'false turns deliveries off; true turns them on again (and clears the failure count)' }),
    secret: Secret.optional().openapi({ description: 'A new signing secret, used from the next attempt on (not echoed back)' }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'nothing to update: give url, events, monitored_applications, active or secret' })
  .openapi('UpdateWebhookRequest');

const Ts = z.string().nullable();

export const WebhookStats = z
  .object({
    deliveries: z.number().int(),
    delivered: z.number().int(),
    failed: z.number().int(),
    pending: z.number().int(),
    cancelled: z.number().int(),
    last_attempt_at: Ts,
    last_success_at: Ts,
    last_failure_at: Ts,
  })
  .openapi('WebhookStats');

export const Webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(EventNameDoc),
    monitored_applications: z.array(z.string()),
    active: z.boolean(),
    status: z.enum(['active', 'inactive', 'disabled']).openapi({
      description: 'active; inactive (turned off by you); disabled (turned off after too many failed attempts: see disabled_reason)',
    }),
    failure_count: z.number().int().openapi({ description: 'Failed attempts since the last successful one' }),
    disabled_at: Ts,
    disabled_reason: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    stats: WebhookStats,
  })
  .openapi('Webhook');

export const CreatedWebhook = Webhook.extend({
  secret: z.string().openapi({ description: 'The signing secret: shown here once, never again' }),
}).openapi('CreatedWebhook');

export const WebhookList = z
  .object({
    count: z.number().int(),
    monitored_marks: z
      .object({ used: z.number().int(), limit: z.number().int().nullable() })
      .openapi({ description: "Distinct marks monitored by all your webhooks against the plan's limit (null: unlimited)" }),
    webhooks: z.array(Webhook),
  })
  .openapi('WebhookList');

export const WebhookParams = z.object({
  webhook_id: z.string().uuid('webhook_id must be a webhook id (UUID)'),
});

export const DeliveryParams = WebhookParams.extend({
  delivery_id: z.string().regex(/^[1-9]\d{0,17}$/, 'delivery_id must be a delivery id (digits)'),
});

export const Attempt = z
  .object({
    attempt: z.number().int(),
    attempted_at: z.string(),
    status_code: z.number().int().nullable(),
    latency_ms: z.number().int(),
    error: z.string().nullable(),
    response_excerpt: z.string().nullable().openapi({ description: "Start of your endpoint's answer (non-2xx answers, at most 1 KiB)" }),
  })
  .openapi('WebhookAttempt');

export const Delivery = z
  .object({
    id: z.string(),
    webhook_id: z.string(),
    message_id: z.string().openapi({ description: 'The webhook-id header: the same on every attempt and replay' }),
    event_id: z.string(),
    event: z.string().openapi({ description: 'An event of §6, or webhook.ping for a test ping (which cannot be replayed)' }),
    application_number: z.string().nullable().openapi({ description: "The event's mark (null for a test ping)" }),
    status: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
    attempts: z.number().int(),
    next_attempt_at: Ts.openapi({ description: 'When a pending delivery is tried next' }),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    finished_at: Ts,
    attempt_log: z.array(Attempt),
    watch: z
      .object({
        watch_id: z.string().nullable(),
        hit_id: z.string().nullable(),
        word_mark: z.string().nullable().openapi({ description: 'The mark hit' }),
        risk_level: z.string().nullable(),
        overall_similarity_score: z.number().nullable(),
        reasons: z.array(z.string()),
        opposition_deadline: z.string().nullable(),
      })
      .nullable()
      .openapi({
        description: 'For trademark.similar_filed and watch.deadline_approaching: the watch and hit it is about; null for the other events',
      }),
  })
  .openapi('WebhookDelivery');

export const DeliveryQuery = z.object({
  status: enumParam(['pending', 'delivered', 'failed', 'cancelled'], 'status must be pending, delivered, failed or cancelled').optional(),
});

export const DeliveryList = z
  .object({
    webhook_id: z.string(),
    count: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    deliveries: z.array(Delivery),
  })
  .openapi('WebhookDeliveryList');

export const PingResult = z
  .object({
    event: z.literal('webhook.ping'),
    event_id: z.string().openapi({ description: "The ping's event id, as in the body sent and the delivery log" }),
    message_id: z.string(),
    delivery_id: z
      .string()
      .nullable()
      .openapi({ description: 'The delivery log entry of this ping (null if the webhook was deleted meanwhile)' }),
    delivered: z.boolean(),
    status_code: z.number().int().nullable(),
    latency_ms: z.number().int(),
    error: z.string().nullable(),
    response_excerpt: z.string().nullable(),
  })
  .openapi('WebhookPingResult');

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedWebhook');

/** What a webhook endpoint receives (documented in the OpenAPI document's `webhooks`). */
export const WebhookPayload = z
  .object({
    event: z.string().openapi({ description: `One of ${EVENT_NAMES.join(', ')}` }),
    event_id: z.string().openapi({ description: "The event's id, as in the changes feed and the delivery log" }),
    trademark: z.object({ application_number: z.string(), word_mark: z.string().nullable(), class_number: z.number().int().nullable() }),
    change: z.object({
      old_value: z.unknown().openapi({ description: 'The value before the change (null for a new record); shapes in docs/ingest.md' }),
      new_value: z.unknown(),
      changed_at: z.string().openapi({ description: 'ISO 8601 UTC' }),
    }),
    full_record: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "The mark as GET /v1/trademarks/{app_no}/ shows it to the owner's plan at delivery time (null if gone)" }),
  })
  .openapi('WebhookPayload');
