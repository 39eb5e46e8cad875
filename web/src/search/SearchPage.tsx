import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type RateWindow, rateWindow, type Schemas } from '../lib/api.ts';
import { formatNumber, useLang } from '../lib/i18n.tsx';
import { navigate, useLocation } from '../lib/router.tsx';
import { ClassPicker, useClassTitles } from './ClassPicker.tsx';
import { Facets } from './Facets.tsx';
import { MAX_PAGES, PAGE_SIZE, readState, type SearchState, writeState } from './query.ts';
import { ResultsTable } from './ResultsTable.tsx';
import { useSearchStrings } from './strings.ts';

type Answer = Schemas['PublicSearchResponse'];
/** When the visitor last asked for a search: the start of the 'search' measure. */
let askedAt = 0;

type Outcome = { kind: 'ok'; answer: Answer } | { kind: 'limited'; retryAfter: number } | { kind: 'failed' };

/** The free public search: one field, classes, SMART/EXACT, facets, pages, and the hour's allowance. */
export function SearchPage() {
  const s = useSearchStrings();
  const { lang } = useLang();
  const { search } = useLocation();
  const state = readState(search);
  const titles = useClassTitles();
  const [draft, setDraft] = useState<SearchState>(state);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const [allowance, setAllowance] = useState<RateWindow | null>(null);
  const asked = useRef(0);
  const key = writeState(state);

  // The address is the search: each change of it (a submit, a facet, a page, back/forward) runs it.
  useEffect(() => {
    setDraft(state);
    if (!state.q) {
      setOutcome(null);
      return;
    }
    const n = ++asked.current;
    setBusy(true);
    // From the click that asked for it (a submit, a facet, a page), else from now (an address opened).
    const started = askedAt || performance.now();
    askedAt = 0;
    void run(state).then(([o, w]) => {
      if (n !== asked.current) return; // a later search replaced this one
      setOutcome(o);
      if (w) setAllowance(w);
      setBusy(false);
      // For the end-to-end timing (bench/webSearch.ts): from asking to the answer on screen.
      requestAnimationFrame(() => performance.measure('search', { start: started, end: performance.now() }));
    });
  }, [key]);

  const go = (next: SearchState) => {
    askedAt = performance.now();
    navigate(writeState(next));
  };
  const submit = (e: Event) => {
    e.preventDefault();
    const q = draft.q.trim();
    if (q) go({ ...draft, q, page: 1 });
  };

  const answer = outcome?.kind === 'ok' ? outcome.answer : null;
  const summary = (a: Answer) => {
    const count = formatNumber(a.count, lang);
    if (!a.count) return s.none;
    return a.results.length ? s.found(count, a.offset + 1, a.offset + a.results.length) : s.pastEnd(count);
  };
  const pages = answer ? Math.min(MAX_PAGES, Math.ceil(answer.count / PAGE_SIZE)) : 0;
  return (
    <section class="search" aria-labelledby="search-title">
      <h1 id="search-title">{s.title}</h1>
      <p class="intro">{s.intro}</p>
      <search>
        <form onSubmit={submit}>
          <div class="field">
            <label for="word-mark">{s.wordMark}</label>
            <input
              id="word-mark"
              name="q"
              type="search"
              required
              maxLength={200}
              autoComplete="off"
              aria-describedby="word-mark-hint"
              value={draft.q}
              onInput={(e) => setDraft({ ...draft, q: e.currentTarget.value })}
            />
            <p id="word-mark-hint" class="hint">
              {s.wordMarkHint}
            </p>
          </div>
          <fieldset class="match">
            <legend>{s.matchType}</legend>
            {(['SMART', 'EXACT'] as const).map((m) => (
              <label key={m}>
                <input type="radio" name="match" value={m} checked={draft.match === m} onChange={() => setDraft({ ...draft, match: m })} />
                {m === 'SMART' ? s.smart : s.exact}
              </label>
            ))}
          </fieldset>
          <ClassPicker titles={titles} chosen={draft.classes} onChange={(classes) => setDraft({ ...draft, classes })} />
          <button type="submit" class="primary">
            {s.submit}
          </button>
        </form>
      </search>

      <div class="status" role="status" aria-live="polite">
        {busy ? s.searching : ''}
        {!busy && answer ? summary(answer) : ''}{' '}
        {allowance ? (
          <span class="allowance">{s.allowance(formatNumber(allowance.remaining, lang), formatNumber(allowance.limit, lang))}</span>
        ) : null}
      </div>
      {outcome?.kind === 'limited' ? (
        <p class="alert" role="alert">
          {s.limited(Math.max(1, Math.ceil(outcome.retryAfter / 60)))}
        </p>
      ) : null}
      {outcome?.kind === 'failed' ? (
        <p class="alert" role="alert">
          {s.failed}
        </p>
      ) : null}

      {answer?.count && !answer.results.length ? (
        <button type="button" class="link" onClick={() => go({ ...state, page: 1 })}>
          {s.firstPage}
        </button>
      ) : null}
      {answer?.results.length ? (
        <div class="answer">
          <Facets answer={answer} state={state} titles={titles} go={go} />
          <div class="listing">
            <ResultsTable results={answer.results} />
            {pages > 1 ? (
              <nav class="pager" aria-label={s.paging}>
                <button type="button" disabled={state.page <= 1} onClick={() => go({ ...state, page: state.page - 1 })}>
                  {s.previous}
                </button>
                <span>{s.page(state.page, pages)}</span>
                <button type="button" disabled={state.page >= pages} onClick={() => go({ ...state, page: state.page + 1 })}>
                  {s.next}
                </button>
              </nav>
            ) : null}
            {answer.count > MAX_PAGES * PAGE_SIZE && state.page >= pages ? <p class="hint">{s.deepPages}</p> : null}
          </div>
        </div>
      ) : null}
    </section>
  );
}

async function run(st: SearchState): Promise<[Outcome, RateWindow | null]> {
  try {
    const { data, response } = await api.GET('/public/v1/trademarks/search/', {
      params: {
        query: {
          word_mark: st.q,
          match_type: st.match,
          classes: st.classes.length ? st.classes.join(',') : undefined,
          status: st.status || undefined,
          offset: (st.page - 1) * PAGE_SIZE,
        },
      },
    });
    const w = rateWindow(response);
    if (data) return [{ kind: 'ok', answer: data }, w];
    if (response.status === 429) {
      const retry = Number(response.headers.get('Retry-After') ?? w?.reset ?? 3600);
      return [{ kind: 'limited', retryAfter: Number.isFinite(retry) ? retry : 3600 }, w];
    }
    return [{ kind: 'failed' }, w];
  } catch {
    return [{ kind: 'failed' }, null];
  }
}
