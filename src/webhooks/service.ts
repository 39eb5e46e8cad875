import { randomUUID } from 'node:crypto';
import type { Caller } from '../accounts/callerRepository.ts';
import { requireWebhooks } from '../accounts/planRules.ts';
import { AppError, invalidParameter, notFound } from '../errors.ts';
import type { OutboundClient } from '../outbound/client.ts';
import { isSuccess, pingBody, signedRequest } from './delivery.ts';
import { EVENT_NAMES, PING_EVENT } from './events.ts';
import type { WebhookChanges, WebhookRepository, WebhookRow } from './repository.ts';
import { unknownEvents } from './schemas.ts';
import { generateSecret, type SecretBox } from './secrets.ts';
import { messageId } from './signing.ts';

export interface CreateInput {
  url: string;
  monitored_applications: string[];
  events: string[];
  secret?: string;
}

export type UpdateInput = Omit<WebhookChanges, 'secret'> & { secret?: string };

const bodyError = (parameter: string, message: string) => invalidParameter('body', parameter, message, true);

export class WebhookService {
  constructor(
    private readonly repo: WebhookRepository,
    private readonly box: SecretBox,
    private readonly client: OutboundClient,
  ) {}

  /** An unknown event is a 400 whose message names it (contract §6). */
  private checkEvents(events: string[] | undefined): void {
    const unknown = events ? unknownEvents(events) : [];
    if (unknown.length)
      throw bodyError(
        'events',
        `unknown event${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (known: ${EVENT_NAMES.join(', ')}, or *)`,
      );
  }

  private async checkUrl(url: string): Promise<void> {
    const refused = await this.client.vet(url);
    if (refused) throw bodyError('url', `private, loopback and other non-public addresses are refused: ${refused}`);
  }

  private async checkMarks(apps: string[]): Promise<void> {
    const unknown = await this.repo.unknownMarks(apps);
    if (unknown.length) {
      throw bodyError(
        'monitored_applications',
        `not in the register: ${unknown.slice(0, 20).join(', ')}${unknown.length > 20 ? ` and ${unknown.length - 20} more` : ''}`,
      );
    }
  }

  /** The plan's limit on distinct marks across all the account's webhooks, checked under the account's lock. */
  private async checkLimit(trx: Parameters<WebhookRepository['monitoredCount']>[0], caller: Caller, except: string | null, apps: string[]) {
    const limit = caller.monitoredMarksLimit;
    if (limit === null) return;
    const total = await this.repo.monitoredCount(trx, caller.accountId, except, apps);
    if (total > limit) {
      throw new AppError(
        'monitored_limit_exceeded',
        `your plan allows ${limit} monitored marks across your webhooks and similarity watches; this change would make ${total}`,
        { limit, requested: total, plan: caller.planCode },
      );
    }
  }

  async create(caller: Caller, input: CreateInput): Promise<WebhookRow & { secret: string }> {
    requireWebhooks(caller);
    this.checkEvents(input.events);
    await this.checkUrl(input.url);
    await this.checkMarks(input.monitored_applications);
    const id = randomUUID();
    const secret = input.secret ?? generateSecret();
    const row = await this.repo.transaction(async (trx) => {
      await this.repo.lockAccount(trx, caller.accountId);
      await this.checkLimit(trx, caller, null, input.monitored_applications);
      await this.repo.insert(trx, {
        id,
        accountId: caller.accountId,
        url: input.url,
        events: input.events,
        secret: this.box.seal(secret, id),
        apps: input.monitored_applications,
      });
      return (await this.repo.get(caller.accountId, id, trx))!;
    });
    return { ...row, secret };
  }

  async update(caller: Caller, id: string, input: UpdateInput): Promise<WebhookRow> {
    // Turning a webhook off is always allowed; anything else needs webhooks on the plan, which only
    // the body can tell, so this endpoint declares no feature for the pipeline to check first.
    const onlyOff = Object.keys(input).length === 1 && input.active === false;
    if (!onlyOff) requireWebhooks(caller);
    this.checkEvents(input.events);
    if (input.url !== undefined) await this.checkUrl(input.url);
    if (input.monitored_applications !== undefined) await this.checkMarks(input.monitored_applications);
    return this.repo.transaction(async (trx) => {
      await this.repo.lockAccount(trx, caller.accountId);
      if (input.monitored_applications !== undefined) await this.checkLimit(trx, caller, id, input.monitored_applications);
      const changes: WebhookChanges = { ...input, secret: input.secret === undefined ? undefined : this.box.seal(input.secret, id) };
      if (!(await this.repo.update(trx, caller.accountId, id, changes))) throw notFound(`webhook ${id}`);
      return (await this.repo.get(caller.accountId, id, trx))!;
    });
  }

  async get(caller: Caller, id: string): Promise<WebhookRow> {
    const row = await this.repo.get(caller.accountId, id);
    if (!row) throw notFound(`webhook ${id}`);
    return row;
  }

  async list(caller: Caller) {
    const [webhooks, used] = await Promise.all([this.repo.list(caller.accountId), this.repo.monitoredTotal(caller.accountId)]);
    return { count: webhooks.length, monitored_marks: { used, limit: caller.monitoredMarksLimit }, webhooks };
  }

  async delete(caller: Caller, id: string) {
    if (!(await this.repo.delete(caller.accountId, id))) throw notFound(`webhook ${id}`);
    return { id, deleted: true as const };
  }

  async deliveries(caller: Caller, id: string, status: string | undefined, limit: number, offset: number) {
    const r = await this.repo.deliveries(caller.accountId, id, status, limit, offset);
    if (!r) throw notFound(`webhook ${id}`);
    return { webhook_id: id, count: r.count, limit, offset, deliveries: r.deliveries };
  }

  async replay(caller: Caller, id: string, deliveryId: string) {
    requireWebhooks(caller);
    const w = await this.repo.get(caller.accountId, id);
    if (!w) throw notFound(`webhook ${id}`);
    if (!w.active)
      throw new AppError('webhook_inactive', 'the webhook is not active: turn it on (PUT with {"active": true}) before replaying', {
        status: w.status,
      });
    const d = await this.repo.replay(caller.accountId, id, deliveryId);
    if (!d) throw notFound(`delivery ${deliveryId} of webhook ${id}`);
    if (d.event === PING_EVENT)
      throw new AppError('not_replayable', 'a test ping is not sent again: send a new one with POST /user/v1/webhooks/{id}/test/', {
        delivery_id: d.id,
        event: d.event,
      });
    return d;
  }

  /**
   * Sends a signed ping now and reports what the endpoint answered. The ping is logged as a delivery of
   * webhook.ping with its one attempt, but never counts as a failure (nor clears the failure count).
   */
  async ping(caller: Caller, id: string) {
    requireWebhooks(caller);
    const t = await this.repo.target(caller.accountId, id);
    if (!t) throw notFound(`webhook ${id}`);
    const eventId = await this.repo.nextEventId();
    const msgId = messageId(eventId, id);
    const body = JSON.stringify(pingBody(id, eventId));
    const r = await this.client.post(t.url, signedRequest(this.box.open(t.secret, id), msgId, PING_EVENT, body), body);
    const ok = isSuccess(r);
    const deliveryId = await this.repo.recordPing(id, eventId, {
      ok,
      statusCode: r.status,
      latencyMs: r.latencyMs,
      error: r.error,
      excerpt: ok ? null : r.excerpt,
    });
    return {
      event: PING_EVENT as typeof PING_EVENT,
      event_id: eventId,
      message_id: msgId,
      delivery_id: deliveryId ?? null,
      delivered: ok,
      status_code: r.status,
      latency_ms: r.latencyMs,
      error: r.error,
      response_excerpt: r.excerpt,
    };
  }
}
