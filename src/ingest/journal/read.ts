import type { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

// pdf.js is loaded when a journal is first read: every process builds the journal importer, few ever run it, and
// pdf.js is about 7 MiB of source text held in each process's heap once loaded.
const pdfjs = () => import('pdfjs-dist/legacy/build/pdf.mjs');

// A PDF's text as lines: pdf.js (from npm, no network) reads each page's text items, which are put together into lines
// by their baseline, left to right, each with its type size and its height on the page. Nothing is rendered.

export interface Line {
  text: string;
  /** Type size in points (the largest on the line). */
  size: number;
  /** Baseline, in points from the bottom of the page. */
  y: number;
}

/** An image drawn on a page, decoded: `channels` 1 (grey), 3 (RGB) or 4 (RGBA), 8 bits each. */
export interface PageImage {
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  data: Uint8Array;
}

/** A page's text lines and the images drawn on it large enough to be a mark (a device mark's, or a label's). */
export interface PdfPage {
  lines: Line[];
  images: PageImage[];
}

/** Smaller images are rules and ornaments, not marks. */
const MARK_IMAGE_MIN = 24;

/** A file that is no journal PDF: the message says which way. */
export class JournalFileError extends Error {}

interface TextItem {
  str: string;
  transform: number[];
}

export async function readPdf(data: Uint8Array): Promise<PdfPage[]> {
  if (Buffer.from(data.subarray(0, 5)).toString('latin1') !== '%PDF-')
    throw new JournalFileError('not a PDF (it does not begin with %PDF-)');
  let pdf: Awaited<ReturnType<typeof getDocument>['promise']>;
  try {
    // A copy: pdf.js takes the buffer over.
    const { getDocument } = await pdfjs();
    pdf = await getDocument({
      data: new Uint8Array(data),
      isEvalSupported: false,
      verbosity: 0,
      stopAtErrors: true,
      // Image data decoded in this process, not into a canvas (there is none in Node).
      isOffscreenCanvasSupported: false,
    }).promise;
  } catch (err) {
    const name = (err as Error).name;
    if (name === 'PasswordException') throw new JournalFileError('the PDF is encrypted: give the journal as published, unlocked');
    throw new JournalFileError(`the PDF cannot be read (${(err as Error).message}): truncated or damaged`);
  }
  try {
    const pages: PdfPage[] = [];
    for (let p = 1; p <= pdf.numPages; p++) {
      const page = await pdf.getPage(p);
      pages.push({ lines: linesOf(await textItems(page)), images: await imagesOf(page) });
      page.cleanup();
    }
    return pages;
  } catch (err) {
    throw new JournalFileError(`the PDF cannot be read (${(err as Error).message}): truncated or damaged`);
  } finally {
    await pdf.destroy();
  }
}

/** The text lines alone of each page. */
export async function readPdfLines(data: Uint8Array): Promise<Line[][]> {
  return (await readPdf(data)).map((p) => p.lines);
}

type Page = Awaited<ReturnType<Awaited<ReturnType<typeof getDocument>['promise']>['getPage']>>;

type Item = TextItem | { type: string; id?: string | null };
interface StructNode {
  alt?: string;
  children?: (StructNode | { type: string; id: string })[];
}

/**
 * A page's text items, a span the PDF gives its actual text for (ActualText, as our renderer writes Devanagari: its
 * glyphs are drawn in visual order, the i sign before its consonant and the reph after) read as that text instead.
 */
async function textItems(page: Page): Promise<TextItem[]> {
  const content = await page.getTextContent({ includeMarkedContent: true });
  const items = content.items as Item[];
  const actual = new Map<string, string>();
  if (items.some((i) => 'type' in i && i.id)) {
    const walk = (n: StructNode) => {
      for (const c of n.children ?? []) {
        if ('type' in c && c.type === 'content' && n.alt !== undefined) actual.set(c.id, n.alt);
        else if (!('type' in c)) walk(c as StructNode);
      }
    };
    const tree = (await page.getStructTree()) as StructNode | null;
    if (tree) walk(tree);
  }
  const out: TextItem[] = [];
  const open: (string | null)[] = [];
  let replaced: TextItem | null = null;
  for (const it of items) {
    if ('type' in it) {
      if (it.type === 'endMarkedContent') {
        if (open.pop() && replaced) out.push(replaced);
        replaced = null;
      } else {
        const text = it.id ? actual.get(it.id) : undefined;
        open.push(text === undefined ? null : text);
        if (text !== undefined) replaced = null;
      }
      continue;
    }
    const inActual = [...open].reverse().find((x) => x !== null);
    if (inActual === undefined) out.push({ ...it, str: logical(it.str) });
    else if (!replaced && it.str) replaced = { ...it, str: inActual };
  }
  return out;
}

// Devanagari drawn without its actual text comes out in visual order; two repairs are safe whatever the text: a space
// before a vowel sign is none (a sign never begins a word), and the i sign printed before its consonant cluster goes
// after it. A reph (र् drawn after its cluster) cannot be told from a conjunct in visual order and is left as drawn.
const SIGN_AFTER_SPACE = /(?<=[\u0900-\u097f]) (?=[\u093e-\u094d\u0901-\u0903\u0962\u0963])/g;
const I_BEFORE = /\u093f((?:[\u0915-\u0939\u0958-\u095f]\u093c?\u094d)*[\u0915-\u0939\u0958-\u095f]\u093c?)/g;
const logical = (s: string) => (/[\u0900-\u097f]/.test(s) ? s.replace(SIGN_AFTER_SPACE, '').replace(I_BEFORE, '$1\u093f') : s);
const CHANNELS: Record<number, 1 | 3 | 4> = { 2: 3, 3: 4 };

async function imagesOf(page: Page): Promise<PageImage[]> {
  const { OPS } = await pdfjs();
  const ops = await page.getOperatorList();
  const out: PageImage[] = [];
  for (let i = 0; i < ops.fnArray.length; i++) {
    if (ops.fnArray[i] !== OPS.paintImageXObject) continue;
    const id = ops.argsArray[i][0] as string;
    const img = await new Promise<{ width: number; height: number; kind: number; data?: Uint8Array }>((resolve) =>
      page.objs.get(id, resolve),
    );
    if (!img?.data || img.width < MARK_IMAGE_MIN || img.height < MARK_IMAGE_MIN) continue;
    // Kind 1 is one bit per pixel: spread to one byte of grey.
    if (img.kind === 1) {
      const grey = new Uint8Array(img.width * img.height);
      const row = Math.ceil(img.width / 8);
      for (let y = 0; y < img.height; y++)
        for (let x = 0; x < img.width; x++) grey[y * img.width + x] = img.data[y * row + (x >> 3)] & (128 >> (x & 7)) ? 255 : 0;
      out.push({ width: img.width, height: img.height, channels: 1, data: grey });
    } else if (CHANNELS[img.kind]) out.push({ width: img.width, height: img.height, channels: CHANNELS[img.kind], data: img.data });
  }
  return out;
}

/** Items on one baseline (within a point) are one line, top of the page first. */
function linesOf(items: TextItem[]): Line[] {
  const rows: { y: number; size: number; parts: { x: number; s: string }[] }[] = [];
  for (const it of items) {
    if (!it.str) continue;
    const [, , , d, x, y] = it.transform;
    let row = rows.find((r) => Math.abs(r.y - y) < 1);
    if (!row) rows.push((row = { y, size: 0, parts: [] }));
    row.size = Math.max(row.size, Math.abs(d));
    row.parts.push({ x, s: it.str });
  }
  return rows
    .sort((a, b) => b.y - a.y)
    .map((r) => ({
      text: r.parts
        .sort((a, b) => a.x - b.x)
        .map((q) => q.s)
        .join('')
        .replace(/\s+/g, ' ')
        .trim(),
      size: Math.round(r.size * 10) / 10,
      y: r.y,
    }))
    .filter((l) => l.text);
}
