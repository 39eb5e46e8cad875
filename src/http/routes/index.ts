import type { Services } from '../../root.ts';
import type { Api } from '../endpoint.ts';
import { accountRoutes } from './accounts.ts';
import { bulkDocumentRoutes } from './bulkDocuments.ts';
import { clearanceRoutes } from './clearance.ts';
import { documentRoutes } from './documents.ts';
import { journalRoutes } from './journals.ts';
import { logoRoutes } from './logos.ts';
import { ownerRoutes } from './owners.ts';
import { referenceRoutes } from './reference.ts';
import { clearanceReportRoutes, reportRoutes } from './reports.ts';
import { searchRoutes } from './search.ts';
import { sessionRoutes } from './session.ts';
import { threatRoutes } from './threats.ts';
import { trademarkRoutes } from './trademarks.ts';
import { watchChannelRoutes } from './watchChannels.ts';
import { watchRoutes } from './watches.ts';
import { changesRoutes, webhookRoutes } from './webhooks.ts';

/** A group of endpoints: declared on the Api, each handler calling the services it is given. */
export type Routes = (api: Api, services: Services) => void;

// In the order they are matched (and documented). Search first: /v1/trademarks/ and
// /v1/trademarks/bulk/ must not be taken for a mark's detail.
const ROUTES: Routes[] = [
  searchRoutes,
  trademarkRoutes,
  threatRoutes,
  clearanceRoutes,
  journalRoutes,
  ownerRoutes,
  referenceRoutes,
  accountRoutes,
  sessionRoutes,
  documentRoutes,
  reportRoutes,
  clearanceReportRoutes,
  bulkDocumentRoutes,
  webhookRoutes,
  watchChannelRoutes,
  watchRoutes,
  changesRoutes,
  logoRoutes,
];

export function registerRoutes(api: Api, services: Services): void {
  for (const routes of ROUTES) routes(api, services);
}
