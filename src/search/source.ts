import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { MarkRow } from './build.ts';

// Where the index reads marks from: all of them in one consistent snapshot (COPY, streamed, so
// 7.7M rows never sit in memory as objects), then the changes since a point of the change feed
// (migrations/*_search.ts).

// The mark's searchable fields, then the rest of its summary (src/search/summaries.ts); dates as days
// since 1970-01-01, which is cheaper for both sides than formatted text.
const COLUMN_LIST = [
  'application_number',
  'word_mark',
  'class_number',
  'status',
  'tm_type',
  'filing_mode',
  'state',
  'proprietor_name',
  `application_date - date '1970-01-01'`,
  `expire_at - date '1970-01-01'`,
  'alert',
  'slug',
];
const COLUMNS = COLUMN_LIST.join(', ');
const FIELDS = COLUMN_LIST.length;

export interface Snapshot {
  /** The change feed position the snapshot includes: changes after it are read by changesSince(). */
  seq: number;
  /** The database's identity (search_instance): a saved index is only ever loaded into the same database. */
  instance: string;
  /** An estimate of the number of marks, for sizing arrays. */
  estimate: number;
}

/** COPY text format: \\N is NULL; backslash escapes only where the value needed them. */
function copyValue(v: string): string | null {
  if (v === '\\N') return null;
  if (!v.includes('\\')) return v;
  return v.replace(/\\(.)/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r', b: '\b', f: '\f', v: '\v' })[c] ?? c);
}

/** A mark from the values of COLUMNS as text (null for NULL). */
function rowOf(f: (string | null)[]): MarkRow {
  return {
    appNo: Number(f[0]),
    wordMark: f[1] ?? '',
    cls: Number(f[2]),
    status: f[3] ?? '',
    tmType: f[4] ?? '',
    filingMode: f[5],
    state: f[6],
    proprietor: f[7] ?? '',
    applicationDays: Number(f[8]),
    expireDays: f[9] === null ? null : Number(f[9]),
    alert: f[10] ?? '',
    slug: f[11] ?? '',
  };
}

/**
 * The fields of COPY lines, read where they lie: numbers straight from the characters, the values
 * of low-cardinality columns (status, type, filing mode, state, alert) looked up without cutting a
 * string, other strings cut once. Splitting every line of the register into an array of strings,
 * then each into a field, was a fifth of the index build and most of its garbage.
 */
class CopyFields {
  private text = '';
  private at = 0;
  private end = 0;
  // Interned values by a hash of their characters, for the columns that repeat a few values.
  private readonly interned = new Map<number, string[]>();

  line(text: string, start: number, end: number): void {
    this.text = text;
    this.at = start;
    this.end = end;
  }

  /** Moves past the next field; returns where it starts (it ends before this.at - 1). */
  private next(): number {
    const tab = this.text.indexOf('\t', this.at);
    const e = tab < 0 || tab > this.end ? this.end : tab;
    const from = this.at;
    this.at = e + 1;
    return from;
  }

  str(): string | null {
    const from = this.next();
    return copyValue(this.text.slice(from, this.at - 1));
  }

  /** A value of a column with few distinct values, the same string object each time it recurs. */
  known(): string | null {
    const from = this.next();
    const to = this.at - 1;
    const t = this.text;
    if (from === to) return '';
    if (to - from === 2 && t.charCodeAt(from) === 92 && t.charCodeAt(from + 1) === 78) return null;
    // Length and the first and last two characters tell these values apart well enough; a bucket's
    // few values are then compared.
    const h =
      (to - from) * 0x1000193 + t.charCodeAt(from) * 65599 + t.charCodeAt(from + (to - from > 1 ? 1 : 0)) * 257 + t.charCodeAt(to - 1);
    const bucket = this.interned.get(h);
    if (bucket) for (const v of bucket) if (v.length === to - from && t.startsWith(v, from)) return v;
    const v = copyValue(t.slice(from, to));
    // NULL and escaped values are rare: they are not interned (the raw text would not match them).
    if (v !== null && v.length === to - from) {
      if (bucket) bucket.push(v);
      else this.interned.set(h, [v]);
    }
    return v;
  }

  /** An integer (digits, with an optional minus sign), or null for NULL. */
  int(): number | null {
    const from = this.next();
    const t = this.text;
    if (t.charCodeAt(from) === 92) return null;
    const neg = t.charCodeAt(from) === 45;
    let v = 0;
    for (let i = neg ? from + 1 : from; i < this.at - 1; i++) v = v * 10 + t.charCodeAt(i) - 48;
    return neg ? -v : v;
  }

  row(): MarkRow {
    const appNo = this.int()!;
    const wordMark = this.str() ?? '';
    const cls = this.int()!;
    return {
      appNo,
      wordMark,
      cls,
      status: this.known() ?? '',
      tmType: this.known() ?? '',
      filingMode: this.known(),
      state: this.known(),
      proprietor: this.str() ?? '',
      applicationDays: this.int()!,
      expireDays: this.int(),
      alert: this.known() ?? '',
      slug: this.str() ?? '',
    };
  }
}

/** Streams every mark with words to `onRow`, inside one repeatable-read snapshot whose feed position it returns. */
export async function streamMarks(url: string, onStart: (s: Snapshot) => void, onRow: (r: MarkRow) => void): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin transaction isolation level repeatable read read only');
    const meta = await client.query(
      `select coalesce((select max(search_seq) from trademarks), 0)::bigint as seq, (select id::text from search_instance) as instance,
         greatest((select reltuples::bigint from pg_class where oid = 'trademarks'::regclass), 0) as estimate`,
    );
    const snap: Snapshot = { seq: Number(meta.rows[0].seq), instance: meta.rows[0].instance, estimate: Number(meta.rows[0].estimate) };
    // Deletions before the snapshot are already absent from it.
    const del = await client.query('select coalesce(max(search_seq), 0)::bigint as seq from search_deletions');
    snap.seq = Math.max(snap.seq, Number(del.rows[0].seq));
    onStart(snap);
    const stream = client.query(copyStreams.to(`copy (select ${COLUMNS} from trademarks where word_mark <> '') to stdout`));
    let rest = '';
    const fields = new CopyFields();
    for await (const chunk of stream) {
      const text = rest + (chunk as Buffer).toString('utf8');
      let start = 0;
      for (;;) {
        const nl = text.indexOf('\n', start);
        if (nl < 0) break;
        fields.line(text, start, nl);
        onRow(fields.row());
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
    text: `select ${COLUMN_LIST.map((c) => `(${c})::text`).join(', ')}, search_seq from trademarks
      where search_seq > $1 order by search_seq limit $2`,
    values: [since, limit],
    rowMode: 'array',
  });
  const dels = await client.query(
    'select application_number, search_seq from search_deletions where search_seq > $1 order by search_seq limit $2',
    [since, limit],
  );
  // A list cut at the limit is complete only up to its last position: stop there.
  const lastOf = (list: unknown[], seqOf: (x: never) => number) => (list.length === limit ? seqOf(list.at(-1) as never) : Infinity);
  const upTo = Math.min(
    lastOf(rows.rows, (r: unknown[]) => Number(r[FIELDS])),
    lastOf(dels.rows, (d: { search_seq: string }) => Number(d.search_seq)),
  );
  const changes: Change[] = [];
  for (const r of rows.rows as (string | null)[][]) {
    const row = rowOf(r);
    changes.push({ seq: Number(r[FIELDS]), appNo: row.appNo, row: row.wordMark.trim() ? row : null });
  }
  for (const d of dels.rows) changes.push({ seq: Number(d.search_seq), appNo: Number(d.application_number), row: null });
  const kept = changes.filter((c) => c.seq <= upTo).sort((a, b) => a.seq - b.seq);
  return { changes: kept, seq: kept.length ? kept[kept.length - 1].seq : since };
}
