import fs from 'node:fs';
import path from 'node:path';
import { iso, journalDay } from './dates.ts';
import { pdf } from './pdf.ts';
import type { Rng } from './rng.ts';

// The PDFs a set references. Documents share a small pool per document type (the importer stores
// content-addressed blobs, so a pool keeps sets small without losing realism); every journal has its own.

const POOL_PER_TYPE = 6;
export const DOC_TYPES = [
  'TM-A',
  'Examination Report',
  'Reply to Examination Report',
  'Registration Certificate',
  'TM-R',
  'Hearing Notice',
  'TM-M',
  'TM-48',
  'Notice of Opposition',
  'Counter Statement',
  'Evidence in Support of Opposition',
] as const;

const DESCRIPTIONS: Record<string, string> = {
  'TM-A': 'Application for registration of a trade mark (Form TM-A)',
  'Examination Report': 'Examination report under Section 18(4) read with Rule 33',
  'Reply to Examination Report': 'Reply of the applicant to the examination report',
  'Registration Certificate': 'Certificate of registration of trade mark under Section 23(2)',
  'TM-R': 'Application for renewal of registration (Form TM-R)',
  'Hearing Notice': 'Notice of hearing before the Registrar',
  'TM-M': 'Request for amendment / correction (Form TM-M)',
  'TM-48': 'Authorisation of agent (Form TM-48)',
  'Notice of Opposition': 'Notice of opposition under Section 21(1) (Form TM-O)',
  'Counter Statement': 'Counter statement under Section 21(2) (Form TM-O)',
  'Evidence in Support of Opposition': 'Evidence by way of affidavit under Rule 45',
};

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const DOC_PATHS = new Map<string, string[]>(
  DOC_TYPES.map((t) => [t, Array.from({ length: POOL_PER_TYPE }, (_, v) => `files/documents/${slug(t)}-${v + 1}.pdf`)]),
);

export function docFile(type: string, rng: Rng): string {
  const pool = DOC_PATHS.get(type);
  if (!pool) throw new Error(`no PDF pool for document type ${type}`);
  return pool[rng.int(pool.length)];
}

export function journalFile(n: number): string {
  return `files/journals/${n}.pdf`;
}
export const JOURNAL_PAGES = 2;

export function writeDocumentPool(setDir: string): void {
  fs.mkdirSync(path.join(setDir, 'files/documents'), { recursive: true });
  for (const t of DOC_TYPES) {
    DOC_PATHS.get(t)!.forEach((file, v) => {
      const body = pdf(t, [
        [
          [11, 'GOVERNMENT OF INDIA'],
          [11, 'OFFICE OF THE CONTROLLER GENERAL OF PATENTS, DESIGNS AND TRADE MARKS'],
          [16, 'TRADE MARKS REGISTRY'],
          [13, t],
          [10, DESCRIPTIONS[t] ?? t],
          [10, `Specimen ${v + 1} of ${POOL_PER_TYPE}. Synthetic document generated for testing; not an official record.`],
        ],
      ]);
      fs.writeFileSync(path.join(setDir, file), body);
    });
  }
}

/** Writes journals' PDFs a few at a time: thousands of small files are bound by file-system latency. */
export async function writeJournalPdfs(setDir: string, numbers: number[]): Promise<void> {
  fs.mkdirSync(path.join(setDir, 'files/journals'), { recursive: true });
  let next = 0;
  const worker = async () => {
    while (next < numbers.length) {
      const n = numbers[next++];
      await fs.promises.writeFile(path.join(setDir, journalFile(n)), journalPdf(n));
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

function journalPdf(n: number): Buffer {
  const d = iso(journalDay(n));
  const printed = `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;
  return pdf(`Trade Marks Journal No. ${n}`, [
    [
      [18, 'TRADE MARKS JOURNAL'],
      [14, `No. ${n}, ${printed}`],
      [11, 'Class 1 - 45'],
      [10, 'Published under Section 20 of the Trade Marks Act, 1999'],
    ],
    [
      [11, `Trade Marks Journal No. ${n}, ${printed}`],
      [10, 'Advertisements of applications accepted or advertised before acceptance.'],
      [10, 'Synthetic journal generated for testing; not an official publication.'],
    ],
  ]);
}
