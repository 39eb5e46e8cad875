import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Db } from '../../src/db/knex.ts';
import { ENTITY_BY_NAME } from '../../src/ingest/importer/entities.ts';
import { importSet } from '../../src/ingest/importer/index.ts';
import { checkLine } from '../../src/ingest/importer/lines.ts';
import { LocalObjectStore } from '../../src/storage/localStore.ts';
import { UrlSigner } from '../../src/storage/urlSigner.ts';
import { cloneTestDatabase } from '../helpers/db.ts';

// A mark's Vienna codes in the ingest format (docs/ingest.md): checked against the shipped table,
// stored as the register prints them (03.01.01) whatever form the set writes, each once; an unknown
// code refuses the line; a change of codes is a correction (applied and counted, no event).

const BASELINE = new URL('../fixtures/ingest/baseline/', import.meta.url).pathname;
const tm = ENTITY_BY_NAME.get('trademarks')!;
const base = { application_number: '1234567', class_number: 30, status: 'Registered', application_date: '2020-01-31', tm_type: 'DEVICE' };

const dirs: string[] = [];
const dbs: Db[] = [];
after(async () => {
  for (const db of dbs.splice(0)) await db.destroy();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
};

/** The fixture baseline's trademarks with these codes per application number (other files left out). */
function setWith(codes: Record<string, unknown>): string {
  const set = tempDir('nishaan-vienna-set-');
  const lines = fs
    .readFileSync(path.join(BASELINE, 'trademarks.jsonl'), 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l))
    // No journals in the set: journal_id would name an unknown record.
    .map((r) => ({ ...r, journal_id: null, ...(r.application_number in codes && { vienna_codes: codes[r.application_number] }) }));
  fs.writeFileSync(path.join(set, 'trademarks.jsonl'), lines.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return set;
}

describe('importer: Vienna codes', () => {
  describe('line checks', () => {
    const row = (codes: unknown) => checkLine(tm, JSON.stringify({ ...base, vienna_codes: codes }));

    it('takes the forms the table and the register use, printed with two digits a part, each once', () => {
      const c = row(['3.1.1', '030101', '03.07', ' 26.1.3', '28.11', '27']);
      expect(c).to.have.property('row');
      const r = (c as { row: string }).row;
      expect(r).to.contain('{"03.01.01","03.07","26.01.03","28.11","27"}');
      expect((row([]) as { row: string }).row).to.contain('{}');
      expect((checkLine(tm, JSON.stringify(base)) as { row: string }).row).to.match(/\\N\t[^\t]+$/);
    });

    it('refuses an unknown code or one not written as a code, naming it', () => {
      const reason = (codes: unknown) => {
        const c = row(codes);
        return 'reason' in c ? c.reason : undefined;
      };
      const unknown = (code: string) =>
        `vienna_codes has an unknown Vienna code "${code}" (codes are category.division.section, e.g. 03.01.01)`;
      expect(reason(['03.01.01', '03.01.03'])).to.equal(unknown('03.01.03'));
      expect(reason(['98.02'])).to.equal(unknown('98.02'));
      expect(reason(['lion'])).to.equal(unknown('lion'));
      expect(reason(['301'])).to.equal(unknown('301'));
      expect(reason('03.01.01')).to.equal('vienna_codes must be an array of strings');
      expect(reason([3.0101])).to.equal('vienna_codes must be an array of strings');
    });
  });

  describe('importing', () => {
    let db: Db;
    let store: LocalObjectStore;
    const run = (dir: string) => importSet({ db, store, dir });
    const codes = async () =>
      Object.fromEntries(
        (await db('trademarks').select('application_number', 'vienna_codes').orderBy('application_number')).map((r) => [
          r.application_number,
          r.vienna_codes,
        ]),
      );

    before(async () => {
      ({ db } = await cloneTestDatabase());
      dbs.push(db);
      store = new LocalObjectStore(tempDir('nishaan-vienna-store-'), new UrlSigner('test-signing-secret-0123456789'), () => 'http://x');
    });

    it('stores codes as printed, refuses a line with an unknown code and imports the others', async () => {
      const set = setWith({ 4100002: ['3.1.1', '030101', '26.01.03'], 4100003: ['05.05.20', '99.99.99'], 4100004: ['1.3'] });
      const result = await run(set);
      expect(result.errors).to.deep.equal([
        'trademarks.jsonl:3: vienna_codes has an unknown Vienna code "99.99.99" (codes are category.division.section, e.g. 03.01.01)',
      ]);
      expect(result.counts.trademarks).to.deep.include({ rejected: 1 });
      const stored = await codes();
      expect(stored['4100002']).to.deep.equal(['03.01.01', '26.01.03']);
      expect(stored['4100004']).to.deep.equal(['01.03']);
      expect(stored).to.not.have.property('4100003');
    });

    it('changes nothing when the same set, in other forms of the same codes, is imported again', async () => {
      const before = await db.raw(`select application_number, xmin::text as x from trademarks order by 1`);
      const again = await run(setWith({ 4100002: ['03.01.01', '26.1.3'], 4100003: ['05.05.20', '99.99.99'], 4100004: ['0103'] }));
      expect(again.counts.trademarks).to.deep.include({ inserted: 0, updated: 0, events: 0 });
      expect((await db.raw(`select application_number, xmin::text as x from trademarks order by 1`)).rows).to.deep.equal(before.rows);
    });

    it('applies a change of codes as a correction: counted as updated, no event', async () => {
      const result = await run(setWith({ 4100002: ['03.07.05', '26.01.03'], 4100003: ['05.05.20', '99.99.99'], 4100004: ['0103'] }));
      expect(result.counts.trademarks).to.deep.include({ inserted: 0, updated: 1, events: 0 });
      expect(result.events).to.equal(0);
      expect((await codes())['4100002']).to.deep.equal(['03.07.05', '26.01.03']);
      expect(await db('outbox')).to.have.length(0);
    });
  });
});
