// The contract's event names (§6). Which category each event's data belongs to is the gate's
// (src/trademarks/gate.ts): a delivery or changes-feed entry of an event whose category is not on the
// owner's plan at that moment is not shown (gating follows the data, DESIGN.md).
export { EVENT_NAMES, isEventName, type EventName } from '../trademarks/gate.ts';

/** The test ping's event name; never sent for a registry change. */
export const PING_EVENT = 'webhook.ping' as const;
