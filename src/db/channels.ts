// PostgreSQL notification channels, each named once here. The triggers that announce on some of them
// are SQL in migrations/ and keep the literal name, marked with a comment pointing here:
// nishaan_access (migrations/*_access_cache.ts), nishaan_search (*_search.ts), nishaan_outbox (*_webhooks.ts).
// A channel must match ChangeListener's /^[a-z_]+$/.

/** A key, account, subscription, add-on or plan changed; the payload is `account:<id>` or `plan:<id>`. Caches of callers hear it. */
export const ACCESS_CHANNEL = 'nishaan_access';
/** Trademarks were written: the search index reads the change feed. */
export const SEARCH_CHANNEL = 'nishaan_search';
/** Announced by `npm run search-index -- rebuild` once a new snapshot is in place. */
export const SNAPSHOT_CHANNEL = 'nishaan_search_snapshot';
/** Outbox rows were committed (an import, the reminder job): the relay fans them out. */
export const OUTBOX_CHANNEL = 'nishaan_outbox';
/** A delivery was made due again (a replay): the relay hands it to the queue. */
export const DELIVERIES_CHANNEL = 'nishaan_deliveries';
