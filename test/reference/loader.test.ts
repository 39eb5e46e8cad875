import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Db } from '../../src/db/knex.ts';
import { loadReferenceData, REFERENCE_DIR } from '../../src/reference/loader.ts';
import { cloneTestDatabase } from '../helpers/db.ts';

// The tables with serial ids that responses expose.
const SERIAL = ['class_items', 'well_known_marks', 'stamp_duty', 'inn_names', 'inn_stems'] as const;

async function ids(db: Db): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of SERIAL) {
    const r = await db.raw(`select id || ':' || md5(t::text) as row from ${table} t order by id`);
    out[table] = r.rows.map((x: { row: string }) => x.row);
  }
  return out;
}

describe('reference data loader', () => {
  let db: Db;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-reference-'));
  before(async () => {
    ({ db } = await cloneTestDatabase());
    for (const f of fs.readdirSync(REFERENCE_DIR)) fs.copyFileSync(path.join(REFERENCE_DIR, f), path.join(dir, f));
  });
  after(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('skips the load when the shipped files have not changed, still answering the counts', async () => {
    const before = await db.raw('select xmin::text as x, loaded_at from reference_version');
    const untouched = await db.raw('select xmin::text as x from well_known_marks order by id limit 1');
    const counts = await loadReferenceData(db);
    expect(counts).to.include({ nice_classes: 45, class_items: 10029, well_known_marks: 44, stamp_duty: 39 });
    expect((await db.raw('select xmin::text as x, loaded_at from reference_version')).rows).to.deep.equal(before.rows);
    expect((await db.raw('select xmin::text as x from well_known_marks order by id limit 1')).rows).to.deep.equal(untouched.rows);
  });

  it('reloads changed files keeping the id of every row, and loads the originals back the same', async () => {
    const original = await ids(db);
    fs.chmodSync(path.join(dir, 'well_known_marks.csv'), 0o644);
    fs.appendFileSync(path.join(dir, 'well_known_marks.csv'), 'ZZTEST,Test Ltd,article,,,low\n');
    const counts = await loadReferenceData(db, dir);
    expect(counts.well_known_marks).to.equal(45);
    const changed = await ids(db);
    for (const table of SERIAL) {
      const expected = table === 'well_known_marks' ? original[table].length + 1 : original[table].length;
      expect(changed[table], table).to.have.length(expected);
      expect(changed[table].slice(0, original[table].length), table).to.deep.equal(original[table]);
    }
    const added = await db.raw(`select id from well_known_marks where mark = 'ZZTEST'`);
    expect(added.rows[0].id).to.equal(45);

    await loadReferenceData(db);
    expect(await ids(db)).to.deep.equal(original);
  });
});
