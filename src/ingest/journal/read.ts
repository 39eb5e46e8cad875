import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

// A PDF's text as lines: pdf.js (from npm, no network) reads each page's text items, which are put together into lines
// by their baseline, left to right, each with its type size and its height on the page. Nothing is rendered.

export interface Line {
  text: string;
  /** Type size in points (the largest on the line). */
  size: number;
  /** Baseline, in points from the bottom of the page. */
  y: number;
}

/** A file that is no journal PDF: the message says which way. */
export class JournalFileError extends Error {}

interface TextItem {
  str: string;
  transform: number[];
}

export async function readPdfLines(data: Uint8Array): Promise<Line[][]> {
  if (Buffer.from(data.subarray(0, 5)).toString('latin1') !== '%PDF-')
    throw new JournalFileError('not a PDF (it does not begin with %PDF-)');
  let pdf: Awaited<ReturnType<typeof getDocument>['promise']>;
  try {
    // A copy: pdf.js takes the buffer over.
    pdf = await getDocument({ data: new Uint8Array(data), isEvalSupported: false, verbosity: 0, stopAtErrors: true }).promise;
  } catch (err) {
    const name = (err as Error).name;
    if (name === 'PasswordException') throw new JournalFileError('the PDF is encrypted: give the journal as published, unlocked');
    throw new JournalFileError(`the PDF cannot be read (${(err as Error).message}): truncated or damaged`);
  }
  try {
    const pages: Line[][] = [];
    for (let p = 1; p <= pdf.numPages; p++) {
      const page = await pdf.getPage(p);
      const content = await page.getTextContent();
      pages.push(linesOf(content.items as TextItem[]));
      page.cleanup();
    }
    return pages;
  } catch (err) {
    throw new JournalFileError(`the PDF cannot be read (${(err as Error).message}): truncated or damaged`);
  } finally {
    await pdf.destroy();
  }
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
