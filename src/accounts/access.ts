import { AppError } from '../errors.ts';

// The plan-gated categories of the contract. Which of them a caller has comes from its plan and
// add-ons (the request pipeline gives each keyed request its Viewer). An endpoint declares the
// category it needs; what a category opens of a mark's data is decided in one place, src/trademarks/gate.ts.
export const CATEGORIES = [
  'cat_status_history',
  'cat_alert_changes',
  'cat_proprietor',
  'cat_attorney',
  'cat_oppositions',
  'cat_opp_docs',
  'cat_hearings',
  'cat_documents',
  'cat_exam_reports',
  'cat_journal',
  'cat_threats',
  'cat_well_known',
  'cat_prohibited',
  'cat_inn_names',
  'cat_stamp_duty',
  'cat_tm_class',
] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Viewer {
  /** Who signed URLs are issued to. */
  accountId: string;
  categories: ReadonlySet<Category>;
}

// Callers are shared by every request of a key while cached: their viewer is built once.
const viewers = new WeakMap<object, Viewer>();

export function viewerFor(caller: { accountId: string; categories: readonly Category[] }): Viewer {
  let v = viewers.get(caller);
  if (!v) viewers.set(caller, (v = { accountId: caller.accountId, categories: new Set(caller.categories) }));
  return v;
}

export function requireCategory(viewer: Pick<Viewer, 'categories'>, category: Category): void {
  if (!viewer.categories.has(category)) {
    throw new AppError('category_not_on_plan', `your plan does not include ${category}`, { category });
  }
}
