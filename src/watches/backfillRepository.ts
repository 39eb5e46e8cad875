import type { Db } from '../db/knex.ts';
import { isoTimestamp } from '../db/sql.ts';

// SQL of watch backfills (docs/watches.md): requests, scoped to their account, and the job's progress.

export type BackfillState = 'queued' | 'running' | 'done' | 'failed';

export interface BackfillRow {
  id: string;
  watch_id: string;
  journals: number;
  state: BackfillState;
  journals_done: number;
  marks: number;
  hits: number;
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

const COLUMNS = `b.id, b.watch_id, b.journals, b.state, b.journals_done, b.marks, b.hits, b.error,
  ${isoTimestamp('b.created_at')} as created_at, ${isoTimestamp('b.finished_at')} as finished_at`;

export class BackfillRepository {
  constructor(private readonly db: Db) {}

  /** A new request, or the one of the same watch and journal count not finished yet (asking twice runs it once). */
  async request(accountId: string, watchId: string, journals: number): Promise<{ row: BackfillRow; made: boolean }> {
    const r = await this.db.raw(
      `with made as (
         insert into watch_backfills (watch_id, account_id, journals) values (?, ?, ?)
         on conflict (watch_id, journals) where state in ('queued', 'running') do nothing returning *)
       select ${COLUMNS}, true as made from made b
       union all
       select ${COLUMNS}, false from watch_backfills b
       where b.watch_id = ? and b.journals = ? and b.state in ('queued', 'running') and not exists (select 1 from made)`,
      [watchId, accountId, journals, watchId, journals],
    );
    const { made, ...row } = r.rows[0];
    return { row, made };
  }

  async list(accountId: string, watchId: string): Promise<BackfillRow[]> {
    const r = await this.db.raw(
      `select ${COLUMNS} from watch_backfills b where b.account_id = ? and b.watch_id = ? order by b.created_at desc, b.id limit 50`,
      [accountId, watchId],
    );
    return r.rows;
  }

  /** Requests not finished: queued, or running when a worker stopped (a job is run again from the start: idempotent). */
  async open(): Promise<string[]> {
    const r = await this.db.raw(`select id from watch_backfills where state in ('queued', 'running') order by created_at limit 100`);
    return r.rows.map((x: { id: string }) => x.id);
  }

  /** Marks the request running; the watch and account it is for, or undefined when it is finished or gone. */
  async start(id: string): Promise<{ watch_id: string; account_id: string; journals: number } | undefined> {
    const r = await this.db.raw(
      `update watch_backfills set state = 'running', journals_done = 0, marks = 0, hits = 0
       where id = ? and state in ('queued', 'running') returning watch_id, account_id, journals`,
      [id],
    );
    return r.rows[0];
  }

  async progress(id: string, marks: number, hits: number): Promise<void> {
    await this.db.raw('update watch_backfills set journals_done = journals_done + 1, marks = marks + ?, hits = hits + ? where id = ?', [
      marks,
      hits,
      id,
    ]);
  }

  async finish(id: string, error: string | null = null): Promise<void> {
    await this.db.raw(`update watch_backfills set state = ?, error = ?, finished_at = now() where id = ?`, [
      error === null ? 'done' : 'failed',
      error,
      id,
    ]);
  }
}
