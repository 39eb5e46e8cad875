import type { Caller } from '../../accounts/callerRepository.ts';
import { AppError } from '../../errors.ts';

/** A bulk request's size against the caller's plan: 403 when the plan has no bulk of this family, or fewer items per request. */
export function checkBulk(caller: Caller, family: 'search' | 'logo', items: number): void {
  const limit = family === 'search' ? caller.bulkSearchLimit : caller.bulkLogoLimit;
  const feature = family === 'search' ? 'bulk_search_limit' : 'bulk_logo_limit';
  if (limit <= 0) throw new AppError('bulk_not_on_plan', `bulk ${family} is not on your plan`, { [feature]: limit });
  if (items > limit) {
    throw new AppError('bulk_size_exceeds_plan', `your plan allows ${limit} items per bulk ${family} request; this one has ${items}`, {
      [feature]: limit,
      items,
    });
  }
}
