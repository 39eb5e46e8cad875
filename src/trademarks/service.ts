import { notFound } from '../errors.ts';
import type { Category, Viewer } from '../accounts/access.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { signedLink } from '../storage/links.ts';
import type { LinkedTable } from './sql.ts';
import type { TrademarkRepository } from './repository.ts';

/** Which category opens which linked table of the detail response (contract §2). */
const DETAIL_TABLES: readonly (readonly [LinkedTable, Category])[] = [
  ['status_history', 'cat_status_history'],
  ['proprietors', 'cat_proprietor'],
  ['attorneys', 'cat_attorney'],
  ['oppositions', 'cat_oppositions'],
  ['hearings', 'cat_hearings'],
  ['documents', 'cat_documents'],
  ['exam_reports', 'cat_exam_reports'],
];

export class TrademarkService {
  constructor(private readonly repo: TrademarkRepository, private readonly store: ObjectStore) {}

  async detail(appNo: string, viewer: Viewer) {
    const visible = DETAIL_TABLES.filter(([, cat]) => viewer.categories.has(cat)).map(([t]) => t);
    const omitted = DETAIL_TABLES.filter(([, cat]) => !viewer.categories.has(cat)).map(([, c]) => c);
    const row = await this.repo.detail(appNo, visible);
    if (!row) throw notFound(`trademark ${appNo}`);
    const { logo_key, vienna_codes, ...rest } = row;
    return {
      ...rest,
      vienna_codes: vienna_codes ?? [],
      logo: logo_key ? signedLink(this.store, logo_key, viewer.accountId) : null,
      omitted_categories: omitted,
    };
  }

  /** One linked table of a mark; its endpoint checked the plan category before calling. */
  async linked<T>(appNo: string, table: LinkedTable): Promise<{ application_number: string; count: number; rows: T[] }> {
    const rows = await this.repo.linked<T>(appNo, table);
    if (!rows) throw notFound(`trademark ${appNo}`);
    return { application_number: appNo, count: rows.length, rows };
  }
}
