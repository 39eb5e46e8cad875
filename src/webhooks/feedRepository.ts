// SQL of the changes feed (GET /v1/changes/): outbox rows in the order of outbox.seq, the cursor the
// relay draws in commit order, with the mark's name and class.
import type { Db } from '../db/knex.ts';
import { isoTimestamp } from '../db/sql.ts';
import type { EventName } from './events.ts';

export interface FeedFilter {
  events: readonly EventName[];
  /** After this cursor (outbox.seq), or recorded from this time on. */
  since: { seq: string } | { time: Date };
  applicationNumbers?: string[];
  limit: number;
}

export interface FeedRow {
  seq: string;
  event_id: string;
  event: EventName;
  application_number: string;
  word_mark: string | null;
  class_number: number | null;
  old_value: unknown;
  new_value: unknown;
  changed_at: string;
  recorded_at: string;
}

export class FeedRepository {
  constructor(private readonly db: Db) {}

  /** Up to `limit` events of the filter, oldest cursor first. */
  async read(f: FeedFilter): Promise<FeedRow[]> {
    const where = ['o.seq is not null', 'o.webhook_id is null', 'o.event = any(?)', 'seq' in f.since ? 'o.seq > ?' : 'o.created_at >= ?'];
    const args: (string | Date | string[])[] = [[...f.events], 'seq' in f.since ? f.since.seq : f.since.time];
    if (f.applicationNumbers?.length) {
      where.push('o.application_number = any(?)');
      args.push(f.applicationNumbers);
    }
    const r = await this.db.raw(
      `select o.seq::text as seq, o.id::text as event_id, o.event, o.application_number, t.word_mark, t.class_number,
         o.old_value, o.new_value, ${isoTimestamp('o.changed_at')} as changed_at, ${isoTimestamp('o.created_at')} as recorded_at
       from outbox o left join trademarks t on t.application_number = o.application_number
       where ${where.join(' and ')} order by o.seq limit ?`,
      [...args, f.limit],
    );
    return r.rows;
  }

  /** The newest cursor. */
  async lastCursor(): Promise<string> {
    const r = await this.db.raw(`select coalesce(max(seq), 0)::text as seq from outbox`);
    return r.rows[0].seq;
  }
}
