import PDFDocument from 'pdfkit';
import type { Writable } from 'node:stream';
import type { Category } from '../accounts/access.ts';
import type { DetailRow } from '../trademarks/repository.ts';
import type { LinkedTable } from '../trademarks/sql.ts';
import { tableCategories } from '../trademarks/gate.ts';

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
 * One trademark as a PDF: core data, logo, and each linked table the plan opens. pdfkit writes each
 * page's objects as it goes, so the document streams into `out` rather than being built whole.
 */
export function writeTrademarkPdf(r: TrademarkReport, out: Writable): void {
  const m = r.mark;
  const doc = new PDFDocument({
    size: 'A4', margin: MARGIN, bufferPages: false,
    info: { Title: `Trade mark ${m.application_number}: ${m.word_mark || '(device mark)'}`, Author: 'Nishaan', Producer: 'Nishaan' },
  });
  doc.pipe(out);
  const width = doc.page.width - 2 * MARGIN;

  doc.font('Helvetica-Bold').fontSize(18).text(`Trade mark ${m.application_number}`);
  doc.font('Helvetica').fontSize(14).text(m.word_mark || '(device mark without words)');
  doc.fontSize(8).fillColor('#555').text(`Report generated ${r.generatedAt.toISOString()} by Nishaan from the Trade Marks Registry records.`);
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
    ['Application number', m.application_number], ['Word mark', m.word_mark], ['Class', m.class_number], ['Status', m.status],
    ['Application date', m.application_date], ['Valid until', m.expire_at], ['Proprietor', m.proprietor_name], ['State', m.state],
    ['Mark type', m.tm_type], ['Filing mode', m.filing_mode], ['Alert', m.alert], ['Registry office', m.registry_office],
    ['Used since', m.used_since], ['Vienna codes', (m.vienna_codes ?? []).join(', ')],
    ['Journal', m.journal ? `No. ${m.journal.journal_number} of ${m.journal.publication_date}` : null],
    ['Goods and services', m.goods_services],
  ];
  for (const [k, v] of core) pair(doc, k, text(v), width);

  section(doc, r, 'Status history', 'status_history', (h) =>
    `${text(h.changed_at).slice(0, 10)} ${text(h.old_status)} -> ${text(h.new_status)}`);
  section(doc, r, 'Proprietors', 'proprietors', (p) =>
    [p.name, p.entity_type, p.trading_as && `trading as ${p.trading_as}`, p.address, p.state, p.country].filter(Boolean).join(', '));
  section(doc, r, 'Attorneys and agents', 'attorneys', (a) =>
    [a.name, a.agent_code, a.address, a.email, a.phone].filter(Boolean).join(', '));
  section(doc, r, 'Oppositions', 'oppositions', (o) => {
    const opp = o.opponent as { name?: string } | null;
    return `${text(o.opposition_number)} filed ${text(o.opposition_date)} by ${text(opp?.name)}: ${text(o.status)}`
      + (o.decision ? `, decided ${text(o.decision_date)}: ${text(o.decision)}` : '');
  });
  section(doc, r, 'Hearings', 'hearings', (h) =>
    `${text(h.hearing_date)} ${h.time_slot ? `(${text(h.time_slot)}) ` : ''}${text(h.hearing_type)}: ${text(h.status)}`
    + (h.virtual_room_link ? `, ${text(h.virtual_room_link)}` : ''));
  section(doc, r, 'Examination reports', 'exam_reports', (e) =>
    `${text(e.report_date)}: ${((e.objection_reasons as string[]) ?? []).join('; ') || 'no objections'}`
    + (e.reply_due_date ? `; reply due ${text(e.reply_due_date)}` : '')
    + (((e.cited_application_numbers as string[]) ?? []).length ? `; cited ${(e.cited_application_numbers as string[]).join(', ')}` : ''));
  section(doc, r, 'Documents', 'documents', (d) =>
    `${text(d.upload_date)} ${text(d.document_type)}: ${text(d.name)} (document ${text(d.id)}${d.opposition_id ? `, opposition ${text(d.opposition_id)}` : ''})`);

  doc.end();
}

function heading(doc: PDFKit.PDFDocument, title: string): void {
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(12).text(title).font('Helvetica').fontSize(9).moveDown(0.3);
}

function pair(doc: PDFKit.PDFDocument, label: string, value: string, width: number): void {
  const y = doc.y;
  doc.font('Helvetica-Bold').fontSize(9).text(label, MARGIN, y, { width: 120 });
  doc.font('Helvetica').text(value, MARGIN + 125, y, { width: width - 125 });
  doc.x = MARGIN;
}

function section(doc: PDFKit.PDFDocument, r: TrademarkReport, title: string, table: LinkedTable, line: (row: Row) => string): void {
  heading(doc, title);
  const rows = r.mark[table] as Row[] | undefined;
  if (rows) {
    if (!rows.length) doc.text('None recorded.');
    for (const row of rows) doc.text(line(row), { paragraphGap: 2 });
  }
  // Named whether the gate left out the whole table or some of its rows (opposition filings).
  const withheld = tableCategories(table).filter((c) => r.omitted.includes(c));
  if (withheld.length) doc.fillColor('#555').text(`Not on your plan (${withheld.join(', ')}).`).fillColor('black');
}
