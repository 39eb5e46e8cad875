// The register names the clearance speed checks screen (bench/clearance.ts, bench/clearance/dump.ts, searchEach.ts,
// batchQueue.ts, timing.ts): n live or pending marks with words, drawn repeatably by seed from a register of `size`
// marks, each screened in three classes.
import pg from 'pg';
import { labelsOf } from '../../src/search/statusGroups.ts';
import type { Rng } from '../rng.ts';

/** A name's three classes: its own first, then two others drawn at random. */
export function threeClasses(own: number, r: Rng): number[] {
  const out = new Set([own]);
  while (out.size < 3) out.add(1 + r.int(45));
  return [...out];
}

export async function liveNames(
  url: string,
  n: number,
  seed: number,
  size: number,
): Promise<{ word_mark: string; class_number: number }[]> {
  const c = new pg.Client(url);
  await c.connect();
  try {
    const known = (await c.query('select status from status_values')).rows.map((r) => r.status as string);
    const r = await c.query(
      `select word_mark, class_number from trademarks tablesample bernoulli (${Math.min(100, (n * 60 * 100) / size)}) repeatable (${seed})
       where word_mark <> '' and status = any($1::text[]) order by md5(application_number || $2) limit ${n}`,
      [labelsOf(['live', 'pending'], known), String(seed)],
    );
    return r.rows;
  } finally {
    await c.end();
  }
}
