import type { Knex } from 'knex';
import { DELIVERIES_CHANNEL } from '../db/channels.ts';
import type { Db } from '../db/knex.ts';
import type { StaleRead } from '../db/replicas.ts';
import { isoTimestamp } from '../db/sql.ts';
import type { z } from '../schema/zod.ts';
import type { AttemptOutcome } from './deliveryRepository.ts';
import { eventSql, PING_EVENT } from './events.ts';
import type { Delivery } from './schemas.ts';

export interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  monitored_applications: string[];
  active: boolean;
  status: 'active' | 'inactive' | 'disabled';
  failure_count: number;
  disabled_at: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
  stats: {
    deliveries: number;
    delivered: number;
    failed: number;
    pending: number;
    cancelled: number;
    last_attempt_at: string | null;
    last_success_at: string | null;
    last_failure_at: string | null;
  };
}

export interface WebhookChanges {
  url?: string;
  events?: string[];
  monitored_applications?: string[];
  active?: boolean;
  secret?: Buffer;
}

/** The account's similarity watches (src/watches/), which the monitored-mark limit counts beside the webhooks' marks. */
const WATCHES = '(select count(*)::int from watches where account_id = ?)';

// Every query is scoped to the owning account: another account's webhook is simply not found.
const WEBHOOK_SELECT = `
  select w.id, w.url, w.events, w.active, w.failure_count, w.disabled_reason,
    case when w.active then 'active' when w.disabled_reason is not null then 'disabled' else 'inactive' end as status,
    ${isoTimestamp('w.disabled_at')} as disabled_at, ${isoTimestamp('w.created_at')} as created_at,
    ${isoTimestamp('w.updated_at')} as updated_at,
    array(select m.application_number from webhook_marks m where m.webhook_id = w.id
          order by length(m.application_number), m.application_number) as monitored_applications,
    ((select jsonb_build_object(
        'deliveries', count(*), 'delivered', count(*) filter (where d.status = 'delivered'),
        'failed', count(*) filter (where d.status = 'failed'), 'pending', count(*) filter (where d.status = 'pending'),
        'cancelled', count(*) filter (where d.status = 'cancelled'),
        'last_attempt_at', ${isoTimestamp('max(d.last_attempt_at)')},
        'last_success_at', ${isoTimestamp("max(d.finished_at) filter (where d.status = 'delivered')")})
      from webhook_deliveries d
      where d.webhook_id = w.id) || jsonb_build_object('last_failure_at', ${isoTimestamp('w.last_failure_at')})) as stats
  from webhooks w`;

export class WebhookRepository {
  /** `read`: where a caller's listing of its webhooks goes, a replica that has its writes or the primary (src/db/replicas.ts). */
  constructor(
    readonly db: Db,
    private readonly read: StaleRead = (f) => f(db),
  ) {}

  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }

  /** Serialises changes to one account's webhooks, so the monitored-mark limit holds under concurrency. */
  async lockAccount(trx: Knex.Transaction, accountId: string): Promise<void> {
    await trx.raw(`select pg_advisory_xact_lock(hashtext('nishaan.webhooks'), hashtext(?))`, [accountId]);
  }

  /**
   * Distinct marks the account's webhooks monitor, leaving out one webhook (the one being changed), plus
   * its similarity watches (each counts as one monitored mark: docs/plans.md).
   */
  async monitoredCount(trx: Knex.Transaction, accountId: string, except: string | null, adding: string[]): Promise<number> {
    const r = await trx.raw(
      `select (select count(*)::int from (
         select m.application_number from webhook_marks m join webhooks w on w.id = m.webhook_id
         where w.account_id = ? and w.id is distinct from ?::uuid
         union select unnest(?::text[])) x) + ${WATCHES} as n`,
      [accountId, except, adding, accountId],
    );
    return r.rows[0].n;
  }

  /** The numbers among `apps` that name no mark in the register. */
  async unknownMarks(apps: string[]): Promise<string[]> {
    const r = await this.db.raw(
      `select a from unnest(?::text[]) a where not exists (select 1 from trademarks t where t.application_number = a)`,
      [apps],
    );
    return r.rows.map((x: { a: string }) => x.a);
  }

  async insert(
    trx: Knex.Transaction,
    w: { id: string; accountId: string; url: string; events: string[]; secret: Buffer; apps: string[] },
  ): Promise<void> {
    await trx('webhooks').insert({ id: w.id, account_id: w.accountId, url: w.url, events: w.events, secret: w.secret });
    await this.setMarks(trx, w.id, w.apps);
  }

  async update(trx: Knex.Transaction, accountId: string, id: string, c: WebhookChanges): Promise<boolean> {
    const set: Record<string, unknown> = { updated_at: trx.fn.now() };
    if (c.url !== undefined) set.url = c.url;
    if (c.events !== undefined) set.events = c.events;
    if (c.secret !== undefined) set.secret = c.secret;
    if (c.active !== undefined) {
      set.active = c.active;
      // Turning a webhook on starts its failure count afresh; turning it off is the owner's choice, not a failure.
      set.failure_count = 0;
      set.disabled_at = c.active ? null : trx.fn.now();
      set.disabled_reason = null;
    }
    const n = await trx('webhooks').where({ id, account_id: accountId }).update(set);
    if (!n) return false;
    if (c.monitored_applications !== undefined) await this.setMarks(trx, id, c.monitored_applications);
    return true;
  }

  private async setMarks(trx: Knex.Transaction, id: string, apps: string[]): Promise<void> {
    await trx.raw(`delete from webhook_marks where webhook_id = ? and application_number <> all(?::text[])`, [id, apps]);
    await trx.raw(`insert into webhook_marks (webhook_id, application_number) select ?, unnest(?::text[]) on conflict do nothing`, [
      id,
      apps,
    ]);
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return (await this.db('webhooks').where({ id, account_id: accountId }).delete()) > 0;
  }

  async get(accountId: string, id: string, q: Knex | Knex.Transaction = this.db): Promise<WebhookRow | undefined> {
    const r = await q.raw(`${WEBHOOK_SELECT} where w.account_id = ? and w.id = ?`, [accountId, id]);
    return r.rows[0];
  }

  async list(accountId: string): Promise<WebhookRow[]> {
    const r = await this.read((db) => db.raw(`${WEBHOOK_SELECT} where w.account_id = ? order by w.created_at, w.id`, [accountId]));
    return r.rows;
  }

  /** The sealed secret and URL of an account's webhook (for a test ping). */
  async target(accountId: string, id: string): Promise<{ url: string; secret: Buffer } | undefined> {
    return this.db('webhooks').where({ id, account_id: accountId }).first('url', 'secret');
  }

  /** Distinct marks across all the account's webhooks, plus its similarity watches. */
  async monitoredTotal(accountId: string): Promise<number> {
    const r = await this.db.raw(
      `select (select count(distinct m.application_number)::int
       from webhook_marks m join webhooks w on w.id = m.webhook_id where w.account_id = ?) + ${WATCHES} as n`,
      [accountId, accountId],
    );
    return r.rows[0].n;
  }

  /** A webhook's deliveries, newest first, each with its attempts; null when the webhook is not the account's. */
  async deliveries(accountId: string, webhookId: string, status: string | undefined, limit: number, offset: number) {
    const owned = await this.db('webhooks').where({ id: webhookId, account_id: accountId }).first('id');
    if (!owned) return null;
    const filter = status ? 'and d.status = ?' : '';
    const args = status ? [webhookId, status] : [webhookId];
    const [rows, total] = await Promise.all([
      this.db.raw(`${DELIVERY_SELECT} where d.webhook_id = ? ${filter} order by d.id desc limit ? offset ?`, [...args, limit, offset]),
      this.db.raw(`select count(*)::int as n from webhook_deliveries d where d.webhook_id = ? ${filter}`, args),
    ]);
    return { count: total.rows[0].n as number, deliveries: rows.rows as DeliveryRow[] };
  }

  /** The id the next test ping's event will have: drawn before sending, so the ping carries the id it is logged under. */
  async nextEventId(): Promise<string> {
    const r = await this.db.raw(`select nextval(pg_get_serial_sequence('outbox', 'id'))::text as id`);
    return r.rows[0].id;
  }

  /**
   * Logs a test ping already sent: an outbox row addressed to the webhook and already fanned out (so the
   * relay never hands it to the queue and the changes feed never shows it), one finished delivery and its
   * attempt. The webhook's failure count is not touched. Undefined when the webhook went in the meantime.
   */
  async recordPing(webhookId: string, eventId: string, o: AttemptOutcome): Promise<string | undefined> {
    const r = await this.db.raw(
      `with e as (
         insert into outbox (id, event, application_number, changed_at, fanned_out_at, relayed_at, webhook_id)
         select ?, ?, w.id::text, now(), now(), now(), w.id from webhooks w where w.id = ? returning id, webhook_id),
       d as (
         insert into webhook_deliveries (webhook_id, outbox_id, status, attempts, last_attempt_at, last_status_code, last_error,
           queued_at, finished_at)
         select e.webhook_id, e.id, ?, 1, now(), ?, ?, now(), now() from e returning id),
       a as (
         insert into webhook_attempts (delivery_id, attempt, status_code, latency_ms, error, response_excerpt)
         select d.id, 1, ?, ?, ?, ? from d)
       select id::text from d`,
      [
        eventId,
        PING_EVENT,
        webhookId,
        o.ok ? 'delivered' : 'failed',
        o.statusCode,
        o.error,
        o.statusCode,
        o.latencyMs,
        o.error,
        o.excerpt?.replace(/\0/g, '') ?? null,
      ],
    );
    return r.rows[0]?.id;
  }

  /**
   * Starts a new round of attempts for a finished delivery (a pending one is left as it is), and asks
   * the relay to hand it over (NOTIFY, delivered at commit). A test ping is never sent again (it answers
   * with its row unchanged: the service refuses it). Undefined when it is not the account's.
   */
  async replay(accountId: string, webhookId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
    return this.db.transaction(async (trx) => {
      const r = await trx.raw(
        `update webhook_deliveries d set status = 'pending', round_start = d.attempts, next_attempt_at = now(), queued_at = null,
           finished_at = null
         from webhooks w, outbox o
         where w.id = d.webhook_id and w.account_id = ? and d.webhook_id = ? and d.id = ? and d.status <> 'pending'
           and o.id = d.outbox_id and o.event <> ?
         returning d.id`,
        [accountId, webhookId, deliveryId, PING_EVENT],
      );
      if (r.rows.length) await trx.raw('select pg_notify(?, ?)', [DELIVERIES_CHANNEL, '']);
      const row = await trx.raw(
        `${DELIVERY_SELECT} join webhooks w on w.id = d.webhook_id where w.account_id = ? and d.webhook_id = ? and d.id = ?`,
        [accountId, webhookId, deliveryId],
      );
      return row.rows[0];
    });
  }
}

export type DeliveryRow = z.infer<typeof Delivery>;

const DELIVERY_SELECT = `
  select d.id::text, d.webhook_id, 'msg_' || d.outbox_id || '_' || replace(d.webhook_id::text, '-', '') as message_id,
    d.outbox_id::text as event_id, o.event,
    case when o.event <> '${PING_EVENT}' then o.application_number end as application_number, d.status, d.attempts,
    case when d.status = 'pending' then ${isoTimestamp('d.next_attempt_at')} end as next_attempt_at,
    d.last_status_code, d.last_error, ${isoTimestamp('d.created_at')} as created_at, ${isoTimestamp('d.finished_at')} as finished_at,
    coalesce((select json_agg(json_build_object('attempt', a.attempt, 'attempted_at', ${isoTimestamp('a.attempted_at')},
        'status_code', a.status_code, 'latency_ms', a.latency_ms, 'error', a.error, 'response_excerpt', a.response_excerpt)
        order by a.attempt)
      from webhook_attempts a where a.delivery_id = d.id), '[]') as attempt_log,
    case when o.event in (${eventSql('trademark.similar_filed')}, ${eventSql('watch.deadline_approaching')}) then
      jsonb_build_object('watch_id', o.new_value->'watch_id', 'hit_id', o.new_value->'hit_id', 'word_mark', o.new_value->'word_mark',
        'risk_level', o.new_value->'risk_level', 'overall_similarity_score', o.new_value->'overall_similarity_score',
        'reasons', coalesce(o.new_value->'reasons', '[]'), 'opposition_deadline', o.new_value->'opposition_deadline')
    end as watch
  from webhook_deliveries d join outbox o on o.id = d.outbox_id`;
