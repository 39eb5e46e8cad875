import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { MarkRow } from './build.ts';

// Where the index reads marks from: all of them in one consistent snapshot (COPY, streamed, so
// 7.7M rows never sit in memory as objects), then the changes since a point of the change feed
// (migrations/*_search.ts).

const COLUMNS = 'application_number, word_mark, class_number, status, tm_type, filing_mode, state';

export interface Snapshot {
  /** The change feed position the snapshot includes: changes after it are read by changesSince(). */
  seq: number;
  /** The database's identity (search_instance): a saved index is only ever loaded into the same database. */
  instance: string;
  /** An estimate of the number of marks, for sizing arrays. */
  estimate: number;
}

/** COPY text format: \\N is NULL; backslash escapes only where the value needed them. */
function unescape(v: string): string | null {
  if (v === '\\N') return null;
  if (!v.includes('\\')) return v;
  return v.replace(/\\(.)/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r', b: '\b', f: '\f', v: '\v' })[c] ?? c);
}

function rowOf(line: string): MarkRow {
  const f = line.split('\t');
  return {
    appNo: Number(f[0]), wordMark: unescape(f[1]) ?? '', cls: Number(f[2]), status: unescape(f[3]) ?? '',
    tmType: unescape(f[4]) ?? '', filingMode: unescape(f[5]), state: unescape(f[6]),
  };
}

/** Streams every mark with words to `onRow`, inside one repeatable-read snapshot whose feed position it returns. */
export async function streamMarks(url: string, onStart: (s: Snapshot) => void, onRow: (r: MarkRow) => void): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin transaction isolation level repeatable read read only');
    const meta = await client.query(
      `select coalesce((select max(search_seq) from trademarks), 0)::bigint as seq, (select id::text from search_instance) as instance,
         greatest((select reltuples::bigint from pg_class where oid = 'trademarks'::regclass), 0) as estimate`);
    const snap: Snapshot = { seq: Number(meta.rows[0].seq), instance: meta.rows[0].instance, estimate: Number(meta.rows[0].estimate) };
    // Deletions before the snapshot are already absent from it.
    const del = await client.query('select coalesce(max(search_seq), 0)::bigint as seq from search_deletions');
    snap.seq = Math.max(snap.seq, Number(del.rows[0].seq));
    onStart(snap);
    const stream = client.query(copyStreams.to(`copy (select ${COLUMNS} from trademarks where word_mark <> '') to stdout`));
    let rest = '';
    for await (const chunk of stream) {
      const text = rest + (chunk as Buffer).toString('utf8');
      let start = 0;
      for (;;) {
        const nl = text.indexOf('\n', start);
        if (nl < 0) break;
        onRow(rowOf(text.slice(start, nl)));
        start = nl + 1;
      }
      rest = text.slice(start);
    }
    await client.query('commit');
    return snap;
  } finally {
    await client.end();
  }
}

/** One change of the feed: the mark as it is now, or null when it is gone (or has no words left). */
export interface Change {
  seq: number;
  appNo: number;
  row: MarkRow | null;
}

/** The identity of the database (see Snapshot.instance). */
export async function instanceOf(client: pg.ClientBase): Promise<string> {
  return (await client.query('select id::text as id from search_instance')).rows[0].id;
}

/** The changes after feed position `since`, in feed order; `seq` is the position they reach. */
export async function changesSince(client: pg.ClientBase, since: number, limit = 50_000): Promise<{ changes: Change[]; seq: number }> {
  const rows = await client.query({
    text: `select ${COLUMNS}, search_seq from trademarks where search_seq > $1 order by search_seq limit $2`,
    values: [since, limit], rowMode: 'array',
  });
  const dels = await client.query(
    'select application_number, search_seq from search_deletions where search_seq > $1 order by search_seq limit $2', [since, limit]);
  // A list cut at the limit is complete only up to its last position: stop there.
  const lastOf = (list: unknown[], seqOf: (x: never) => number) => (list.length === limit ? seqOf(list.at(-1) as never) : Infinity);
  const upTo = Math.min(lastOf(rows.rows, (r: unknown[]) => Number(r[7])), lastOf(dels.rows, (d: { search_seq: string }) => Number(d.search_seq)));
  const changes: Change[] = [];
  for (const r of rows.rows as unknown[][]) {
    const row: MarkRow = {
      appNo: Number(r[0]), wordMark: (r[1] as string) ?? '', cls: Number(r[2]), status: (r[3] as string) ?? '',
      tmType: (r[4] as string) ?? '', filingMode: r[5] as string | null, state: r[6] as string | null,
    };
    changes.push({ seq: Number(r[7]), appNo: row.appNo, row: row.wordMark.trim() ? row : null });
  }
  for (const d of dels.rows) changes.push({ seq: Number(d.search_seq), appNo: Number(d.application_number), row: null });
  const kept = changes.filter((c) => c.seq <= upTo).sort((a, b) => a.seq - b.seq);
  return { changes: kept, seq: kept.length ? kept[kept.length - 1].seq : since };
}
