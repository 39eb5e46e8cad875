import type { Request } from 'express';
import { AppError } from '../../errors.ts';
import { requireCategory, type Category } from '../../accounts/access.ts';
import { requireFeature, type Feature } from '../../accounts/planRules.ts';
import type { Caller } from '../../accounts/callerRepository.ts';
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
