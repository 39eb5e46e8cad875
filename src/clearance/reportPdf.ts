import type { Writable } from 'node:stream';
import { heightOf, loadPdfKit, registerFonts, type Style, write } from '../documents/pdfFonts.ts';
import { type ClearanceReport, DISCLAIMER, groundLines, type ReportProposal, RISK_COLOURS, verdictOf } from './reportModel.ts';

// A clearance (or a batch) as a PDF: a first page with every proposal's verdict, top risk and grounds, the
// register's coverage date and what the report is not; then for each proposal its words, classes, logo and
// grounds, then each conflict with its risk badge (colour and words), reasons, status, owner, application date,
// goods and services, and the two logos side by side (the proposal's, the mark's); page numbers on every page.
// Made a piece at a time (the pages kept until the end, for their numbers); a piece waits for the event loop, so a
// reader that went away stops it. Bounded like the trademark report
// (src/documents/pdfReport.ts): at most PDF_LIMITS.conflicts conflicts and PDF_LIMITS.ms of work, then a note.

type Result = NonNullable<ReportProposal['answer']>['results'][number];

export interface PdfLimits {
  /** Conflicts drawn in all; past them proposals are still listed with their counts. */
  conflicts: number;
  ms: number;
}

export const PDF_LIMITS: PdfLimits = { conflicts: 2000, ms: 60_000 };

const MARGIN = 50;
const THUMB = 56;
const GAP = 8;
/** The logos' column: the proposal's and the mark's side by side. */
const LOGOS_WIDTH = 2 * THUMB + GAP;
const BADGE_WIDTH = 70;
/** A conflict's goods are printed whole up to this many characters (the register's longest run to tens of thousands). */
const GOODS_PRINTED = 2000;

class Stop extends Error {}

const text = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : String(v));

export async function writeClearancePdf(
  r: ClearanceReport,
  out: Writable,
  opts: { limits?: PdfLimits; clock?: () => number } = {},
): Promise<void> {
  const limits = opts.limits ?? PDF_LIMITS;
  const clock = opts.clock ?? (() => performance.now());
  const started = clock();
  let gone = false;
  out.once('close', () => (gone = true));
  const step = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    if (gone || out.destroyed) throw new Error('the client went away: report abandoned');
    if (clock() - started > limits.ms) throw new Stop();
  };
  const doc = new (await loadPdfKit())({
    size: 'A4',
    margin: MARGIN,
    info: { Title: r.kind === 'batch' ? `Batch clearance ${r.id}` : `Clearance ${r.id}`, Author: 'Nishaan', Producer: 'Nishaan' },
    // Kept until the end, so that each page can say its number of the whole.
    bufferPages: true,
  });
  registerFonts(doc);
  doc.pipe(out);
  let drawn = 0;
  let skipped = 0;
  try {
    cover(doc, r);
    await summary(doc, r, step);
    for await (const p of r.proposals()) {
      await step();
      await proposal(doc, r, p);
      const results = p.answer?.results ?? [];
      const goods = results.length
        ? await r.goods(results.slice(0, Math.max(0, limits.conflicts - drawn)).map((x) => x.application_number))
        : null;
      for (const x of results) {
        if (drawn >= limits.conflicts) {
          skipped++;
          continue;
        }
        await step();
        await conflict(doc, r, p, x, goods?.get(x.application_number) ?? null);
        drawn++;
      }
    }
    if (skipped)
      note(
        doc,
        `${skipped.toLocaleString('en')} more conflicts not drawn: a report draws at most ` +
          `${limits.conflicts.toLocaleString('en')}. The xlsx report lists them all.`,
      );
  } catch (err) {
    if (!(err instanceof Stop)) {
      doc.unpipe(out);
      throw err;
    }
    note(doc, `Report cut short: making it took longer than ${limits.ms / 1000} s. The xlsx report and the API have every proposal.`);
  }
  numberPages(doc);
  doc.end();
}

/** "Page i of n" at the foot of every page, written once all are known. */
function numberPages(doc: PDFKit.PDFDocument): void {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    // Below the bottom margin: pdfkit would otherwise start a page for it.
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor('#777')
      .text(`Page ${i - start + 1} of ${count}`, MARGIN, doc.page.height - MARGIN / 2 - 4, {
        width: doc.page.width - 2 * MARGIN,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = bottom;
  }
  doc.fillColor('black');
}

/** The first page's table: each proposal's name, classes, verdict, top risk, conflicts and grounds. */
async function summary(doc: PDFKit.PDFDocument, r: ClearanceReport, step: () => Promise<void>): Promise<void> {
  const width = doc.page.width - 2 * MARGIN;
  const cols = [
    { title: r.kind === 'batch' ? '#' : '', w: 28 },
    { title: 'Proposed mark', w: 150 },
    { title: 'Classes', w: 60 },
    { title: 'Verdict', w: 105 },
    { title: 'Top risk', w: 52 },
    { title: 'Conflicts', w: width - 395 },
  ];
  const row = (cells: string[], style: Style) => {
    const h = Math.max(...cells.map((c, i) => heightOf(doc, c, style, { width: cols[i].w - 4 }))) + 3;
    room(doc, h);
    const y = doc.y;
    let x = MARGIN;
    cells.forEach((c, i) => {
      write(doc, c, style, x, y, { width: cols[i].w - 4 });
      x += cols[i].w;
    });
    doc.y = y + h;
    doc.x = MARGIN;
  };
  doc.moveDown(1);
  write(doc.fontSize(12).fillColor('black'), 'Summary', 'bold', MARGIN, doc.y);
  doc.fontSize(8.5);
  row(
    cols.map((c) => c.title),
    'bold',
  );
  for await (const p of r.proposals()) {
    await step();
    const a = p.answer;
    const counts = a ? `${a.count} (High ${a.groups.risk_level.High}, Medium ${a.groups.risk_level.Medium})` : '-';
    row(
      [
        r.kind === 'batch' ? String(p.index + 1) : '',
        p.word_mark ?? '(a logo)',
        p.classes.join(', '),
        verdictOf(p),
        a?.overall_risk ?? (a ? 'none' : '-'),
        counts,
      ],
      'regular',
    );
    for (const g of a?.registrability?.grounds ?? []) {
      doc.fontSize(8).fillColor('#555');
      write(doc, `${g.ground.replace('_', '-')}: ${g.matched} (${g.basis})`, 'italic', MARGIN + cols[0].w, doc.y, {
        width: width - cols[0].w,
      });
      doc.fillColor('black').fontSize(8.5);
    }
  }
  doc.moveDown(0.8);
  doc.x = MARGIN;
  doc.font('Helvetica').fontSize(8).fillColor('#555').text(DISCLAIMER, { width }).fillColor('black');
}

function note(doc: PDFKit.PDFDocument, s: string): void {
  doc.moveDown().x = MARGIN;
  doc.font('Helvetica').fontSize(9).fillColor('#555').text(s).fillColor('black');
}

function cover(doc: PDFKit.PDFDocument, r: ClearanceReport): void {
  doc
    .font('Helvetica-Bold')
    .fontSize(18)
    .text(r.kind === 'batch' ? 'Batch clearance report' : 'Clearance report');
  doc.font('Helvetica').fontSize(9).fillColor('#555');
  doc.text(r.kind === 'batch' ? `Job ${r.id}: ${r.total.toLocaleString('en')} proposals, ${r.status}` : `Clearance ${r.id}`);
  doc.text(`Screened ${r.createdAt}${r.finishedAt && r.kind === 'batch' ? `, ended ${r.finishedAt}` : ''}.`);
  doc.text(`Report generated ${r.generatedAt.toISOString()} by Nishaan from the Trade Marks Registry records.`);
  doc.text(`Register coverage: records as last imported ${r.coverage ? r.coverage.slice(0, 10) : '(never imported)'}.`);
  doc.text(
    'Risk levels are the analysis’s calibrated levels: High, Medium, Low. Each conflict shows the proposal’s logo ' +
      '(left) beside the mark’s (right) when they have one.',
  );
  doc.fillColor('black');
}

/** Room for `h` points on this page, or a new page. */
function room(doc: PDFKit.PDFDocument, h: number): void {
  if (doc.y + h > doc.page.height - MARGIN) doc.addPage();
}

async function proposal(doc: PDFKit.PDFDocument, r: ClearanceReport, p: ReportProposal): Promise<void> {
  const logo = p.logoKey ? await r.logo(p.logoKey) : null;
  room(doc, 110);
  doc.x = MARGIN;
  doc.moveDown(1.2);
  const width = doc.page.width - 2 * MARGIN;
  doc
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + width, doc.y)
    .strokeColor('#999')
    .stroke();
  doc.moveDown(0.4);
  const title = r.kind === 'batch' ? `Proposal ${p.index + 1} of ${r.total}: ` : 'Proposal: ';
  write(doc.fontSize(14).fillColor('black'), title + (p.word_mark ?? '(a logo without words)'), 'bold');
  const top = doc.y;
  const textWidth = logo ? width - 90 : width;
  doc.font('Helvetica').fontSize(9);
  const lines = [
    `Classes: ${p.classes.join(', ')}`,
    `Logo: ${p.hasLogo ? (logo ? 'shown on the right' : 'given (its image is not kept)') : 'none'}`,
    `Marks listed: status groups ${p.status.join(', ')}${p.risk_level ? `, risk ${p.risk_level} or higher` : ''}`,
  ];
  if (p.answer) {
    const g = p.answer.groups.risk_level;
    const shown = p.answer.results.length;
    lines.push(
      `Conflicts: ${p.answer.count} (High ${g.High}, Medium ${g.Medium}, Low ${g.Low})` +
        (shown < p.answer.count
          ? `; ${shown} listed here, from number ${p.answer.query.offset + 1} by risk` +
            (r.kind === 'batch' ? ` (a batch keeps each proposal's first ${p.answer.query.limit}: screen it alone for all)` : '')
          : ''),
    );
    if (!shown) lines.push('No conflicting mark was found in these classes.');
  } else if (p.error) {
    lines.push(`Not screened: ${p.error.code}: ${p.error.message}`);
  }
  if (p.answer?.registrability) lines.push(`Registrability: ${verdictOf(p)}`, ...groundLines(p).map((g) => `  · ${g}`));
  for (const l of lines) write(doc, l, 'regular', MARGIN, doc.y, { width: textWidth });
  if (logo) place(doc, logo, MARGIN + width - 80, top, 80);
  doc.y = Math.max(doc.y, logo ? top + 84 : doc.y);
  doc.x = MARGIN;
  doc.moveDown(0.5);
}

/** Images opened per document, at most IMAGES_KEPT: one opened image is embedded once however often it is placed. */
const opened = new WeakMap<PDFKit.PDFDocument, Map<Buffer, unknown>>();
const IMAGES_KEPT = 500;

/**
 * The proposal's thumbnail stands beside each of its conflicts: pdfkit embeds an image given as bytes
 * anew at each placing, but an opened image once, so each thumbnail is opened once (by its Buffer).
 */
function imageOf(doc: PDFKit.PDFDocument, png: Buffer): unknown {
  let images = opened.get(doc);
  if (!images) opened.set(doc, (images = new Map()));
  let image = images.get(png);
  if (!image) {
    image = (doc as unknown as { openImage(b: Buffer): unknown }).openImage(png);
    if (images.size >= IMAGES_KEPT) images.delete(images.keys().next().value as Buffer);
    images.set(png, image);
  }
  return image;
}

/** An image fit into a square at (x, y), or a grey box when pdfkit cannot read it. */
function place(doc: PDFKit.PDFDocument, png: Buffer, x: number, y: number, side: number): void {
  try {
    doc.image(imageOf(doc, png) as Buffer, x, y, { fit: [side, side], align: 'center', valign: 'center' });
  } catch {
    doc.rect(x, y, side, side).strokeColor('#ccc').stroke();
  }
  doc
    .rect(x - 0.5, y - 0.5, side + 1, side + 1)
    .lineWidth(0.5)
    .strokeColor('#ddd')
    .stroke();
}

async function conflict(doc: PDFKit.PDFDocument, r: ClearanceReport, p: ReportProposal, x: Result, goods: string | null): Promise<void> {
  const [mine, theirs] = await Promise.all([p.logoKey ? r.logo(p.logoKey) : null, x.logo_url ? r.logo(x.logo_url) : null]);
  const width = doc.page.width - 2 * MARGIN;
  const left = MARGIN + LOGOS_WIDTH + GAP;
  const textWidth = width - LOGOS_WIDTH - GAP - BADGE_WIDTH - GAP;
  const lines: [Style, string][] = [
    ['bold', `${x.application_number}  ${x.word_mark || '(device mark)'}  ·  class ${x.class_number}`],
    ['regular', `Status: ${text(x.status)}   Applied: ${text(x.application_date)}`],
    ['regular', `Owner: ${text(x.proprietor_name)}`],
    ['regular', `Goods and services: ${goodsText(goods ?? x.goods_services)}`],
    [
      'regular',
      `Overall ${x.overall_similarity_score} · words ${x.word_similarity_percentage}% · sound ${x.phonetic_similarity_percentage}%` +
        ` · logo ${x.visual_similarity_percentage}% · matched by ${x.matching_criteria}`,
    ],
    ['italic', x.reasons.length ? x.reasons.join('; ') : 'no reason recorded'],
  ];
  doc.fontSize(9);
  const height = lines.reduce((h, [style, s]) => h + heightOf(doc, s, style, { width: textWidth }) + 1, 0);
  const block = Math.max(height, mine || theirs ? THUMB : 0, 18) + 10;
  room(doc, block);
  const top = doc.y;
  if (mine) place(doc, mine, MARGIN, top, THUMB);
  if (theirs) place(doc, theirs, MARGIN + THUMB + GAP, top, THUMB);
  badge(doc, x.risk_level, MARGIN + width - BADGE_WIDTH, top);
  doc.y = top;
  for (const [style, s] of lines) write(doc.fillColor('black'), s, style, left, doc.y, { width: textWidth, paragraphGap: 1 });
  doc.x = MARGIN;
  doc.y = top + block;
}

function goodsText(g: string | null | undefined): string {
  if (!g) return 'not on the register';
  return g.length <= GOODS_PRINTED
    ? g
    : `${g.slice(0, GOODS_PRINTED)} … (${(g.length - GOODS_PRINTED).toLocaleString('en')} more characters)`;
}

/** The risk level as a coloured badge with its name: readable in grey print too. */
function badge(doc: PDFKit.PDFDocument, risk: string, x: number, y: number): void {
  doc
    .roundedRect(x, y, BADGE_WIDTH, 16, 4)
    .fill(`#${RISK_COLOURS[risk] ?? '777777'}`)
    .fillColor('white')
    .font('Helvetica-Bold')
    .fontSize(8)
    .text(`${risk.toUpperCase()} RISK`, x, y + 4.5, { width: BADGE_WIDTH, align: 'center', lineBreak: false });
  doc.fillColor('black').font('Helvetica').fontSize(9);
}
