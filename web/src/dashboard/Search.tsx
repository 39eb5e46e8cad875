import { useState } from 'preact/hooks';
import type { operations } from '../lib/openapi.gen.ts';
import { Link } from '../lib/router.tsx';
import { dash, errorText, formBody, type Schemas } from './client.ts';
import { MarkTable } from './MarkTable.tsx';
import { ErrorLine } from './parts.tsx';
import { RegionPicker } from './RegionPicker.tsx';
import { useDashStrings } from './strings.ts';

type Query = NonNullable<operations['searchTrademarks']['parameters']['query']>;
type Row = Record<string, unknown>;
const PAGE = 20;
const SORTS = ['relevance', 'application_date', '-application_date', 'expire_at', '-expire_at', 'word_mark', '-word_mark'] as const;

const cell = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/** The keyed search: word marks with the filters and paging of GET /v1/trademarks/, and logo search by upload. */
export function Search() {
  const s = useDashStrings();
  const [query, setQuery] = useState<Query | null>(null);
  const [words, setWords] = useState<{ count: number; offset: number; results: Row[] } | null>(null);
  const [logos, setLogos] = useState<Schemas['LogoImageSearchResponse']['results'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [logoFile, setLogoFile] = useState<File | null>(null);
  const [region, setRegion] = useState('');

  async function runWords(q: Query) {
    setQuery(q);
    const { data, error } = await dash.GET('/v1/trademarks/', { params: { query: q } });
    setError(data ? null : errorText(error, s.failed));
    setWords(data ? { count: data.count, offset: data.offset, results: data.results as unknown as Row[] } : null);
  }
  function submitWords(e: Event) {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const v = (k: string) => String(f.get(k) ?? '').trim() || undefined;
    runWords({
      word_mark: v('word_mark') ?? '',
      match_type: (v('match_type') ?? 'SMART') as 'SMART' | 'EXACT',
      classes: v('classes'),
      status: v('status'),
      proprietor: v('proprietor'),
      application_date_from: v('from'),
      application_date_to: v('to'),
      sort: (v('sort') ?? 'relevance') as (typeof SORTS)[number],
      limit: PAGE,
      offset: 0,
    });
  }
  async function submitLogo(e: Event) {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const file = f.get('logo');
    if (!(file instanceof File) || file.size === 0) return;
    const classes = String(f.get('classes') ?? '').trim();
    const part = region.trim() || undefined;
    const { data, error } = await dash.POST('/v1/logo-search/image/', {
      body: { uploaded_file: '', img_cnt: PAGE } as never,
      bodySerializer: () => formBody({ uploaded_file: file, classes: classes || undefined, img_cnt: String(PAGE), region: part }),
    });
    setError(data ? null : errorText(error, s.failed));
    setLogos(data?.results ?? null);
  }

  const page = (delta: number) => query && runWords({ ...query, offset: Math.max(0, (query.offset ?? 0) + delta * PAGE) });

  return (
    <>
      <div class="dash-columns">
        <form onSubmit={submitWords} class="dash-form dash-panel" aria-labelledby="word-search">
          <h2 id="word-search">{s.searchWords}</h2>
          <label>
            {s.wordMark}
            <input name="word_mark" type="search" required maxLength={200} />
          </label>
          <label>
            {s.matchType}
            <select name="match_type">
              <option>SMART</option>
              <option>EXACT</option>
            </select>
          </label>
          <label>
            {s.classes}
            <input name="classes" inputMode="numeric" />
          </label>
          <label>
            {s.statusFilter}
            <input name="status" />
          </label>
          <label>
            {s.proprietor}
            <input name="proprietor" />
          </label>
          <label>
            {s.dateFrom}
            <input name="from" type="date" />
          </label>
          <label>
            {s.dateTo}
            <input name="to" type="date" />
          </label>
          <label>
            {s.sort}
            <select name="sort">
              {SORTS.map((o) => (
                <option key={o} value={o}>
                  {s.sortLabel(o)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" class="primary">
            {s.search}
          </button>
        </form>
        <form onSubmit={submitLogo} class="dash-form dash-panel" aria-labelledby="logo-search">
          <h2 id="logo-search">{s.searchLogo}</h2>
          <label>
            {s.logoFile}
            <input
              name="logo"
              type="file"
              required
              accept="image/png,image/jpeg,image/webp,image/gif"
              onChange={(e) => {
                setLogoFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null);
                setRegion('');
              }}
            />
          </label>
          <RegionPicker file={logoFile} value={region} onChange={setRegion} />
          <label>
            {s.classes}
            <input name="classes" inputMode="numeric" />
          </label>
          <button type="submit" class="primary">
            {s.searchLogo}
          </button>
        </form>
      </div>
      <ErrorLine error={error} />
      {words && (
        <section aria-labelledby="word-results">
          <h2 id="word-results">{s.found(words.count)}</h2>
          <MarkTable rows={words.results as unknown as Schemas['TrademarkSummary'][]} caption={s.searchWords} />
          <nav class="pager" aria-label={s.search}>
            <button type="button" onClick={() => page(-1)} disabled={words.offset === 0}>
              {s.prev}
            </button>
            <span>{s.page(words.count === 0 ? 0 : words.offset + 1, words.offset + words.results.length)}</span>
            <button type="button" onClick={() => page(1)} disabled={words.offset + words.results.length >= words.count}>
              {s.next}
            </button>
          </nav>
        </section>
      )}
      {logos && (
        <section aria-labelledby="logo-results">
          <h2 id="logo-results">{s.found(logos.length)}</h2>
          <ul class="dash-logo-grid">
            {logos.map((r) => (
              <li key={`${r.application_number}-${r.class_number}`}>
                {r.logo && <img src={r.logo.url} alt={r.word_mark || r.application_number} width={96} height={96} loading="lazy" />}
                <p>
                  <strong>{r.word_mark || '—'}</strong> · {r.application_number} · {s.klass} {r.class_number} · {s.similarity}{' '}
                  {Math.round(r.clip_similarity * 100)}%
                </p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
