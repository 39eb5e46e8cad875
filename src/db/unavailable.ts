// Whether an error means PostgreSQL could not be reached or asked (down, restarting, out of connections),
// not that it refused a query: such a request is answered 503 with Retry-After, never 500 (docs/outages.md).

import { isNetworkFailure } from '../errors.ts';

// SQLSTATE classes and codes of a server that is away or cannot take the connection now.
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53400']);
// node-postgres raises these without a code; its messages are the only thing to go by (knex puts the statement
// first: "COMMIT; - Client has encountered…").
const PG_MESSAGES = [
  /(^|- )Connection terminated/,
  /^timeout exceeded when trying to connect/,
  // Its connect timeout on a socket that was taken and never answered (HAProxy with no server up behind it).
  /^timeout expired$/,
  /(^|- )Client has encountered a connection error and is not queryable/,
  /(^|- )Client was closed and is not queryable/,
];

export function databaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'KnexTimeoutError') return true;
  if (isNetworkFailure(err)) return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (PG_MESSAGES.some((m) => m.test(err.message))) return true;
  // An AggregateError from a connection tried at several addresses (localhost: ::1 and 127.0.0.1).
  return err instanceof AggregateError && err.errors.some(databaseUnavailable);
}
