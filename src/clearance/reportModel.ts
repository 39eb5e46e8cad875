import type { Screened } from './results.ts';

// What a clearance report is drawn from, for both of its writers (reportPdf.ts, reportWorkbook.ts) and the
// service that reads it (reports.ts): a single clearance or a batch, read proposal by proposal.

export interface ReportProposal {
  /** The proposal's place in its batch, from 0 (0 for a single clearance). */
  index: number;
  word_mark: string | null;
  classes: number[];
  /** Whether the proposal had a logo; its thumbnail is read through logoKey. */
  hasLogo: boolean;
  logoKey: string | null;
  status: string[];
  risk_level: string | null;
  answer: Screened | null;
  error: { code: string; message: string } | null;
}

export interface ClearanceReport {
  kind: 'clearance' | 'batch';
  id: string;
  /** What the file is named after. */
  title: string;
  /** A batch's status (completed or failed); completed for a single clearance. */
  status: string;
  total: number;
  createdAt: string;
  finishedAt: string | null;
  generatedAt: Date;
  proposals(): AsyncIterable<ReportProposal>;
  /** A logo as a PNG thumbnail from the object store, or null when it is not there or cannot be drawn. */
  logo(key: string): Promise<Buffer | null>;
}

export type ReportFormat = 'pdf' | 'xlsx';

/** Each risk level's badge colour (RGB hex), the same in the PDF and the workbook. */
export const RISK_COLOURS: Record<string, string> = { High: 'C62828', Medium: 'EF8F00', Low: '2E7D32' };
