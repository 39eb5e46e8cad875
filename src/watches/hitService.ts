import type { Caller } from '../accounts/callerRepository.ts';
import { invalidParameter, notFound } from '../errors.ts';
import { RISK_LEVELS } from '../threats/schemas.ts';
import type { HitAfter, HitFilter, HitRepository, HitRow } from './hitRepository.ts';
import type { HitsQuery, UpdateHitInput } from './hitSchemas.ts';
import type { WatchRepository } from './repository.ts';

// The account's watch hits (docs/watches.md): every match recorded, whatever became of a webhook, read newest
// first in pages and triaged (new, acknowledged, dismissed, with a note). Reading and triage are free.

/** The cursor of the page ending with a hit: its creation time and id, opaque to the client. */
const encodeCursor = (r: HitAfter) => Buffer.from(JSON.stringify([r.at, r.id])).toString('base64url');

function decodeCursor(cursor: string): HitAfter {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    v = null;
  }
  const ok =
    Array.isArray(v) &&
    v.length === 2 &&
    typeof v[0] === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(v[0]) &&
    typeof v[1] === 'string' &&
    /^[0-9a-f-]{36}$/.test(v[1]);
  if (!ok) throw invalidParameter('query', 'cursor', 'cursor is not one this API handed out');
  return { at: (v as string[])[0], id: (v as string[])[1] };
}

/** A stored hit as the API shows it: the finding as it was matched, with the journal and deadline as they stand now. */
export function hitView(r: HitRow) {
  return {
    ...r.result,
    // Hits recorded before owner watches were all likenesses.
    match: r.result.match ?? 'similar',
    id: r.id,
    watch_id: r.watch_id,
    application_number: r.application_number,
    risk_level: r.risk_level,
    journal: r.journal_id === null ? null : { id: r.journal_id, journal_number: r.journal_number!, publication_date: r.publication_date! },
    opposition_deadline: r.opposition_deadline,
    opposition_deadline_unextended: r.opposition_three_months,
    state: r.state,
    note: r.note,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export class HitService {
  constructor(
    private readonly hits: HitRepository,
    private readonly watches: WatchRepository,
  ) {}

  /** The account's hits (or one watch's: 404 when the watch is not the account's), filtered, a page at a time. */
  async list(caller: Caller, q: HitsQuery, watchId?: string) {
    if (watchId && !(await this.watches.get(caller.accountId, watchId))) throw notFound(`watch ${watchId}`);
    const filter: HitFilter = {
      watchId: watchId ?? q.watch_id,
      states: q.state,
      risks: q.min_risk ? RISK_LEVELS.slice(RISK_LEVELS.indexOf(q.min_risk)) : undefined,
      deadlineBefore: q.deadline_before,
      createdFrom: q.created_from,
      createdTo: q.created_to,
    };
    const after = q.cursor ? decodeCursor(q.cursor) : null;
    const { rows, count } = await this.hits.list(caller.accountId, filter, q.limit + 1, after);
    const page = rows.slice(0, q.limit);
    return {
      count,
      next_cursor: rows.length > q.limit ? encodeCursor(page[page.length - 1]) : null,
      hits: page.map(hitView),
    };
  }

  async update(caller: Caller, id: string, input: UpdateHitInput) {
    if (!(await this.hits.update(caller.accountId, id, input))) throw notFound(`watch hit ${id}`);
    return hitView((await this.hits.get(caller.accountId, id))!);
  }
}
