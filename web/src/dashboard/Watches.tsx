import { useEffect, useState } from 'preact/hooks';
import { dash, errorText, type Schemas } from './client.ts';
import { ErrorLine } from './parts.tsx';
import { useDashStrings } from './strings.ts';
import { WatchHits } from './WatchHits.tsx';

// Every class typed is sent, even one outside 1-45: the API's 400 names it (classes: 46 is not a Nice
// class), where dropping it would watch fewer classes than asked without a word. A word that is no number
// goes as null (JSON has no NaN), which the API refuses too.
export const classList = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);

/** Similarity watches: new filings like a mark, kept in the inbox below and, when a watch names one, sent to a webhook. */
export function Watches() {
  const s = useDashStrings();
  const [watches, setWatches] = useState<Schemas['Watch'][] | null>(null);
  const [hooks, setHooks] = useState<Schemas['Webhook'][]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    dash.GET('/user/v1/watches/').then(({ data, error }) => (data ? setWatches(data.watches) : setError(errorText(error, s.failed))));
  useEffect(() => {
    load();
    dash.GET('/user/v1/webhooks/list/').then(({ data }) => setHooks(data?.webhooks ?? []));
  }, []);

  async function create(e: Event) {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const word = String(f.get('word_mark') ?? '').trim();
    const logo = String(f.get('logo_url') ?? '').trim();
    const hook = String(f.get('webhook_id') ?? '');
    const { error } = await dash.POST('/user/v1/watches/', {
      body: {
        ...(word ? { word_mark: word } : {}),
        ...(logo ? { logo_url: logo } : {}),
        classes: classList(String(f.get('classes') ?? '')),
        exclude_owner_ids: [],
        include_own: false,
        min_risk: String(f.get('min_risk')) as 'Low' | 'Medium' | 'High',
        ...(hook ? { webhook_id: hook } : {}),
      },
    });
    setError(error ? errorText(error, s.failed) : null);
    if (!error) {
      form.reset();
      load();
    }
  }
  async function remove(id: string) {
    const { error } = await dash.DELETE('/user/v1/watches/{watch_id}/', { params: { path: { watch_id: id } } });
    setError(error ? errorText(error, s.failed) : null);
    load();
  }

  return (
    <>
      <form onSubmit={create} class="dash-form dash-panel" aria-labelledby="new-watch">
        <h2 id="new-watch">{s.createWatch}</h2>
        <label>
          {s.wordMark}
          <input name="word_mark" maxLength={200} />
        </label>
        <label>
          {s.logoUrl}
          <input name="logo_url" type="url" inputMode="url" placeholder="https://" />
        </label>
        <p class="hint">{s.wordOrLogo}</p>
        <label>
          {s.classes}
          <input name="classes" required inputMode="numeric" placeholder="29, 30" />
        </label>
        <label>
          {s.minRisk}
          <select name="min_risk">
            {(['Low', 'Medium', 'High'] as const).map((r) => (
              <option key={r} value={r} selected={r === 'Medium'}>
                {s.riskWord(r)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {s.webhook}
          <select name="webhook_id">
            <option value="">{s.webhookNone}</option>
            {hooks.map((h) => (
              <option key={h.id} value={h.id}>
                {h.url}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary">
          {s.createWatch}
        </button>
      </form>
      <ErrorLine error={error} />
      {watches && watches.length === 0 && <p>{s.none}</p>}
      {watches && watches.length > 0 && (
        <table class="dash-table">
          <caption class="visually-hidden">{s.watches}</caption>
          <thead>
            <tr>
              <th scope="col">{s.wordMark}</th>
              <th scope="col">{s.klass}</th>
              <th scope="col">{s.minRisk}</th>
              <th scope="col">{s.webhook}</th>
              <th scope="col">{s.hits}</th>
              <th scope="col">{s.actions}</th>
            </tr>
          </thead>
          <tbody>
            {watches.map((w) => (
              <tr key={w.id}>
                <th scope="row">{w.word_mark ?? '—'}</th>
                <td>{w.classes.join(', ')}</td>
                <td>{s.riskWord(w.min_risk)}</td>
                <td class={w.webhook_active === false ? 'dash-warn' : undefined}>
                  {w.webhook_active === null ? '—' : w.webhook_active ? s.webhookOn : s.webhookOff}
                </td>
                <td>
                  {w.hits}
                  {w.new_hits > 0 && <span class="dash-badge">{s.newHits(w.new_hits)}</span>}
                </td>
                <td>
                  <button type="button" onClick={() => remove(w.id)} aria-label={`${s.delete} ${w.word_mark ?? w.id}`}>
                    {s.delete}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {watches && watches.length > 0 && <WatchHits watches={watches} onChange={load} />}
    </>
  );
}
