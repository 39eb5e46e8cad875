import type { Writable } from 'node:stream';
import type { Viewer } from '../accounts/access.ts';
import { notFound } from '../errors.ts';
import type { SearchBody, SearchRequest, SearchService } from '../search/service.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { gateOf } from '../trademarks/gate.ts';
import type { TrademarkRepository } from '../trademarks/repository.ts';
import type { Charge } from './documentService.ts';
import { writeSearchWorkbook } from './excelExport.ts';
import { safeName } from './filenames.ts';
import { writeTrademarkPdf } from './pdfReport.ts';

/** A generated file, written into the response as it is made. */
export interface GeneratedFile {
  filename: string;
  contentType: string;
  write(out: Writable): Promise<unknown> | undefined;
}

export const EXPORT_MAX_ROWS = 10_000;
// Search results are read a thousand at a time through the search's cursor.
const PAGE = 1000;

export type ExportParams = Omit<SearchRequest, 'limit' | 'offset' | 'cursor'> & { max_rows: number };

/**
 * Reports (contract §8: pdf_reports, excel_reports). Each costs one credit, taken after everything
 * that can refuse the request (unknown mark, bad search) and before a byte is written.
 */
export class ReportService {
  constructor(
    private readonly trademarks: TrademarkRepository,
    private readonly search: SearchService,
    private readonly store: ObjectStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async trademarkPdf(appNo: string, viewer: Viewer, charge: Charge): Promise<GeneratedFile> {
    const gate = gateOf(viewer.categories);
    const mark = await this.trademarks.detail(appNo, gate);
    if (!mark) throw notFound(`trademark ${appNo}`);
    // A logo missing from the store leaves the report without it rather than refusing it.
    const logo = mark.logo_key ? await this.store.read(mark.logo_key).catch(() => null) : null;
    await charge(1, 'pdf_reports');
    return {
      filename: `${appNo} ${safeName(mark.word_mark || 'device mark', 60)} report.pdf`,
      contentType: 'application/pdf',
      write: (out) => writeTrademarkPdf({ mark, omitted: gate.omitted, logo, generatedAt: this.now() }, out),
    };
  }

  async searchWorkbook(p: ExportParams, charge: Charge): Promise<GeneratedFile> {
    const { max_rows: max, ...query } = p;
    const ask = (limit: number, cursor?: string) => this.search.search({ ...query, limit, offset: 0, cursor }, { cached: false });
    // The first page checks the search (400 for a bad status or an empty query) before anything is charged.
    const first = await ask(Math.min(PAGE, max));
    await charge(1, 'excel_reports');
    async function* pages(): AsyncGenerator<SearchBody> {
      let page = first;
      let rows = page.results.length;
      yield page;
      while (page.next_cursor && rows < max) {
        page = await ask(Math.min(PAGE, max - rows), page.next_cursor);
        rows += page.results.length;
        yield page;
      }
    }
    const parameters: [string, string | number | null][] = [
      ['word_mark', query.word_mark],
      ['match_type', query.match_type],
      ['class_number', query.class_number ?? null],
      ['classes', query.classes?.join(',') ?? null],
      ['status', query.status?.join(',') ?? null],
      ['max_rows', max],
    ];
    return {
      filename: `search ${safeName(query.word_mark, 60)}.xlsx`,
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      write: (out) => writeSearchWorkbook({ pages: pages(), parameters, generatedAt: this.now() }, out),
    };
  }
}
