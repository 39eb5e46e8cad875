// Which plan category each part of a mark's data belongs to, and what a set of categories sees of it.
// Every surface that shows a mark's data (the detail and bulk detail, the per-table endpoints, the PDF
// report, document links and bulk zips, webhook events and full_record, the changes feed) asks a Gate,
// so a category is decided here and nowhere else (DESIGN.md: gating follows the data). Categories that
// open an endpoint rather than a mark's data (threats, journals, reference lists) are declared on it.
import { type Category, requireCategory } from '../accounts/access.ts';
import type { LinkedTable } from './sql.ts';

type Row = Record<string, unknown>;

interface TableRule {
  /** The categories of the table's rows; none for an ungated table. */
  categories: readonly Category[];
  of(row: Row): Category | null;
}

const whole = (c: Category): TableRule => ({ categories: [c], of: () => c });

/** A document's category: opposition filings are their own (business plan), the rest cat_documents. */
export const documentCategory = (d: { opposition_id?: unknown }): Category =>
  d.opposition_id === null || d.opposition_id === undefined ? 'cat_documents' : 'cat_opp_docs';

const TABLES: Record<LinkedTable, TableRule> = {
  status_history: whole('cat_status_history'),
  alerts: whole('cat_alert_changes'),
  proprietors: whole('cat_proprietor'),
  attorneys: whole('cat_attorney'),
  oppositions: whole('cat_oppositions'),
  hearings: whole('cat_hearings'),
  // Decided per row: the detail's one documents table holds both categories' papers.
  documents: { categories: ['cat_documents', 'cat_opp_docs'], of: (d) => documentCategory(d) },
  exam_reports: whole('cat_exam_reports'),
  // The contract leaves the cited marks ungated.
  cited: { categories: [], of: () => null },
};

/** The linked tables of the detail (alert changes and cited marks have only endpoints of their own). */
const DETAIL_TABLES: readonly LinkedTable[] = [
  'status_history',
  'proprietors',
  'attorneys',
  'oppositions',
  'hearings',
  'documents',
  'exam_reports',
];

/** The contract's events (§6), each with the category whose data it carries; null: core data. */
export const EVENT_CATEGORIES = {
  'trademark.status_changed': 'cat_status_history',
  'trademark.alert_changed': 'cat_alert_changes',
  'trademark.expiry_changed': null,
  'trademark.journal_published': 'cat_journal',
  'trademark.opposition_filed': 'cat_oppositions',
  'trademark.opposition_updated': 'cat_oppositions',
  'trademark.opposition_document_added': 'cat_opp_docs',
  'trademark.hearing_scheduled': 'cat_hearings',
  'trademark.hearing_updated': 'cat_hearings',
  'trademark.exam_report_added': 'cat_exam_reports',
  'trademark.document_added': 'cat_documents',
  'trademark.proprietor_changed': 'cat_proprietor',
  'trademark.attorney_changed': 'cat_attorney',
  'trademark.cited_mark_added': 'cat_exam_reports',
  'trademark.renewal_due': null,
  // Sent to the webhook a similarity watch names (src/watches/), never to the changes feed; made only for a plan with watches.
  'trademark.similar_filed': null,
  // A batch clearance's job finished (src/clearance/batchRepository.ts): sent to its account's webhooks, never to the changes
  // feed; made only for a plan with clearance.
  'clearance.completed': null,
  // A watch hit's opposition deadline is 30 or 7 days away (src/watches/reminderRepository.ts): sent to the watch's webhook,
  // never to the changes feed.
  'watch.deadline_approaching': null,
} as const satisfies Record<string, Category | null>;

export type EventName = keyof typeof EVENT_CATEGORIES;
export const EVENT_NAMES = Object.keys(EVENT_CATEGORIES) as EventName[];
export const isEventName = (s: string): s is EventName => Object.hasOwn(EVENT_CATEGORIES, s);

/** The categories whose rows a linked table holds. */
export const tableCategories = (table: LinkedTable): readonly Category[] => TABLES[table].categories;

/** What one set of categories sees of a mark's data. */
export class Gate {
  /** The detail's tables worth reading: those holding rows of a category it has. */
  readonly detailTables: readonly LinkedTable[];
  /** The categories of the detail's data it withholds, whether or not this mark has any. */
  readonly omitted: readonly Category[];
  readonly events: readonly EventName[];
  readonly omittedEvents: readonly EventName[];

  constructor(readonly categories: ReadonlySet<Category>) {
    this.detailTables = DETAIL_TABLES.filter((t) => this.opens(t));
    this.omitted = [...new Set(DETAIL_TABLES.flatMap((t) => TABLES[t].categories).filter((c) => !categories.has(c)))];
    this.events = EVENT_NAMES.filter((e) => this.missingFor(e) === null);
    this.omittedEvents = EVENT_NAMES.filter((e) => this.missingFor(e) !== null);
  }

  /** Whether it sees any row of the table. */
  opens(table: LinkedTable): boolean {
    const { categories } = TABLES[table];
    return !categories.length || categories.some((c) => this.categories.has(c));
  }

  /** The rows of a table it sees, in their order. */
  rows<T extends object>(table: LinkedTable, rows: readonly T[]): T[] {
    const rule = TABLES[table];
    return rows.filter((r) => {
      const c = rule.of(r as Row);
      return c === null || this.categories.has(c);
    });
  }

  /** 403 category_not_on_plan for a row it may not see (one document's link). */
  requireRow(table: LinkedTable, row: object): void {
    const c = TABLES[table].of(row as Row);
    if (c) requireCategory(this, c);
  }

  /** 403 category_not_on_plan for a table none of whose rows it sees (a per-table endpoint). */
  requireTable(table: LinkedTable): void {
    if (!this.opens(table)) requireCategory(this, TABLES[table].categories[0]);
  }

  /** A detail-shaped record as it sees it: tables it does not open removed, the rest's rows filtered. */
  record<R extends Row>(record: R): R {
    const out: Row = { ...record };
    for (const t of Object.keys(TABLES) as LinkedTable[]) {
      if (!(t in out)) continue;
      if (!this.opens(t)) delete out[t];
      else out[t] = this.rows(t, (out[t] as Row[] | null) ?? []);
    }
    return out as R;
  }

  /** The category of an event's data when it lacks it, else null (core events, unknown names). */
  missingFor(event: string): Category | null {
    const c = isEventName(event) ? EVENT_CATEGORIES[event] : null;
    return c && !this.categories.has(c) ? c : null;
  }
}

// Viewers' category sets are built once per cached caller, so their gates are too.
const gates = new WeakMap<ReadonlySet<Category>, Gate>();

export function gateOf(categories: ReadonlySet<Category>): Gate {
  let g = gates.get(categories);
  if (!g) gates.set(categories, (g = new Gate(categories)));
  return g;
}
