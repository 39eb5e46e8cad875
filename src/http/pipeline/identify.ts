import type { Request } from 'express';
import { viewerFor } from '../../accounts/access.ts';
import type { Caller } from '../../accounts/callerRepository.ts';
import { AppError } from '../../errors.ts';
import type { Security } from '../definition.ts';
import type { Guard } from '../guard.ts';

/**
 * Who is calling: the account of an API key or of a bearer token, or nobody on public endpoints.
 * Requests without a key count against their IP window first, before their token is read; keyed ones
 * count in their admission (or, refused here, in Guard.identify), in the same Redis call as their other limits.
 */
export async function identify(guard: Guard, req: Request, security: Security, inactiveMessage?: string): Promise<Caller | undefined> {
  if (security === 'apiKey') {
    const caller = await guard.identify(req).catch((err: unknown) => {
      throw inactiveMessage && err instanceof AppError && err.code === 'subscription_inactive'
        ? new AppError(err.code, inactiveMessage, err.details)
        : err;
    });
    req.viewer = viewerFor(caller);
    return caller;
  }
  await guard.ip(req);
  return security === 'bearer' ? guard.bearer(req) : undefined;
}
