import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import sharp from 'sharp';
import { generate } from '../../src/ingest/generator/index.ts';
import { CLASS_GROUPS } from '../../src/ingest/generator/marks.ts';
import { findDataDir } from '../../src/ingest/generator/reference.ts';
import { ENTITY_NAMES } from '../../src/ingest/importer/entities.ts';

// The synthetic registry generator: reproducible output, every line valid per docs/ingest.md, linked
// records that hold together, cited marks that really are similar, and a delta exercising every event.

type Line = Record<string, unknown>;
type SetData = Record<string, Line[]>;

// ---- docs/ingest.md field rules ----------------------------------------------------------------
type Kind = 'int' | 'string' | 'digits' | 'date' | 'timestamp' | 'strings' | 'class';
type Rule = [field: string, kind: Kind, required: boolean, nullable?: boolean];
const R = (field: string, kind: Kind, nullable = false): Rule => [field, kind, true, nullable];
const O = (field: string, kind: Kind, nullable = true): Rule => [field, kind, false, nullable];
const SCHEMA: Record<string, Rule[]> = {
  journals: [R('id', 'int'), R('journal_number', 'string'), R('publication_date', 'date'), O('file', 'string'), O('page_count', 'int')],
  trademarks: [
    R('application_number', 'digits'),
    O('word_mark', 'string', false),
    R('class_number', 'class'),
    R('status', 'string'),
    R('application_date', 'date'),
    O('expire_at', 'date'),
    O('proprietor_name', 'string'),
    O('state', 'string'),
    R('tm_type', 'string'),
    O('filing_mode', 'string'),
    O('alert', 'string', false),
    O('goods_services', 'string'),
    O('used_since', 'string'),
    O('registry_office', 'string'),
    O('journal_id', 'int'),
    O('vienna_codes', 'strings'),
    O('slug', 'string'),
  ],
  status_history: [
    R('id', 'int'),
    R('application_number', 'digits'),
    O('old_status', 'string'),
    R('new_status', 'string'),
    R('changed_at', 'timestamp'),
  ],
  proprietors: [
    R('id', 'int'),
    R('application_number', 'digits'),
    R('name', 'string'),
    O('entity_type', 'string'),
    O('address', 'string'),
    O('state', 'string'),
    O('country', 'string'),
    O('trading_as', 'string'),
  ],
  attorneys: [
    R('id', 'int'),
    R('application_number', 'digits'),
    R('name', 'string'),
    O('agent_code', 'string'),
    O('address', 'string'),
    O('email', 'string'),
    O('phone', 'string'),
  ],
  oppositions: [
    R('id', 'int'),
    R('application_number', 'digits'),
    R('opposition_number', 'string'),
    R('opponent_name', 'string'),
    O('opponent_address', 'string'),
    R('opposition_date', 'date'),
    R('status', 'string'),
    O('decision', 'string'),
    O('decision_date', 'date'),
  ],
  hearings: [
    R('id', 'int'),
    R('application_number', 'digits'),
    R('hearing_date', 'date'),
    R('hearing_type', 'string'),
    O('virtual_room_link', 'string'),
    O('time_slot', 'string'),
    O('status', 'string'),
  ],
  documents: [
    R('id', 'int'),
    R('application_number', 'digits'),
    O('opposition_id', 'int'),
    R('name', 'string'),
    R('document_type', 'string'),
    R('upload_date', 'date'),
    R('file', 'string'),
    O('content_type', 'string'),
  ],
  exam_reports: [
    R('id', 'int'),
    R('application_number', 'digits'),
    R('report_date', 'date'),
    O('objection_reasons', 'strings'),
    O('reply_due_date', 'date'),
  ],
  cited_marks: [R('id', 'int'), R('exam_report_id', 'int'), R('application_number', 'digits'), R('cited_application_number', 'digits')],
  alerts: [
    R('id', 'int'),
    R('application_number', 'digits'),
    O('old_alert', 'string'),
    R('new_alert', 'string'),
    R('changed_at', 'timestamp'),
  ],
  logos: [R('application_number', 'digits'), R('file', 'string'), O('ocr_text', 'string')],
};
const TM_TYPES = ['WORD', 'DEVICE', 'COMPOSITE', '3D', 'SOUND', 'COLOUR'];
const OFFICES = ['MUM', 'DEL', 'KOL', 'CHE', 'AHD'];

function typeOk(v: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'int':
      return Number.isInteger(v);
    case 'class':
      return Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 45;
    case 'string':
      return typeof v === 'string';
    case 'digits':
      return typeof v === 'string' && /^\d+$/.test(v);
    case 'date':
      return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));
    case 'timestamp':
      return (
        typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v))
      );
    case 'strings':
      return Array.isArray(v) && v.every((s) => typeof s === 'string');
  }
}

function readSet(dir: string): SetData {
  const data: SetData = {};
  for (const e of ENTITY_NAMES) {
    const file = path.join(dir, `${e}.jsonl`);
    data[e] = [];
    if (!fs.existsSync(file)) continue;
    const text = fs.readFileSync(file, 'utf8');
    expect(text.endsWith('\n'), `${e}.jsonl ends with a newline`).to.equal(true);
    const lines = text.slice(0, -1).split('\n');
    lines.forEach((raw, k) => {
      let line: Line;
      try {
        line = JSON.parse(raw) as Line;
      } catch {
        throw new Error(`${e}.jsonl:${k + 1}: not JSON`);
      }
      for (const [field, kind, required, nullable] of SCHEMA[e]) {
        const v = line[field];
        if (v === undefined) {
          if (required) throw new Error(`${e}.jsonl:${k + 1}: missing ${field}`);
          continue;
        }
        if (v === null && nullable && !required) continue;
        if (v === null && nullable) continue;
        if (!typeOk(v, kind)) throw new Error(`${e}.jsonl:${k + 1}: ${field} has the wrong type: ${JSON.stringify(v)}`);
      }
      data[e].push(line);
    });
  }
  return data;
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
    .sort();
}

function digest(dir: string): Map<string, string> {
  return new Map(
    filesUnder(dir).map((f) => [
      f,
      createHash('sha256')
        .update(fs.readFileSync(path.join(dir, f)))
        .digest('hex'),
    ]),
  );
}

// ---- an examiner's notion of similar, written independently of the generator ------------------
const DIGITS = ['ZERO', 'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE'];
const HOMOPHONES: Record<string, string> = { FOR: 'FOUR', TO: 'TWO', WON: 'ONE', ATE: 'EIGHT' };
function phonetic(word: string): string {
  let w = HOMOPHONES[word] ?? word;
  for (const [a, b] of [
    ['PH', 'F'],
    ['SH', 'S'],
    ['BH', 'B'],
    ['KH', 'K'],
    ['TH', 'T'],
    ['DH', 'D'],
    ['CK', 'K'],
    ['Q', 'K'],
    ['C', 'K'],
    ['X', 'KS'],
    ['W', 'V'],
    ['Z', 'J'],
    ['EE', 'I'],
    ['OO', 'U'],
    ['Y', 'I'],
    ['H', ''],
  ]) {
    w = w.split(a).join(b);
  }
  return w.replace(/(.)\1+/g, '$1');
}
function words(mark: string): string[] {
  return mark
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean)
    .flatMap((t) => (/^\d+$/.test(t) ? [...t].map((d) => DIGITS[+d]) : [t]))
    .map(phonetic);
}
function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}
function looksSimilar(a: string, b: string): boolean {
  const wa = words(a);
  const wb = words(b);
  if (wa.some((w) => w.length >= 3 && wb.includes(w))) return true;
  return levenshtein(wa.join(''), wb.join('')) <= 2;
}
const related = (a: number, b: number) => CLASS_GROUPS.some((g) => g.includes(a) && g.includes(b));

// ---- the delta's events, derived the way docs/ingest.md defines them ---------------------------
function deltaEvents(base: SetData, delta: SetData): Record<string, number> {
  const byId = (rows: Line[]) => new Map(rows.map((r) => [r.id as number, r]));
  const known = new Map(base.trademarks.map((t) => [t.application_number as string, t]));
  const isKnown = (r: Line) => known.has(r.application_number as string);
  const ev: Record<string, number> = {};
  const bump = (name: string, by = 1) => (ev[name] = (ev[name] ?? 0) + by);
  for (const t of delta.trademarks) {
    const old = known.get(t.application_number as string);
    if (!old) continue;
    if (old.expire_at !== t.expire_at) bump('trademark.expiry_changed');
    if (t.journal_id !== undefined && old.journal_id !== t.journal_id) bump('trademark.journal_published');
  }
  bump('trademark.status_changed', delta.status_history.filter(isKnown).length);
  bump('trademark.alert_changed', delta.alerts.filter(isKnown).length);
  bump('trademark.exam_report_added', delta.exam_reports.filter(isKnown).length);
  bump('trademark.cited_mark_added', delta.cited_marks.filter(isKnown).length);
  const opp = byId(base.oppositions);
  for (const o of delta.oppositions.filter(isKnown)) {
    const old = opp.get(o.id as number);
    if (!old) bump('trademark.opposition_filed');
    else if (old.status !== o.status || old.decision !== o.decision || old.decision_date !== o.decision_date)
      bump('trademark.opposition_updated');
  }
  for (const d of delta.documents.filter(isKnown))
    bump(d.opposition_id ? 'trademark.opposition_document_added' : 'trademark.document_added');
  const hear = byId(base.hearings);
  for (const h of delta.hearings.filter(isKnown)) {
    const old = hear.get(h.id as number);
    if (!old) bump('trademark.hearing_scheduled');
    else if (['hearing_date', 'hearing_type', 'time_slot', 'virtual_room_link', 'status'].some((f) => old[f] !== h[f]))
      bump('trademark.hearing_updated');
  }
  for (const [entity, event] of [
    ['proprietors', 'trademark.proprietor_changed'],
    ['attorneys', 'trademark.attorney_changed'],
  ] as const) {
    const prev = byId(base[entity]);
    for (const r of delta[entity].filter(isKnown)) if (JSON.stringify(prev.get(r.id as number)) !== JSON.stringify(r)) bump(event);
  }
  return ev;
}
const EVENTS = [
  'trademark.status_changed',
  'trademark.alert_changed',
  'trademark.expiry_changed',
  'trademark.journal_published',
  'trademark.opposition_filed',
  'trademark.opposition_updated',
  'trademark.opposition_document_added',
  'trademark.hearing_scheduled',
  'trademark.hearing_updated',
  'trademark.exam_report_added',
  'trademark.document_added',
  'trademark.proprietor_changed',
  'trademark.attorney_changed',
  'trademark.cited_mark_added',
];

describe('synthetic registry generator', function () {
  this.timeout(60_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-gen-'));
  const dirA = path.join(tmp, 'a');
  const dirB = path.join(tmp, 'b');
  const dirC = path.join(tmp, 'c');
  const dirSmall = path.join(tmp, 'small');
  let base: SetData;
  let delta: SetData;

  before(async () => {
    const opts = { records: 1500, seed: 7, logos: 60 };
    await generate({ ...opts, out: dirA });
    await generate({ ...opts, out: dirB });
    await generate({ ...opts, seed: 8, out: dirC });
    await generate({ records: 200, seed: 3, logos: 20, out: dirSmall });
    base = readSet(path.join(dirA, 'baseline'));
    delta = readSet(path.join(dirA, 'delta'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('is deterministic: the same seed gives identical files, another seed different ones', () => {
    const a = digest(dirA);
    const b = digest(dirB);
    expect([...a.keys()]).to.deep.equal([...b.keys()]);
    for (const [file, hash] of a) expect(b.get(file), file).to.equal(hash);
    const c = digest(dirC);
    expect(c.get('baseline/trademarks.jsonl')).to.not.equal(a.get('baseline/trademarks.jsonl'));
    expect(c.get('delta/trademarks.jsonl')).to.not.equal(a.get('delta/trademarks.jsonl'));
  });

  it('writes a manifest per set, with generated_at from the seed', () => {
    for (const [kind, records] of [
      ['baseline', 1500],
      ['delta', delta.trademarks.length],
    ] as const) {
      const m = JSON.parse(fs.readFileSync(path.join(dirA, kind, 'manifest.json'), 'utf8'));
      expect(m).to.include({ format: 'nishaan-ingest/1', kind, seed: 7, records });
      expect(typeOk(m.generated_at, 'timestamp')).to.equal(true);
    }
    expect(base.trademarks).to.have.length(1500);
  });

  it('writes valid lines with consistent values (validated while reading)', () => {
    const small = readSet(path.join(dirSmall, 'baseline'));
    readSet(path.join(dirSmall, 'delta'));
    const states = parse(fs.readFileSync(path.join(findDataDir(), 'india_states.csv')), { columns: true }) as Record<string, string>[];
    const officeOf = new Map(states.map((s) => [s.name.toUpperCase(), s.tmr_office]));
    for (const t of [...base.trademarks, ...small.trademarks]) {
      expect(TM_TYPES).to.include(t.tm_type);
      expect(OFFICES).to.include(t.registry_office);
      if (t.state !== undefined) expect(officeOf.get(t.state as string), `${t.state}`).to.equal(t.registry_office);
      if (t.word_mark === '') expect(t.tm_type).to.not.equal('WORD');
      expect(t.word_mark).to.equal((t.word_mark as string).toUpperCase());
      if (t.status === 'Registered') {
        const years = (Date.parse(t.expire_at as string) - Date.parse(t.application_date as string)) / (365.25 * 86_400_000);
        expect(Math.abs(years - Math.round(years / 10) * 10), `${t.application_number}`).to.be.below(0.01);
      }
      if (['New Application', 'Formalities Chk Pass', 'Marked for Exam', 'Objected', 'Under Examination'].includes(t.status as string))
        expect(t.expire_at).to.equal(null);
    }
    const counts = new Map<string, number>();
    for (const t of base.trademarks) counts.set(t.status as string, (counts.get(t.status as string) ?? 0) + 1);
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
    expect(top).to.equal('Registered');
    const devices = base.trademarks.filter((t) => t.word_mark === '' && t.tm_type === 'DEVICE').length;
    expect(devices / base.trademarks.length).to.be.within(0.06, 0.14);
  });

  it('gives every linked entity unique ids, and delta ids only reuse a baseline id to update that record', () => {
    for (const e of ENTITY_NAMES.filter((x) => !['journals', 'trademarks', 'logos'].includes(x))) {
      for (const set of [base, delta]) {
        const ids = set[e].map((r) => r.id);
        expect(new Set(ids).size, e).to.equal(ids.length);
      }
      const baseIds = new Map(base[e].map((r) => [r.id, r.application_number]));
      for (const r of delta[e]) {
        if (!baseIds.has(r.id)) continue;
        expect(['proprietors', 'attorneys', 'oppositions', 'hearings'], `${e} id ${r.id} reused`).to.include(e);
        expect(baseIds.get(r.id)).to.equal(r.application_number);
      }
    }
    const apps = base.trademarks.map((t) => t.application_number);
    expect(new Set(apps).size).to.equal(apps.length);
    for (const t of delta.trademarks) expect(typeof t.application_number).to.equal('string');
  });

  it('links every record to a trademark, journal, opposition or report that exists', () => {
    for (const [set, marks] of [
      [base, base.trademarks],
      [delta, [...base.trademarks, ...delta.trademarks]],
    ] as const) {
      const apps = new Set(marks.map((t) => t.application_number));
      for (const e of ENTITY_NAMES.filter((x) => !['journals', 'trademarks'].includes(x))) {
        for (const r of set[e]) expect(apps.has(r.application_number), `${e} -> ${r.application_number}`).to.equal(true);
      }
      const journals = new Set([...base.journals, ...set.journals].map((j) => j.id));
      for (const t of set.trademarks)
        if (t.journal_id !== undefined) expect(journals.has(t.journal_id), `journal ${t.journal_id}`).to.equal(true);
      const opps = new Set([...base.oppositions, ...set.oppositions].map((o) => o.id));
      for (const d of set.documents) if (d.opposition_id !== undefined) expect(opps.has(d.opposition_id)).to.equal(true);
      const reports = new Map([...base.exam_reports, ...set.exam_reports].map((r) => [r.id, r.application_number]));
      for (const c of set.cited_marks) expect(reports.get(c.exam_report_id)).to.equal(c.application_number);
    }
  });

  it('cites only earlier, genuinely similar marks in the same or a related class', () => {
    const marks = new Map([...base.trademarks, ...delta.trademarks].map((t) => [t.application_number as string, t]));
    const cited = [...base.cited_marks, ...delta.cited_marks];
    expect(cited.length).to.be.greaterThan(50);
    for (const c of cited) {
      const mark = marks.get(c.application_number as string)!;
      const earlier = marks.get(c.cited_application_number as string)!;
      expect(earlier, `cited ${c.cited_application_number}`).to.not.equal(undefined);
      expect((earlier.application_date as string) <= (mark.application_date as string)).to.equal(true);
      expect(
        related(mark.class_number as number, earlier.class_number as number),
        `${mark.class_number} vs ${earlier.class_number}`,
      ).to.equal(true);
      expect(looksSimilar(mark.word_mark as string, earlier.word_mark as string), `${mark.word_mark} vs ${earlier.word_mark}`).to.equal(
        true,
      );
    }
    const withReports = new Set(base.exam_reports.map((r) => r.application_number)).size;
    expect(withReports / base.trademarks.length).to.be.within(0.1, 0.3);
  });

  it('references files that exist: PDFs and PNG logos', async () => {
    for (const [dir, set] of [
      [path.join(dirA, 'baseline'), base],
      [path.join(dirA, 'delta'), delta],
    ] as const) {
      const files = new Set<string>();
      for (const e of ['journals', 'documents', 'logos']) for (const r of set[e]) if (r.file) files.add(r.file as string);
      for (const f of files) {
        const body = fs.readFileSync(path.join(dir, f));
        if (f.endsWith('.pdf')) {
          expect(body.subarray(0, 5).toString()).to.equal('%PDF-');
          const text = body.toString('latin1');
          const xref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
          expect(text.slice(xref, xref + 4), f).to.equal('xref');
          const offsets = [...text.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
          expect(offsets.length, f).to.be.greaterThan(3);
          offsets.forEach((off, k) => expect(text.slice(off, off + `${k + 1} 0 obj`.length), f).to.equal(`${k + 1} 0 obj`));
        }
      }
    }
    const logos = base.logos.slice(0, 20);
    expect(logos.length).to.be.greaterThan(0);
    for (const l of logos) {
      const meta = await sharp(path.join(dirA, 'baseline', l.file as string)).metadata();
      expect(meta.format).to.equal('png');
      expect(meta.width).to.be.within(96, 192);
    }
    const logoMarks = new Map(base.trademarks.map((t) => [t.application_number, t.tm_type]));
    for (const l of base.logos) expect(['DEVICE', 'COMPOSITE']).to.include(logoMarks.get(l.application_number));
  });

  it('puts every delta event kind in the delta, several times, even for a tiny registry', () => {
    const ev = deltaEvents(base, delta);
    for (const e of EVENTS) expect(ev[e] ?? 0, e).to.be.at.least(3);
    const small = deltaEvents(readSet(path.join(dirSmall, 'baseline')), readSet(path.join(dirSmall, 'delta')));
    for (const e of EVENTS) expect(small[e] ?? 0, `${e} at 200 records`).to.be.at.least(3);
  });

  it('repeats the full trademark line for every changed mark and updates its status, alert and journal', () => {
    const changed = new Set([
      ...ENTITY_NAMES.filter((e) => !['journals', 'trademarks'].includes(e)).flatMap((e) => delta[e].map((r) => r.application_number)),
    ]);
    const lines = new Map(delta.trademarks.map((t) => [t.application_number, t]));
    for (const app of changed) expect(lines.has(app), `${app} has a trademark line`).to.equal(true);
    const lastStatus = new Map(delta.status_history.map((h) => [h.application_number, h.new_status]));
    for (const [app, status] of lastStatus) expect(lines.get(app)!.status).to.equal(status);
    const lastAlert = new Map(delta.alerts.map((a) => [a.application_number, a.new_alert]));
    for (const [app, alert] of lastAlert) expect(lines.get(app)!.alert).to.equal(alert);
    const baseMarks = new Map(base.trademarks.map((t) => [t.application_number, t]));
    for (const t of delta.trademarks) {
      const old = baseMarks.get(t.application_number);
      if (old)
        for (const f of ['word_mark', 'class_number', 'application_date', 'tm_type', 'registry_office'])
          expect(t[f], f).to.deep.equal(old[f]);
    }
  });
});
