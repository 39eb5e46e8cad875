import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import type { StaleRead } from '../db/replicas.ts';
import { isoDate, isoTimestamp } from '../db/sql.ts';
import { STATUS_GROUPS } from '../search/statusGroups.ts';
import type { CandidateRow } from '../threats/analysis.ts';
import type { LogoProbe } from '../threats/repository.ts';
import type { RiskLevel } from '../threats/score.ts';
import { eventSql } from '../webhooks/events.ts';

// SQL of similarity watches: the account's watches (every query scoped to the owner: another account's
// watch is simply not found), what the matcher reads (the watches, the marks new in an import run or
// advertised in a journal) and what it writes (each hit once, with its outbox event, in one transaction).

export type WatchKind = 'mark' | 'owner' | 'portfolio';

export interface WatchRow {
  id: string;
  kind: WatchKind;
  word_mark: string | null;
  owner_id: string | null;
  exclude_owner_ids: string[];
  include_own: boolean;
  logo: { url: string; model: string } | null;
  classes: number[];
  min_risk: RiskLevel;
  webhook_id: string | null;
  webhook_active: boolean | null;
  hits: number;
  new_hits: number;
  created_at: string;
  updated_at: string;
}

/** A watch as the matcher meets marks with it. */
export interface WatchProbe {
  id: string;
  account_id: string;
  /** The webhook its hits are sent to, when it has one that is on; hits are recorded either way. */
  webhook_id: string | null;
  word_mark: string | null;
  logo: LogoProbe | null;
  classes: number[];
  min_risk: RiskLevel;
  /** Absent: a mark watch (as a preview or a benchmark makes one). */
  kind?: WatchKind;
  /** The owner entity an owner watch follows, as stored (an id merged since still names its entity). */
  owner_id?: string | null;
  exclude_owner_ids?: string[];
  include_own?: boolean;
  /** The account's own owner entity, as stored. */
  account_owner_id?: string | null;
}

/**
 * A mark a watch may meet: its summary, whether its logo has a vector (under any model), the journal advertising it,
 * and every class of a multi-class application (null for one class).
 */
export type MarkRow = CandidateRow & { has_logo: boolean; journal_id: number | null; owner_id: string | null; classes?: number[] | null };

export interface NewWatch {
  id: string;
  accountId: string;
  webhookId: string | null;
  wordMark: string | null;
  logo: { url: string; model: string; vector: string } | null;
  classes: number[];
  minRisk: RiskLevel;
  ownerId: string | null;
  portfolio: boolean;
  excludeOwnerIds: string[];
  includeOwn: boolean;
}

export interface WatchChanges {
  word_mark?: string | null;
  classes?: number[];
  min_risk?: RiskLevel;
  webhook_id?: string | null;
  exclude_owner_ids?: string[];
  include_own?: boolean;
}

const KIND = `case when w.portfolio then 'portfolio' when w.owner_id is not null then 'owner' else 'mark' end`;

const WATCH_SELECT = `
  select w.id, ${KIND} as kind, w.word_mark, w.owner_id, w.exclude_owner_ids, w.include_own, case when w.logo_url is null then null
      else jsonb_build_object('url', w.logo_url, 'model', w.logo_model) end as logo,
    w.classes::int[] as classes, w.min_risk, w.webhook_id,
    (select k.active from webhooks k where k.id = w.webhook_id) as webhook_active,
    n.hits, n.new_hits, ${isoTimestamp('w.created_at')} as created_at, ${isoTimestamp('w.updated_at')} as updated_at
  from watches w cross join lateral (
    select count(*)::int as hits, (count(*) filter (where h.state = 'new'))::int as new_hits from watch_hits h where h.watch_id = w.id) n`;

const MARK_COLUMNS = `t.application_number, t.word_mark, t.class_number::int as class_number, t.classes::int[] as classes, t.status,
  t.proprietor_name,
  ${isoDate('t.application_date')} as application_date,
  exists (select 1 from logo_vectors v where v.application_number = t.application_number) as has_logo, t.journal_id,
  (select o.entity_id from owner_names o where o.name = t.proprietor_name) as owner_id`;

const JOURNAL_EVENT = eventSql('trademark.journal_published');

const vectorDims = (text: string) => (text.match(/,/g)?.length ?? 0) + 1;

export class WatchRepository {
  /** `read`: where a caller's listing of its watches goes, a replica that has its writes or the primary (src/db/replicas.ts). */
  constructor(
    readonly db: Db,
    private readonly read: StaleRead = (f) => f(db),
  ) {}

  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }

  /** Whether the webhook is the account's. */
  async ownsWebhook(accountId: string, webhookId: string, q: Knex | Knex.Transaction = this.db): Promise<boolean> {
    return Boolean(await q('webhooks').where({ id: webhookId, account_id: accountId }).first('id'));
  }

  async insert(trx: Knex.Transaction, w: NewWatch): Promise<void> {
    await trx('watches').insert({
      id: w.id,
      account_id: w.accountId,
      webhook_id: w.webhookId,
      word_mark: w.wordMark,
      logo_url: w.logo?.url ?? null,
      logo_model: w.logo?.model ?? null,
      logo_vector: w.logo?.vector ?? null,
      classes: w.classes,
      min_risk: w.minRisk,
      owner_id: w.ownerId,
      portfolio: w.portfolio,
      exclude_owner_ids: w.excludeOwnerIds,
      include_own: w.includeOwn,
    });
  }

  async update(trx: Knex.Transaction, accountId: string, id: string, c: WatchChanges): Promise<boolean> {
    const set: Record<string, unknown> = { updated_at: trx.fn.now() };
    for (const k of ['word_mark', 'classes', 'min_risk', 'webhook_id', 'exclude_owner_ids', 'include_own'] as const)
      if (c[k] !== undefined) set[k] = c[k];
    return (await trx('watches').where({ id, account_id: accountId }).update(set)) > 0;
  }

  /** The stored watch, or undefined when it is not the account's. */
  async get(accountId: string, id: string, q: Knex | Knex.Transaction = this.db): Promise<WatchRow | undefined> {
    const r = await q.raw(`${WATCH_SELECT} where w.account_id = ? and w.id = ?`, [accountId, id]);
    return r.rows[0];
  }

  async list(accountId: string): Promise<WatchRow[]> {
    const r = await this.read((db) => db.raw(`${WATCH_SELECT} where w.account_id = ? order by w.created_at, w.id`, [accountId]));
    return r.rows;
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return (await this.db('watches').where({ id, account_id: accountId }).delete()) > 0;
  }

  /** One watch as the matcher reads it (the account's), or undefined. */
  async probe(accountId: string, id: string): Promise<WatchProbe | undefined> {
    return (await this.probes('w.account_id = ? and w.id = ?', [accountId, id]))[0];
  }

  /** Every watch, as the matcher reads them: a watch whose webhook is off or gone still records its hits. */
  async all(): Promise<WatchProbe[]> {
    return this.probes('true', []);
  }

  private async probes(where: string, args: string[]): Promise<WatchProbe[]> {
    const r = await this.db.raw(
      `select w.id, w.account_id, case when k.active then w.webhook_id end as webhook_id, w.word_mark, w.logo_model, w.logo_vector,
         w.classes::int[] as classes, w.min_risk, ${KIND} as kind, w.owner_id, w.exclude_owner_ids, w.include_own,
         a.owner_id as account_owner_id
       from watches w join accounts a on a.id = w.account_id left join webhooks k on k.id = w.webhook_id
       where ${where} order by w.id`,
      args,
    );
    return r.rows.map((x: WatchProbe & { logo_model: string | null; logo_vector: string | null }) => ({
      id: x.id,
      account_id: x.account_id,
      webhook_id: x.webhook_id,
      word_mark: x.word_mark,
      logo: x.logo_model && x.logo_vector ? { model: x.logo_model, dims: vectorDims(x.logo_vector), vector: x.logo_vector } : null,
      classes: x.classes,
      min_risk: x.min_risk,
      kind: x.kind,
      owner_id: x.owner_id,
      exclude_owner_ids: x.exclude_owner_ids,
      include_own: x.include_own,
      account_owner_id: x.account_owner_id,
    }));
  }

  /** Finished import runs with new or newly advertised marks that the matcher has not run over yet, oldest first. */
  async unmatchedRuns(limit = 100): Promise<number[]> {
    const r = await this.db.raw(
      `select r.id from import_runs r
       where r.finished_at is not null and not exists (select 1 from watch_runs m where m.import_run_id = r.id)
         and (exists (select 1 from import_new_marks n where n.import_run_id = r.id)
              or exists (select 1 from outbox o where o.import_run_id = r.id and o.event = ${JOURNAL_EVENT}))
       order by r.id limit ?`,
      [limit],
    );
    return r.rows.map((x: { id: number }) => x.id);
  }

  /** The marks an import run brought: those new in it, and those it advertised in a journal (still in the register). */
  async newMarks(runId: number): Promise<MarkRow[]> {
    const r = await this.db.raw(
      `select ${MARK_COLUMNS} from trademarks t where t.application_number in (
         select n.application_number from import_new_marks n where n.import_run_id = ?
         union select o.application_number from outbox o where o.import_run_id = ? and o.event = ${JOURNAL_EVENT})
       order by length(t.application_number), t.application_number`,
      [runId, runId],
    );
    return r.rows;
  }

  /** The marks a journal advertises in the given classes (a multi-class application in any of its). */
  async journalMarks(journalId: number, classes: number[]): Promise<MarkRow[]> {
    const r = await this.db.raw(
      `select ${MARK_COLUMNS} from trademarks t
       where t.journal_id = ? and (t.class_number = any(?::int[]) or t.classes && ?::smallint[])
       order by length(t.application_number), t.application_number`,
      [journalId, classes, classes],
    );
    return r.rows;
  }

  /** The live marks with words of the owner entities (ids as stored: resolved to the entities they name now). */
  async portfolioMarks(entityIds: string[]): Promise<{ entity_id: string; word_mark: string; class_number: number }[]> {
    if (!entityIds.length) return [];
    const r = await this.db.raw(
      `select o.entity_id, t.word_mark, t.class_number::int as class_number
       from owner_names o join trademarks t on t.proprietor_name = o.name
       where o.entity_id = any(?::text[]) and t.word_mark <> '' and t.status = any(?::text[])
       order by o.entity_id, t.class_number, t.word_mark`,
      [entityIds, [...STATUS_GROUPS.live]],
    );
    return r.rows;
  }

  /** The account's own owner entity, as set (null: none). */
  async accountOwner(accountId: string): Promise<string | null> {
    const r = await this.db.raw('select owner_id from accounts where id = ?', [accountId]);
    return r.rows[0]?.owner_id ?? null;
  }

  async setAccountOwner(accountId: string, ownerId: string | null): Promise<void> {
    await this.db.raw('update accounts set owner_id = ? where id = ?', [ownerId, accountId]);
  }

  /** The latest `n` journals, newest first. */
  async latestJournals(n: number): Promise<{ id: number; journal_number: string; publication_date: string }[]> {
    const r = await this.db.raw(
      `select id, journal_number, ${isoDate('publication_date')} as publication_date from journals
       order by publication_date desc, id desc limit ?`,
      [n],
    );
    return r.rows;
  }

  async journal(id: number): Promise<{ id: number; journal_number: string; publication_date: string; marks: number } | undefined> {
    const r = await this.db.raw(
      `select j.id, j.journal_number, ${isoDate('j.publication_date')} as publication_date,
         (select count(*)::int from trademarks t where t.journal_id = j.id) as marks
       from journals j where j.id = ?`,
      [id],
    );
    return r.rows[0];
  }
}
