import type { Writable } from 'node:stream';
import type { Category } from '../accounts/access.ts';
import { tableCategories } from '../trademarks/gate.ts';
import type { DetailRow } from '../trademarks/repository.ts';
import type { LinkedTable } from '../trademarks/sql.ts';
import { baselineOf, loadPdfKit, registerFonts, write } from './pdfFonts.ts';

type Row = Record<string, unknown>;

export interface TrademarkReport {
  /** As the plan's gate sees it: the tables it withholds are absent, its rows filtered. */
  mark: DetailRow;
  /** Categories the gate withholds: the report names them rather than print their sections empty. */
  omitted: readonly Category[];
  logo: Buffer | null;
  generatedAt: Date;
}

const text = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : String(v));
const MARGIN = 50;

/**
 * Bounds of one report. A record may hold far more than a report can show (a goods description of
 * 10 MB made a PDF run for minutes: pdfkit lays out a long unbroken word in time that grows with the
 * square of its length), so each value and the whole are cut, with a visible note, and so is the time.
 */
export interface ReportLimits {
  /** Characters of one value (a field, a row of a table) printed. */
  value: number;
  /** Characters printed in all; the rows past them are counted, not printed. */
  total: number;
  /** Milliseconds of generation; past them the report ends with a note. */
  ms: number;
}

export const REPORT_LIMITS: ReportLimits = { value: 10_000, total: 300_000, ms: 30_000 };

export interface PdfOptions {
  limits?: ReportLimits;
  /** Milliseconds, for the time limit. */
  clock?: () => number;
}

/** Thrown into the writer when its time is spent: the report ends there, with a note. */
class TimeSpent extends Error {}

const count = (n: number) => n.toLocaleString('en');

/**
 * One trademark as a PDF: core data, logo, and each linked table the plan opens. pdfkit writes each
 * page's objects as it goes, so the document streams into `out` rather than being built whole. It is
 * made a piece at a time, letting the event loop run between pieces: when `out` closes before the end
 * (the client went away), making it stops and the promise rejects.
 */
export async function writeTrademarkPdf(r: TrademarkReport, out: Writable, opts: PdfOptions = {}): Promise<void> {
  const m = r.mark;
  const w = new Bounded(out, opts.limits ?? REPORT_LIMITS, opts.clock ?? (() => performance.now()));
  const doc = new (await loadPdfKit())({
    size: 'A4',
    margin: MARGIN,
    bufferPages: false,
    info: {
      Title: `Trade mark ${m.application_number}: ${w.cut(m.word_mark || '(device mark)', 200)}`,
      Author: 'Nishaan',
      Producer: 'Nishaan',
    },
  });
  registerFonts(doc);
  doc.pipe(out);
  try {
    await writeSections(doc, w, r);
  } catch (err) {
    if (!(err instanceof TimeSpent)) {
      doc.unpipe(out);
      throw err;
    }
    doc
      .moveDown()
      .fillColor('#555')
      .fontSize(9)
      .text(
        `Report cut short: making it took longer than ${count(w.limits.ms / 1000)} s. The API's trademark detail has the whole record.`,
      );
  }
  doc.end();
}

/** The report's pieces, each after w.step(): it throws when the reader has gone or the time is spent. */
async function writeSections(doc: PDFKit.PDFDocument, w: Bounded, r: TrademarkReport): Promise<void> {
  const m = r.mark;
  const width = doc.page.width - 2 * MARGIN;
  doc.font('Helvetica-Bold').fontSize(18).text(`Trade mark ${m.application_number}`);
  write(doc.fontSize(14), w.fit(m.word_mark || '(device mark without words)', 500), 'regular');
  doc
    .fontSize(8)
    .fillColor('#555')
    .text(`Report generated ${r.generatedAt.toISOString()} by Nishaan from the Trade Marks Registry records.`);
  doc.fillColor('black').moveDown();
  if (r.logo) {
    try {
      doc.image(r.logo, { fit: [140, 140] });
      doc.moveDown();
    } catch {
      doc.fontSize(9).text('Logo: stored image could not be read.').moveDown();
    }
  }

  heading(doc, 'Core data');
  const core: [string, unknown][] = [
    ['Application number', m.application_number],
    ['Word mark', m.word_mark],
    ['Class', m.class_number],
    ['Status', m.status],
    ['Application date', m.application_date],
    ['Valid until', m.expire_at],
    ['Proprietor', m.proprietor_name],
    ['State', m.state],
    ['Mark type', m.tm_type],
    ['Filing mode', m.filing_mode],
    ['Alert', m.alert],
    ['Registry office', m.registry_office],
    ['Used since', m.used_since],
    ['Vienna codes', (m.vienna_codes ?? []).join(', ')],
    ['Journal', m.journal ? `No. ${m.journal.journal_number} of ${m.journal.publication_date}` : null],
    ['Goods and services', m.goods_services],
  ];
  for (const [k, v] of core) {
    await w.step();
    pair(doc, k, w.fit(text(v)), width);
  }

  // The first entry has no status before it: it reads as the status the mark was filed with.
  await section(
    doc,
    w,
    r,
    'Status history',
    'status_history',
    (h) => `${text(h.changed_at).slice(0, 10)} ${h.old_status ? `${text(h.old_status)} -> ` : ''}${text(h.new_status)}`,
  );
  await section(doc, w, r, 'Proprietors', 'proprietors', (p) =>
    [p.name, p.entity_type, p.trading_as && `trading as ${p.trading_as}`, p.address, p.state, p.country].filter(Boolean).join(', '),
  );
  await section(doc, w, r, 'Attorneys and agents', 'attorneys', (a) =>
    [a.name, a.agent_code, a.address, a.email, a.phone].filter(Boolean).join(', '),
  );
  await section(doc, w, r, 'Oppositions', 'oppositions', (o) => {
    const opp = o.opponent as { name?: string } | null;
    return (
      `${text(o.opposition_number)} filed ${text(o.opposition_date)} by ${text(opp?.name)}: ${text(o.status)}` +
      (o.decision ? `, decided ${text(o.decision_date)}: ${text(o.decision)}` : '')
    );
  });
  await section(
    doc,
    w,
    r,
    'Hearings',
    'hearings',
    (h) =>
      `${text(h.hearing_date)} ${h.time_slot ? `(${text(h.time_slot)}) ` : ''}${text(h.hearing_type)}: ${text(h.status)}` +
      (h.virtual_room_link ? `, ${text(h.virtual_room_link)}` : ''),
  );
  await section(
    doc,
    w,
    r,
    'Examination reports',
    'exam_reports',
    (e) =>
      `${text(e.report_date)}: ${((e.objection_reasons as string[]) ?? []).join('; ') || 'no objections'}` +
      (e.reply_due_date ? `; reply due ${text(e.reply_due_date)}` : '') +
      (((e.cited_application_numbers as string[]) ?? []).length ? `; cited ${(e.cited_application_numbers as string[]).join(', ')}` : ''),
  );
  await section(
    doc,
    w,
    r,
    'Documents',
    'documents',
    (d) =>
      `${text(d.upload_date)} ${text(d.document_type)}: ${text(d.name)} ` +
      `(document ${text(d.id)}${d.opposition_id ? `, opposition ${text(d.opposition_id)}` : ''})`,
  );
}

/** The report's budgets: characters left, time left, and whether anyone is still reading. */
class Bounded {
  private left: number;
  private readonly started: number;
  private gone = false;

  constructor(
    private readonly out: Writable,
    readonly limits: ReportLimits,
    private readonly clock: () => number,
  ) {
    this.left = limits.total;
    this.started = clock();
    out.once('close', () => (this.gone = true));
  }

  /** Before each piece: lets the event loop run (the piece before is sent, a closed connection is heard). */
  async step(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.gone || this.out.destroyed) throw new Error('the client went away: report abandoned');
    if (this.clock() - this.started > this.limits.ms) throw new TimeSpent();
  }

  /** Whether any of the total is left. */
  get room(): boolean {
    return this.left > 0;
  }

  /** s cut to `max` characters (not inside a surrogate pair), saying how much was left out. */
  cut(s: string, max: number): string {
    if (s.length <= max) return s;
    const at = max > 0 && /[\uD800-\uDBFF]/.test(s[max - 1]) ? max - 1 : max;
    return `${s.slice(0, at)} … [shortened: the first ${count(at)} of ${count(s.length)} characters]`;
  }

  /** s as printed: at most one value's length, and charged against the total. */
  fit(s: string, max = this.limits.value): string {
    const cap = Math.min(max, Math.max(this.left, 0));
    this.left -= Math.min(s.length, cap);
    return this.cut(s, cap);
  }
}

function heading(doc: PDFKit.PDFDocument, title: string): void {
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(12).text(title).font('Helvetica').fontSize(9).moveDown(0.3);
}

function pair(doc: PDFKit.PDFDocument, label: string, value: string, width: number): void {
  const y = doc.y;
  // A value in a Devanagari font sits lower in its line: the label goes on the same baseline.
  const baseline = baselineOf(doc.fontSize(9), value, 'regular');
  doc.font('Helvetica-Bold').text(label, MARGIN, y, { width: 120, baseline });
  write(doc, value, 'regular', MARGIN + 125, y, { width: width - 125 });
  doc.x = MARGIN;
}

async function section(
  doc: PDFKit.PDFDocument,
  w: Bounded,
  r: TrademarkReport,
  title: string,
  table: LinkedTable,
  line: (row: Row) => string,
): Promise<void> {
  await w.step();
  heading(doc, title);
  const rows = r.mark[table] as Row[] | undefined;
  if (rows) {
    if (!rows.length) doc.text('None recorded.');
    for (let i = 0; i < rows.length; i++) {
      if (!w.room) {
        doc
          .fillColor('#555')
          .text(`… ${count(rows.length - i)} more not printed: the report's size limit was reached.`)
          .fillColor('black');
        break;
      }
      await w.step();
      write(doc, w.fit(line(rows[i])), 'regular', undefined, undefined, { paragraphGap: 2 });
    }
  }
  // Named whether the gate left out the whole table or some of its rows (opposition filings).
  const withheld = tableCategories(table).filter((c) => r.omitted.includes(c));
  if (withheld.length)
    doc
      .fillColor('#555')
      .text(`Not on your plan (${withheld.join(', ')}).`)
      .fillColor('black');
}
