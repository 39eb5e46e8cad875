// One delivery attempt: who may still receive it (webhook on, plan with webhooks and the event's
// category, at this moment), the body built now (full_record as the owner's plan sees it now), signed,
// POSTed through the guarded client, and its outcome recorded in PostgreSQL before the job ends.

import { type Category, viewerFor } from '../accounts/access.ts';
import type { CallerCache } from '../accounts/callerCache.ts';
import type { Caller } from '../accounts/callerRepository.ts';
import type { Logger } from '../logger.ts';
import type { OutboundClient, PostResult } from '../outbound/client.ts';
import { gateOf } from '../trademarks/gate.ts';
import type { TrademarkService } from '../trademarks/service.ts';
import { Batcher } from './batcher.ts';
import type { AttemptOutcome, DeliveryKey, DeliveryRepository, DeliveryWork } from './deliveryRepository.ts';
import { PING_EVENT } from './events.ts';
import type { SecretBox } from './secrets.ts';
import { messageId, signatureHeaders } from './signing.ts';

export interface DeliverySettings {
  /** First attempt plus retries. */
  maxAttempts: number;
  retryDelayMs: number;
  disableAfter: number;
}

export type AttemptResult = 'delivered' | 'retry' | 'failed' | 'cancelled' | 'gone';

const USER_AGENT = 'Nishaan-Webhooks/1.0';

/** The request a receiver gets, signed with the webhook's secret. */
export function signedRequest(secret: string, msgId: string, event: string, body: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Nishaan-Event': event,
    ...signatureHeaders(secret, msgId, body),
  };
}

export const isSuccess = (r: PostResult) => r.status !== null && r.status >= 200 && r.status < 300;

export class Deliverer {
  // An event sent to several webhooks of one plan builds its full record once (keyed by the event,
  // so a later change of the mark is never answered from an older event's record).
  private readonly records = new Map<string, { at: number; value: Promise<Signer | null> }>();

  constructor(
    private readonly repo: DeliveryRepository,
    private readonly owners: CallerCache,
    private readonly trademarks: TrademarkService,
    private readonly box: SecretBox,
    private readonly client: OutboundClient,
    private readonly settings: DeliverySettings,
    private readonly log: Logger,
    private readonly onDisabled: () => void = () => {},
  ) {}

  private readonly loads = new Batcher((keys: DeliveryKey[]) => this.repo.loadMany(keys));
  private readonly successes = new Batcher((items: { work: DeliveryWork; outcome: AttemptOutcome }[]) => this.repo.recordSuccesses(items));

  async attempt(k: DeliveryKey): Promise<AttemptResult> {
    const w = await this.loads.get(k);
    if (w?.status !== 'pending') return 'gone';
    const refusal = await this.refusal(w);
    if (refusal) {
      await this.repo.cancel(w.id, refusal);
      return 'cancelled';
    }
    const owner = (await this.owners.byAccountId(w.account_id))!;
    const body = JSON.stringify(await this.payload(w, owner));
    const id = messageId(w.outboxId, w.webhookId);
    const r = await this.client.post(w.url, signedRequest(this.box.open(w.secret, w.webhookId), id, w.event, body), body);
    const ok = isSuccess(r);
    const outcome = { ok, statusCode: r.status, latencyMs: r.latencyMs, error: r.error, excerpt: r.excerpt };
    if (ok) {
      await this.successes.get({ work: w, outcome });
      return 'delivered';
    }
    const final = w.attempts + 1 - w.round_start >= this.settings.maxAttempts;
    const rec = await this.repo.record(w, outcome, {
      final,
      retryDelayMs: this.settings.retryDelayMs,
      disableAfter: this.settings.disableAfter,
      mail: disabledMail(w.url, w.webhookId, this.settings.disableAfter),
    });
    if (rec.disabled) {
      this.log.warn({ webhook: w.webhookId }, 'webhook disabled after repeated failures; owner mailed');
      this.onDisabled();
    }
    return rec.pending ? 'retry' : 'failed';
  }

  /** Why this delivery must not be sent now, or null. */
  private async refusal(w: DeliveryWork): Promise<string | null> {
    if (!w.active) return 'webhook is not active';
    const owner = await this.owners.byAccountId(w.account_id);
    if (!owner?.subscriptionActive) return 'subscription is not active';
    if (!owner.webhookEnabled) return 'webhooks are not on the plan';
    const missing = gateOf(viewerFor(owner).categories).missingFor(w.event);
    return missing ? `${missing} is not on the plan` : null;
  }

  private async payload(w: DeliveryWork, owner: Caller) {
    // An account's event, not a mark's: the job's summary was written with it (src/clearance/batchRepository.ts).
    if (w.event === 'clearance.completed') return { event: w.event, event_id: String(w.outboxId), clearance: w.new_value };
    const record = (await this.fullRecord(w, owner)) as { word_mark?: string; class_number?: number } | null;
    return {
      event: w.event,
      event_id: String(w.outboxId),
      trademark: {
        application_number: w.application_number,
        word_mark: record?.word_mark ?? null,
        class_number: record?.class_number ?? null,
      },
      change: { old_value: w.old_value, new_value: w.new_value, changed_at: w.changed_at },
      full_record: record,
    };
  }

  // Records read side by side are read together: one query per plan shape, not one per mark.
  private readonly details = new Batcher(async (keys: { app: string; categories: ReadonlySet<Category>; shape: string }[]) => {
    const groups = new Map<string, { categories: ReadonlySet<Category>; apps: Set<string> }>();
    for (const k of keys) {
      const g = groups.get(k.shape) ?? { categories: k.categories, apps: new Set<string>() };
      g.apps.add(k.app);
      groups.set(k.shape, g);
    }
    const found = new Map<string, Signer>();
    await Promise.all(
      [...groups].map(async ([shape, g]) => {
        for (const [app, sign] of await this.trademarks.detailsFor([...g.apps], g.categories)) found.set(`${shape}|${app}`, sign);
      }),
    );
    return keys.map((k) => found.get(`${k.shape}|${k.app}`) ?? null);
  });

  private async fullRecord(w: DeliveryWork, owner: Caller): Promise<unknown> {
    const shape = owner.categories.join(',');
    const key = `${w.outboxId}|${shape}`;
    const now = Date.now();
    let hit = this.records.get(key);
    if (!hit || now - hit.at >= 2000) {
      if (this.records.size > 5000) this.records.clear();
      const value = this.details.get({ app: w.application_number, categories: viewerFor(owner).categories, shape });
      value.catch(() => this.records.delete(key));
      this.records.set(key, (hit = { at: now, value }));
    }
    const sign = await hit.value;
    return sign ? sign(owner.accountId) : null;
  }
}

type Signer = (accountId: string) => unknown;

/** The body of a test ping (no registry change behind it); event_id is the id it is logged under. */
export function pingBody(webhookId: string, eventId: string) {
  return {
    event: PING_EVENT,
    event_id: eventId,
    webhook_id: webhookId,
    trademark: null,
    change: null,
    full_record: null,
    sent_at: new Date().toISOString(),
  };
}

function disabledMail(url: string, id: string, threshold: number) {
  const log = `GET /user/v1/webhooks/${id}/deliveries/`;
  return (email: string, watches: string[]) => ({
    subject: 'Nishaan: your webhook was disabled after repeated failed deliveries',
    body: [
      `Hello,`,
      '',
      `Your webhook ${id} (${url}) failed ${threshold} delivery attempts in a row, so Nishaan has disabled it and stopped sending to it.`,
      `Deliveries still owed to it were cancelled; you can see them, and replay them, in its delivery log (${log}).`,
      ...(watches.length
        ? [
            '',
            `It is the webhook of ${watches.length === 1 ? 'your similarity watch' : `${watches.length} of your similarity watches`}: ` +
              `${watches.join('; ')}. They keep watching: their hits are still recorded, with their opposition deadlines, in your ` +
              'watch inbox (GET /user/v1/watches/hits/, and Watches in the dashboard), but are not sent to the webhook while it is off.',
          ]
        : []),
      '',
      `Once the endpoint answers with a 2xx again, turn the webhook back on with PUT /user/v1/webhooks/${id}/ {"active": true}.`,
      `Changes made while it was off can also be read from GET /v1/changes/.`,
      '',
      `This message was sent to ${email}.`,
    ].join('\n'),
  });
}
