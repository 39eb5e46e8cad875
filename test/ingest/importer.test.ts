import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type pg from 'pg';
import type { Db } from '../../src/db/knex.ts';
import { ENTITY_BY_NAME, ENTITY_NAMES, ITEMS_MAX, TEXT_MAX } from '../../src/ingest/importer/entities.ts';
import { feedFile } from '../../src/ingest/importer/feed.ts';
import type { SetFiles } from '../../src/ingest/importer/files.ts';
import { type ImportResult, importSet } from '../../src/ingest/importer/index.ts';
import { checkLine, isDate, isTimestamp, MAX_LINE_BYTES, readLines } from '../../src/ingest/importer/lines.ts';
import { Progress } from '../../src/ingest/importer/progress.ts';
import { createStage } from '../../src/ingest/importer/stage.ts';
import { LocalObjectStore } from '../../src/storage/localStore.ts';
import { UrlSigner } from '../../src/storage/urlSigner.ts';
import { slugOf } from '../../src/trademarks/slug.ts';
import { cloneTestDatabase } from '../helpers/db.ts';

const FIXTURES = new URL('../fixtures/ingest/', import.meta.url).pathname;
const REPO = new URL('../../', import.meta.url).pathname;
const BASELINE = path.join(FIXTURES, 'baseline');
const DELTA = path.join(FIXTURES, 'delta');
const BAD = path.join(FIXTURES, 'bad');

// Mark 4100001's proprietor, attorney and hearing in the baseline fixture, as stored less the application
// number: the baseline test reads them back, the delta test sees them change.
const PROP21 = {
  id: 21,
  name: 'SUNRISE FOODS PVT LTD',
  entity_type: 'Company',
  address: '12 Linking Road, Mumbai',
  state: 'MAHARASHTRA',
  country: 'India',
  trading_as: null,
};
const ATT31 = {
  id: 31,
  name: 'MEHTA & ASSOCIATES',
  agent_code: 'AG1234',
  address: 'Fort, Mumbai',
  email: 'tm@mehta.example',
  phone: '+91 22 2345 6789',
};
const H51 = {
  id: 51,
  hearing_date: '2024-07-01',
  hearing_type: 'Show Cause',
  virtual_room_link: null,
  time_slot: '10:30-11:00',
  status: 'Scheduled',
};

interface Env {
  db: Db;
  url: string;
  storeDir: string;
  store: LocalObjectStore;
  run(dir: string): Promise<ImportResult>;
}

const opened: Db[] = [];
const tempDirs: string[] = [];
after(async () => {
  for (const db of opened.splice(0)) await db.destroy();
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

async function freshEnv(): Promise<Env> {
  const { db, url } = await cloneTestDatabase();
  opened.push(db);
  const storeDir = tempDir('nishaan-import-store-');
  const store = new LocalObjectStore(storeDir, new UrlSigner('test-signing-secret-0123456789'), () => 'http://127.0.0.1:1');
  return { db, url, storeDir, store, run: (dir) => importSet({ db, store, dir }) };
}

/** Every row of every registry table (and the outbox) with its xmin, so an UPDATE shows even when values are equal. */
async function snapshot(db: Db, tables = [...ENTITY_NAMES, 'outbox']): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of tables) {
    const r = await db.raw(`select x.xmin::text as xmin, to_jsonb(x) as row from ${t} x order by to_jsonb(x)::text`);
    out[t] = r.rows;
  }
  return out;
}

async function schema(db: Db): Promise<string[]> {
  const r = await db.raw(
    `select indexdef as def from pg_indexes where schemaname = 'public'
     union all select conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) from pg_constraint
       where connamespace = 'public'::regnamespace
     order by 1`,
  );
  return r.rows.map((x: { def: string }) => x.def);
}

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const blobs = (storeDir: string) =>
  fs.existsSync(path.join(storeDir, 'blobs')) ? fs.readdirSync(path.join(storeDir, 'blobs')).sort() : [];

/** Rewrites the lines of one file of a set (in place). */
function editLines(set: string, file: string, edit: (lines: string[]) => string[]): void {
  const p = path.join(set, file);
  fs.writeFileSync(p, `${edit(fs.readFileSync(p, 'utf8').trimEnd().split('\n')).join('\n')}\n`);
}

/** A copy of a fixture set in a temp dir, with one file's lines rewritten. */
function variantOf(dir: string, file: string, edit: (lines: string[]) => string[]): string {
  const copy = tempDir('nishaan-set-');
  fs.cpSync(dir, copy, { recursive: true });
  editLines(copy, file, edit);
  return copy;
}

/** A set holding only the given records (one array per file), with the `files/` folder of `dir`. */
function setOf(dir: string, records: Record<string, object[]>): string {
  const set = tempDir('nishaan-set-');
  fs.cpSync(path.join(dir, 'files'), path.join(set, 'files'), { recursive: true });
  for (const [file, recs] of Object.entries(records)) {
    fs.writeFileSync(path.join(set, file), recs.map((r) => `${JSON.stringify(r)}\n`).join(''));
  }
  return set;
}

/** Merges `patches[application_number]` into each line of that mark. */
const patchMarks = (patches: Record<string, object>) => (lines: string[]) =>
  lines.map((l) => {
    const rec = JSON.parse(l);
    return patches[rec.application_number] ? JSON.stringify({ ...rec, ...patches[rec.application_number] }) : l;
  });

describe('importer: line checks', () => {
  const tm = ENTITY_BY_NAME.get('trademarks')!;
  const base = { application_number: '1234567', class_number: 30, status: 'Registered', application_date: '2020-01-31', tm_type: 'WORD' };
  const reason = (e: string, obj: unknown) => {
    const c = checkLine(ENTITY_BY_NAME.get(e as never)!, typeof obj === 'string' ? obj : JSON.stringify(obj));
    return 'reason' in c ? c.reason : undefined;
  };

  it('names the field and the rule it breaks', () => {
    expect(reason('trademarks', { ...base, class_number: 0 })).to.equal('class_number must be an integer 1-45');
    expect(reason('trademarks', { ...base, class_number: '30' })).to.equal('class_number must be an integer 1-45');
    expect(reason('trademarks', { ...base, application_number: '12A' })).to.equal(
      'application_number must be 1-12 digits without a leading zero',
    );
    expect(reason('trademarks', { ...base, application_date: '2021-02-29' })).to.equal('application_date must be a date (YYYY-MM-DD)');
    expect(reason('trademarks', { ...base, vienna_codes: ['a', 1] })).to.equal('vienna_codes must be an array of strings');
    expect(reason('trademarks', { ...base, registry_office: 'BOM' })).to.equal('registry_office must be one of MUM, DEL, KOL, CHE, AHD');
    // A multi-class application's classes: integers 1-45, the lowest its class_number (the one search files it under).
    const classes = 'classes must be an array of integers 1-45 whose lowest is class_number';
    expect(reason('trademarks', { ...base, classes: [30, 46] })).to.equal(classes);
    expect(reason('trademarks', { ...base, classes: [29, 30] })).to.equal(classes);
    expect(reason('trademarks', { ...base, classes: ['30', '31'] })).to.equal(classes);
    expect(reason('trademarks', { ...base, classes: [31, 30, 30] })).to.equal(undefined);
    expect(reason('trademarks', { ...base, used_since: 'soon' })).to.equal(
      'used_since must be "Proposed to be Used" or a date (YYYY-MM-DD)',
    );
    expect(reason('trademarks', { ...base, word_mark: 'A\u0000B' })).to.equal('contains a NUL character (\\u0000)');
    expect(reason('trademarks', { ...base, status: undefined })).to.equal('status is required');
    expect(reason('status_history', { id: 1.5, application_number: '1', new_status: 'x', changed_at: '2020-01-01T00:00:00Z' })).to.equal(
      'id must be a non-negative integer',
    );
    expect(
      reason('documents', {
        id: 1,
        application_number: '1',
        name: 'n',
        document_type: 't',
        upload_date: '2020-01-01',
        file: '/etc/passwd',
      }),
    ).to.equal('file must be a path inside the set');
    expect(reason('trademarks', '{"a":')).to.equal('not valid JSON');
    expect(reason('trademarks', '"text"')).to.equal('not a JSON object');
    expect('row' in checkLine(tm, JSON.stringify({ ...base, extra: { ignored: true } }))).to.equal(true);
  });

  it('takes application numbers of 1-12 digits, the longest the API can look up', () => {
    expect(reason('trademarks', { ...base, application_number: '123456789012' })).to.equal(undefined);
    expect(reason('trademarks', { ...base, application_number: '1234567890123' })).to.equal(
      'application_number must be 1-12 digits without a leading zero',
    );
    expect(reason('trademarks', { ...base, application_number: '' })).to.equal(
      'application_number must be 1-12 digits without a leading zero',
    );
    expect(reason('trademarks', { ...base, application_number: '0123' })).to.equal(
      'application_number must be 1-12 digits without a leading zero',
    );
    const cited = { id: 1, exam_report_id: 2, application_number: '1', cited_application_number: '999999999999' };
    expect(reason('cited_marks', cited)).to.equal(undefined);
    expect(reason('cited_marks', { ...cited, cited_application_number: '1000000000000' })).to.equal(
      'cited_application_number must be 1-12 digits without a leading zero',
    );
  });

  it('ignores a NUL inside a field the importer does not read', () => {
    expect('row' in checkLine(tm, JSON.stringify({ ...base, note: 'a\u0000b' }))).to.equal(true);
  });

  /** [line number, text (its length when long), reason refused] of every line of a file. */
  async function linesOf(content: string | Buffer): Promise<[number, string, string?][]> {
    const file = path.join(tempDir('nishaan-lines-'), 'x.jsonl');
    fs.writeFileSync(file, content);
    const got: [number, string, string?][] = [];
    for await (const b of readLines(file)) {
      b.lines.forEach((l, i) => {
        const why = b.refused?.get(i);
        got.push(why === undefined ? [b.first + i, l.length > 20 ? `${l.length}` : l] : [b.first + i, l, why]);
      });
    }
    return got;
  }

  it('numbers lines from 1 across chunks, without a byte order mark or a final newline', async () => {
    const long = 'y'.repeat(900_000); // six such lines take more than one read
    const got = await linesOf(`\uFEFF{"a":1}\r\n\n${`{"b":"${long}"}\n`.repeat(6)}{"c":"é"}`);
    expect(got).to.deep.equal([[1, '{"a":1}\r'], [2, ''], ...[3, 4, 5, 6, 7, 8].map((n) => [n, `${long.length + 8}`]), [9, '{"c":"é"}']]);
  });

  it('refuses a line that is not valid UTF-8 or longer than MAX_LINE_BYTES, by its number, and reads on', async () => {
    const tooLong = `line longer than ${MAX_LINE_BYTES} bytes`;
    const got = await linesOf(
      Buffer.concat([
        Buffer.from('{"a":1}\n'),
        Buffer.from(`{"b":"${'y'.repeat(3 << 20)}"}\n`), // too long, inside one read
        Buffer.from('{"c":"\u00e9"}\n'),
        Buffer.from(`{"d":"${'y'.repeat(9 << 20)}"}\n`), // too long, over several reads
        Buffer.from('{"e":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}\n'), // bytes that are no UTF-8
        Buffer.from('{"f":"'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}\n'), // a surrogate encoded in UTF-8: no character
        Buffer.from('{"g":"'),
        Buffer.from([0xc3]),
        Buffer.from('"}\n'), // a character cut short
        Buffer.from('{"h":"\uFFFD"}\n'), // U+FFFD written as such is a character like any other
        Buffer.from('{"i":"ok"}\n'),
        Buffer.from(`{"j":"${'y'.repeat(2 << 20)}"}`), // too long, at the end of the file without a newline
      ]),
    );
    expect(got).to.deep.equal([
      [1, '{"a":1}'],
      [2, '', tooLong],
      [3, '{"c":"é"}'],
      [4, '', tooLong],
      [5, '', 'not valid UTF-8'],
      [6, '', 'not valid UTF-8'],
      [7, '', 'not valid UTF-8'],
      [8, '{"h":"\uFFFD"}'],
      [9, '{"i":"ok"}'],
      [10, '', tooLong],
    ]);
  });

  it('refuses values longer than their limit, and half a surrogate pair, naming the field', () => {
    expect(reason('trademarks', { ...base, word_mark: 'W'.repeat(500) })).to.equal(undefined);
    expect(reason('trademarks', { ...base, word_mark: 'W'.repeat(501) })).to.equal('word_mark must be at most 500 characters');
    // Characters, not UTF-16 units: 500 letters outside the BMP are 500 characters.
    expect(reason('trademarks', { ...base, word_mark: '\u{1D400}'.repeat(500) })).to.equal(undefined);
    expect(reason('trademarks', { ...base, goods_services: 'g'.repeat(32_000) })).to.equal(undefined);
    expect(reason('trademarks', { ...base, goods_services: 'g'.repeat(10_000_000) })).to.equal(
      'goods_services must be at most 32000 characters',
    );
    expect(reason('trademarks', { ...base, proprietor_name: 'p'.repeat(TEXT_MAX + 1) })).to.equal(
      `proprietor_name must be at most ${TEXT_MAX} characters`,
    );
    expect(reason('trademarks', { ...base, state: 's'.repeat(TEXT_MAX + 1) })).to.equal(`state must be at most ${TEXT_MAX} characters`);
    expect(reason('trademarks', { ...base, slug: 's'.repeat(TEXT_MAX + 1) })).to.equal(`slug must be at most ${TEXT_MAX} characters`);
    expect(reason('trademarks', { ...base, vienna_codes: ['1'.repeat(21)] })).to.equal('vienna_codes items must be at most 20 characters');
    expect(reason('trademarks', { ...base, vienna_codes: Array(ITEMS_MAX + 1).fill('26.1.1') })).to.equal(
      `vienna_codes must have at most ${ITEMS_MAX} items`,
    );
    const exam = { id: 1, application_number: '1', report_date: '2020-01-01' };
    expect(reason('exam_reports', { ...exam, objection_reasons: Array(50).fill('r'.repeat(2000)) })).to.equal(undefined);
    expect(reason('exam_reports', { ...exam, objection_reasons: Array(51).fill('r') })).to.equal(
      'objection_reasons must have at most 50 items',
    );
    const doc = { id: 1, application_number: '1', name: 'n', document_type: 't', upload_date: '2020-01-01' };
    expect(reason('documents', { ...doc, file: `files/${'x'.repeat(TEXT_MAX)}.pdf` })).to.equal(
      `file must be at most ${TEXT_MAX} characters`,
    );

    const line = (wordMark: string) =>
      `{"application_number":"1234567","word_mark":"${wordMark}","class_number":30,"status":"Registered",` +
      '"application_date":"2020-01-31","tm_type":"WORD"}';
    expect(reason('trademarks', line('A\\ud800B'))).to.equal('word_mark contains an unpaired surrogate (\\ud800-\\udfff)');
    expect(reason('trademarks', line('A\\uDC00'))).to.equal('word_mark contains an unpaired surrogate (\\ud800-\\udfff)');
    expect(reason('trademarks', line('\\ude00\\ud83d'))).to.equal('word_mark contains an unpaired surrogate (\\ud800-\\udfff)');
    expect(reason('trademarks', line('SMILE \\ud83d\\ude00')), 'a pair is one character').to.equal(undefined);
    expect(reason('trademarks', line('\\\\ud800')), 'an escaped backslash, then text').to.equal(undefined);
    // A field the importer does not read may hold anything, as for NUL.
    expect(reason('trademarks', `${line('A').slice(0, -1)},"note":"\\ud800"}`)).to.equal(undefined);
  });

  it('accepts real dates and zoned timestamps only', () => {
    expect(isDate('2024-02-29')).to.equal(true);
    expect(isDate('2023-02-29')).to.equal(false);
    expect(isDate('2023-13-01')).to.equal(false);
    expect(isDate('0000-01-01')).to.equal(false);
    expect(isTimestamp('2024-03-01T10:00:00Z')).to.equal(true);
    expect(isTimestamp('2024-03-01T10:00:00.123+05:30')).to.equal(true);
    expect(isTimestamp('2024-03-01T10:00:00')).to.equal(false);
    expect(isTimestamp('2024-03-01T24:00:00Z')).to.equal(false);
  });

  it('computes slugs from the word mark and the number', () => {
    expect(slugOf('SUNRISE FOODS', '1234567')).to.equal('sunrise-foods-1234567');
    expect(slugOf('', '1234567')).to.equal('device-mark-1234567');
    expect(slugOf('Café  Lotus!', '7')).to.equal('cafe-lotus-7');
    expect(slugOf('शक्ति', '8')).to.equal('mark-8');
  });
});

describe('importer: baseline', () => {
  let env: Env;
  let first: ImportResult;

  before(async () => {
    env = await freshEnv();
    first = await env.run(BASELINE);
  });

  it('loads every entity with the right values and writes no events', async () => {
    const { db } = env;
    expect(first).to.include({ baseline: true, rejected: 0, events: 0 });
    expect(first.errors).to.deep.equal([]);
    const count = async (t: string) => Number((await db.raw(`select count(*)::int as n from ${t}`)).rows[0].n);
    const expected: Record<string, number> = {
      journals: 2,
      trademarks: 4,
      status_history: 4,
      proprietors: 3,
      attorneys: 1,
      oppositions: 1,
      hearings: 1,
      documents: 3,
      exam_reports: 1,
      cited_marks: 2,
      alerts: 1,
      logos: 1,
      outbox: 0,
    };
    for (const [t, n] of Object.entries(expected)) expect(await count(t), t).to.equal(n);
    for (const [t, c] of Object.entries(first.counts)) expect(c.inserted, t).to.equal(expected[t]);

    const tms = (await db('trademarks').orderBy('application_number')) as Record<string, unknown>[];
    expect(tms[0]).to.deep.include({
      application_number: '4100001',
      word_mark: 'SUNRISE FOODS',
      class_number: 30,
      status: 'Objected',
      application_date: '2019-04-12',
      expire_at: null,
      proprietor_name: 'SUNRISE FOODS PVT LTD',
      state: 'MAHARASHTRA',
      tm_type: 'WORD',
      filing_mode: 'E-FILING',
      alert: '',
      slug: 'sunrise-foods-4100001',
      used_since: 'Proposed to be Used',
      registry_office: 'MUM',
      journal_id: null,
      vienna_codes: [],
      goods_services: 'Rice, flour and preparations made from cereals; bread, pastry and confectionery',
    });
    expect(tms[1]).to.deep.include({
      word_mark: '',
      slug: 'device-mark-4100002',
      alert: '',
      expire_at: '2029-04-13',
      used_since: '2015-06-01',
      journal_id: 1,
      vienna_codes: ['26.01.01', '27.05.01'],
      tm_type: 'DEVICE',
    });
    expect(tms[2]).to.deep.include({ word_mark: 'Café Lotus', slug: 'cafe-lotus-4100003', alert: 'Opposed' });
    expect(tms[3]).to.deep.include({
      slug: 'royal-star-electronics',
      state: null,
      filing_mode: null,
      vienna_codes: null,
      used_since: null,
    });

    const sh = await db('status_history').where({ id: 12 }).first();
    expect(sh).to.deep.include({ application_number: '4100001', old_status: 'Formalities Chk Pass', new_status: 'Objected' });
    expect(sh.changed_at.toISOString()).to.equal('2019-09-01T04:00:00.000Z');
    expect((await db('status_history').where({ id: 14 }).first()).old_status).to.equal(null);

    const props = await db('proprietors').orderBy('id');
    expect(props[0]).to.deep.equal({ ...PROP21, application_number: '4100001' });
    expect(props[2]).to.deep.include({ country: 'Singapore', address: 'Tower A\tFloor 3\nBengaluru \\ KA' });
    expect(await db('attorneys').first()).to.deep.equal({ ...ATT31, application_number: '4100001' });
    expect(await db('oppositions').first()).to.deep.equal({
      id: 41,
      application_number: '4100003',
      opposition_number: 'CHE-123456',
      opponent_name: 'LOTUS FOODS LTD',
      opponent_address: 'Chennai',
      opposition_date: '2020-01-05',
      status: 'Pending',
      decision: null,
      decision_date: null,
    });
    expect(await db('hearings').first()).to.deep.equal({ ...H51, application_number: '4100001' });

    const form = path.join(BASELINE, 'files/application-form.pdf');
    const docs = await db('documents').orderBy('id');
    expect(docs[0]).to.deep.equal({
      id: 61,
      application_number: '4100001',
      opposition_id: null,
      name: 'Application form',
      document_type: 'TM-A',
      upload_date: '2019-04-12',
      object_key: `blobs/${sha256(form)}.pdf`,
      content_type: 'application/pdf',
      size_bytes: fs.statSync(form).size,
    });
    expect(docs[1].object_key).to.equal(docs[0].object_key);
    expect(docs[2]).to.deep.include({
      opposition_id: 41,
      object_key: `blobs/${sha256(path.join(BASELINE, 'files/notice-of-opposition.pdf'))}.pdf`,
    });

    expect(await db('exam_reports').first()).to.deep.equal({
      id: 71,
      application_number: '4100001',
      report_date: '2019-08-20',
      objection_reasons: ['Section 9(1)(a): devoid of distinctive character', 'Section 11(1): similar to "SUNRISE" marks'],
      reply_due_date: '2019-09-20',
    });
    expect((await db('cited_marks').orderBy('id')).map((c) => c.cited_application_number)).to.deep.equal(['4100004', '999999']);
    const alert = await db('alerts').first();
    expect(alert).to.deep.include({ id: 91, old_alert: null, new_alert: 'Reply to examination report pending' });

    const journals = await db('journals').orderBy('id');
    expect(journals[0]).to.deep.equal({
      id: 1,
      journal_number: '2100',
      publication_date: '2024-01-08',
      object_key: null,
      page_count: 1200,
    });
    expect(journals[1].object_key).to.equal(`blobs/${sha256(path.join(BASELINE, 'files/journal-2101.pdf'))}.pdf`);

    expect(await db('logos').first()).to.deep.include({
      application_number: '4100002',
      content_type: 'image/png',
      width: 40,
      height: 24,
      object_key: `blobs/${sha256(path.join(BASELINE, 'files/logo-asha.png'))}.png`,
      ocr_text: null,
      index_state: 'pending',
    });

    const run = await db('import_runs').where({ id: first.runId }).first();
    expect(run).to.deep.include({ baseline: true, rejected: 0, events: 0, source: BASELINE });
    expect(run.finished_at).to.be.instanceOf(Date);
    expect(run.counts.trademarks).to.deep.equal({ lines: 4, inserted: 4, updated: 0, rejected: 0, events: 0 });
  });

  it('stores each distinct file once under its content hash', () => {
    const names = ['application-form.pdf', 'journal-2101.pdf', 'notice-of-opposition.pdf', 'logo-asha.png'];
    const expected = names.map((n) => `${sha256(path.join(BASELINE, 'files', n))}${path.extname(n)}`).sort();
    expect(blobs(env.storeDir)).to.deep.equal(expected);
    expect(first.files).to.deep.equal({ hashed: 4, stored: 4 });
  });

  it('changes nothing when the same set is imported again', async () => {
    // A logo's index (filled later by the logo indexing jobs) must survive a re-import of the same image.
    const vec = `[${Array.from({ length: 128 }, (_, i) => (i % 7) / 10).join(',')}]`;
    await env.db.raw(`update logos set index_state = 'done', ocr_detected = 'ASHA' where application_number = '4100002'`);
    await env.db.raw(`insert into logo_vectors (application_number, model, embedding) values ('4100002', 'test', ?::halfvec)`, [vec]);
    const before = await snapshot(env.db);
    const files = blobs(env.storeDir).map((b) => fs.statSync(path.join(env.storeDir, 'blobs', b)).mtimeMs);

    const again = await env.run(BASELINE);
    expect(again).to.include({ baseline: false, rejected: 0, events: 0 });
    for (const [t, c] of Object.entries(again.counts)) expect([c.inserted, c.updated], t).to.deep.equal([0, 0]);
    expect(await snapshot(env.db)).to.deep.equal(before);
    expect((await env.db('logo_vectors').where({ application_number: '4100002' })).length).to.equal(1);
    expect(again.files).to.deep.equal({ hashed: 4, stored: 0 });
    expect(blobs(env.storeDir).map((b) => fs.statSync(path.join(env.storeDir, 'blobs', b)).mtimeMs)).to.deep.equal(files);
    const runs = await env.db('import_runs').orderBy('id');
    expect(runs.map((r) => r.baseline)).to.deep.equal([true, false]);
  });
});

describe('importer: delta events', () => {
  let env: Env;
  let delta: ImportResult;
  let untouched: string;

  before(async () => {
    env = await freshEnv();
    await env.run(BASELINE);
    untouched = (await env.db.raw(`select xmin::text as x from trademarks where application_number = '4100002'`)).rows[0].x;
    delta = await env.run(DELTA);
  });

  it('writes one outbox row per change, with old and new values', async () => {
    const rows = await env.db('outbox').orderBy('id');
    const run = await env.db('import_runs').where({ id: delta.runId }).first();
    const at = (iso?: string) => iso ?? run.started_at.toISOString();
    const got = rows.map((r) => [r.event, r.application_number, r.old_value, r.new_value, r.changed_at.toISOString(), r.import_run_id]);
    const ev = (event: string, app: string, oldValue: unknown, newValue: unknown, changedAt?: string) => [
      `trademark.${event}`,
      app,
      oldValue,
      newValue,
      at(changedAt),
      delta.runId,
    ];
    expect(got).to.deep.equal([
      ev('expiry_changed', '4100001', { expire_at: null }, { expire_at: '12/04/2029' }),
      ev('journal_published', '4100001', null, { journal_id: 3, journal_number: '2102', publication_date: '2024-01-22' }),
      ev(
        'journal_published',
        '4100003',
        { journal_id: 1, journal_number: '2100', publication_date: '2024-01-08' },
        { journal_id: 2, journal_number: '2101', publication_date: '2024-01-15' },
      ),
      ev('status_changed', '4100001', { status: 'Objected' }, { status: 'Registered' }, '2024-02-01T05:30:00.000Z'),
      ev('proprietor_changed', '4100001', PROP21, { ...PROP21, address: '7 Hill Road, Bandra, Mumbai' }),
      ev('proprietor_changed', '4100002', null, {
        id: 25,
        name: 'ASHA EXPORTS',
        entity_type: 'Company',
        address: 'Surat',
        state: 'GUJARAT',
        country: 'India',
        trading_as: null,
      }),
      ev('attorney_changed', '4100001', ATT31, { ...ATT31, email: 'filings@mehta.example' }),
      ev('attorney_changed', '4100003', null, {
        id: 32,
        name: 'RAO IP LAW',
        agent_code: 'AG7788',
        address: null,
        email: null,
        phone: null,
      }),
      ev(
        'opposition_updated',
        '4100003',
        { id: 41, opposition_number: 'CHE-123456', status: 'Pending', decision: null, decision_date: null },
        { id: 41, opposition_number: 'CHE-123456', status: 'Decided', decision: 'Opposition dismissed', decision_date: '2024-02-10' },
      ),
      ev('opposition_filed', '4100004', null, {
        id: 42,
        opposition_number: 'DEL-654321',
        opponent_name: 'STAR INDIA PVT LTD',
        opponent_address: null,
        opposition_date: '2024-02-05',
        status: 'Pending',
        decision: null,
        decision_date: null,
      }),
      ev('hearing_updated', '4100001', H51, { ...H51, time_slot: '11:00-11:30' }),
      ev('hearing_scheduled', '4100003', null, {
        id: 52,
        hearing_date: '2024-03-15',
        hearing_type: 'Opposition',
        virtual_room_link: 'https://meet.example/h52',
        time_slot: '14:00-14:30',
        status: 'Scheduled',
      }),
      ev('document_added', '4100001', null, {
        id: 64,
        name: 'Reply to examination report',
        document_type: 'TM-R',
        upload_date: '2024-02-03',
        content_type: 'application/pdf',
      }),
      ev('opposition_document_added', '4100004', null, {
        id: 66,
        opposition_id: 42,
        name: 'Counter statement',
        document_type: 'TM-O',
        upload_date: '2024-02-08',
        content_type: 'application/pdf',
      }),
      ev('exam_report_added', '4100004', null, {
        id: 72,
        report_date: '2024-02-06',
        objection_reasons: ['Section 11(1): similar to earlier marks'],
        reply_due_date: '2024-03-06',
      }),
      ev('cited_mark_added', '4100004', null, { id: 83, exam_report_id: 72, cited_application_number: '4100001' }),
      ev(
        'alert_changed',
        '4100001',
        { alert: 'Reply to examination report pending' },
        { alert: 'Hearing scheduled' },
        '2024-02-02T09:00:00.000Z',
      ),
    ]);
    expect(delta).to.include({ baseline: false, rejected: 0, events: 17 });
    expect(run).to.deep.include({ baseline: false, events: 17, rejected: 0 });
  });

  it('applies the changes; a trademark new in the delta arrives with its records but no events', async () => {
    const { db } = env;
    expect(await db('trademarks').where({ application_number: '4100005' }).first()).to.deep.include({
      slug: 'nova-prime-4100005',
      vienna_codes: null,
    });
    expect((await db('proprietors').where({ application_number: '4100005' })).map((p) => p.id)).to.deep.equal([24]);
    expect((await db('documents').where({ application_number: '4100005' })).map((d) => d.id)).to.deep.equal([65]);
    expect(await db('outbox').where({ application_number: '4100005' })).to.have.length(0);
    expect(await db('trademarks').where({ application_number: '4100001' }).first()).to.deep.include({
      status: 'Registered',
      journal_id: 3,
    });
    expect(await db('logos').where({ application_number: '4100003' }).first()).to.deep.include({
      content_type: 'image/jpeg',
      width: 16,
      height: 16,
    });
    // The identical line for 4100002 did not touch its row.
    expect((await db.raw(`select xmin::text as x from trademarks where application_number = '4100002'`)).rows[0].x).to.equal(untouched);
    expect(delta.counts.trademarks).to.deep.include({ lines: 4, inserted: 1, updated: 2 });
    expect(delta.counts.documents).to.deep.include({ inserted: 3, updated: 0 });
    // reply-to-exam-report.pdf serves two documents and is stored once.
    expect(delta.files).to.deep.equal({ hashed: 3, stored: 3 });
  });

  it('writes no second event when the delta is imported again', async () => {
    const before = await snapshot(env.db);
    const again = await env.run(DELTA);
    expect(again).to.include({ events: 0, rejected: 0 });
    expect(await snapshot(env.db)).to.deep.equal(before);
  });
});

describe('importer: bad lines', () => {
  const expected = [
    'cited_marks.jsonl:2: unknown exam_report_id',
    'cited_marks.jsonl:3: cited_application_number must be 1-12 digits without a leading zero',
    'documents.jsonl:2: file not found: files/missing.pdf',
    'documents.jsonl:3: unknown opposition_id',
    'documents.jsonl:4: file must be a path inside the set',
    'journals.jsonl:2: publication_date must be a date (YYYY-MM-DD)',
    'logos.jsonl:1: file is not a readable image: files/not-an-image.png',
    'status_history.jsonl:2: unknown application_number',
    'status_history.jsonl:3: changed_at must be an ISO 8601 timestamp with a zone',
    'status_history.jsonl:4: id must be a non-negative integer',
    'trademarks.jsonl:1: duplicate application_number (superseded by line 10)',
    'trademarks.jsonl:2: not valid JSON',
    'trademarks.jsonl:3: class_number must be an integer 1-45',
    'trademarks.jsonl:4: status is required',
    'trademarks.jsonl:5: unknown journal_id',
    'trademarks.jsonl:6: tm_type must be one of WORD, DEVICE, COMPOSITE, 3D, SOUND, COLOUR',
    'trademarks.jsonl:8: not a JSON object',
    'trademarks.jsonl:9: application_number must be 1-12 digits without a leading zero',
  ];

  it('reports each as file:line: reason and imports every other line', async () => {
    const env = await freshEnv();
    const reported: string[] = [];
    const result = await importSet({ db: env.db, store: env.store, dir: BAD, onReject: (m) => reported.push(m) });
    expect([...result.errors].sort()).to.deep.equal(expected);
    expect([...reported].sort()).to.deep.equal(expected);
    expect(result.rejected).to.equal(expected.length);
    expect(result.counts.trademarks).to.deep.include({ lines: 10, inserted: 2, rejected: 8 });
    const tms = await env.db('trademarks').orderBy('application_number');
    expect(tms.map((t) => [t.application_number, t.word_mark])).to.deep.equal([
      ['4200001', 'GOLDEN TIGER FOODS'],
      ['4200007', 'AQUA PURE'],
    ]);
    expect((await env.db('status_history')).map((s) => s.id)).to.deep.equal([1]);
    expect((await env.db('documents')).map((d) => d.id)).to.deep.equal([1]);
    expect((await env.db('cited_marks')).map((d) => d.id)).to.deep.equal([1]);
    expect(await env.db('logos')).to.have.length(0);
    expect((await env.db('import_runs').first()).rejected).to.equal(expected.length);
  });

  it('makes the command exit with status 1, reasons and progress on stderr', async function () {
    this.timeout(60_000);
    const env = await freshEnv();
    const r = spawnSync('npx', ['tsx', 'scripts/import.ts', BAD], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: env.url, OBJECT_STORE_DIR: env.storeDir },
    });
    expect(r.status, r.stderr).to.equal(1);
    for (const line of expected) expect(r.stderr).to.include(`${line}\n`);
    expect(r.stderr).to.match(/trademarks\.jsonl: 10 lines read/);
    expect(JSON.parse(r.stdout)).to.include({ rejected: expected.length, baseline: true });
    expect((await env.db('trademarks')).length).to.equal(2);
  });
});

describe('importer: limits and bad text', () => {
  const mark = (app: string, extra: object = {}) =>
    JSON.stringify({
      application_number: app,
      word_mark: `MARK ${app}`,
      class_number: 30,
      status: 'Registered',
      application_date: '2021-03-01',
      tm_type: 'WORD',
      ...extra,
    });

  it('refuses over-long values and lines, bad UTF-8 and half surrogate pairs by line number, storing no U+FFFD', async function () {
    this.timeout(60_000);
    const set = tempDir('nishaan-set-');
    fs.writeFileSync(
      path.join(set, 'trademarks.jsonl'),
      Buffer.concat([
        Buffer.from(`${mark('4300001')}\n`),
        Buffer.from(`${mark('4300002', { word_mark: 'A'.repeat(200_000) })}\n`),
        Buffer.from(`${mark('4300003', { goods_services: 'g'.repeat(32_001) })}\n`),
        Buffer.from(`${mark('4300004', { goods_services: 'g'.repeat(32_000), word_mark: 'W'.repeat(500) })}\n`),
        Buffer.from(mark('4300005', { word_mark: 'CAFE XX' }).replace('XX', '\\ud800')),
        Buffer.from('\n'),
        Buffer.from(mark('4300006', { word_mark: 'CAFE XX' }).replace('XX', '\\ud83d\\ude00')),
        Buffer.from('\n'),
        Buffer.from(mark('4300007', { word_mark: 'CAFE XX' }).split('XX')[0]),
        Buffer.from([0xe9]),
        Buffer.from(mark('4300007', { word_mark: 'CAFE XX' }).split('XX')[1]),
        Buffer.from('\n'),
        Buffer.from(`${mark('4300008', { note: 'n'.repeat(2 << 20) })}\n`),
        Buffer.from(`${mark('4300009', { word_mark: 'CAF\u00c9 \uFFFD' })}\n`),
      ]),
    );
    const env = await freshEnv();
    const result = await env.run(set);
    expect(result.errors).to.deep.equal([
      'trademarks.jsonl:2: word_mark must be at most 500 characters',
      'trademarks.jsonl:3: goods_services must be at most 32000 characters',
      'trademarks.jsonl:5: word_mark contains an unpaired surrogate (\\ud800-\\udfff)',
      'trademarks.jsonl:7: not valid UTF-8',
      `trademarks.jsonl:8: line longer than ${MAX_LINE_BYTES} bytes`,
    ]);
    expect(result.counts.trademarks).to.deep.include({ lines: 9, inserted: 4, rejected: 5 });
    const rows = await env.db('trademarks').orderBy('application_number').select('application_number', 'word_mark');
    expect(rows.map((r) => [r.application_number, r.word_mark.length > 20 ? r.word_mark.length : r.word_mark])).to.deep.equal([
      ['4300001', 'MARK 4300001'],
      ['4300004', 500],
      ['4300006', 'CAFE \u{1F600}'],
      ['4300009', 'CAF\u00c9 \uFFFD'],
    ]);
  });
});

describe('importer: atomicity', () => {
  // A constraint the importer does not know about fails the hearings step, after journals,
  // trademarks, status history, proprietors, attorneys and oppositions have been merged.
  const boom = (lines: string[]) =>
    lines.map((l, i) => (i === lines.length - 1 ? l.replace(/"hearing_type": "[^"]*"/, '"hearing_type": "BOOM"') : l));
  const addCheck = (db: Db) => db.raw(`alter table hearings add constraint test_no_boom check (hearing_type <> 'BOOM')`);

  it('leaves the database as it was when a delta fails mid-merge', async () => {
    const env = await freshEnv();
    await env.run(BASELINE);
    await addCheck(env.db);
    const before = await snapshot(env.db, [...ENTITY_NAMES, 'outbox', 'import_runs']);
    const shape = await schema(env.db);
    const set = variantOf(DELTA, 'hearings.jsonl', boom);
    let error: unknown;
    await env.run(set).catch((e) => (error = e));
    expect(String(error)).to.match(/test_no_boom/);
    expect(await snapshot(env.db, [...ENTITY_NAMES, 'outbox', 'import_runs'])).to.deep.equal(before);
    expect(await schema(env.db)).to.deep.equal(shape);
  });

  it('leaves an empty registry empty, indexes and foreign keys in place, when a baseline fails', async () => {
    const env = await freshEnv();
    await addCheck(env.db);
    const shape = await schema(env.db);
    const set = variantOf(BASELINE, 'hearings.jsonl', boom);
    let error: unknown;
    await env.run(set).catch((e) => (error = e));
    expect(String(error)).to.match(/test_no_boom/);
    for (const t of [...ENTITY_NAMES, 'outbox', 'import_runs']) {
      expect((await env.db.raw(`select count(*)::int as n from ${t}`)).rows[0].n, t).to.equal(0);
    }
    expect(await schema(env.db)).to.deep.equal(shape);
    // And the set imports cleanly once the cause is gone.
    await env.db.raw('alter table hearings drop constraint test_no_boom');
    expect((await env.run(BASELINE)).baseline).to.equal(true);
  });
});

describe('importer: fatal store errors', () => {
  /** A store that cannot write (a full or read-only disk). */
  class FullStore extends LocalObjectStore {
    override async put(): Promise<void> {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }

    override async putFileOnce(): Promise<boolean> {
      throw Object.assign(new Error('ENOSPC: no space left on device, copyfile'), { code: 'ENOSPC' });
    }
  }

  /**
   * Runs `fn` and fails if a promise rejection went unhandled meanwhile. Mocha keeps a listener on
   * unhandledRejection, so under it such a rejection would not end the process as it does the command.
   */
  async function noUnhandledRejection(fn: () => Promise<void>): Promise<void> {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      await fn();
      // Node reports a rejection left unhandled once the microtasks of the turn it happened in have run: two
      // turns of the event loop later, any there is has been reported.
      for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', note);
    }
    expect(unhandled.map(String), 'unhandled rejections').to.deep.equal([]);
  }

  it('stops feeding at a file that could not be stored, leaving no rejection unhandled', async () => {
    // SetFiles.load failing (the store's put, or a read): here its promise has failed already while
    // the reader still has a read to make, the moment an unhandled rejection would kill the process.
    const env = await freshEnv();
    const set = setOf(BASELINE, {
      'journals.jsonl': [
        { id: 2, journal_number: '2101', publication_date: '2024-01-15', file: 'files/journal-2101.pdf' },
        { id: 3, journal_number: '2102', publication_date: '2024-01-22' },
      ],
    });
    const files = { resolve: () => Promise.reject(new Error('EACCES: permission denied')) } as unknown as SetFiles;
    const entity = ENTITY_BY_NAME.get('journals')!;
    const client = (await env.db.client.acquireRawConnection()) as pg.Client;
    let error: unknown;
    try {
      await client.query('begin');
      await createStage(client, entity);
      const feed = {
        client,
        entity,
        path: path.join(set, 'journals.jsonl'),
        files,
        sink: { reject: () => undefined },
        progress: new Progress(undefined),
      };
      await noUnhandledRejection(() =>
        feedFile(feed).then(
          () => undefined,
          (e) => (error = e),
        ),
      );
    } finally {
      await client.query('rollback').catch(() => undefined);
      await env.db.client.destroyRawConnection(client);
    }
    expect(String(error)).to.match(/EACCES/);
  });

  it('fails the import with nothing applied', async () => {
    const env = await freshEnv();
    await env.run(BASELINE);
    const before = await snapshot(env.db, [...ENTITY_NAMES, 'outbox', 'import_runs']);
    const store = new FullStore(env.storeDir, new UrlSigner('test-signing-secret-0123456789'), () => 'http://127.0.0.1:1');
    let error: unknown;
    await noUnhandledRejection(() =>
      importSet({ db: env.db, store, dir: DELTA }).then(
        () => undefined,
        (e) => (error = e),
      ),
    );
    expect(String(error)).to.match(/ENOSPC/);
    expect(await snapshot(env.db, [...ENTITY_NAMES, 'outbox', 'import_runs'])).to.deep.equal(before);
  });

  it('makes the command exit with status 2', async function () {
    this.timeout(60_000);
    const env = await freshEnv();
    // `blobs` is a regular file, so no blob can be written under it.
    fs.writeFileSync(path.join(env.storeDir, 'blobs'), 'not a folder');
    const r = spawnSync('npx', ['tsx', 'scripts/import.ts', BASELINE], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: env.url, OBJECT_STORE_DIR: env.storeDir },
    });
    expect(r.status, r.stderr).to.equal(2);
    expect(r.stderr).to.match(/import failed, nothing applied: .*blobs/);
    for (const t of [...ENTITY_NAMES, 'import_runs'])
      expect((await env.db.raw(`select count(*)::int as n from ${t}`)).rows[0].n, t).to.equal(0);
  });
});

describe('importer: files reached through links', () => {
  it('refuses a file whose link leads outside the set, and takes one that stays inside', async () => {
    const env = await freshEnv();
    const outside = path.join(tempDir('nishaan-outside-'), 'secret.pdf');
    fs.writeFileSync(outside, 'not for the registry');
    const doc = { application_number: '4100001', name: 'Linked', document_type: 'TM-A', upload_date: '2019-04-12' };
    const set = variantOf(BASELINE, 'documents.jsonl', (lines) => [
      ...lines,
      JSON.stringify({ ...doc, id: 64, file: 'files/link.pdf' }),
      JSON.stringify({ ...doc, id: 65, file: 'linked/secret.pdf' }),
      JSON.stringify({ ...doc, id: 66, file: 'files/form-link.pdf' }),
    ]);
    fs.symlinkSync(outside, path.join(set, 'files/link.pdf'));
    fs.symlinkSync(path.dirname(outside), path.join(set, 'linked'));
    fs.symlinkSync('application-form.pdf', path.join(set, 'files/form-link.pdf'));
    // The set itself may be reached through a link (a `current` pointing at the latest set, say).
    const current = path.join(tempDir('nishaan-current-'), 'current');
    fs.symlinkSync(set, current);

    const result = await env.run(current);
    // Files are looked at in parallel, so refusals come in the order the checks finish.
    expect([...result.errors].sort()).to.deep.equal([
      'documents.jsonl:4: file is outside the set: files/link.pdf',
      'documents.jsonl:5: file is outside the set: linked/secret.pdf',
    ]);
    expect((await env.db('documents').orderBy('id')).map((d) => d.id)).to.deep.equal([61, 62, 63, 66]);
    expect((await env.db('documents').where({ id: 66 }).first()).object_key).to.equal(
      `blobs/${sha256(path.join(BASELINE, 'files/application-form.pdf'))}.pdf`,
    );
    expect(blobs(env.storeDir)).to.not.include(`${sha256(outside)}.pdf`);
  });
});

describe('importer: links between records of one mark', () => {
  it("refuses a cited mark of another mark's exam report and a document of another mark's opposition", async () => {
    const env = await freshEnv();
    await env.run(BASELINE);
    const set = variantOf(DELTA, 'cited_marks.jsonl', (lines) => [
      ...lines,
      // Exam report 71 is 4100001's (stored); 72 is 4100004's (in this set).
      JSON.stringify({ id: 84, exam_report_id: 71, application_number: '4100004', cited_application_number: '4100002' }),
      JSON.stringify({ id: 85, exam_report_id: 72, application_number: '4100001', cited_application_number: '4100002' }),
    ]);
    editLines(set, 'documents.jsonl', (lines) => [
      ...lines,
      // Opposition 41 is 4100003's (stored), 42 is 4100004's (in this set).
      JSON.stringify({
        id: 67,
        application_number: '4100001',
        opposition_id: 41,
        name: 'Notice',
        document_type: 'TM-O',
        upload_date: '2024-02-09',
        file: 'files/counter-statement.pdf',
      }),
      JSON.stringify({
        id: 68,
        application_number: '4100003',
        opposition_id: 42,
        name: 'Notice',
        document_type: 'TM-O',
        upload_date: '2024-02-09',
        file: 'files/counter-statement.pdf',
      }),
    ]);
    const result = await env.run(set);
    expect(result.errors).to.deep.equal([
      'documents.jsonl:4: opposition_id belongs to another application_number',
      'documents.jsonl:5: opposition_id belongs to another application_number',
      'cited_marks.jsonl:2: exam_report_id belongs to another application_number',
      'cited_marks.jsonl:3: exam_report_id belongs to another application_number',
    ]);
    expect((await env.db('cited_marks').orderBy('id')).map((c) => c.id)).to.deep.equal([81, 82, 83]);
    expect((await env.db('documents').whereIn('id', [66, 67, 68])).map((d) => d.id)).to.deep.equal([66]);
  });
});

describe('importer: changes without an entry of their own', () => {
  const eventsOf = async (db: Db, runId: number, names: string[]) =>
    (await db('outbox').where({ import_run_id: runId }).whereIn('event', names).orderBy('id')).map((r) => [
      r.event,
      r.application_number,
      r.old_value,
      r.new_value,
      r.changed_at.toISOString(),
    ]);

  it('announces a status, alert or proprietor name change of a trademark line once, entry or not', async () => {
    const env = await freshEnv();
    await env.run(BASELINE);
    // 4100001 becomes Registered without its status history entry (id 16); its alert changes with the
    // alert entry 92. 4100003's alert and proprietor name change without any entry; 4100002's
    // proprietor name changes with the new proprietor record 25.
    const set = variantOf(DELTA, 'status_history.jsonl', (lines) => lines.filter((l) => JSON.parse(l).id !== 16));
    editLines(
      set,
      'trademarks.jsonl',
      patchMarks({
        4100001: { alert: 'Hearing scheduled' },
        4100002: { proprietor_name: 'ASHA EXPORTS' },
        4100003: { alert: 'Opposition decided', proprietor_name: 'LOTUS HOTELS LLP' },
      }),
    );
    const result = await env.run(set);
    const run = await env.db('import_runs').where({ id: result.runId }).first();
    const now = run.started_at.toISOString();
    const names = ['trademark.status_changed', 'trademark.alert_changed', 'trademark.proprietor_changed'];
    const got = await eventsOf(env.db, result.runId, names);
    expect(got.map((g) => [g[0], g[1]])).to.deep.equal([
      ['trademark.proprietor_changed', '4100001'],
      ['trademark.proprietor_changed', '4100002'],
      ['trademark.alert_changed', '4100001'],
      ['trademark.status_changed', '4100001'],
      ['trademark.alert_changed', '4100003'],
      ['trademark.proprietor_changed', '4100003'],
    ]);
    expect(got.slice(3)).to.deep.equal([
      ['trademark.status_changed', '4100001', { status: 'Objected' }, { status: 'Registered' }, now],
      ['trademark.alert_changed', '4100003', { alert: 'Opposed' }, { alert: 'Opposition decided' }, now],
      ['trademark.proprietor_changed', '4100003', { name: 'LOTUS HOSPITALITY LLP' }, { name: 'LOTUS HOTELS LLP' }, now],
    ]);
    // 17 events of the fixture delta, less the status history entry, plus the three field changes.
    expect(result.events).to.equal(19);
    expect(result.counts.trademarks.events).to.equal(3 + 3);
    expect(run.events).to.equal(19);
    expect(await env.db('trademarks').where({ application_number: '4100003' }).first()).to.deep.include({
      alert: 'Opposition decided',
      proprietor_name: 'LOTUS HOTELS LLP',
    });
    expect((await env.run(set)).events).to.equal(0);
  });

  it('applies and counts corrections that have no event: core fields and linked records by id', async () => {
    const env = await freshEnv();
    await env.run(BASELINE);
    const read = (file: string, key: string, value: unknown) =>
      fs
        .readFileSync(path.join(BASELINE, file), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l))
        .find((r) => r[key] === value);
    const set = setOf(BASELINE, {
      'trademarks.jsonl': [
        { ...read('trademarks.jsonl', 'application_number', '4100004'), word_mark: 'ROYAL STAR PLUS', class_number: 11, state: 'delhi' },
      ],
      'status_history.jsonl': [{ ...read('status_history.jsonl', 'id', 12), changed_at: '2019-09-02T09:30:00+05:30' }],
      'alerts.jsonl': [{ ...read('alerts.jsonl', 'id', 91), new_alert: 'Reply to exam report pending' }],
      'exam_reports.jsonl': [{ ...read('exam_reports.jsonl', 'id', 71), reply_due_date: '2019-10-20' }],
      'cited_marks.jsonl': [{ ...read('cited_marks.jsonl', 'id', 82), cited_application_number: '999998' }],
      'documents.jsonl': [{ ...read('documents.jsonl', 'id', 62), name: 'Application form (corrected)' }],
    });
    const result = await env.run(set);
    expect(result).to.include({ baseline: false, rejected: 0, events: 0 });
    expect(await env.db('outbox')).to.have.length(0);
    const updated = Object.fromEntries(
      Object.entries(result.counts)
        .filter(([, c]) => c.lines)
        .map(([t, c]) => [t, [c.inserted, c.updated, c.events]]),
    );
    const once = [0, 1, 0];
    expect(updated).to.deep.equal({
      trademarks: once,
      status_history: once,
      alerts: once,
      exam_reports: once,
      cited_marks: once,
      documents: once,
    });
    expect((await env.db('import_runs').where({ id: result.runId }).first()).counts.documents).to.deep.include({ updated: 1, events: 0 });
    const db = env.db;
    expect(await db('trademarks').where({ application_number: '4100004' }).first()).to.deep.include({
      word_mark: 'ROYAL STAR PLUS',
      class_number: 11,
      state: 'DELHI',
    });
    expect((await db('status_history').where({ id: 12 }).first()).changed_at.toISOString()).to.equal('2019-09-02T04:00:00.000Z');
    expect((await db('alerts').where({ id: 91 }).first()).new_alert).to.equal('Reply to exam report pending');
    expect((await db('exam_reports').where({ id: 71 }).first()).reply_due_date).to.equal('2019-10-20');
    expect((await db('cited_marks').where({ id: 82 }).first()).cited_application_number).to.equal('999998');
    expect((await db('documents').where({ id: 62 }).first()).name).to.equal('Application form (corrected)');
  });
});
