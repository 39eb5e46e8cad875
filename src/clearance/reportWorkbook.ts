import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { workbookWriter } from '../documents/excelExport.ts';
import { type ClearanceReport, DISCLAIMER, groundLines, type ReportProposal, RISK_COLOURS, verdictOf } from './reportModel.ts';

// A clearance (or a batch) as an xlsx workbook. One "Conflicts" sheet for every proposal, with the
// proposal's index and words in its first columns, rather than a sheet per proposal: a batch of 1,000
// stays one table to filter and sort, and a single clearance reads the same way. "Proposals" has one
// row per proposal (its counts, or why it was not screened), "Report" what the report is of. Rows are
// committed as they are written (the streaming writer), so a batch is never held whole. Logos are
// said (logo: yes), not drawn: the streaming writer places no images; the PDF shows them.

type Result = NonNullable<ReportProposal['answer']>['results'][number];

/** `goods`: the mark's whole goods and services, read for the report (a kept answer holds an excerpt). */
const CONFLICTS: { header: string; width: number; value: (p: ReportProposal, r: Result, goods: string | null) => ExcelJS.CellValue }[] = [
  { header: 'proposal_index', width: 10, value: (p) => p.index },
  { header: 'proposal_word_mark', width: 28, value: (p) => p.word_mark },
  { header: 'proposal_classes', width: 14, value: (p) => p.classes.join(', ') },
  { header: 'application_number', width: 16, value: (_, r) => r.application_number },
  { header: 'word_mark', width: 32, value: (_, r) => r.word_mark },
  { header: 'class_number', width: 10, value: (_, r) => r.class_number },
  { header: 'risk_level', width: 10, value: (_, r) => r.risk_level },
  { header: 'overall_similarity_score', width: 12, value: (_, r) => r.overall_similarity_score },
  { header: 'status', width: 20, value: (_, r) => r.status },
  { header: 'proprietor_name', width: 36, value: (_, r) => r.proprietor_name },
  { header: 'application_date', width: 14, value: (_, r) => dateOf(r.application_date) },
  { header: 'reasons', width: 60, value: (_, r) => r.reasons.join('; ') },
  { header: 'goods_services', width: 60, value: (_, r, goods) => goods ?? r.goods_services ?? null },
  { header: 'word_similarity_percentage', width: 12, value: (_, r) => r.word_similarity_percentage },
  { header: 'phonetic_similarity_percentage', width: 12, value: (_, r) => r.phonetic_similarity_percentage },
  { header: 'visual_similarity_percentage', width: 12, value: (_, r) => r.visual_similarity_percentage },
  { header: 'matching_criteria', width: 12, value: (_, r) => r.matching_criteria },
  { header: 'logo', width: 8, value: (_, r) => (r.logo_url ? 'yes' : 'no') },
];

const PROPOSALS: { header: string; width: number; value: (p: ReportProposal) => ExcelJS.CellValue }[] = [
  { header: 'proposal_index', width: 10, value: (p) => p.index },
  { header: 'word_mark', width: 28, value: (p) => p.word_mark },
  { header: 'classes', width: 14, value: (p) => p.classes.join(', ') },
  { header: 'logo', width: 8, value: (p) => (p.hasLogo ? 'yes' : 'no') },
  { header: 'status_groups', width: 16, value: (p) => p.status.join(', ') },
  { header: 'min_risk_level', width: 10, value: (p) => p.risk_level },
  { header: 'screened', width: 10, value: (p) => (p.answer ? 'yes' : 'no') },
  { header: 'error', width: 50, value: (p) => (p.error ? `${p.error.code}: ${p.error.message}` : null) },
  { header: 'conflicts', width: 10, value: (p) => p.answer?.count ?? null },
  { header: 'high', width: 8, value: (p) => p.answer?.groups.risk_level.High ?? null },
  { header: 'medium', width: 8, value: (p) => p.answer?.groups.risk_level.Medium ?? null },
  { header: 'low', width: 8, value: (p) => p.answer?.groups.risk_level.Low ?? null },
  { header: 'listed', width: 8, value: (p) => p.answer?.results.length ?? null },
  { header: 'overall_risk', width: 10, value: (p) => p.answer?.overall_risk ?? null },
  { header: 'verdict', width: 20, value: (p) => verdictOf(p) },
  { header: 'grounds', width: 80, value: (p) => groundLines(p).join('\n') || null },
];

const RISK_COLUMN = CONFLICTS.findIndex((c) => c.header === 'risk_level') + 1;
const DATE_COLUMN = CONFLICTS.findIndex((c) => c.header === 'application_date') + 1;

/** A register date (YYYY-MM-DD) as a real date, at midnight UTC: what a spreadsheet sorts and filters as a date. */
function dateOf(s: string | null | undefined): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s ?? '');
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
}

const column = (n: number) => {
  let s = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
};

function sheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, name: string, columns: { header: string; width: number }[]) {
  const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c) => ({ header: c.header, width: c.width }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  return ws;
}

/** The filter over the header and every row written; the streaming writer writes it when the sheet is committed. */
function filter(ws: ExcelJS.Worksheet, columns: number, rows: number): void {
  ws.autoFilter = `A1:${column(columns)}${rows + 1}`;
}

export async function writeClearanceWorkbook(r: ClearanceReport, out: Writable): Promise<void> {
  const wb = await workbookWriter(out, r.generatedAt);
  const conflicts = sheet(wb, 'Conflicts', CONFLICTS);
  // The proposals' own rows are small: kept, as values, for their sheet after this one.
  const proposals: ExcelJS.CellValue[][] = [];
  let rows = 0;
  for await (const p of r.proposals()) {
    proposals.push(PROPOSALS.map((c) => c.value(p) ?? null));
    const results = p.answer?.results ?? [];
    const goods = results.length ? await r.goods(results.map((x) => x.application_number)) : new Map<string, string>();
    for (const x of results) {
      const row = conflicts.addRow(CONFLICTS.map((c) => c.value(p, x, goods.get(x.application_number) ?? null) ?? null));
      row.getCell(DATE_COLUMN).numFmt = 'yyyy-mm-dd';
      const risk = row.getCell(RISK_COLUMN);
      const colour = RISK_COLOURS[x.risk_level];
      if (colour) {
        risk.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: `FF${colour}` } };
        risk.font = { bold: true, color: { argb: 'FFFFFFFF' } };
      }
      row.commit();
      rows++;
    }
  }
  filter(conflicts, CONFLICTS.length, rows);
  conflicts.commit();

  const list = sheet(wb, 'Proposals', PROPOSALS);
  for (const values of proposals) list.addRow(values).commit();
  filter(list, PROPOSALS.length, proposals.length);
  list.commit();

  const about = wb.addWorksheet('Report');
  about.columns = [
    { header: 'field', width: 16 },
    { header: 'value', width: 44 },
  ];
  about.getRow(1).font = { bold: true };
  const at = (s: string | null) => (s ? new Date(s) : null);
  for (const [k, v] of [
    ['report_of', r.kind === 'batch' ? 'batch clearance' : 'clearance'],
    [r.kind === 'batch' ? 'job_id' : 'clearance_id', r.id],
    ['status', r.status],
    ['proposals', r.total],
    ['conflicts', rows],
    ['created_at', at(r.createdAt)],
    ['finished_at', at(r.finishedAt)],
    ['generated_at', r.generatedAt],
    ['register_coverage', at(r.coverage)],
    ['disclaimer', DISCLAIMER],
  ] as const) {
    const row = about.addRow([k, v]);
    if (v instanceof Date) row.getCell(2).numFmt = 'yyyy-mm-dd hh:mm:ss';
    row.commit();
  }
  about.commit();
  await wb.commit();
}
