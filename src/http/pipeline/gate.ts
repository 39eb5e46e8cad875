import type { Request } from 'express';
import { requireCategory, type Category } from '../../accounts/access.ts';
import { viewerOf } from '../viewer.ts';

/** The plan category an endpoint needs: 403 category_not_on_plan before its input is read. */
export function gateCategory(req: Request, category: Category | undefined): void {
  if (category) requireCategory(viewerOf(req), category);
}
