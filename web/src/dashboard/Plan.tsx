import { useEffect, useState } from 'preact/hooks';
import { CATEGORY_WORDS } from '../lib/glossary.ts';
import { formatNumber, useLang } from '../lib/i18n.tsx';
import { dash, errorText, RESOURCES, type Schemas } from './client.ts';
import { ErrorLine } from './parts.tsx';
import { type DashStrings, useDashStrings } from './strings.ts';

type Plan = Schemas['PublicPlan'];
type Feature = keyof Plan['features'];
const FEATURES: Feature[] = ['clearance', 'watches', 'webhooks', 'bulk_search', 'bulk_logo'];

const categoryWord = (c: string, lang: 'en' | 'hi') => CATEGORY_WORDS[c]?.[lang] ?? c;

let known: Promise<{ plans: Schemas['PlanList']; mine: Schemas['Usage'] } | null> | null = null;

/** The plan list (public) and the caller's own plan, read once per page load: what the plan page and the feature notes show. */
export function loadPlans() {
  known ??= Promise.all([dash.GET('/user/v1/plans/'), dash.GET('/user/v1/usage/')]).then(([p, u]) =>
    p.data && u.data ? { plans: p.data, mine: u.data } : null,
  );
  return known;
}

/**
 * Where a page's feature is missing from the caller's plan: which plans have it, with the way to the plan page.
 * Nothing while unknown, or when the plan has it (a custom plan, not listed, is taken to have it: the API decides).
 */
export function FeatureNote({ feature }: { feature: Feature }) {
  const s = useDashStrings();
  const [missing, setMissing] = useState<{ plan: string; with: string[] } | null>(null);
  useEffect(() => {
    loadPlans().then((k) => {
      const mine = k?.plans.plans.find((p) => p.code === k.mine.plan.code);
      if (k && mine && !mine.features[feature])
        setMissing({ plan: mine.name, with: k.plans.plans.filter((p) => p.features[feature]).map((p) => p.name) });
    });
  }, [feature]);
  if (!missing) return null;
  return (
    <p class="dash-note" role="note">
      {s.notOnPlan(s[`f_${feature}`], missing.plan, missing.with.join(', '))} <a href="/app/plan/">{s.seePlans}</a>
    </p>
  );
}

function cells(p: Plan, s: DashStrings, n: (x: number) => string, lang: 'en' | 'hi'): [string, string][] {
  const yes = (b: boolean) => (b ? s.yes : s.no);
  return [
    ...FEATURES.map((f) => [s[`f_${f}`], yes(p.features[f])] as [string, string]),
    ...RESOURCES.map((r) => [s.perMonth(s[`r_${r}`]), n(p.quotas[r])] as [string, string]),
    [s.trialClearances, n(p.trial_quotas.clearances)],
    [s.concurrency, n(p.concurrency)],
    [s.bulkSearchItems, p.bulk_search_limit ? n(p.bulk_search_limit) : s.no],
    [s.bulkLogoItems, p.bulk_logo_limit ? n(p.bulk_logo_limit) : s.no],
    [s.monitoredMarks, p.monitored_marks_limit === null ? s.unlimited : n(p.monitored_marks_limit)],
    [s.categories, p.categories.map((c) => categoryWord(c, lang)).join(', ')],
  ];
}

/** The caller's plan beside every plan on sale: features, monthly quotas (and the trial's), limits, categories. */
export function PlanPage() {
  const s = useDashStrings();
  const { lang } = useLang();
  const [k, setK] = useState<Awaited<ReturnType<typeof loadPlans>>>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    loadPlans().then((x) => (x ? setK(x) : setError(errorText(null, s.failed))));
  }, []);
  const n = (x: number) => formatNumber(x, lang);
  if (error) return <ErrorLine error={error} />;
  if (!k) return <p aria-busy="true">{s.loading}</p>;
  const mine = k.mine.plan.code;
  const rows = k.plans.plans.map((p) => cells(p, s, n, lang));
  return (
    <>
      <p>
        {s.yourPlan}: <strong>{k.mine.plan.name}</strong> ({k.mine.subscription.status})
        {!k.plans.plans.some((p) => p.code === mine) && ` · ${s.customPlan}`}
      </p>
      <p class="hint">{s.trialNote(k.plans.trial_days)}</p>
      <div class="dash-plans">
        {k.plans.plans.map((p, i) => (
          <section key={p.code} class={`dash-panel${p.code === mine ? ' dash-mine' : ''}`} aria-labelledby={`plan-${p.code}`}>
            <h2 id={`plan-${p.code}`}>
              {p.name}
              {p.code === mine && <span class="dash-tag"> · {s.yourPlan}</span>}
            </h2>
            <dl class="dash-facts">
              {rows[i].map(([label, value]) => (
                <>
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <p class="hint">{s.addOns(k.plans.add_ons.map((c) => categoryWord(c, lang)).join(', '))}</p>
    </>
  );
}
