import { useEffect, useState } from 'preact/hooks';
import { Link } from '../lib/router.tsx';
import { dash, errorText, type Schemas } from './client.ts';
import { MarkTable } from './MarkTable.tsx';
import { ErrorLine, Pager } from './parts.tsx';
import { useDashStrings } from './strings.ts';

// Owner entities (docs/owners.md): found by name, each with its names and marks; from an owner's page its new filings
// are watched, or it is set as the account's own (what a portfolio watch watches).

const PAGE = 20;
type Summary = Schemas['OwnerSummary'];

function Counts({ o }: { o: Summary }) {
  const s = useDashStrings();
  const classes = o.classes
    .slice(0, 6)
    .map((c) => c.class_number)
    .join(', ');
  return (
    <>
      <td>{s.ownerMarks(o.marks)}</td>
      <td>{s.statusCounts(o.statuses.live, o.statuses.pending, o.statuses.dead)}</td>
      <td>{classes || '—'}</td>
    </>
  );
}

/** The owner search, or one owner's page when the path names it (/app/owners/{id}/). */
export function Owners({ id }: { id: string | null }) {
  return id ? <OwnerPage id={id} /> : <OwnerSearch />;
}

function OwnerSearch() {
  const s = useDashStrings();
  const [found, setFound] = useState<Schemas['OwnerList'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function run(q: string, offset: number) {
    const { data, error } = await dash.GET('/v1/owners/', { params: { query: { q, limit: PAGE, offset } } });
    setError(data ? null : errorText(error, s.failed));
    setFound(data ?? null);
  }
  function submit(e: Event) {
    e.preventDefault();
    run(String(new FormData(e.currentTarget as HTMLFormElement).get('q') ?? '').trim(), 0);
  }
  return (
    <>
      <form onSubmit={submit} class="dash-form dash-panel" aria-labelledby="owner-search">
        <h2 id="owner-search">{s.findOwner}</h2>
        <label>
          {s.ownerName}
          <input name="q" type="search" required maxLength={200} />
        </label>
        <button type="submit" class="primary">
          {s.search}
        </button>
      </form>
      <ErrorLine error={error} />
      {found && (
        <section aria-labelledby="owner-results">
          <h2 id="owner-results">{s.found(found.count)}</h2>
          <table class="dash-table">
            <caption class="visually-hidden">{s.findOwner}</caption>
            <thead>
              <tr>
                <th scope="col">{s.owner}</th>
                <th scope="col">{s.mark}</th>
                <th scope="col">{s.status}</th>
                <th scope="col">{s.ownerClasses}</th>
              </tr>
            </thead>
            <tbody>
              {found.owners.map((o) => (
                <tr key={o.id}>
                  <th scope="row">
                    <Link href={`/app/owners/${o.id}/`}>{o.name}</Link>
                  </th>
                  <Counts o={o} />
                </tr>
              ))}
            </tbody>
          </table>
          <Pager offset={found.offset} shown={found.owners.length} count={found.count} page={PAGE} onTurn={(at) => run(found.query, at)} />
        </section>
      )}
    </>
  );
}

function OwnerPage({ id }: { id: string }) {
  const s = useDashStrings();
  const [owner, setOwner] = useState<Schemas['OwnerDetail'] | null>(null);
  const [marks, setMarks] = useState<Schemas['OwnerTrademarks'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function page(offset: number) {
    const { data, error } = await dash.GET('/v1/owners/{owner_id}/trademarks/', {
      params: { path: { owner_id: id }, query: { limit: PAGE, offset } },
    });
    setError(data ? null : errorText(error, s.failed));
    setMarks(data ?? null);
  }
  useEffect(() => {
    dash.GET('/v1/owners/{owner_id}/', { params: { path: { owner_id: id } } }).then(({ data, error }) => {
      setError(data ? null : errorText(error, s.failed));
      setOwner(data ?? null);
    });
    page(0);
  }, [id]);

  async function act(kind: 'watch' | 'own' | 'portfolio') {
    const { error } =
      kind === 'own'
        ? await dash.PUT('/user/v1/watches/owner/', { body: { owner_id: owner?.id ?? id } })
        : await dash.POST('/user/v1/watches/', {
            body: (kind === 'watch' ? { owner_id: owner?.id ?? id } : { portfolio: true }) as Schemas['CreateWatchRequest'],
          });
    setError(error ? errorText(error, s.failed) : null);
    if (!error) setDone(kind === 'watch' ? s.ownerWatched : kind === 'own' ? s.ownIsSet : s.portfolioWatched);
  }

  if (!owner) return <ErrorLine error={error} />;
  return (
    <>
      <section class="dash-panel" aria-labelledby="owner-name">
        <h2 id="owner-name">{owner.name}</h2>
        <p>
          {s.ownerMarks(owner.marks)} · {s.statusCounts(owner.statuses.live, owner.statuses.pending, owner.statuses.dead)}
        </p>
        <h3>{s.ownerNames}</h3>
        <ul>
          {owner.names.map((n) => (
            <li key={n.name}>
              {n.name} ({s.ownerMarks(n.marks)})
            </li>
          ))}
        </ul>
        <div class="dash-row">
          <button type="button" class="primary" onClick={() => act('watch')}>
            {s.watchOwner}
          </button>
          <button type="button" onClick={() => act('own')}>
            {s.thisIsUs}
          </button>
          <button type="button" onClick={() => act('portfolio')}>
            {s.watchPortfolio}
          </button>
        </div>
        {done && <p role="status">{done}</p>}
      </section>
      <ErrorLine error={error} />
      {marks && (
        <section aria-labelledby="owner-marks">
          <h2 id="owner-marks">{s.found(marks.count)}</h2>
          <MarkTable rows={marks.results} caption={owner.name} />
          <Pager offset={marks.offset} shown={marks.results.length} count={marks.count} page={PAGE} onTurn={page} />
        </section>
      )}
    </>
  );
}
