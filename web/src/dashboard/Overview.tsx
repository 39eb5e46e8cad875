import { useEffect, useState } from 'preact/hooks';
import { formatNumber, useLang } from '../lib/i18n.tsx';
import { dash, errorText, RESOURCES, type Schemas } from './client.ts';
import { NewSecret } from './parts.tsx';
import { type DashStrings, useDashStrings } from './strings.ts';

type Usage = Schemas['Usage'];

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '—');

/** Horizontal bars, one a resource, of the share of its monthly limit used: inline SVG, the table below says the same in numbers. */
function UsageChart({ usage, s }: { usage: Usage; s: DashStrings }) {
  const row = 28;
  const labelW = 130;
  const barW = 240;
  return (
    <svg
      class="dash-chart"
      viewBox={`0 0 ${labelW + barW + 60} ${row * RESOURCES.length}`}
      role="img"
      aria-label={s.usageChart(usage.month)}
    >
      {RESOURCES.map((r, i) => {
        const m = usage.usage[r];
        const share = m.limit > 0 ? Math.min(1, m.used / m.limit) : 0;
        const y = i * row;
        return (
          <g key={r}>
            <text x={0} y={y + 18} class="dash-chart-label">
              {s[`r_${r}`]}
            </text>
            <rect x={labelW} y={y + 6} width={barW} height={16} class="dash-chart-track" />
            <rect
              x={labelW}
              y={y + 6}
              width={Math.max(share > 0 ? 2 : 0, share * barW)}
              height={16}
              class={share >= 0.9 ? 'dash-chart-hot' : 'dash-chart-bar'}
            />
            <text x={labelW + barW + 6} y={y + 18} class="dash-chart-label">
              {`${Math.round(share * 100)}%`}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** Plan, subscription and trial end, and this month's use per resource with a chart. */
export function Overview({ firstKey }: { firstKey: string | null }) {
  const s = useDashStrings();
  const { lang } = useLang();
  const [usage, setUsage] = useState<Usage | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    dash.GET('/user/v1/usage/').then(({ data, error }) => (data ? setUsage(data) : setError(errorText(error, s.failed))));
  }, []);
  const n = (x: number) => formatNumber(x, lang);
  return (
    <>
      {firstKey && <NewSecret label={s.firstKey} value={firstKey} />}
      {error && (
        <p role="alert" class="alert">
          {error}
        </p>
      )}
      {!usage && !error && <p aria-busy="true">{s.loading}</p>}
      {usage && (
        <>
          <dl class="dash-facts">
            <dt>{s.plan}</dt>
            <dd>{usage.plan.name}</dd>
            <dt>{s.status}</dt>
            <dd>
              {usage.subscription.status} ({usage.subscription.active ? s.active : s.inactive})
            </dd>
            <dt>{usage.subscription.status === 'trial' ? s.trialEnds : s.expires}</dt>
            <dd>{day(usage.subscription.expires_at)}</dd>
            <dt>{s.month}</dt>
            <dd>{usage.month}</dd>
            <dt>{s.resets}</dt>
            <dd>{day(usage.resets_at)}</dd>
          </dl>
          <UsageChart usage={usage} s={s} />
          <table class="dash-table">
            <caption class="visually-hidden">{s.usageChart(usage.month)}</caption>
            <thead>
              <tr>
                <th scope="col">{s.resource}</th>
                <th scope="col">{s.used}</th>
                <th scope="col">{s.limit}</th>
                <th scope="col">{s.remaining}</th>
              </tr>
            </thead>
            <tbody>
              {RESOURCES.map((r) => (
                <tr key={r}>
                  <th scope="row">{s[`r_${r}`]}</th>
                  <td>{n(usage.usage[r].used)}</td>
                  <td>{n(usage.usage[r].limit)}</td>
                  <td>{n(usage.usage[r].remaining)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
