import type { Api } from '../endpoint.ts';
import type { Deps } from '../../deps.ts';
import type { TokenService } from '../../accounts/tokens.ts';
import type { RateLimits } from '../../limits/rateLimits.ts';
import { TrademarkRepository } from '../../trademarks/repository.ts';
import { TrademarkService } from '../../trademarks/service.ts';
import { JournalRepository } from '../../documents/journalRepository.ts';
import { trademarkRoutes } from './trademarks.ts';
import { journalRoutes } from './journals.ts';
import { referenceRoutes } from './reference.ts';
import { registerAccountRoutes } from './accounts.ts';

export interface RouteServices {
  tokens: TokenService;
  limits: RateLimits;
}

export function registerRoutes(api: Api, deps: Deps, services: RouteServices): void {
  trademarkRoutes(api, new TrademarkService(new TrademarkRepository(deps.db), deps.store));
  journalRoutes(api, new JournalRepository(deps.db));
  referenceRoutes(api, deps);
  registerAccountRoutes(api, deps, services);
}
