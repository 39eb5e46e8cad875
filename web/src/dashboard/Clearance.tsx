import { useEffect, useState } from 'preact/hooks';
import type { operations } from '../lib/openapi.gen.ts';
import { Link } from '../lib/router.tsx';
import { dash, errorText, formBody } from './client.ts';
import { ErrorLine, Pager } from './parts.tsx';
import { useDashStrings } from './strings.ts';

type Result = operations['clearance']['responses'][200]['content']['application/json'];
const PAGE = 50;

/** A risk level as a badge: the word itself is the message, the colour only repeats it. */
export function RiskBadge({ level }: { level: string }) {
  const s = useDashStrings();
  return <span class={`dash-risk dash-risk-${level.toLowerCase()}`}>{s.riskWord(level)}</span>;
}

/**
 * A clearance's or batch clearance's report (fetched with the session), handed to the browser as a download. Returns the error answered, or null.
 */
export async function downloadReport(jobId: string, kind: 'pdf' | 'xlsx'): Promise<unknown> {
  const at = kind === 'pdf' ? '/v1/reports/clearance/{job_id}/pdf/' : '/v1/reports/clearance/{job_id}/xlsx/';
  const { data, error } = await dash.GET(at, { params: { path: { job_id: jobId } }, parseAs: 'blob' });
  if (!data) return error ?? {};
  const a = document.createElement('a');
  a.href = URL.createObjectURL(data);
  a.download = `clearance-${jobId}.${kind}`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
  return null;
}

/** Clearance of a proposed mark: name, classes and an optional logo; conflicts with risk, reasons and both logos side by side. */
export function Clearance() {
  const s = useDashStrings();
  const [result, setResult] = useState<Result | null>(null);
  const [logo, setLogo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => () => void (logo && URL.revokeObjectURL(logo)), [logo]);

  async function run(e: Event) {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const file = f.get('logo');
    const upload = file instanceof File && file.size > 0 ? file : undefined;
    const word = String(f.get('word_mark') ?? '').trim();
    const classes = String(f.get('classes') ?? '').trim();
    const goods = String(f.get('goods_services') ?? '').trim();
    setLogo(upload ? URL.createObjectURL(upload) : null);
    setBusy(true);
    const { data, error } = await dash.POST('/v1/clearance/', {
      // The generated type asks for the fields the server defaults (the schema's output side): sent as their defaults.
      body: { status: 'live,pending', limit: PAGE, offset: 0, ...(classes ? { classes } : {}), ...(word ? { word_mark: word } : {}) },
      bodySerializer: () =>
        formBody({
          word_mark: word,
          classes: classes || undefined,
          goods_services: goods || undefined,
          status: 'live,pending',
          limit: String(PAGE),
          offset: '0',
          uploaded_file: upload,
        }),
    });
    setBusy(false);
    setResult(data ?? null);
    setError(data ? null : errorText(error, s.failed));
  }

  /** Another page of the conflicts, read from what the clearance kept (free: nothing is screened again). */
  async function turn(offset: number) {
    if (!result) return;
    const { data, error } = await dash.GET('/v1/clearance/{clearance_id}/', {
      params: { path: { clearance_id: result.clearance_id }, query: { limit: PAGE, offset } },
    });
    if (data) setResult(data);
    setError(data ? null : errorText(error, s.failed));
  }

  async function download(kind: 'pdf' | 'xlsx') {
    if (!result) return;
    const failed = await downloadReport(result.clearance_id, kind);
    if (failed) setError(errorText(failed, s.failed));
  }

  return (
    <>
      <form onSubmit={run} class="dash-form dash-panel" aria-labelledby="clear-title">
        <h2 id="clear-title">{s.runClearance}</h2>
        <label>
          {s.wordMark}
          <input name="word_mark" maxLength={200} />
        </label>
        <label>
          {s.classes}
          <input name="classes" inputMode="numeric" placeholder="29, 30" />
        </label>
        <label>
          {s.goodsServices}
          <textarea name="goods_services" maxLength={2000} rows={2} placeholder="basmati rice; tea" />
        </label>
        <label>
          {s.logo}
          <input name="logo" type="file" accept="image/png,image/jpeg,image/webp,image/gif" />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {s.runClearance}
        </button>
      </form>
      <ErrorLine error={error} />
      {busy && <p aria-busy="true">{s.loading}</p>}
      {result && (
        <section aria-labelledby="conflicts">
          {result.registrability && result.registrability.grounds.length > 0 && (
            <div class="dash-panel" role="note" aria-labelledby="grounds">
              <h2 id="grounds">{s.grounds}</h2>
              <ul>
                {result.registrability.grounds.map((g) => (
                  <li key={`${g.ground}-${g.matched}`}>
                    <strong>{g.matched}</strong>: {g.reason} <span class="hint">({g.basis})</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {result.classes_from_goods && result.classes_from_goods.length > 0 && (
            <div class="dash-panel" role="note" aria-labelledby="from-goods">
              <h2 id="from-goods">{s.fromGoods}</h2>
              <ul>
                {result.classes_from_goods.map((g) => (
                  <li key={g.class_number}>
                    <strong>
                      {s.klass} {g.class_number}
                    </strong>
                    : {g.matched.map((m) => `${m.phrase} (${m.item})`).join('; ')}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <h2 id="conflicts">{s.conflicts(result.count)}</h2>
          <div class="dash-row">
            <button type="button" onClick={() => download('pdf')}>
              {s.downloadPdf}
            </button>
            <button type="button" onClick={() => download('xlsx')}>
              {s.downloadXlsx}
            </button>
          </div>
          <ol class="dash-conflicts">
            {result.results.map((r) => (
              <li key={`${r.application_number}-${r.class_number}`} class="dash-panel">
                <p>
                  <RiskBadge level={r.risk_level} />{' '}
                  <strong>
                    <Link href={`/marks/${r.application_number}/`}>{r.word_mark || r.application_number}</Link>
                  </strong>{' '}
                  · {s.number} {r.application_number} · {s.klass} {r.class_number} · {r.status} · {s.similarity}{' '}
                  {Math.round(r.overall_similarity_score)}
                </p>
                {(logo || r.logo_url) && (
                  <div class="dash-logos">
                    {logo && (
                      <figure>
                        <img src={logo} alt={s.yourLogo} width={96} height={96} />
                        <figcaption>{s.yourLogo}</figcaption>
                      </figure>
                    )}
                    {r.logo_url && (
                      <figure>
                        <img src={r.logo_url.url} alt={`${s.theirLogo}: ${r.word_mark}`} width={96} height={96} loading="lazy" />
                        <figcaption>{s.theirLogo}</figcaption>
                      </figure>
                    )}
                  </div>
                )}
                {r.goods_services && (
                  <p class="hint">
                    {s.covers}: {r.goods_services}
                  </p>
                )}
                <h3 class="visually-hidden">{s.reasons}</h3>
                <ul>
                  {r.reasons.map((why) => (
                    <li key={why}>{why}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
          <Pager offset={result.query.offset} shown={result.results.length} count={result.count} page={PAGE} onTurn={turn} />
        </section>
      )}
    </>
  );
}
