import type { Api } from '../endpoint.ts';
import type { Deps } from '../../deps.ts';

export function registerRoutes(_api: Api, _deps: Deps): void {}
