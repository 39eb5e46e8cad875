import type { Api } from '../endpoint.ts';
import type { Deps } from '../../deps.ts';
import type { TokenService } from '../../accounts/tokens.ts';
import type { RateLimits } from '../../limits/rateLimits.ts';
import type { CreditLedger } from '../../limits/credits.ts';
import { TrademarkRepository } from '../../trademarks/repository.ts';
import { TrademarkService } from '../../trademarks/service.ts';
import { JournalRepository } from '../../documents/journalRepository.ts';
import { trademarkRoutes } from './trademarks.ts';
import { journalRoutes } from './journals.ts';
import { referenceRoutes } from './reference.ts';
import { registerAccountRoutes } from './accounts.ts';
import { searchRoutes } from './search.ts';
import { SearchService } from '../../search/service.ts';
import { SearchCache } from '../../search/cache.ts';
import { registerDocumentRoutes } from './documents.ts';
import { registerWebhookRoutes } from './webhooks.ts';
import { logoRoutes } from './logos.ts';
import { LogoService } from '../../logos/service.ts';
import { threatRoutes } from './threats.ts';
import { ThreatService } from '../../threats/service.ts';
import { ThreatRepository } from '../../threats/repository.ts';

export interface RouteServices {
  tokens: TokenService;
  limits: RateLimits;
  ledger: CreditLedger;
}

export function registerRoutes(api: Api, deps: Deps, services: RouteServices): void {
  const trademarkRepo = new TrademarkRepository(deps.db);
  const trademarks = new TrademarkService(trademarkRepo, deps.store);
  // Search routes first: /v1/trademarks/ and /v1/trademarks/bulk/ must not be taken for a mark's detail.
  const cache = new SearchCache(deps.redis, deps.config.RATE_LIMIT_PREFIX, deps.config.SEARCH_CACHE_TTL_SECONDS, deps.log);
  searchRoutes(api, new SearchService(deps.search, trademarkRepo, cache), trademarks);
  trademarkRoutes(api, trademarks);
  threatRoutes(api, new ThreatService(deps.search, trademarkRepo, new ThreatRepository(deps.db), deps.logos.texts, cache, deps.config.LOGO_MODEL));
  const journalRepo = new JournalRepository(deps.db);
  journalRoutes(api, journalRepo);
  referenceRoutes(api, deps);
  registerAccountRoutes(api, deps, services);
  registerDocumentRoutes(api, deps, trademarkRepo, journalRepo);
  registerWebhookRoutes(api, deps);
  const l = deps.logos;
  logoRoutes(api, new LogoService(l.repo, l.texts, deps.store, { sidecar: l.sidecar, repo: l.repo, fetch: l.fetch, uploadDir: deps.config.uploadDir }, () => l.fanout()), deps.config.uploadDir);
}
