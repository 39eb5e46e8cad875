// Real mark texts mixed into the bench register (issue 20's recall measure): the brand names of the
// simple-icons manifest (titles and their other names) and the marks on India's well-known list, from
// ../shared/data, inserted into the bench database's trademarks (slugs real-…) as application numbers 90,000,000
// up, so that bench/searchRecall.ts --source real draws its originals from texts our generator did not make.
// With --spread they take free numbers drawn at random from the register's own range instead: search breaks ties
// between equally close marks by application number, earlier first, so marks numbered after all others lose every
// tie (measured to change nothing on 2026-12-07: bench/RESULTS.md). None of these texts was looked at while tuning
// search. Idempotent: earlier rows are replaced.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/nishaan_bench npx tsx bench/realMarks.ts [--data ../shared/data] [--spread]
// Rebuild the search snapshot afterwards (npx tsx scripts/search-index.ts rebuild).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { args, DEFAULT_URL } from './lib.ts';

const REAL_FROM = 90_000_000;
/** The real marks' rows, however numbered. */
export const REAL_MARKS = `slug like 'real-%' and proprietor_name = 'REAL MARK HOLDER'`;

/** `n` application numbers no mark holds, drawn at random (seeded) between the register's smallest and largest. */
async function spread(client: pg.Client, n: number): Promise<number[]> {
  const { rows } = await client.query(
    `with r as (select min(application_number::bigint) lo, max(application_number::bigint) hi from trademarks
                where application_number ~ '^[0-9]{1,8}$' and application_number::bigint < $2)
     select x::int as app from r, generate_series(r.lo, r.hi) x
     where not exists (select 1 from trademarks t where t.application_number = x::text)
     order by md5(x::text) limit $1`,
    [n, REAL_FROM],
  );
  if (rows.length < n) throw new Error(`only ${rows.length} free application numbers in the register's range`);
  return rows.map((r) => r.app as number);
}

/** RFC 4180 rows of a CSV with a header, as objects. */
function readCsv(file: string): Record<string, string>[] {
  const text = readFileSync(file, 'utf8');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') field += text[i++];
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  const [head, ...body] = rows;
  return body.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ''])));
}

export function realTexts(data: string): string[] {
  const icons = readCsv(join(data, 'logos/simple_icons_manifest.csv'));
  const known = readCsv(join(data, 'well_known_marks.csv'));
  const texts = [
    ...icons.map((r) => r.title),
    ...icons.flatMap((r) => (r.aka ? r.aka.split(/[;|]/).map((s) => s.trim()) : [])),
    ...known.map((r) => r.mark),
  ];
  const seen = new Set<string>();
  return texts.filter((t) => /[\p{L}\p{N}]/u.test(t) && !seen.has(t.toUpperCase()) && seen.add(t.toUpperCase()));
}

if (process.argv[1]?.endsWith('realMarks.ts')) {
  const a = args();
  const texts = realTexts(a.get('data') ?? '../shared/data');
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL ?? DEFAULT_URL });
  await client.connect();
  await client.query('begin');
  await client.query(`delete from trademarks where ${REAL_MARKS}`);
  const numbers = a.has('spread') ? await spread(client, texts.length) : texts.map((_, i) => REAL_FROM + i);
  for (let i = 0; i < texts.length; i += 500) {
    const part = texts.slice(i, i + 500);
    const apps = part.map((_, j) => String(numbers[i + j]));
    await client.query(
      `insert into trademarks (application_number, word_mark, class_number, status, application_date, proprietor_name, tm_type, slug)
       select app, mark, 1 + (app::bigint % 45), 'Registered', date '2015-01-01', 'REAL MARK HOLDER', 'WORD', 'real-' || app
       from unnest($1::text[], $2::text[]) as t(app, mark)`,
      [apps, part],
    );
  }
  await client.query('commit');
  await client.end();
  console.log(`${texts.length} real mark texts at application numbers ${Math.min(...numbers)}-${Math.max(...numbers)}`);
}
