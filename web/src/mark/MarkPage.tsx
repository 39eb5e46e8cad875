import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../lib/api.ts';
import { Link } from '../lib/router.tsx';
import { useMarkStrings } from './strings.ts';

type Detail = Schemas['TrademarkDetail'];
type Public = Schemas['PublicSearchResult'];
type Similar = { application_number: string; word_mark: string | null; class_number: number | null; status: string | null };
type Loaded = { kind: 'full'; mark: Detail; similar: Similar[] } | { kind: 'public'; mark: Public } | { kind: 'error'; text: string };

/**
 * One mark at /marks/{app_no}/: the full record for a signed-in visitor (the keyed detail, read with the
 * dashboard's session cookie and charged to the account as a key's would be), with its status history,
 * documents, logo and similar marks; else the few public fields of the free search and a way to sign in.
 */
export function MarkPage({ appNo }: { appNo: string }) {
  const s = useMarkStrings();
  const [got, setGot] = useState<Loaded | null>(null);
  useEffect(() => {
    setGot(null);
    load(appNo, s).then(setGot);
  }, [appNo]);
  if (!got) return <p aria-busy="true">{s.loading}</p>;
  if (got.kind === 'error')
    return (
      <p role="alert" class="alert">
        {got.text}
      </p>
    );
  const m = got.mark;
  return (
    <article aria-labelledby="mark-title" class="mark-page">
      <p>
        <Link href="/">{s.back}</Link>
      </p>
      <h1 id="mark-title">{m.word_mark || m.application_number}</h1>
      <dl class="facts">
        <dt>{s.number}</dt>
        <dd>{m.application_number}</dd>
        <dt>{s.klass}</dt>
        <dd>{m.class_number ?? '—'}</dd>
        <dt>{s.status}</dt>
        <dd>{m.status ?? '—'}</dd>
        <dt>{s.filed}</dt>
        <dd>{m.application_date ?? '—'}</dd>
        <dt>{s.state}</dt>
        <dd>{m.state ?? '—'}</dd>
        <dt>{s.type}</dt>
        <dd>{m.tm_type ?? '—'}</dd>
        {got.kind === 'full' && <FullFacts mark={got.mark} />}
      </dl>
      {got.kind === 'public' ? (
        <p>
          {s.publicOnly} <a href="/app/">{s.signIn}</a>
        </p>
      ) : (
        <FullRecord mark={got.mark} similar={got.similar} />
      )}
    </article>
  );
}

async function load(appNo: string, s: ReturnType<typeof useMarkStrings>): Promise<Loaded> {
  const full = await api.GET('/v1/trademarks/{app_no}/', { params: { path: { app_no: appNo } }, credentials: 'same-origin' });
  if (full.data) {
    const mark = full.data;
    const found = await api.GET('/v1/trademarks/', {
      params: { query: { word_mark: mark.word_mark || appNo, classes: String(mark.class_number), limit: 11 } as never },
      credentials: 'same-origin',
    });
    const rows = ((found.data?.results ?? []) as Similar[]).filter((r) => r.application_number !== appNo).slice(0, 10);
    return { kind: 'full', mark, similar: rows };
  }
  if (full.response.status === 404) return { kind: 'error', text: s.notFound(appNo) };
  const open = await api.GET('/public/v1/trademarks/{app_no}/', { params: { path: { app_no: appNo } } });
  if (open.data) return { kind: 'public', mark: open.data };
  if (open.response.status === 404) return { kind: 'error', text: s.notFound(appNo) };
  return { kind: 'error', text: open.response.status === 429 ? s.limited : s.failed };
}

function FullFacts({ mark: m }: { mark: Detail }) {
  const s = useMarkStrings();
  const owner = m.proprietors?.[0]?.name ?? m.proprietor_name;
  return (
    <>
      <dt>{s.owner}</dt>
      <dd>{owner || '—'}</dd>
      <dt>{s.expires}</dt>
      <dd>{m.expire_at ?? '—'}</dd>
      <dt>{s.usedSince}</dt>
      <dd>{m.used_since ?? '—'}</dd>
      <dt>{s.office}</dt>
      <dd>{m.registry_office ?? '—'}</dd>
      <dt>{s.journal}</dt>
      <dd>{m.journal ? `${m.journal.journal_number} (${m.journal.publication_date})` : '—'}</dd>
      <dt>{s.vienna}</dt>
      <dd>{m.vienna_codes.length ? m.vienna_codes.join(', ') : '—'}</dd>
      <dt>{s.goods}</dt>
      <dd>{m.goods_services ?? '—'}</dd>
    </>
  );
}

function FullRecord({ mark: m, similar }: { mark: Detail; similar: Similar[] }) {
  const s = useMarkStrings();
  async function open(id: number) {
    const { data } = await api.GET('/v1/documents/{doc_id}/url/', { params: { path: { doc_id: id } }, credentials: 'same-origin' });
    if (data?.presigned_url) window.open(data.presigned_url, '_blank', 'noopener');
  }
  return (
    <>
      {m.logo && (
        <figure>
          <img src={m.logo.url} alt={`${s.logo}: ${m.word_mark}`} width={160} height={160} class="mark-logo" />
        </figure>
      )}
      {m.omitted_categories.length > 0 && <p class="hint">{s.omitted(m.omitted_categories.join(', '))}</p>}
      {m.status_history && m.status_history.length > 0 && (
        <section aria-labelledby="history">
          <h2 id="history">{s.history}</h2>
          <ol>
            {m.status_history.map((h) => (
              <li key={h.id}>
                {h.changed_at.slice(0, 10)}: {h.old_status ? `${h.old_status} → ` : ''}
                {h.new_status}
              </li>
            ))}
          </ol>
        </section>
      )}
      {m.documents && m.documents.length > 0 && (
        <section aria-labelledby="docs">
          <h2 id="docs">{s.documents}</h2>
          <ul>
            {m.documents.map((d) => (
              <li key={d.id}>
                {d.upload_date} · {d.document_type} · {d.name}{' '}
                <button type="button" onClick={() => open(d.id)}>
                  {s.openDocument}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="similar">
        <h2 id="similar">{s.similar}</h2>
        {similar.length ? (
          <ul>
            {similar.map((r) => (
              <li key={r.application_number}>
                <Link href={`/marks/${r.application_number}/`}>{r.word_mark || r.application_number}</Link> · {r.application_number} ·{' '}
                {r.status ?? '—'}
              </li>
            ))}
          </ul>
        ) : (
          <p>{s.noSimilar}</p>
        )}
      </section>
    </>
  );
}
