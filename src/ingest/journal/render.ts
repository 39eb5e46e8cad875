import PDFDocument from 'pdfkit';
import { registerFonts, runs, type Style } from '../../documents/pdfFonts.ts';
import {
  type Corrigendum,
  dmyOf,
  HEADINGS,
  LINE_PITCH,
  type ListRow,
  MULTI_CLASS,
  PARAGRAPH_PITCH,
  type PrintedEntry,
  type Section,
  SIZES,
} from './layout.ts';

// A journal written in the published layout (src/ingest/journal/layout.ts): the test journals, and the demo's delta as
// a journal a new user can import. Sizes, spacing and places are those of a published issue: everything set from the
// left margin, one entry per page, the goods of a long entry going on over pages that repeat the header. Text outside
// the standard fonts (Devanagari marks and names) is set in the reports' Noto fonts (src/documents/pdfFonts.ts).

export type Part =
  /** A page before the journal proper (cover, notices): no journal header. */
  | { kind: 'front'; text: string }
  /** A section's title page: the header and the heading. */
  | { kind: 'heading'; section: Section }
  | { kind: 'entry'; entry: PrintedEntry }
  /** A page no entry can be read from: the header, then a line in the word mark's type and no application line. */
  | { kind: 'damaged' }
  | { kind: 'corrigenda'; items: Corrigendum[] }
  | { kind: 'registered'; numbers: string[] }
  | { kind: 'renewed'; rows: ListRow[] }
  | { kind: 'other'; lines: string[] };

export interface JournalId {
  journal_number: string;
  publication_date: string;
}

const LEFT = 39;
const DEVANAGARI = /[\u0900-\u097f]/;
const WIDTH = 490;
const TOP = 47;
/** Baselines below this go on to the next page. */
const BOTTOM = 790;

type Face = 'arial' | 'arialBlack' | 'times';
const FACES: Record<Face, Record<'regular' | 'bold', string>> = {
  arial: { regular: 'Helvetica', bold: 'Helvetica-Bold' },
  arialBlack: { regular: 'Helvetica-Bold', bold: 'Helvetica-Bold' },
  times: { regular: 'Times-Roman', bold: 'Times-Bold' },
};

class Writer {
  readonly doc = new PDFDocument({ size: 'A4', margin: 0, autoFirstPage: false, tagged: true, info: { Title: 'Trade Marks Journal' } });
  /** The baseline of the last line written, from the top of the page. */
  y = 0;
  page = 0;

  constructor(readonly journal: JournalId) {
    registerFonts(this.doc);
  }

  newPage(cls: number | null, id: JournalId = this.journal): void {
    this.doc.addPage();
    this.page++;
    this.doc.font('Helvetica').fontSize(SIZES.footer).text(String(this.page), 514, 806, { lineBreak: false, baseline: 'alphabetic' });
    const { journal_number: no, publication_date: date } = id;
    this.y = TOP;
    this.draw(`Trade Marks Journal No: ${no} ,   ${dmyOf(date)}${cls === null ? '' : `           Class ${cls}`}`, SIZES.header, 'arial');
  }

  /** One line at `gap` below the last, in runs of the fonts that have its letters. */
  line(text: string, size: number, face: Face, gap: number, style: Style = 'bold'): void {
    this.y += gap;
    this.draw(text, size, face, style);
  }

  private draw(text: string, size: number, face: Face, style: Style = 'bold'): void {
    const put = () => {
      let x = LEFT;
      for (const r of this.runs(text, face, style)) {
        this.doc.font(r.font).fontSize(size).text(r.text, x, this.y, { lineBreak: false, baseline: 'alphabetic' });
        x += this.doc.widthOfString(r.text);
      }
    };
    if (!DEVANAGARI.test(text)) {
      put();
      return;
    }
    // Shaped Devanagari is drawn in visual order (the i sign before its consonant, the reph after): the line's actual
    // text goes with it, so that it reads back as written (src/ingest/journal/read.ts).
    const span = this.doc.struct('Span', { actual: text });
    this.doc.addStructure(span);
    span.add(put);
    span.end();
  }

  private runs(text: string, face: Face, style: Style) {
    const standard = style === 'bold' ? 'Helvetica-Bold' : 'Helvetica';
    const own = FACES[face][style === 'bold' ? 'bold' : 'regular'];
    return runs(text, style).map((r) => (r.font === standard ? { ...r, font: own } : r));
  }

  width(text: string, size: number, face: Face): number {
    let w = 0;
    for (const r of this.runs(text, face, 'bold')) w += this.doc.font(r.font).fontSize(size).widthOfString(r.text);
    return w;
  }

  /** A paragraph wrapped at the measure: its first line `gap` below the last, the rest at line pitch; onto new pages as needed. */
  paragraph(text: string, size: number, face: Face, gap: number, cls: number | null): void {
    let first = true;
    for (const l of this.wrap(text, size, face)) {
      const step = first ? gap : LINE_PITCH;
      if (this.y + step > BOTTOM) {
        this.newPage(cls);
        this.y += 40;
        this.line(l, size, face, 0);
      } else this.line(l, size, face, step);
      first = false;
    }
  }

  private wrap(text: string, size: number, face: Face): string[] {
    const out: string[] = [];
    let cur = '';
    for (const w of text.split(' ')) {
      const next = cur ? `${cur} ${w}` : w;
      if (cur && this.width(next, size, face) > WIDTH) {
        out.push(cur);
        cur = w;
      } else cur = next;
    }
    if (cur) out.push(cur);
    return out;
  }

  async end(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    this.doc.on('data', (c: Buffer) => chunks.push(c));
    const ended = new Promise<void>((resolve, reject) => {
      this.doc.on('end', () => resolve());
      this.doc.on('error', reject);
    });
    this.doc.end();
    await ended;
    return Buffer.concat(chunks);
  }
}

/** Writes the journal's parts in order. */
export async function renderJournal(journal: JournalId, parts: Part[]): Promise<Buffer> {
  const w = new Writer(journal);
  for (const p of parts) {
    if (p.kind === 'front') {
      w.doc.addPage();
      w.page++;
      w.doc.font('Helvetica-Bold').fontSize(SIZES.heading).text(p.text, LEFT, 200, { width: WIDTH });
    } else if (p.kind === 'heading') {
      w.newPage(null);
      w.line(headingTitle(p.section), SIZES.heading, 'arial', 40);
    } else if (p.kind === 'damaged') {
      w.newPage(1);
      w.line('%%%% unreadable scan %%%%', SIZES.wordMark, 'arial', 55);
    } else if (p.kind === 'entry') entryPages(w, p.entry);
    else if (p.kind === 'corrigenda') {
      w.newPage(null);
      w.line(headingTitle('corrigenda'), SIZES.heading, 'arial', 40);
      for (const c of p.items) w.paragraph(`${c.application_number} - ${c.text}`, SIZES.body, 'arial', 20, null);
    } else if (p.kind === 'registered') {
      w.newPage(null);
      w.line(headingTitle('registered'), SIZES.heading, 'arial', 40);
      for (let k = 0; k < p.numbers.length; k += 5) w.line(p.numbers.slice(k, k + 5).join('    '), SIZES.body, 'arial', 15);
    } else if (p.kind === 'renewed') {
      w.newPage(null);
      w.line(headingTitle('renewed'), SIZES.heading, 'arial', 40);
      for (const r of p.rows) w.line(`${r.application_number}    ${r.class_number}    ${dmyOf(r.date ?? '')}`, SIZES.body, 'arial', 15);
    } else {
      w.newPage(null);
      w.line(headingTitle('other'), SIZES.heading, 'arial', 40);
      for (const l of p.lines) w.line(l, SIZES.body, 'arial', 15);
    }
  }
  return w.end();
}

/** Advertisements alone, classes as the entries give them, with `damaged` pages (1-based) put in among them. */
export function renderEntries(entries: PrintedEntry[], opts: { damaged?: number[] } = {}): Promise<Buffer> {
  const parts: Part[] = entries.map((entry) => ({ kind: 'entry', entry }));
  for (const n of [...(opts.damaged ?? [])].sort((a, b) => a - b)) parts.splice(n - 1, 0, { kind: 'damaged' });
  const [first] = entries;
  return renderJournal({ journal_number: first.journal_number, publication_date: first.publication_date }, parts);
}

const headingTitle = (s: Section) => HEADINGS.find((h) => h.section === s)?.title ?? s;

function entryPages(w: Writer, e: PrintedEntry): void {
  const cls = e.classes && e.classes.length > 1 ? MULTI_CLASS : e.class_number;
  // The header names the entry's own journal (the same on every page of a journal as published).
  w.newPage(cls, e);
  let gap = 55;
  if (e.word_mark) {
    w.line(e.word_mark, SIZES.wordMark, 'arial', gap);
    gap = 22.5;
  }
  if (e.image) {
    // The mark's image, centred below the header or the word mark, as a device or label mark is printed.
    const top = w.y + (e.word_mark ? 12 : 31);
    w.doc.image(e.image, LEFT + 60, top, { fit: [WIDTH - 120, 220], align: 'center' });
    w.y = top + 220;
    gap = 22.5;
  }
  if (e.priority) {
    const p = e.priority;
    w.line(`Priority claimed from ${dmyOf(p.date)}; Application No. : ${p.number} ;${p.country}`, SIZES.body, 'arial', gap);
    gap = 16;
  }
  w.line(`${e.application_number}    ${dmyOf(e.application_date)}`, SIZES.appLine, 'arialBlack', gap);
  if (e.international_registration) w.line(`[International Registration No. : ${e.international_registration}]`, SIZES.body, 'arial', 15.8);
  const block = (paras: string[]) => paras.forEach((t, k) => w.paragraph(t, SIZES.body, 'times', k ? PARAGRAPH_PITCH : 15.8, cls));
  const owner = e.proprietor;
  block([owner.name, ...owner.address, ...(owner.kind ? [owner.kind] : [])]);
  if (e.agent) {
    w.line('Address for service in India/Attorney address:', SIZES.label, 'times', 16.5);
    block([e.agent.name, ...e.agent.address]);
  }
  if (e.used_since) w.line(`Used Since :${dmyOf(e.used_since)}`, SIZES.body, 'arial', 15.7);
  else w.line('Proposed to be Used', SIZES.label, 'arial', 16.5);
  if (e.associated_with.length) w.line(`To be associated with: ${e.associated_with.join(', ')}`, SIZES.body, 'arial', 15.7);
  w.line(e.office, SIZES.label, 'arialBlack', 19.5);
  // A multi-class application's goods class by class (Rule 107(1)), each a paragraph; then the conditions.
  const goods = e.classes && e.classes.length > 1 ? e.goods_services.split(/ (?=Cl\.\s*\d{1,2}\s*;)/) : [e.goods_services];
  goods.forEach((g, k) => w.paragraph(g, SIZES.body, 'arial', k ? PARAGRAPH_PITCH : 16.5, cls));
  for (const c of e.conditions) w.paragraph(c, SIZES.body, 'arial', PARAGRAPH_PITCH, cls);
}
