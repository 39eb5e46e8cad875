import path from 'node:path';
import express, { type NextFunction, type Response, type Router } from 'express';
import type { PlanState } from '../../accounts/planCache.ts';
import { requireActive } from '../../accounts/planRules.ts';
import { AppError } from '../../errors.ts';
import { contentDisposition, contentTypeOf, FILES_PREFIX, isSafeKey, type ObjectStore } from '../../storage/objectStore.ts';
import type { UrlSigner } from '../../storage/urlSigner.ts';

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG']);
/** How long the S3 URL a checked request is redirected to stays valid. */
export const DIRECT_URL_SECONDS = 60;

/** The subscription of the account a link was issued to, as the pipeline sees it; undefined when there is no such account. */
export type PlanCheck = (accountId: string) => Promise<PlanState | undefined>;

export const LINK_INACTIVE_MESSAGE =
  'the session has expired: your plan is no longer active, so this link no longer works; reopen the document once the plan is active again';

/**
 * Serves the object store behind signed URLs: the signature (path, expiry, account, file name), then
 * the account's plan, are checked on every use. The local driver sends the file (sendFile answers
 * Range requests and sets Content-Length); the S3 driver redirects to a 60-second presigned URL.
 */
export function filesRouter(store: ObjectStore, signer: UrlSigner, planOf: PlanCheck): Router {
  const router = express.Router();
  router.get(`${FILES_PREFIX}*key`, async (req, res, next) => {
    const key = (req.params as { key: string[] }).key.join('/');
    const verdict = signer.verify(FILES_PREFIX + key, req.query as Record<string, unknown>);
    if (!verdict.ok) {
      throw verdict.reason === 'expired'
        ? new AppError('url_expired', 'this link has expired; request a new one')
        : verdict.reason === 'unsigned'
          ? new AppError('signature_invalid', 'this file needs a signed link')
          : new AppError('signature_invalid', 'the link signature is invalid');
    }
    if (!isSafeKey(key)) throw new AppError('not_found', 'file not found');
    // Account ids are UUIDs; anything else names no account (and must not reach PostgreSQL as one).
    const plan = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(verdict.accountId)
      ? await planOf(verdict.accountId)
      : undefined;
    if (!plan) throw new AppError('forbidden', 'the account this link was issued to no longer exists');
    requireActive(plan, LINK_INACTIVE_MESSAGE);

    const filename = verdict.filename ?? path.basename(key);
    const type = contentTypeOf(filename.includes('.') ? filename : key);
    if (store.directUrl) {
      if (!(await store.exists(key))) throw new AppError('not_found', 'file not found');
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, await store.directUrl(key, { filename, contentType: type, ttlSeconds: DIRECT_URL_SECONDS }));
      return;
    }
    sendLocal(store, key, filename, type, res, next);
  });
  return router;
}

function sendLocal(store: ObjectStore, key: string, filename: string, type: string, res: Response, next: NextFunction): void {
  res.setHeader('Content-Type', type);
  // The link carries its signature in the query: a PDF's own links must not hand it on as a Referer.
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Content-Disposition', contentDisposition(filename));
  res.setHeader('Cache-Control', 'private, max-age=60');
  // Read in 1 MiB chunks rather than 64 KiB: large PDFs go out in a sixteenth of the reads and writes.
  res.sendFile(
    store.localPath!(key),
    { dotfiles: 'deny', lastModified: true, acceptRanges: true, highWaterMark: 1024 * 1024 } as object,
    (err) => {
      if (!err) return;
      // A key naming a directory (EISDIR) or running through a file (ENOTDIR) names no file either.
      if (MISSING.has((err as NodeJS.ErrnoException).code ?? '')) next(new AppError('not_found', 'file not found'));
      else next(err);
    },
  );
}
