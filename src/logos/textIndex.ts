import { IndexBuilder, type MarkRow } from '../search/build.ts';
import { SearchEngine } from '../search/engine.ts';
import { prepareQuery } from '../search/query.ts';
import { classMask } from '../search/service.ts';
import type { Change } from '../search/source.ts';
import { STRATEGIES, type Strategy, score } from '../search/strategies.ts';
import type { LogoRepository } from './repository.ts';

// Text logo search: the words read from each logo (our OCR, plus any text the registry supplied)
// searched by the word-mark engine itself (src/search), so OCR text is normalised, split, spelled
// and sounded exactly as word marks are: SHREE finds SHRI, KWALITY finds QUALITY. One engine per
// API process over the logos' text, built from PostgreSQL on first use and kept current from
// logos.text_seq; rebuilt whole once the changes since the build outgrow it.

const PAGE = 100_000;
const POLL_MS = 1000;

export interface TextHit {
  application_number: string;
  score: number;
  strategy: Strategy;
  /** The logo's words as indexed (logoText of its supplied and read text): what a caller scores, with no read of its own. */
  text: string;
}

/** Supplied and read text together, each word once (a logo whose OCR agrees with its supplied text stays one phrase). */
export function logoText(text: string | null): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of (text ?? '').split(/\s+/)) {
    const key = w.toUpperCase();
    if (w && !seen.has(key)) {
      seen.add(key);
      out.push(w);
    }
  }
  return out.join(' ');
}

function rowOf(r: { application_number: string; text: string; class_number: number; status: string }): MarkRow | null {
  const text = logoText(r.text);
  if (!text) return null;
  return {
    appNo: Number(r.application_number),
    wordMark: text,
    cls: r.class_number,
    status: r.status,
    tmType: '',
    filingMode: null,
    state: null,
  };
}

export class LogoTextIndex {
  private engine: SearchEngine | null = null;
  private loading: Promise<SearchEngine> | null = null;
  private polling: Promise<void> | null = null;
  private lastPoll = 0;
  private baseSize = 0;

  constructor(private readonly repo: LogoRepository) {}

  /** The logos whose words match the query best, in the given classes only when `classes` is given. */
  async search(query: string, want: number, classes: number[] | null = null): Promise<{ count: number; hits: TextHit[] }> {
    const engine = await this.current();
    const q = prepareQuery(query, 'SMART');
    const r = engine.search(q, { classes: classes && classMask(classes), status: null }, want, null);
    const briefs = engine.briefs(r.hits);
    return {
      count: r.count,
      hits: r.hits.map((h, i) => ({
        application_number: String(h.appNo),
        score: score(h.strategy, h.dist, h.len, q.normalised.length),
        strategy: STRATEGIES[h.strategy],
        text: briefs[i].word_mark,
      })),
    };
  }

  /** The engine with every text change up to about a second ago. */
  private async current(): Promise<SearchEngine> {
    if (!this.engine) {
      this.loading ??= this.build().finally(() => (this.loading = null));
      this.engine = await this.loading;
      return this.engine;
    }
    if (Date.now() - this.lastPoll >= POLL_MS) {
      this.polling ??= this.poll().finally(() => (this.polling = null));
      await this.polling;
    }
    return this.engine;
  }

  private async build(): Promise<SearchEngine> {
    let b = new IndexBuilder();
    let seq = 0;
    let n = 0;
    for (;;) {
      const rows = await this.repo.textsSince(seq, PAGE);
      for (const r of rows) {
        const row = rowOf(r);
        if (row) {
          b.add(row);
          n++;
        }
      }
      if (rows.length) seq = rows[rows.length - 1].seq;
      if (rows.length < PAGE) break;
    }
    if (n === 0) b = new IndexBuilder();
    const engine = new SearchEngine(b.finish(), seq);
    await engine.prepare();
    this.baseSize = n;
    this.lastPoll = Date.now();
    return engine;
  }

  private async poll(): Promise<void> {
    const engine = this.engine!;
    this.lastPoll = Date.now();
    const rows = await this.repo.textsSince(engine.seq, PAGE);
    if (!rows.length) return;
    const changes: Change[] = rows.map((r) => ({ seq: r.seq, appNo: Number(r.application_number), row: rowOf(r) }));
    engine.apply(changes, rows[rows.length - 1].seq);
    // Every change rebuilds the small index of changed logos: past a quarter of the whole, rebuild all.
    if (engine.pending > Math.max(20_000, this.baseSize / 4)) this.engine = await this.build();
  }
}
