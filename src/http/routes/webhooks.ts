import type { Services } from '../../root.ts';
import { Page } from '../../schema/params.ts';
import { z } from '../../schema/zod.ts';
import { ChangesQuery, ChangesResponse } from '../../webhooks/changes.ts';
import * as S from '../../webhooks/schemas.ts';
import type { Api } from '../endpoint.ts';
import { viewerOf } from '../viewer.ts';

const tags = ['Webhooks'];

const PLAN_NOTE = 'Needs an active subscription on a plan with webhooks (403 `webhooks_not_on_plan`, `subscription_inactive`).';

export function webhookRoutes(api: Api, { webhooks: s }: Pick<Services, 'webhooks'>): void {
  const base = { tags, security: 'bearer' as const, cost: null };

  const header = (description: string) => z.string().openapi({ description });
  api.registry.registerWebhook({
    method: 'post',
    path: 'trademark-event',
    operationId: 'trademarkEvent',
    tags,
    summary: 'A change to a monitored mark, POSTed to your HTTPS url',
    description:
      'Verify `X-Nishaan-Signature` (sha256= hex HMAC-SHA256 of the raw body, keyed with your secret) or the Standard ' +
      'Webhooks headers; de-duplicate on `webhook-id`. Answer 2xx within 10 s; anything else is retried up to 3 times, 60 s apart. ' +
      'See docs/webhooks.md.',
    request: {
      headers: z.object({
        'X-Nishaan-Signature': header('sha256=<hex HMAC-SHA256 of the raw body with the secret>'),
        'X-Nishaan-Event': header('The event name'),
        'webhook-id': header('msg_<event>_<webhook>: the same on every attempt and replay'),
        'webhook-timestamp': header('Seconds since the epoch, of this attempt'),
        'webhook-signature': header('v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">'),
      }),
      body: { content: { 'application/json': { schema: S.WebhookPayload } } },
    },
    responses: { 200: { description: 'Any 2xx within 10 s acknowledges the delivery' } },
  });

  api.add({
    ...base,
    method: 'post',
    path: '/user/v1/webhooks/',
    operationId: 'createWebhook',
    feature: 'webhooks',
    summary: 'Register a webhook (the signing secret is shown once, in this answer)',
    description:
      `${PLAN_NOTE} The url must be HTTPS and reach a public address. An unknown event name, an application number ` +
      "not in the register or a weak secret is 400 naming it. The plan's monitored-mark limit counts distinct marks across all " +
      'your webhooks (403 `monitored_limit_exceeded`). Without a secret one is generated (whsec_ and 32 random bytes in base64).',
    body: S.CreateWebhook,
    response: S.CreatedWebhook,
    status: 201,
    errors: [403],
    handler: ({ caller, body }) => s.create(caller, body),
  });

  api.add({
    ...base,
    method: 'get',
    path: '/user/v1/webhooks/list/',
    operationId: 'listWebhooks',
    summary: 'Your webhooks with their status and delivery statistics',
    response: S.WebhookList,
    handler: ({ caller }) => s.list(caller),
  });

  api.add({
    ...base,
    method: 'get',
    path: '/user/v1/webhooks/:webhook_id/',
    operationId: 'getWebhook',
    summary: 'One webhook with its status and delivery statistics',
    params: S.WebhookParams,
    response: S.Webhook,
    errors: [404],
    handler: ({ caller, params }) => s.get(caller, params.webhook_id),
  });

  api.add({
    ...base,
    method: 'put',
    path: '/user/v1/webhooks/:webhook_id/',
    operationId: 'updateWebhook',
    summary: "Change a webhook's url, events, monitored applications, active status or secret",
    description:
      `${PLAN_NOTE} Except \`{"active": false}\` alone, which is always allowed. \`{"active": true}\` turns a disabled ` +
      'webhook on again and clears its failure count. Fields left out stay as they are.',
    params: S.WebhookParams,
    body: S.UpdateWebhook,
    response: S.Webhook,
    errors: [403, 404],
    handler: ({ caller, params, body }) => s.update(caller, params.webhook_id, body),
  });

  api.add({
    ...base,
    method: 'delete',
    path: '/user/v1/webhooks/:webhook_id/',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook, its monitored marks and its delivery log',
    params: S.WebhookParams,
    response: S.Deleted,
    errors: [404],
    handler: ({ caller, params }) => s.delete(caller, params.webhook_id),
  });

  api.add({
    ...base,
    method: 'get',
    path: '/user/v1/webhooks/:webhook_id/deliveries/',
    operationId: 'listWebhookDeliveries',
    summary: "A webhook's delivery log, newest first: each delivery with every attempt's status code, latency and error",
    params: S.WebhookParams,
    query: Page.extend(S.DeliveryQuery.shape),
    response: S.DeliveryList,
    errors: [404],
    handler: ({ caller, params, query }) => s.deliveries(caller, params.webhook_id, query.status, query.limit, query.offset),
  });

  api.add({
    ...base,
    method: 'post',
    path: '/user/v1/webhooks/:webhook_id/deliveries/:delivery_id/replay/',
    operationId: 'replayWebhookDelivery',
    feature: 'webhooks',
    summary: 'Send a delivery again: a new round of attempts (with retries) under the same webhook-id',
    description:
      `${PLAN_NOTE} The webhook must be active (409 \`webhook_inactive\`). A delivery still pending is left as it is. ` +
      'A test ping is not sent again (409 `not_replayable`): send a new one.',
    params: S.DeliveryParams,
    response: S.Delivery,
    status: 202,
    errors: [403, 404, 409],
    handler: ({ caller, params }) => s.replay(caller, params.webhook_id, params.delivery_id),
  });

  api.add({
    ...base,
    method: 'post',
    path: '/user/v1/webhooks/:webhook_id/test/',
    operationId: 'pingWebhook',
    feature: 'webhooks',
    summary: 'Send a signed webhook.ping to the endpoint now and report its answer',
    description:
      `${PLAN_NOTE} Works for an inactive webhook too, so an endpoint can be checked before turning it on. ` +
      'The ping is logged in the delivery log (event webhook.ping, one attempt, never retried or replayable) ' +
      'and never counts as a failure.',
    params: S.WebhookParams,
    response: S.PingResult,
    errors: [403, 404],
    handler: ({ caller, params }) => s.ping(caller, params.webhook_id),
  });
}

export function changesRoutes(api: Api, { changes: feed }: Pick<Services, 'changes'>): void {
  api.add({
    method: 'get',
    path: '/v1/changes/',
    operationId: 'listChanges',
    tags,
    security: 'apiKey',
    summary: "The registry's change events in commit order, for clients that poll",
    description:
      'Page with `since=<next_since>`; each entry is shaped like a webhook delivery without `full_record`. Events whose ' +
      'category is not on your plan are left out and named in `omitted_events`. Costs one `api_calls` like every read.',
    query: ChangesQuery,
    response: ChangesResponse,
    handler: ({ query, req }) => feed.read(query, viewerOf(req).categories),
  });
}
