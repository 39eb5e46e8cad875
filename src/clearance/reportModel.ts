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
  /** When the register was last imported (its coverage), ISO; null when it never was. */
  coverage: string | null;
  proposals(): AsyncIterable<ReportProposal>;
  /** The whole goods and services of the marks listed, by application number (a list holds excerpts). */
  goods(appNos: string[]): Promise<Map<string, string>>;
  /** A logo as a PNG thumbnail from the object store, or null when it is not there or cannot be drawn. */
  logo(key: string): Promise<Buffer | null>;
}

export type ReportFormat = 'pdf' | 'xlsx';

/** What every report says of itself: a screening, not an opinion. */
export const DISCLAIMER =
  'This report screens the trade mark register and the reference lists named in it; it is not legal advice. Grounds and ' +
  'risk levels are warnings an examiner may raise, not the Registrar’s decision. Marks filed or changed after the ' +
  'coverage date are not in it.';

/** A proposal's grounds in one line each: kind, listed name, provision, reason. */
export function groundLines(p: ReportProposal): string[] {
  return (p.answer?.registrability?.grounds ?? []).map((g) => `${g.ground.replace('_', '-')} ${g.matched} (${g.basis}): ${g.reason}`);
}

/** A proposal's verdict in words: objection likely, no objection found, or not judged. */
export function verdictOf(p: ReportProposal): string {
  const r = p.answer?.registrability;
  if (!r) return p.error ? 'not screened' : 'not judged';
  return r.verdict === 'objection_likely' ? `objection likely (${r.grounds.length})` : 'no objection found';
}

/** Each risk level's badge colour (RGB hex), the same in the PDF and the workbook. */
export const RISK_COLOURS: Record<string, string> = { High: 'C62828', Medium: 'EF8F00', Low: '2E7D32' };
