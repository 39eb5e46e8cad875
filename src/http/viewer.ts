import type { Request } from 'express';
import type { Viewer } from '../accounts/access.ts';
import { AppError } from '../errors.ts';

// A keyed request's viewer (who signed URLs go to, which categories it sees), set by the pipeline's
// identify step and read by handlers that pass it on to a service.
declare module 'express-serve-static-core' {
  interface Request {
    viewer?: Viewer;
  }
}

export function viewerOf(req: Request): Viewer {
  if (!req.viewer) throw new AppError('unauthorized', 'authentication required');
  return req.viewer;
}
