// The contract's event names (§6). Which category each event's data belongs to is the gate's
// (src/trademarks/gate.ts): a delivery or changes-feed entry of an event whose category is not on the
// owner's plan at that moment is not shown (gating follows the data, DESIGN.md).
import type { EventName } from '../trademarks/gate.ts';

export { EVENT_NAMES, type EventName, isEventName } from '../trademarks/gate.ts';

/** An event name as an SQL literal: the importer and the reminder job write theirs through it, so a misspelt name fails to compile. */
export const eventSql = (event: EventName): string => `'${event}'`;

/**
 * Events written for one webhook (outbox.webhook_id: a watch's hits and reminders), or for one account's webhooks (clearance.completed,
 * src/clearance/batchRepository.ts): delivered to them alone, never in the public changes feed.
 */
export const ADDRESSED_EVENTS: ReadonlySet<EventName> = new Set<EventName>([
  'trademark.similar_filed',
  'watch.deadline_approaching',
  'clearance.completed',
]);

/** The test ping's event name; never sent for a registry change. */
export const PING_EVENT = 'webhook.ping' as const;
