import express, { type Router } from 'express';
import path from 'node:path';
import { AppError } from '../../errors.ts';
import { contentTypeOf, isSafeKey } from '../../storage/objectStore.ts';
import { FILES_PREFIX, type LocalObjectStore } from '../../storage/localStore.ts';
import type { UrlSigner } from '../../storage/urlSigner.ts';

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG']);

/**
 * Serves the local object store behind signed URLs. sendFile answers Range requests and sets
 * Content-Length; the signature covers the path, the expiry and the account.
 */
export function filesRouter(store: LocalObjectStore, signer: UrlSigner): Router {
  const router = express.Router();
  router.get(`${FILES_PREFIX}*key`, (req, res, next) => {
    const key = (req.params as { key: string[] }).key.join('/');
    const verdict = signer.verify(FILES_PREFIX + key, req.query as Record<string, unknown>);
    if (!verdict.ok) {
      const err =
        verdict.reason === 'expired'
          ? new AppError('url_expired', 'this link has expired; request a new one')
          : verdict.reason === 'unsigned'
            ? new AppError('signature_invalid', 'this file needs a signed link')
            : new AppError('signature_invalid', 'the link signature is invalid');
      next(err);
      return;
    }
    if (!isSafeKey(key)) {
      next(new AppError('not_found', 'file not found'));
      return;
    }
    res.setHeader('Content-Type', contentTypeOf(key));
    res.setHeader('Content-Disposition', `inline; filename="${path.basename(key)}"`);
    res.setHeader('Cache-Control', 'private, max-age=60');
    res.sendFile(store.pathOf(key), { dotfiles: 'deny', lastModified: true, acceptRanges: true }, (err) => {
      if (!err) return;
      // A key naming a directory (EISDIR) or running through a file (ENOTDIR) names no file either.
      if (MISSING.has((err as NodeJS.ErrnoException).code ?? '')) next(new AppError('not_found', 'file not found'));
      else next(err);
    });
  });
  return router;
}
