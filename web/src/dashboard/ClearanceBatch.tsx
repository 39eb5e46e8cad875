import { useEffect, useState } from 'preact/hooks';
import { downloadReport, RiskBadge } from './Clearance.tsx';
import { dash, errorText, type Schemas } from './client.ts';
import { ErrorLine } from './parts.tsx';
import { useDashStrings } from './strings.ts';

type Job = Schemas['ClearanceBatchJob'];
type Answer = Schemas['ClearanceBatchAnswer'];
/** Proposals' answers read per request once the job has ended: the most the API gives at once. */
const ANSWERS_PAGE = 100;

const ENDED = new Set(['completed', 'failed']);
const RISKS = ['High', 'Medium', 'Low'];

/** The riskiest level among a proposal's conflicts (the answer lists them best match first, not by risk). */
const topRisk = (levels: string[]) => RISKS.find((r) => levels.includes(r));

/**
 * Batch clearance: names one per line, screened in the same classes by the workers
 * (POST /v1/clearance/batch/); progress polled from the job until it ends, then each name's
 * outcome and the whole job's PDF and Excel reports.
 */
export function ClearanceBatch() {
  const s = useDashStrings();
  const [job, setJob] = useState<Job | null>(null);
  const [answers, setAnswers] = useState<Answer[]>([]);
  const [names, setNames] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const jobId = job?.job_id;
  const ended = job ? ENDED.has(job.status) : false;

  // Polls the job once a second until it has ended, and stops when the page goes: each answer is a new
  // job object, which sets the next poll (an error stops it, and says so).
  useEffect(() => {
    if (!jobId || ended) return;
    let gone = false;
    const timer = setTimeout(async () => {
      const { data, error } = await dash.GET('/v1/clearance/batch/{job_id}/', {
        params: { path: { job_id: jobId }, query: { limit: 1, offset: 0 } },
      });
      if (gone) return;
      if (data) setJob(data);
      else setError(errorText(error, s.failed));
    }, 1000);
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [job]);

  // Once the job has ended, every proposal's answer, a page at a time, so the table lists them all.
  useEffect(() => {
    if (!jobId || !ended) return;
    let gone = false;
    (async () => {
      const all: Answer[] = [];
      for (let offset = 0; ; offset += ANSWERS_PAGE) {
        const { data, error } = await dash.GET('/v1/clearance/batch/{job_id}/', {
          params: { path: { job_id: jobId }, query: { limit: ANSWERS_PAGE, offset } },
        });
        if (gone) return;
        if (!data?.results) return setError(errorText(error, s.failed));
        all.push(...data.results.proposals);
        setAnswers([...all]);
        if (offset + ANSWERS_PAGE >= data.results.count) return;
      }
    })();
    return () => {
      gone = true;
    };
  }, [jobId, ended]);

  async function run(e: Event) {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const list = String(f.get('names') ?? '')
      .split('\n')
      .map((n) => n.trim())
      .filter(Boolean);
    const classes = String(f.get('classes') ?? '').trim();
    setBusy(true);
    setAnswers([]);
    const { data, error } = await dash.POST('/v1/clearance/batch/', {
      // The generated type asks for the fields the server defaults (the schema's output side): sent as their defaults.
      body: { proposals: list.map((word_mark) => ({ word_mark, classes, status: 'live,pending', limit: 50, offset: 0 })) },
    });
    setBusy(false);
    setNames(list);
    setError(data ? null : errorText(error, s.failed));
    setJob(
      data
        ? {
            ...data,
            errors: 0,
            credits: { clearances: 0, logo_searches: 0 },
            created_at: '',
            started_at: null,
            finished_at: null,
            results: null,
          }
        : null,
    );
  }

  async function download(kind: 'pdf' | 'xlsx') {
    if (!jobId) return;
    const failed = await downloadReport(jobId, kind);
    if (failed) setError(errorText(failed, s.failed));
  }

  return (
    <section class="dash-panel" aria-labelledby="batch-title">
      <h2 id="batch-title">{s.batchTitle}</h2>
      <form onSubmit={run} class="dash-form">
        <label>
          {s.batchNames}
          <textarea name="names" required rows={5} maxLength={100_000} />
        </label>
        <label>
          {s.batchClasses}
          <input name="classes" required inputMode="numeric" placeholder="29, 30" />
        </label>
        <button type="submit" class="primary" disabled={busy || (job !== null && !ended)}>
          {s.runBatch}
        </button>
      </form>
      <ErrorLine error={error} />
      {job && (
        <div aria-live="polite">
          <label>
            {s.batchProgress(job.done, job.total)}
            <progress max={job.total} value={job.done} />
          </label>
          {ended && <p role="status">{s.batchEnded(job.status, job.errors)}</p>}
        </div>
      )}
      {job && ended && (
        <>
          <div class="dash-row">
            <button type="button" onClick={() => download('pdf')}>
              {s.batchPdf}
            </button>
            <button type="button" onClick={() => download('xlsx')}>
              {s.batchXlsx}
            </button>
          </div>
          {answers.length > 0 && (
            <table class="dash-table dash-cards">
              <caption>
                {s.batchResults} · {s.namesListed(answers.length, job.total)}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{s.mark}</th>
                  <th scope="col">{s.risk}</th>
                  <th scope="col">{s.batchOutcome}</th>
                </tr>
              </thead>
              <tbody>
                {answers.map((p) => {
                  // The answer's overall risk counts a well-known mark too; answers kept from before it, their conflicts.
                  const risk = p.result ? (p.result.overall_risk ?? topRisk(p.result.results.map((r) => r.risk_level))) : undefined;
                  return (
                    <tr key={p.index}>
                      <td data-label={s.mark}>{names[p.index] ?? p.index + 1}</td>
                      <td data-label={s.risk}>{risk ? <RiskBadge level={risk} /> : '—'}</td>
                      <td data-label={s.batchOutcome}>
                        {p.result
                          ? [s.conflicts(p.result.count), ...(p.result.registrability?.grounds ?? []).map((g) => g.matched)].join(' · ')
                          : (p.error?.message ?? p.status)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
