import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import type { RiskLevel } from '../threats/score.ts';
import { eventSql } from '../webhooks/events.ts';
import { journalFieldsSql } from './deadlines.ts';
import type { WatchProbe } from './repository.ts';
import type { HitResult } from './schemas.ts';

// What the matcher writes: each (watch, mark) hit once ever, whatever the state of the watch's webhook, with its
// trademark.similar_filed event when the webhook is on; and, when a mark hit before it was advertised is advertised
// in a journal, the hit updated and its event sent once more with the journal and the opposition deadline. The run
// is marked matched in the same transaction, so a run matched again (or a mark met again) writes nothing twice.

/** One hit to record: the watch, the mark, the finding as a clearance lists it, and the journal advertising the mark now. */
export interface Hit {
  watch: WatchProbe;
  applicationNumber: string;
  /** Null for a filing by the owner an owner watch follows. */
  risk: RiskLevel | null;
  result: HitResult;
  journalId: number | null;
}

const key = (watch: string, app: string) => `${watch}|${app}`;

type HitKey = { id: string; watch_id: string; application_number: string };
const byPair = (rows: HitKey[]) => new Map(rows.map((x) => [key(x.watch_id, x.application_number), x.id]));

interface Owed {
  hit: Hit;
  id: string;
  webhook: string;
}

/** Journal ids, null where a mark is not advertised: pg sends a null element as NULL (knex's types know only whole arrays). */
const journals = (hits: Hit[]) => hits.map((h) => h.journalId) as unknown as number[];

export class HitRecorder {
  constructor(private readonly db: Db) {}

  /** Records a run's hits; how many were new (hits advertised since they were recorded are not counted again). */
  async recordRun(runId: number, marks: number, hits: Hit[]): Promise<number> {
    return this.db.transaction(async (trx) => {
      let fresh = 0;
      for (let i = 0; i < hits.length; i += 500) {
        const part = hits.slice(i, i + 500);
        const made = await this.insert(trx, part);
        fresh += made.size;
        const advertised = await this.advertised(
          trx,
          part.filter((h) => !made.has(key(h.watch.id, h.applicationNumber)) && h.journalId !== null),
        );
        const owed: Owed[] = part.flatMap((hit) => {
          const k = key(hit.watch.id, hit.applicationNumber);
          const id = made.get(k) ?? advertised.get(k);
          return id && hit.watch.webhook_id ? [{ hit, id, webhook: hit.watch.webhook_id }] : [];
        });
        if (owed.length) await this.events(trx, runId, owed);
      }
      await trx.raw(
        `insert into watch_runs (import_run_id, marks, hits) values (?, ?, ?)
         on conflict (import_run_id) do update set hits = watch_runs.hits + excluded.hits, matched_at = now()`,
        [runId, marks, fresh],
      );
      return fresh;
    });
  }

  /**
   * Records hits of a backfill (marks of past journals): each pair once, as a run records them, but with no event: a
   * backfill fills the inbox, it does not send old filings to a webhook as new ones. How many were new.
   */
  async recordBackfill(hits: Hit[]): Promise<number> {
    return this.db.transaction(async (trx) => {
      let fresh = 0;
      for (let i = 0; i < hits.length; i += 500) fresh += (await this.insert(trx, hits.slice(i, i + 500))).size;
      return fresh;
    });
  }

  /** The hits not recorded before, by watch and mark: their new ids. */
  private async insert(trx: Knex.Transaction, part: Hit[]): Promise<Map<string, string>> {
    const r = await trx.raw(
      `insert into watch_hits (watch_id, account_id, application_number, risk_level, result, notified_journal_id)
       select * from unnest(?::uuid[], ?::uuid[], ?::text[], ?::text[], ?::jsonb[], ?::int[])
       on conflict (watch_id, application_number) do nothing returning id, watch_id, application_number`,
      [
        part.map((h) => h.watch.id),
        part.map((h) => h.watch.account_id),
        part.map((h) => h.applicationNumber),
        part.map((h) => h.risk) as string[],
        part.map((h) => JSON.stringify(h.result)),
        journals(part),
      ],
    );
    return byPair(r.rows);
  }

  /**
   * Hits recorded before their mark was advertised in the journal it stands in now: each updated with the finding of
   * this run (the mark's status has moved on too) and the journal, once per journal. Their ids, by watch and mark.
   */
  private async advertised(trx: Knex.Transaction, part: Hit[]): Promise<Map<string, string>> {
    if (!part.length) return new Map();
    const r = await trx.raw(
      `update watch_hits h set result = x.v, risk_level = x.r, notified_journal_id = x.j, updated_at = now()
       from unnest(?::uuid[], ?::text[], ?::text[], ?::jsonb[], ?::int[]) x(w, a, r, v, j)
       where h.watch_id = x.w and h.application_number = x.a and h.notified_journal_id is distinct from x.j
       returning h.id, h.watch_id, h.application_number`,
      [
        part.map((h) => h.watch.id),
        part.map((h) => h.applicationNumber),
        part.map((h) => h.risk) as string[],
        part.map((h) => JSON.stringify(h.result)),
        journals(part),
      ],
    );
    return byPair(r.rows);
  }

  /** The hits' trademark.similar_filed events, each addressed to its watch's webhook, with the journal and deadline. */
  private async events(trx: Knex.Transaction, runId: number, owed: Owed[]): Promise<void> {
    await trx.raw(
      `with o as (
         insert into outbox (event, application_number, old_value, new_value, changed_at, import_run_id, webhook_id)
         select ${eventSql('trademark.similar_filed')}, x.a, null, x.v || ${journalFieldsSql('j')}, now(), ?, x.k
         from unnest(?::text[], ?::jsonb[], ?::uuid[], ?::int[]) x(a, v, k, jid) left join journals j on j.id = x.jid
         returning id, new_value->>'hit_id' as hit_id)
       update watch_hits h set outbox_id = o.id from o where h.id = o.hit_id::uuid`,
      [
        runId,
        owed.map((x) => x.hit.applicationNumber),
        owed.map((x) => JSON.stringify({ watch_id: x.hit.watch.id, hit_id: x.id, ...x.hit.result })),
        owed.map((x) => x.webhook),
        journals(owed.map((x) => x.hit)),
      ],
    );
  }
}
