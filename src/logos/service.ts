import fs from 'node:fs/promises';
import { AppError, invalidParameter } from '../errors.ts';
import type { StoredUpload } from '../schema/upload.ts';
import { normaliseMark } from '../search/normalise.ts';
import { signedLink } from '../storage/links.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { type FacetValues, type MarkFilter, type MarkFilterParams, resolveMarkFilter } from '../trademarks/markFilter.ts';
import type { FanOut, SearchJob } from './fanout.ts';
import { fetchImage } from './imageFetch.ts';
import { claimedFormats, formatName, ImageError, requireImageFormat } from './imageInput.ts';
import { type ImageSearchDeps, nearestLogos, type SearchAnswer } from './imageSearch.ts';
import type { Thresholds } from './models.ts';
import type { Box } from './regionScores.ts';
import type { LogoHit, LogoRepository, Nearest } from './repository.ts';
import type { Level, Likeness } from './schemas.ts';
import { type LogoTextIndex, logoText } from './textIndex.ts';
import { NEIGHBOURS, viennaVotes } from './viennaSuggest.ts';

// Logo search: by the words in logos (the word-mark engine over OCR text) and by image (nearest
// vectors in pgvector). Thresholds of the similarity levels: text scores here, image similarities
// per model in models/manifest.json (docs/logos.md).

/** The OCR that reads logos' words, named in text results. */
export const OCR_MODEL = 'tesseract.js-7 eng+hin';

/** Minimum text_score of each level: high keeps exact, prefix, word, near and compound matches (near: a
 *  one-word text a letter off, what OCR misreads most); medium adds all-words, suffix, substring and
 *  spelling variants; low adds sound-alikes and partial matches. */
export const TEXT_THRESHOLDS: Record<Level, number> = { high: 66, medium: 24, low: 1 };

/**
 * Text hits read when a filter is given: the text index's class and status of a logo's mark may be
 * older than the register's, so the filter is applied to the marks as they are now, over this many of
 * the strongest hits (docs/logos.md).
 */
export const FILTERED_TEXT_HITS = 5000;

const ORDER: Level[] = ['high', 'medium', 'low'];
/** The loosest of the levels asked for. */
export const loosest = (levels: Level[]): Level => ORDER[Math.max(...levels.map((l) => ORDER.indexOf(l)))];

export interface TextQuery {
  query_text: string;
  similarity_level: Level[];
}

/** The filters logo search takes, by the fields its results carry (src/schema/markFilters.ts logoFilters). */
export type LogoFilters = Pick<MarkFilterParams, 'class_number' | 'classes' | 'status' | 'vienna_codes'>;

/** Image search's filters and the likeness asked for (copy when absent). */
/** `region`: the part of the image to search (the box a user drew), in its pixels. */
export type ImageOptions = LogoFilters & { likeness?: Likeness; region?: Box };

export class LogoService {
  constructor(
    private readonly repo: LogoRepository,
    private readonly texts: LogoTextIndex,
    private readonly store: ObjectStore,
    private readonly images: ImageSearchDeps,
    private readonly fanout: () => FanOut,
    private readonly values: FacetValues,
  ) {}

  /** The filter asked for (null for none); an unknown status or Vienna code is a 400 naming it. */
  private filter(f: LogoFilters): Promise<MarkFilter | null> {
    const { class_number, classes, status, vienna_codes } = f;
    return resolveMarkFilter({ class_number, classes, status, vienna_codes }, this.values, 'body');
  }

  async text(q: TextQuery, max: number, accountId: string, filters: LogoFilters = {}) {
    const t0 = performance.now();
    const r = await this.textItem(q, max, accountId, await this.filter(filters));
    return { query_text: q.query_text, ...r, max_results: max, response_ms: Math.round(performance.now() - t0) };
  }

  async bulkText(queries: TextQuery[], max: number, accountId: string, filters: LogoFilters = {}) {
    const t0 = performance.now();
    const filter = await this.filter(filters);
    const results = [];
    for (const [index, q] of queries.entries())
      results.push({ index, query_text: q.query_text, ...(await this.textItem(q, max, accountId, filter)) });
    return {
      requested: queries.length,
      charged: distinctTexts(queries),
      max_results_per_query: max,
      response_ms: Math.round(performance.now() - t0),
      results,
    };
  }

  /**
   * Hits come strongest first, so those under the level's minimum are a tail: without a filter, one
   * more page's worth is asked for and the first `max` at the level are the page. With a filter, the
   * strongest FILTERED_TEXT_HITS are read and the marks the filter keeps, as the register has them now,
   * make the page and the count.
   */
  private async textItem(q: TextQuery, max: number, accountId: string, filter: MarkFilter | null) {
    const level = loosest(q.similarity_level);
    const min = TEXT_THRESHOLDS[level];
    if (!/[\p{L}\p{N}]/u.test(q.query_text)) {
      throw invalidParameter('body', 'query_text', 'query_text must contain a letter or a digit');
    }
    const found = await this.texts.search(q.query_text, filter ? Math.max(FILTERED_TEXT_HITS, max * 4 + 50) : max * 4 + 50);
    let kept = found.hits.filter((h) => h.score >= min);
    // Every hit at the level was read: the count is theirs, not the engine's (which counts all levels).
    const whole = kept.length < found.hits.length;
    const shown = await this.repo.hits(
      (filter ? kept : kept.slice(0, max)).map((h) => h.application_number),
      filter,
    );
    const rows = new Map(shown.map((r) => [r.application_number, r]));
    if (filter) kept = kept.filter((h) => rows.has(h.application_number));
    const page = kept.slice(0, max);
    const results = [];
    for (const h of page) {
      const row = rows.get(h.application_number);
      if (!row) continue;
      results.push({
        ...this.shown(row, accountId),
        text_score: h.score,
        match: h.strategy,
        logo_text: logoText(row.text),
        clip_similarity: null,
        model: OCR_MODEL,
      });
    }
    const count = whole || filter ? kept.length : Math.max(kept.length, found.count);
    return { similarity_level: level, min_score: min, count, results };
  }

  async image(bytes: Buffer, levels: Level[], k: number, accountId: string, opts: ImageOptions = {}) {
    return this.imageSearch(bytes, levels, k, accountId, await this.filter(opts), opts);
  }

  private async imageSearch(
    bytes: Buffer,
    levels: Level[],
    k: number,
    accountId: string,
    filter: MarkFilter | null,
    { likeness = 'copy', region }: ImageOptions,
  ) {
    const t0 = performance.now();
    const level = loosest(levels);
    const answer = await nearestLogos(this.images, bytes, k, filter, { likeness, part: region });
    const min = answer.thresholds[level];
    const results = this.imageResults(answer.hits, min, answer.model, accountId);
    return {
      model: answer.model,
      likeness: answer.likeness,
      similarity_level: level,
      min_similarity: min,
      img_cnt: k,
      count: results.length,
      response_ms: Math.round(performance.now() - t0),
      results,
    };
  }

  /** An uploaded file: judged by its bytes (a PNG named .jpg is refused: the caller should know which it sent). */
  async upload(u: StoredUpload, levels: Level[], k: number, accountId: string, opts: ImageOptions = {}) {
    checkUpload(u);
    const filter = await this.filter(opts);
    return this.imageSearch(await fs.readFile(u.path), levels, k, accountId, filter, opts);
  }

  /**
   * The Vienna sections most likely for an uploaded image (viennaSuggest.ts): the codes of its nearest registered
   * logos, voted by nearness, best first, at most `max`.
   */
  async vienna(u: StoredUpload, max: number) {
    checkUpload(u);
    const t0 = performance.now();
    const answer = await nearestLogos(this.images, await fs.readFile(u.path), Math.min(100, 2 * NEIGHBOURS));
    const votes = viennaVotes(answer.hits);
    const shown = votes.slice(0, max);
    const described = await this.repo.viennaDescriptions(shown.map((v) => v.code));
    return {
      model: answer.model,
      neighbours: Math.min(NEIGHBOURS, answer.hits.filter((h) => Number.isFinite(h.similarity) && h.vienna_codes?.length).length),
      count: votes.length,
      response_ms: Math.round(performance.now() - t0),
      suggestions: shown.map((v) => ({ ...v, description: described.get(v.code) ?? null })),
    };
  }

  /** The filter is read before the image is fetched: a bad one costs no download. */
  async url(url: string, levels: Level[], k: number, accountId: string, opts: ImageOptions = {}) {
    const filter = await this.filter(opts);
    return this.imageSearch(await fetchImage(url, this.images.fetch), levels, k, accountId, filter, opts);
  }

  /**
   * Bulk uploads: each distinct file searched once, over the fan-out; failed items are given back their
   * credit. `signal`: the client went away; images not yet searched are then withdrawn.
   */
  async bulkUploads(
    files: StoredUpload[],
    levels: Level[],
    k: number,
    opts: ImageOptions,
    accountId: string,
    uncharge: (n: number) => Promise<void>,
    signal?: AbortSignal,
  ) {
    const t0 = performance.now();
    const level = loosest(levels);
    const filter = await this.filter(opts);
    const likeness = opts.likeness ?? 'copy';
    const checked = files.map((f) => {
      try {
        checkUpload(f);
        return null;
      } catch (err) {
        return err as AppError;
      }
    });
    const answers = await this.gather(
      files.map((f, i) =>
        checked[i]
          ? null
          : {
              key: f.sha256,
              job: { kind: 'file', ref: f.path, k, ...(likeness === 'concept' && { likeness }), ...(filter && { filter }) },
            },
      ),
      uncharge,
      files.map((f) => f.sha256),
      accountId,
      signal,
    );
    const results = files.map((f, index) => ({
      index,
      file: f.originalname,
      ...this.item(
        checked[index] ? { ok: false, code: checked[index]!.code, error: checked[index]!.message } : answers[index]!,
        level,
        accountId,
      ),
    }));
    return bulkImageAnswer(results, answers.charged, level, likeness, k, t0);
  }

  async bulkUrls(
    urls: string[],
    levels: Level[],
    k: number,
    opts: ImageOptions,
    accountId: string,
    uncharge: (n: number) => Promise<void>,
    signal?: AbortSignal,
  ) {
    const t0 = performance.now();
    const level = loosest(levels);
    const filter = await this.filter(opts);
    const likeness = opts.likeness ?? 'copy';
    const answers = await this.gather(
      urls.map((u) => ({
        key: u,
        job: { kind: 'url', ref: u, k, ...(likeness === 'concept' && { likeness }), ...(filter && { filter }) },
      })),
      uncharge,
      urls,
      accountId,
      signal,
    );
    const results = urls.map((image_url, index) => ({ index, image_url, ...this.item(answers[index]!, level, accountId) }));
    return bulkImageAnswer(results, answers.charged, level, likeness, k, t0);
  }

  /**
   * Runs one job per distinct key, in the account's turn; `keys` are every item's key (refused items
   * included, which were never charged). Credits of distinct items whose search failed are given back,
   * unless the failure used what the search costs (an image URL that ran to its deadline).
   */
  private async gather(
    items: ({ key: string; job: SearchJob } | null)[],
    uncharge: (n: number) => Promise<void>,
    keys: string[],
    account: string,
    signal?: AbortSignal,
  ) {
    const distinct = new Map<string, SearchJob>();
    for (const it of items) if (it && !distinct.has(it.key)) distinct.set(it.key, it.job);
    const order = [...distinct.keys()];
    const answers = order.length ? await this.fanout().run([...distinct.values()], { account, signal }) : [];
    const byKey = new Map(order.map((k, i) => [k, answers[i]]));
    // Charged up front: one per distinct key of the request. Refunded: keys never searched or that failed
    // without spending anything; a fetch that ran to its deadline held a worker's slot for all of it.
    const chargedKeys = new Set(keys);
    let refund = 0;
    for (const k of chargedKeys) {
      const a = byKey.get(k);
      if (!a || (!a.ok && !a.spent)) refund++;
    }
    if (refund) await uncharge(refund);
    const out = items.map((it) => (it ? byKey.get(it.key)! : null)) as (SearchAnswer | null)[] & { charged: number };
    out.charged = chargedKeys.size - refund;
    return out;
  }

  private item(a: SearchAnswer, level: Level, accountId: string) {
    if (!a.ok) return { model: null, likeness: null, min_similarity: null, count: 0, results: [], error: { code: a.code, error: a.error } };
    const min = a.thresholds[level];
    const results = this.imageResults(a.hits, min, a.model, accountId);
    return { model: a.model, likeness: a.likeness, min_similarity: min, count: results.length, results, error: null };
  }

  private imageResults(hits: Nearest[], min: number, model: string, accountId: string) {
    return hits
      .filter((h) => h.similarity >= min)
      .map((h) => ({
        ...this.shown(h, accountId),
        clip_similarity: Math.round(h.similarity * 10_000) / 10_000,
        model,
      }));
  }

  private shown(row: LogoHit, accountId: string) {
    return {
      application_number: row.application_number,
      word_mark: row.word_mark,
      class_number: row.class_number,
      status: row.status,
      vienna_codes: row.vienna_codes ?? [],
      logo: signedLink(this.store, row.object_key, accountId),
    };
  }
}

/** A bulk image search's answer (BulkImageResponse, BulkUrlResponse): one result per requested item, in order. */
function bulkImageAnswer<R>(results: R[], charged: number, level: Level, likeness: Likeness, k: number, t0: number) {
  return {
    requested: results.length,
    charged,
    likeness,
    similarity_level: level,
    img_cnt: k,
    response_ms: Math.round(performance.now() - t0),
    results,
  };
}

/** Distinct text queries of a bulk request (the same words as word-mark search reads them, at the same level): what it is charged. */
export function distinctTexts(queries: TextQuery[]): number {
  return new Set(queries.map((q) => JSON.stringify([normaliseMark(q.query_text), loosest(q.similarity_level)]))).size;
}

/** Distinct files of a bulk upload (by content). */
export function distinctFiles(files: StoredUpload[]): number {
  return new Set(files.map((f) => f.sha256)).size;
}

/**
 * A file that is not an accepted image by its bytes (imageInput.ts), or whose name or declared type says
 * another accepted format, is refused; an SVG's content is checked where it is drawn (the sidecar).
 */
export function checkUpload(u: StoredUpload): void {
  let actual: ReturnType<typeof requireImageFormat>;
  try {
    actual = requireImageFormat(u.head);
  } catch (err) {
    if (err instanceof ImageError) throw new AppError(err.code, `${u.originalname}: ${err.message}`);
    throw err;
  }
  const claimed = claimedFormats(u.originalname, u.mimetype).find((f) => f !== actual);
  if (claimed) {
    throw new AppError(
      'image_type_mismatch',
      `${u.originalname} is a ${formatName(actual)} file but its name or Content-Type (${u.mimetype}) ` +
        `says ${formatName(claimed)}: send it under its own type`,
    );
  }
}

export type { Thresholds };
