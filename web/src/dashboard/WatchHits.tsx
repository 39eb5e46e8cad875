import { useEffect, useState } from 'preact/hooks';
import { Link } from '../lib/router.tsx';
import { dash, errorText, type Schemas } from './client.ts';
import { ErrorLine } from './parts.tsx';
import { useDashStrings } from './strings.ts';

type Hit = Schemas['StoredWatchHit'];
type State = Hit['state'];

// The watch inbox: every hit the account's watches recorded (whatever their webhooks), newest first, with the
// opposition deadline, filtered and triaged here; the API pages by cursor, "Show more" follows it.

const SHOWS = { open: 'new,acknowledged', new: 'new', acknowledged: 'acknowledged', dismissed: 'dismissed', all: '' } as const;
type Show = keyof typeof SHOWS;

export function WatchHits({ watches, onChange }: { watches: Schemas['Watch'][]; onChange: () => void }) {
  const s = useDashStrings();
  const [show, setShow] = useState<Show>('open');
  const [risk, setRisk] = useState<'' | 'Low' | 'Medium' | 'High'>('');
  const [watch, setWatch] = useState('');
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [count, setCount] = useState(0);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function load(cursor?: string) {
    const query = {
      ...(SHOWS[show] ? { state: SHOWS[show] } : {}),
      ...(risk ? { min_risk: risk } : {}),
      ...(watch ? { watch_id: watch } : {}),
      ...(cursor ? { cursor } : {}),
      limit: 50,
    };
    const { data, error } = await dash.GET('/user/v1/watches/hits/', { params: { query } });
    if (!data) return setError(errorText(error, s.failed));
    setError(null);
    setCount(data.count);
    setNext(data.next_cursor);
    setHits((before) => (cursor && before ? [...before, ...data.hits] : data.hits));
  }
  useEffect(() => {
    load();
  }, [show, risk, watch]);

  async function triage(h: Hit, state: State) {
    const { data, error } = await dash.PATCH('/user/v1/watches/hits/{hit_id}/', { params: { path: { hit_id: h.id } }, body: { state } });
    if (!data) return setError(errorText(error, s.failed));
    // Read again: a hit moved out of the state shown leaves the list, and the counts change.
    await load();
    onChange();
  }

  const watchName = (id: string) => {
    const w = watches.find((x) => x.id === id);
    return w ? (w.word_mark ?? w.logo?.url ?? id) : id;
  };
  const fresh = watches.reduce((n, w) => n + w.new_hits, 0);

  return (
    <section aria-labelledby="watch-inbox" class="dash-panel">
      <h2 id="watch-inbox">
        {s.inbox} {fresh > 0 && <span class="dash-badge">{s.newHits(fresh)}</span>}
      </h2>
      <div class="dash-form dash-filters">
        <label>
          {s.show}
          <select value={show} onChange={(e) => setShow((e.currentTarget as HTMLSelectElement).value as Show)}>
            <option value="open">{s.openHits}</option>
            {(['new', 'acknowledged', 'dismissed'] as const).map((st) => (
              <option key={st} value={st}>
                {s.hitState(st)}
              </option>
            ))}
            <option value="all">{s.allHits}</option>
          </select>
        </label>
        <label>
          {s.minRisk}
          <select value={risk} onChange={(e) => setRisk((e.currentTarget as HTMLSelectElement).value as typeof risk)}>
            <option value="">{s.allHits}</option>
            {(['Low', 'Medium', 'High'] as const).map((r) => (
              <option key={r} value={r}>
                {s.riskWord(r)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {s.watch}
          <select value={watch} onChange={(e) => setWatch((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">{s.allWatches}</option>
            {watches.map((w) => (
              <option key={w.id} value={w.id}>
                {watchName(w.id)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorLine error={error} />
      {hits && hits.length === 0 && <p>{s.noHits}</p>}
      {hits && hits.length > 0 && (
        <table class="dash-table">
          <caption class="visually-hidden">{s.inbox}</caption>
          <thead>
            <tr>
              <th scope="col">{s.mark}</th>
              <th scope="col">{s.risk}</th>
              <th scope="col">{s.klass}</th>
              <th scope="col">{s.watch}</th>
              <th scope="col">{s.deadline}</th>
              <th scope="col">{s.hitStateCol}</th>
              <th scope="col">{s.actions}</th>
            </tr>
          </thead>
          <tbody>
            {hits.map((h) => (
              <tr key={h.id} class={h.state === 'new' ? 'dash-new' : undefined}>
                <th scope="row">
                  <Link href={`/marks/${h.application_number}/`}>{h.word_mark || h.application_number}</Link> ({h.application_number})
                </th>
                <td>{h.risk_level ? `${s.riskWord(h.risk_level)} ${h.overall_similarity_score}` : s.ownerFiling}</td>
                <td>{h.class_number}</td>
                <td>{watchName(h.watch_id)}</td>
                <td>{h.opposition_deadline ?? s.notAdvertised}</td>
                <td>{s.hitState(h.state)}</td>
                <td>
                  {h.state !== 'acknowledged' && (
                    <button type="button" onClick={() => triage(h, 'acknowledged')} aria-label={`${s.acknowledge} ${h.word_mark}`}>
                      {s.acknowledge}
                    </button>
                  )}
                  {h.state !== 'dismissed' && (
                    <button type="button" onClick={() => triage(h, 'dismissed')} aria-label={`${s.dismiss} ${h.word_mark}`}>
                      {s.dismiss}
                    </button>
                  )}
                  {h.state !== 'new' && (
                    <button type="button" onClick={() => triage(h, 'new')} aria-label={`${s.reopen} ${h.word_mark}`}>
                      {s.reopen}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {hits && next && (
        <button type="button" onClick={() => load(next)}>
          {s.more} ({hits.length} / {count})
        </button>
      )}
    </section>
  );
}
