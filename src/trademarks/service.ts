import type { Category, Viewer } from '../accounts/access.ts';
import { AppError, notFound } from '../errors.ts';
import { signedLink } from '../storage/links.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { gateOf } from './gate.ts';
import type { DetailRow, TrademarkRepository } from './repository.ts';
import type { LinkedTable } from './sql.ts';

export class TrademarkService {
  constructor(
    private readonly repo: TrademarkRepository,
    private readonly store: ObjectStore,
  ) {}

  async detail(appNo: string, viewer: Viewer) {
    return (await this.detailFor(appNo, viewer.categories))(viewer.accountId);
  }

  /**
   * The detail as a set of categories sees it, read once; the returned function signs its links for
   * one account (webhook deliveries of one event to several accounts of one plan share the read).
   */
  async detailFor(appNo: string, categories: ReadonlySet<Category>) {
    const gate = gateOf(categories);
    const row = await this.repo.detail(appNo, gate);
    if (!row) throw notFound(`trademark ${appNo}`);
    return this.shape(row, gate.omitted);
  }

  /** detailFor() of several marks in one round trip; marks not in the register are absent from the map. */
  async detailsFor(appNos: string[], categories: ReadonlySet<Category>) {
    const gate = gateOf(categories);
    const rows = await this.repo.detailMany(appNos, gate);
    return new Map(rows.map((row) => [row.application_number, this.shape(row, gate.omitted)]));
  }

  private shape(row: DetailRow, omitted: readonly Category[]) {
    const { logo_key, vienna_codes, ...rest } = row;
    return (accountId: string) => ({
      ...rest,
      vienna_codes: vienna_codes ?? [],
      logo: logo_key ? signedLink(this.store, logo_key, accountId) : null,
      omitted_categories: [...omitted],
    });
  }

  /** Summaries of many marks by application number (duplicates counted once), and which were not found. */
  async bulk(appNos: string[]) {
    const wanted = [...new Set(appNos)];
    const rows = await this.repo.summaries(wanted);
    const byApp = new Map(rows.map((r) => [r.application_number, r]));
    return {
      requested: wanted.length,
      found: byApp.size,
      not_found: wanted.filter((a) => !byApp.has(a)),
      results: wanted.filter((a) => byApp.has(a)).map((a) => byApp.get(a)!),
    };
  }

  /** Full detail (the plan's linked tables) of many marks, in the order asked. */
  async bulkDetail(appNos: string[], viewer: Viewer) {
    const wanted = [...new Set(appNos)];
    const found: Awaited<ReturnType<TrademarkService['detail']>>[] = [];
    const missing: string[] = [];
    // A few at a time: each is one round trip on its own pool connection.
    for (let i = 0; i < wanted.length; i += 8) {
      const chunk = wanted.slice(i, i + 8);
      const got = await Promise.all(
        chunk.map((a) =>
          this.detail(a, viewer).catch((err: unknown) => {
            if (err instanceof AppError && err.code === 'not_found') return null;
            throw err;
          }),
        ),
      );
      got.forEach((d, j) => (d ? found.push(d) : missing.push(chunk[j])));
    }
    return { requested: wanted.length, found: found.length, not_found: missing, results: found };
  }

  /** One linked table of a mark, the rows the viewer's plan sees; 403 when it sees none of the table. */
  async linked<T extends object>(
    appNo: string,
    table: LinkedTable,
    viewer: Viewer,
  ): Promise<{ application_number: string; count: number; rows: T[] }> {
    const gate = gateOf(viewer.categories);
    gate.requireTable(table);
    const rows = await this.repo.linked<T>(appNo, table, gate);
    if (!rows) throw notFound(`trademark ${appNo}`);
    return { application_number: appNo, count: rows.length, rows };
  }
}
