import type { Logger } from '../logger.ts';
import type { IndexCacheFit, LogoRepository } from './repository.ts';

// A model's HNSW index is read page by page on every image search (about 3,000 pages a query at 1M logos):
// each page PostgreSQL's buffer cache (shared_buffers) does not hold is copied in from the operating system,
// 6-9 ms of a 10-15 ms query on our 2-core machine, more when the OS must read it from disk. At 1M logos the
// index is 544 MB, over four times PostgreSQL's 128 MB default (docs/logos.md, "PostgreSQL's buffer cache").
// The setting is the operator's and takes a restart, so it is said, not changed.

/** How much of shared_buffers a model's index may fill before the warning: the heap rows and marks a search joins need room too. */
export const INDEX_SHARE = 0.75;

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;

/** The warning to log when the index does not fit PostgreSQL's buffer cache with room to spare; null when it does. */
export function indexCacheAdvice(f: IndexCacheFit): string | null {
  if (f.indexBytes <= f.sharedBuffersBytes * INDEX_SHARE) return null;
  // Rounded up to a whole 256 MB, so the advice is a value one would write in postgresql.conf.
  const wanted = Math.ceil(f.indexBytes / INDEX_SHARE / 2 ** 28) * 256;
  return (
    `the HNSW index of ${f.model} (${mb(f.indexBytes)}) does not fit PostgreSQL's shared_buffers (${mb(f.sharedBuffersBytes)}) ` +
    `with room to spare: image searches read its pages from the operating system, slower at every search. Set shared_buffers ` +
    `to at least ${wanted}MB (docs/logos.md, "PostgreSQL's buffer cache")`
  );
}

/** Logs the advice once, when the served model's index does not fit; a check that fails is only noted: it must not stop indexing. */
export async function warnOfIndexCache(repo: Pick<LogoRepository, 'indexCacheFit'>, model: string, log: Logger): Promise<void> {
  try {
    const fit = await repo.indexCacheFit(model);
    const advice = fit ? indexCacheAdvice(fit) : null;
    if (fit && advice) log.warn({ model, indexBytes: fit.indexBytes, sharedBuffersBytes: fit.sharedBuffersBytes }, advice);
  } catch (err) {
    log.debug({ err, model }, 'the HNSW index could not be compared with shared_buffers');
  }
}
