import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

// The reports' text in fonts that have its letters. pdfkit's standard fonts (Helvetica) know only
// WinAnsi (Latin-1 and a few quotes and dashes): a Hindi word mark or proprietor printed in them came out
// as stray Latin letters. So each paragraph is cut into runs, each in the first font that has its
// letters: Helvetica for WinAnsi (Latin reports stay as they were and embed no font), Noto Sans
// Devanagari for Devanagari and the Latin letters Helvetica lacks, Noto Sans Math for arrows and other
// symbols (the clearance reasons' ↔). fontkit shapes the Devanagari runs (conjuncts, the i sign before
// its consonant) and pdfkit embeds only the glyphs used, with a ToUnicode map, so the text copies out.
// The fonts come from npm packages (@fontsource/noto-sans-devanagari, @fontsource/noto-sans-math) and
// are read once per process. Letters no font has (Tamil, Bengali, ...) print as the missing-glyph box.

/** pdfkit, loaded by the first PDF a process writes, not by every process that could (about 6 MiB of heap). */
export const loadPdfKit = () => import('pdfkit').then((m) => m.default);

export type Style = 'regular' | 'bold' | 'italic';

interface FontFile {
  hasGlyphForCodePoint(cp: number): boolean;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  lineGap: number;
}

const require = createRequire(import.meta.url);
const open = (file: string) => fontkit.openSync(require.resolve(file)) as FontFile;
const noto = (subset: string, weight: number) =>
  `@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-${subset}-${weight}-normal.woff`;

/** The embedded fonts in the order they are tried after the standard font: registered names and files. */
function files(style: Style): [string, string][] {
  const w = style === 'bold' ? 700 : 400;
  return [
    ...['latin', 'latin-ext', 'devanagari'].map((s): [string, string] => [`noto-${s}-${w}`, noto(s, w)]),
    ['noto-math', '@fontsource/noto-sans-math/files/noto-sans-math-latin-400-normal.woff'],
  ];
}

const STANDARD: Record<Style, string> = { regular: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique' };

/** What Helvetica prints: WinAnsi, Latin-1 and the characters it puts at 0x80-0x9f. */
const WIN_ANSI_EXTRA = new Set([...'€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'].map((c) => c.codePointAt(0)));
const inWinAnsi = (cp: number) => (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_EXTRA.has(cp);

/** Signs that belong to the letter before them (combining marks, joiners, variation selectors): never a run of their own. */
const CLINGS = /^(?:\p{M}|\u200c|\u200d|[\ufe00-\ufe0f])$/u;

/** The embedded fonts, opened once per process, by registered name. */
let opened: Map<string, FontFile> | undefined;
function fonts(): Map<string, FontFile> {
  if (!opened) {
    opened = new Map();
    for (const style of ['regular', 'bold'] as const) for (const [name, file] of files(style)) opened.set(name, open(file));
  }
  return opened;
}

/** Makes the embedded fonts known to a document; pdfkit reads (and embeds) one only when a run uses it. */
export function registerFonts(doc: PDFKit.PDFDocument): void {
  for (const [name, font] of fonts()) doc.registerFont(name, font as unknown as Buffer);
}

/** Whether the named font (standard or embedded) prints the code point. */
function prints(name: string, cp: number): boolean {
  const f = fonts().get(name);
  return f ? f.hasGlyphForCodePoint(cp) : inWinAnsi(cp);
}

export interface Run {
  font: string;
  text: string;
}

/**
 * s as runs of one font each. A letter stays in the run before it while that font has it; after a Noto
 * run the other Noto fonts come before Helvetica (a Latin word inside Hindi text, the letters of Śrī stay
 * in one family), except in italic; the symbols font is only for what the others lack (it has Latin letters too).
 */
export function runs(s: string, style: Style): Run[] {
  const [latin, ext, deva, symbols] = files(style).map(([name]) => name);
  const standard = STANDARD[style];
  const plain = [standard, latin, ext, deva, symbols];
  const inNoto = [latin, ext, deva, standard, symbols];
  const out: Run[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    const last = out[out.length - 1];
    if (last && (CLINGS.test(ch) || (last.font !== symbols && prints(last.font, cp)))) {
      last.text += ch;
      continue;
    }
    // Not in italic: Noto Sans Devanagari has no italic, and the Latin around a Hindi word keeps its slant.
    const order = style !== 'italic' && last && last.font !== standard && last.font !== symbols ? inNoto : plain;
    // The box for a letter no font has comes from the Devanagari font, not as a Latin letter from Helvetica.
    const font = order.find((f) => prints(f, cp)) ?? deva;
    if (last?.font === font) last.text += ch;
    else out.push({ font, text: ch });
  }
  return out;
}

/** Points from the top of a line to its baseline, and from one line to the next, in the Noto fonts. */
function notoLine(size: number): { ascent: number; height: number } {
  const f = fonts().get('noto-latin-400') as FontFile;
  const em = size / f.unitsPerEm;
  return { ascent: f.ascent * em, height: (f.ascent - f.descent + f.lineGap) * em };
}

/**
 * The baseline (pdfkit's numeric `baseline`) of a paragraph that is not all standard font, for text beside
 * it to sit on the same line (a label and its value); undefined for a paragraph all in the standard font.
 */
export function baselineOf(doc: PDFKit.PDFDocument, s: string, style: Style): number | undefined {
  const r = runs(s, style);
  return r.length === 1 && r[0].font === STANDARD[style] ? undefined : -notoLine(fontSize(doc)).ascent;
}

const fontSize = (doc: PDFKit.PDFDocument) => (doc as unknown as { _fontSize: number })._fontSize;

type TextOptions = PDFKit.Mixins.TextOptions;
type Internal = {
  _text(s: string, x: number | TextOptions, y: number | undefined, o: TextOptions | undefined, line: (...a: unknown[]) => void): void;
  _lineGap: number;
};

/**
 * One paragraph at (x, y) (or where the document is), its runs chained with pdfkit's `continued`. The
 * runs of a mixed paragraph share one baseline and one line height (the Noto fonts'), whichever font
 * ends a line. Leaves the document in the style's standard font.
 */
export function write(doc: PDFKit.PDFDocument, s: string, style: Style, x?: number, y?: number, opts: TextOptions = {}): void {
  // pdfkit takes the options from the second argument when x is left out (and ignores a fourth).
  each(doc, s, style, opts, (run, o, first) => (first && x !== undefined ? doc.text(run, x, y, o) : doc.text(run, o)));
}

/** The height write() would take at the document's position, drawing nothing. */
export function heightOf(doc: PDFKit.PDFDocument, s: string, style: Style, opts: TextOptions = {}): number {
  const r = runs(s, style);
  if (r.length === 1 && r[0].font === STANDARD[style]) return doc.font(STANDARD[style]).heightOfString(s, opts);
  const { x, y } = doc;
  const d = doc as unknown as Internal;
  each(doc, s, style, { ...opts, height: Infinity }, (run, o, first) =>
    // heightOfString cannot chain runs: the line callback below is the one pdfkit's _line uses, less the drawing.
    d._text(run, first ? x : o, first ? y : undefined, o, (...a) => {
      const lo = a[1] as TextOptions;
      if (a[2]) doc.y += doc.currentLineHeight(true) + (lo.lineGap || d._lineGap || 0);
    }),
  );
  const h = doc.y - y;
  doc.x = x;
  doc.y = y;
  return h;
}

function each(
  doc: PDFKit.PDFDocument,
  s: string,
  style: Style,
  opts: TextOptions,
  put: (run: string, o: TextOptions, first: boolean) => void,
): void {
  const r = runs(s, style);
  if (r.length === 1 && r[0].font === STANDARD[style]) {
    doc.font(STANDARD[style]);
    put(s, opts, true);
    return;
  }
  const line = notoLine(fontSize(doc));
  const baseline = opts.baseline ?? -line.ascent;
  r.forEach((run, i) => {
    doc.font(run.font);
    const gap = line.height - doc.currentLineHeight(true) + (opts.lineGap ?? 0);
    put(run.text, { ...opts, baseline, lineGap: gap, continued: i < r.length - 1 }, i === 0);
  });
  doc.font(STANDARD[style]);
}
