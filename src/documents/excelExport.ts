import type { Writable } from 'node:stream';
import type { SearchBody } from '../search/service.ts';

/**
 * A streaming xlsx writer on `out`, made by Nishaan at `created`. exceljs is loaded by the first workbook a process
 * writes, not by every process that could (about 7 MiB of heap).
 */
export async function workbookWriter(out: Writable, created: Date) {
  const ExcelJS = (await import('exceljs')).default;
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  wb.creator = 'Nishaan';
  wb.created = created;
  return wb;
}

export interface SearchExport {
  /** The search's pages in order; the first one's count and groups describe the whole search. */
  pages: AsyncIterable<SearchBody>;
  parameters: [string, string | number | null][];
  generatedAt: Date;
}

/** Every field of a search result, in the order of the API's response. */
const COLUMNS: { header: string; key: keyof SearchBody['results'][number]; width: number }[] = [
  { header: 'application_number', key: 'application_number', width: 18 },
  { header: 'word_mark', key: 'word_mark', width: 36 },
  { header: 'class_number', key: 'class_number', width: 12 },
  { header: 'status', key: 'status', width: 22 },
  { header: 'application_date', key: 'application_date', width: 16 },
  { header: 'expire_at', key: 'expire_at', width: 12 },
  { header: 'proprietor_name', key: 'proprietor_name', width: 40 },
  { header: 'owner_id', key: 'owner_id', width: 22 },
  { header: 'state', key: 'state', width: 18 },
  { header: 'tm_type', key: 'tm_type', width: 10 },
  { header: 'filing_mode', key: 'filing_mode', width: 16 },
  { header: 'alert', key: 'alert', width: 20 },
  { header: 'slug', key: 'slug', width: 30 },
  { header: 'score', key: 'score', width: 8 },
  { header: 'strategy', key: 'strategy', width: 12 },
];

/**
 * A search as an xlsx workbook: "Results" (every result field, one row per mark, in result order),
 * "Groups" (the counts over all matches) and "Search" (what was asked, and how many rows were written).
 * The streaming writer commits each row as it comes, so rows are never held together in memory.
 */
export async function writeSearchWorkbook(x: SearchExport, out: Writable): Promise<number> {
  const wb = await workbookWriter(out, x.generatedAt);
  const results = wb.addWorksheet('Results', { views: [{ state: 'frozen', ySplit: 1 }] });
  results.columns = COLUMNS;
  results.getRow(1).font = { bold: true };
  results.getRow(1).commit();
  let rows = 0;
  let first: SearchBody | undefined;
  for await (const page of x.pages) {
    first ??= page;
    for (const r of page.results) {
      results.addRow(COLUMNS.map((c) => r[c.key] ?? null)).commit();
      rows++;
    }
  }
  results.commit();

  const groups = wb.addWorksheet('Groups');
  groups.columns = [
    { header: 'group', width: 14 },
    { header: 'value', width: 30 },
    { header: 'count', width: 10 },
  ];
  groups.getRow(1).font = { bold: true };
  for (const [facet, buckets] of Object.entries(first?.groups ?? {})) {
    for (const b of buckets) for (const [value, n] of Object.entries(b)) groups.addRow([facet, value, n]).commit();
  }
  groups.commit();

  const meta = wb.addWorksheet('Search');
  meta.columns = [
    { header: 'parameter', width: 20 },
    { header: 'value', width: 40 },
  ];
  meta.getRow(1).font = { bold: true };
  for (const [k, v] of [
    ...x.parameters,
    ['count', first?.count ?? 0],
    ['rows', rows],
    ['generated_at', x.generatedAt.toISOString()],
  ] as const) {
    meta.addRow([k, v]).commit();
  }
  meta.commit();
  await wb.commit();
  return rows;
}
