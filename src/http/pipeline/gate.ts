import type { Request } from 'express';
import { type Category, requireCategory } from '../../accounts/access.ts';
import type { Caller } from '../../accounts/callerRepository.ts';
import { type Feature, requireFeature } from '../../accounts/planRules.ts';
import { AppError } from '../../errors.ts';
import { viewerOf } from '../viewer.ts';

/** The plan category an endpoint needs: 403 category_not_on_plan before its input is read. */
export function gateCategory(req: Request, category: Category | undefined): void {
  if (category) requireCategory(viewerOf(req), category);
}

/** The plan feature an endpoint needs (webhooks): 403 before its input is read, like a category. */
export function gateFeature(caller: Caller | undefined, feature: Feature | undefined): void {
  if (!feature) return;
  if (!caller) throw new AppError('unauthorized', 'authentication required');
  requireFeature(caller, feature);
}
