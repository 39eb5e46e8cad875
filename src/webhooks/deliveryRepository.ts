// SQL of the delivery pipeline. PostgreSQL holds its whole state: which events are fanned out
// (outbox.fanned_out_at, set with their deliveries in one transaction), which deliveries are owed
// (webhook_deliveries.status = 'pending'), when each is due and when it was last handed to the queue;
// the queue holds nothing that cannot be rebuilt.
import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import { isoTimestamp } from '../db/sql.ts';
import { PING_EVENT } from './events.ts';

export interface DeliveryKey {
  outboxId: number;
  webhookId: string;
}

export interface Queued extends DeliveryKey {
  /** Attempts already made in the current round. */
  used: number;
  /** Milliseconds until it is due (0: now). */
  delayMs: number;
}

export interface DeliveryWork extends DeliveryKey {
  id: number;
  status: string;
  attempts: number;
  round_start: number;
  account_id: string;
  url: string;
  secret: Buffer;
  active: boolean;
  event: string;
  application_number: string;
  old_value: unknown;
  new_value: unknown;
  changed_at: string;
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  excerpt: string | null;
}

export class DeliveryRepository {
  constructor(private readonly db: Db) {}

  /** Everything the attempts of several deliveries need, in one round trip (in the order asked; undefined for a gone one). */
  async loadMany(keys: DeliveryKey[]): Promise<(DeliveryWork | undefined)[]> {
    const r = await this.db.raw(
      `select d.id, d.outbox_id as "outboxId", d.webhook_id as "webhookId", d.status, d.attempts, d.round_start,
         w.account_id, w.url, w.secret, w.active, o.event, o.application_number, o.old_value, o.new_value,
         ${isoTimestamp('o.changed_at')} as changed_at
       from unnest(?::bigint[], ?::uuid[]) k(outbox_id, webhook_id)
       join webhook_deliveries d on d.outbox_id = k.outbox_id and d.webhook_id = k.webhook_id
       join webhooks w on w.id = d.webhook_id join outbox o on o.id = d.outbox_id`,
      [keys.map((k) => k.outboxId), keys.map((k) => k.webhookId)],
    );
    const byKey = new Map((r.rows as DeliveryWork[]).map((w) => [`${w.outboxId}|${w.webhookId}`, w]));
    return keys.map((k) => byKey.get(`${k.outboxId}|${k.webhookId}`));
  }

  /** Records several successful attempts in one transaction (attempts, deliveries, and failure counts cleared). */
  async recordSuccesses(items: { work: DeliveryWork; outcome: AttemptOutcome }[]): Promise<undefined[]> {
    await this.db.transaction(async (trx) => {
      await lockWebhooks(
        trx,
        items.map((i) => i.work.webhookId),
      );
      await trx.raw(
        `with s as (select * from unnest(?::bigint[], ?::int[], ?::int[], ?::int[], ?::uuid[])
                    s(id, attempt, status_code, latency_ms, webhook_id)),
         a as (insert into webhook_attempts (delivery_id, attempt, status_code, latency_ms)
               select id, attempt, status_code, latency_ms from s),
         w as (update webhooks set failure_count = 0 where id in (select webhook_id from s) and failure_count > 0)
         update webhook_deliveries d set attempts = d.attempts + 1, status = 'delivered', last_attempt_at = now(),
           last_status_code = s.status_code, last_error = null, next_attempt_at = now(), queued_at = now(), finished_at = now()
         from s where d.id = s.id`,
        [
          items.map((i) => i.work.id),
          items.map((i) => i.work.attempts + 1),
          items.map((i) => i.outcome.statusCode ?? 0),
          items.map((i) => i.outcome.latencyMs),
          items.map((i) => i.work.webhookId),
        ],
      );
    });
    return items.map(() => undefined);
  }

  /**
   * Records an attempt. A success ends the delivery and clears the webhook's failure count; a failure
   * either schedules the next attempt or ends the delivery, and counts against the webhook, which is
   * disabled (and its owner mailed, in the same transaction) at the threshold. Returns whether the
   * delivery is still pending and whether this attempt disabled the webhook.
   */
  async record(
    w: DeliveryWork,
    o: AttemptOutcome,
    opts: {
      final: boolean;
      retryDelayMs: number;
      disableAfter: number;
      /** The owner's mail, given the watches that send to the webhook (their words, or "logo watch <id>"). */
      mail: (email: string, watches: string[]) => { subject: string; body: string };
    },
  ): Promise<{ pending: boolean; disabled: boolean }> {
    const status = o.ok ? 'delivered' : opts.final ? 'failed' : 'pending';
    // The attempt and the delivery's new state, in one statement; a success also clears the webhook's
    // failure count (written only when there is one, so a busy webhook's row is not rewritten per delivery).
    const write = (q: Db | Knex.Transaction) =>
      q.raw(
        `with a as (insert into webhook_attempts (delivery_id, attempt, status_code, latency_ms, error, response_excerpt)
                  values (?, ?, ?, ?, ?, ?)),
       w as (update webhooks set failure_count = 0 where ? and id = ? and failure_count > 0)
       update webhook_deliveries set attempts = attempts + 1, status = ?, last_attempt_at = now(), last_status_code = ?, last_error = ?,
         next_attempt_at = now() + ? * interval '1 millisecond', queued_at = now(),
         finished_at = case when ? = 'pending' then null else now() end
       where id = ?`,
        [
          w.id,
          w.attempts + 1,
          o.statusCode,
          o.latencyMs,
          o.error,
          o.excerpt?.replace(/\0/g, '') ?? null,
          o.ok,
          w.webhookId,
          status,
          o.statusCode,
          o.error,
          opts.final || o.ok ? 0 : opts.retryDelayMs,
          status,
          w.id,
        ],
      );
    return this.db.transaction(async (trx) => {
      await lockWebhooks(trx, [w.webhookId]);
      await write(trx);
      if (o.ok) return { pending: false, disabled: false };
      const f = await trx.raw(
        `update webhooks w set failure_count = w.failure_count + 1, last_failure_at = now(),
           active = w.active and w.failure_count + 1 < ?,
           disabled_at = case when w.active and w.failure_count + 1 >= ? then now() else w.disabled_at end,
           disabled_reason = case when w.active and w.failure_count + 1 >= ?
             then format('%s failed attempts in a row (last: %s)', w.failure_count + 1, ?::text) else w.disabled_reason end
         from (select id, active as was_active from webhooks where id = ?) old
         where w.id = old.id
         returning old.was_active and not w.active as disabled, w.active, w.url,
           (select email from accounts a where a.id = w.account_id) as email,
           (select coalesce(array_agg(coalesce(x.word_mark, 'logo watch ' || x.id) order by x.created_at), '{}')
            from watches x where x.webhook_id = w.id) as watches`,
        [opts.disableAfter, opts.disableAfter, opts.disableAfter, o.error ?? 'failed', w.webhookId],
      );
      const row = f.rows[0];
      if (row?.disabled) {
        const m = opts.mail(row.email, row.watches);
        await trx('mail_outbox').insert({ to_address: row.email, subject: m.subject, body: m.body });
      }
      if (row && !row.active) {
        // Deliveries still owed to a disabled webhook (this one too, and those whose attempts were in flight
        // when it was disabled) end here; they can be replayed once it is on again.
        await trx.raw(
          `update webhook_deliveries
           set status = 'cancelled', finished_at = now(), last_error = coalesce(last_error || '; ', '') || 'webhook disabled'
           where webhook_id = ? and status = 'pending'`,
          [w.webhookId],
        );
        return { pending: false, disabled: Boolean(row.disabled) };
      }
      return { pending: status === 'pending', disabled: false };
    });
  }

  /** Ends a delivery that will not be attempted (webhook off, plan without webhooks or without the event's category). */
  async cancel(id: number, reason: string): Promise<void> {
    await this.db.raw(
      `update webhook_deliveries set status = 'cancelled', finished_at = now(), last_error = ? where id = ? and status = 'pending'`,
      [reason, id],
    );
  }

  /**
   * One pass of the relay, in one transaction: events not yet fanned out get their feed cursor, one
   * delivery per active webhook that monitors the mark and wants the event, and are marked fanned out;
   * those deliveries, and pending ones handed to the queue long enough ago (and past due) that it should
   * have run them, are returned to be queued. Re-adding a job still queued is a no-op (same job id), so
   * this errs on the side of re-adding.
   */
  async relayPass(requeueAfterMs: number, limit: number): Promise<{ events: number; deliveries: Queued[] }> {
    return this.db.transaction(async (trx) => {
      // Serialised, so that seq (the changes feed's cursor) is drawn in commit order (see the migration).
      await trx.raw(`select pg_advisory_xact_lock(hashtext('nishaan.outbox_relay'))`);
      const ev = await trx.raw(
        `with picked as (
           select id from outbox where fanned_out_at is null order by id limit ? for update skip locked),
         done as (
           update outbox o set fanned_out_at = now(), relayed_at = now(), seq = coalesce(o.seq, nextval('outbox_seq'))
           from picked where o.id = picked.id returning o.id, o.event, o.application_number, o.webhook_id),
         made as (
           insert into webhook_deliveries (webhook_id, outbox_id, queued_at)
           select w.id, done.id, now() from done
             join webhook_marks m on m.application_number = done.application_number
             join webhooks w on w.id = m.webhook_id
           where done.webhook_id is null and w.active and (w.events @> '{*}' or done.event = any(w.events))
           -- An event addressed to one webhook (a watch's hit) goes to it alone, whatever its events list.
           union all
           select w.id, done.id, now() from done join webhooks w on w.id = done.webhook_id where w.active
           order by 2
           on conflict (outbox_id, webhook_id) do nothing
           returning outbox_id, webhook_id)
         select (select count(*)::int from done) as events,
           coalesce((select json_agg(json_build_object('outboxId', outbox_id, 'webhookId', webhook_id)) from made), '[]') as made`,
        [limit],
      );
      const dv = await trx.raw(
        `update webhook_deliveries d set queued_at = now() from (
           select id from webhook_deliveries where status = 'pending'
             and (queued_at is null or greatest(queued_at, next_attempt_at) < now() - ? * interval '1 millisecond')
           order by next_attempt_at limit ? for update skip locked) p
         where d.id = p.id
         returning d.outbox_id, d.webhook_id, d.attempts - d.round_start as used,
           greatest(0, extract(epoch from d.next_attempt_at - now()) * 1000)::int as delay_ms`,
        [requeueAfterMs, limit],
      );
      const made = (ev.rows[0].made as DeliveryKey[]).map((k) => ({ ...k, used: 0, delayMs: 0 }));
      return {
        events: ev.rows[0].events as number,
        deliveries: [
          ...made,
          ...dv.rows.map((r: { outbox_id: number; webhook_id: string; used: number; delay_ms: number }) => ({
            outboxId: r.outbox_id,
            webhookId: r.webhook_id,
            used: r.used,
            delayMs: r.delay_ms,
          })),
        ],
      };
    });
  }

  /** Drops delivery logs older than `days` (finished deliveries only), and the test pings' own events with them. */
  async purge(days: number): Promise<number> {
    const r = await this.db.raw(`delete from webhook_deliveries where status <> 'pending' and finished_at < now() - ? * interval '1 day'`, [
      days,
    ]);
    await this.db.raw(`delete from outbox where event = ? and webhook_id is not null and created_at < now() - ? * interval '1 day'`, [
      PING_EVENT,
      days,
    ]);
    return r.rowCount ?? 0;
  }
}

/**
 * Every transaction that writes a webhook's deliveries takes its webhook's row first, in id order:
 * one lock order, so a failure that cancels the webhook's other pending deliveries never waits on a
 * delivery whose own record waits on the webhook (the deadlock that lost failure counts).
 */
async function lockWebhooks(trx: Knex.Transaction, ids: string[]): Promise<void> {
  await trx.raw(`select id from webhooks where id = any(?::uuid[]) order by id for no key update`, [[...new Set(ids)]]);
}
