import type { Category } from '../accounts/access.ts';

// The contract's event names (§6), each with the plan category whose data it carries: a delivery or a
// changes-feed entry of an event whose category is not on the owner's plan at that moment is not
// shown (gating follows the data, DESIGN.md). Events about the core record need no category.
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
} as const satisfies Record<string, Category | null>;

export type EventName = keyof typeof EVENT_CATEGORIES;
export const EVENT_NAMES = Object.keys(EVENT_CATEGORIES) as EventName[];

/** The test ping's event name; never sent for a registry change. */
export const PING_EVENT = 'webhook.ping' as const;

export const isEventName = (s: string): s is EventName => Object.hasOwn(EVENT_CATEGORIES, s);

/** The event's category when the viewer lacks it, else null. */
export function missingCategory(event: string, categories: ReadonlySet<string>): Category | null {
  const cat = isEventName(event) ? EVENT_CATEGORIES[event] : null;
  return cat && !categories.has(cat) ? cat : null;
}

/** Events whose data the viewer's categories open. */
export function visibleEvents(categories: ReadonlySet<string>): EventName[] {
  return EVENT_NAMES.filter((e) => missingCategory(e, categories) === null);
}
