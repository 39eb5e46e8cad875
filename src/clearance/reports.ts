import type { Charge } from '../documents/documentService.ts';
import { safeName } from '../documents/filenames.ts';
import type { GeneratedFile } from '../documents/reportService.ts';
import { AppError, notFound } from '../errors.ts';
import { isUuid } from '../schema/params.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import type { TrademarkRepository } from '../trademarks/repository.ts';
import type { ClearanceBatchRepository } from './batchRepository.ts';
import type { ClearanceReport, ReportFormat, ReportProposal } from './reportModel.ts';
import { writeClearancePdf } from './reportPdf.ts';
import { writeClearanceWorkbook } from './reportWorkbook.ts';
import type { ClearanceRepository } from './repository.ts';
import { proposalLogoKey, thumbnail } from './thumbnail.ts';

// GET /v1/reports/clearance/{id}/pdf/ and …/xlsx/: a single clearance (its clearance_id) or a batch
// (its job_id) as a report. Both kinds are read through one model, ClearanceReport, proposal by
// proposal, so a batch of 1,000 is never held whole. Logo thumbnails come from the object store only.

/** Batch proposals read from the database at a time. */
const PAGE = 50;
/** Thumbnails kept while one report is made (a mark listed under many proposals is drawn once). */
const THUMBNAILS_KEPT = 500;

const TYPES: Record<ReportFormat, string> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export class ClearanceReportService {
  constructor(
    private readonly clearances: ClearanceRepository,
    private readonly batches: ClearanceBatchRepository,
    private readonly store: ObjectStore,
    private readonly marks: TrademarkRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * The report of one of the account's clearances or batches: 404 for an id of another account, an
   * unknown or expired one; 409 job_not_finished for a batch still running. One credit of the format's
   * resource, taken once the report can be made and before a byte is written.
   */
  async report(id: string, format: ReportFormat, accountId: string, charge: Charge): Promise<GeneratedFile> {
    const report = isUuid(id) ? await this.find(id, accountId) : undefined;
    if (!report) throw notFound(`clearance ${id}`);
    await charge(1, format === 'pdf' ? 'pdf_reports' : 'excel_reports');
    return {
      filename: `${safeName(report.title, 80)}.${format}`,
      contentType: TYPES[format],
      write: (out) => (format === 'pdf' ? writeClearancePdf(report, out) : writeClearanceWorkbook(report, out)),
    };
  }

  private async find(id: string, accountId: string): Promise<ClearanceReport | undefined> {
    const kept = await this.clearances.get(id, accountId);
    const logo = this.thumbnails();
    const generatedAt = this.now();
    const coverage = await this.clearances.lastImport();
    const goods = (apps: string[]) => this.marks.goodsOf(apps);
    if (kept) {
      const q = kept.result.query;
      const one: ReportProposal = {
        index: 0,
        word_mark: q.word_mark,
        classes: kept.result.classes,
        hasLogo: q.logo !== null,
        logoKey: kept.logo_key,
        status: q.status,
        risk_level: q.risk_level,
        answer: kept.result,
        error: null,
      };
      return {
        kind: 'clearance',
        id,
        title: `clearance ${q.word_mark ?? 'logo'} ${id.slice(0, 8)}`,
        status: 'completed',
        total: 1,
        createdAt: kept.created_at,
        finishedAt: kept.created_at,
        generatedAt,
        coverage,
        async *proposals() {
          yield one;
        },
        goods,
        logo,
      };
    }
    const job = await this.batches.get(id, accountId);
    if (!job) return undefined;
    if (job.status !== 'completed' && job.status !== 'failed') {
      throw new AppError(
        'job_not_finished',
        `clearance batch ${id} is ${job.status}: ${job.done} of ${job.total} proposals answered; its report can be made once it has ended`,
        { status: job.status, done: job.done, total: job.total },
      );
    }
    const batches = this.batches;
    return {
      kind: 'batch',
      id,
      title: `clearance batch ${id.slice(0, 8)}`,
      status: job.status,
      total: job.total,
      createdAt: job.created_at,
      finishedAt: job.finished_at,
      generatedAt,
      coverage,
      goods,
      async *proposals() {
        for (let offset = 0; offset < job.total; offset += PAGE) {
          for (const item of await batches.reportItems(id, PAGE, offset)) {
            const p = item.proposal as { word_mark?: string; classes?: number[]; logo_url?: string; status: string[]; risk_level?: string };
            const hasLogo = !!p.logo_url;
            yield {
              index: item.idx,
              word_mark: item.result?.query.word_mark ?? (p.word_mark?.trim() || null),
              classes: item.result?.classes ?? [...(p.classes ?? [])].sort((a, b) => a - b),
              hasLogo,
              // Kept by the worker when the logo could be drawn; read, and missed quietly, when the report is made.
              logoKey: hasLogo && item.result ? proposalLogoKey(id, item.idx) : null,
              status: p.status,
              risk_level: p.risk_level ?? null,
              answer: item.result,
              error: item.error,
            };
          }
        }
      },
      logo,
    };
  }

  /** Thumbnails from the object store, each drawn once per report. */
  private thumbnails(): (key: string) => Promise<Buffer | null> {
    const kept = new Map<string, Promise<Buffer | null>>();
    return (key) => {
      let png = kept.get(key);
      if (!png) {
        png = this.store.read(key).then(thumbnail, () => null);
        if (kept.size >= THUMBNAILS_KEPT) kept.delete(kept.keys().next().value as string);
        kept.set(key, png);
      }
      return png;
    };
  }
}
