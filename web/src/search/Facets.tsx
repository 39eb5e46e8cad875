import type { Schemas } from '../lib/api.ts';
import { formatNumber, useLang } from '../lib/i18n.tsx';
import type { SearchState } from './query.ts';
import { useSearchStrings } from './strings.ts';

type Bucket = Record<string, number>[];

/** The answer's counts by class and status: each a button that narrows the search to it (again: widens). */
export function Facets(props: {
  answer: Schemas['PublicSearchResponse'];
  state: SearchState;
  titles: Map<number, string>;
  go(next: SearchState): void;
}) {
  const s = useSearchStrings();
  const { lang } = useLang();
  const { answer, state, go, titles } = props;
  const entries = (b: Bucket) => b.flatMap((o) => Object.entries(o)).slice(0, 12);
  const only = state.classes.length === 1 ? String(state.classes[0]) : '';
  return (
    <aside class="facets" aria-label={s.facets}>
      <h2>{s.facets}</h2>
      <h3 id="facet-class">{s.byClass}</h3>
      <ul aria-labelledby="facet-class">
        {entries(answer.groups.class_number).map(([value, count]) => {
          const on = only === value;
          const label = `${s.classLabel(Number(value), '')} (${formatNumber(count, lang)})`;
          return (
            <li key={value}>
              <button
                type="button"
                class="facet"
                aria-pressed={on}
                title={titles.get(Number(value))}
                onClick={() => go({ ...state, classes: on ? [] : [Number(value)], page: 1 })}
              >
                {label}
              </button>
            </li>
          );
        })}
      </ul>
      <h3 id="facet-status">{s.byStatus}</h3>
      <ul aria-labelledby="facet-status">
        {entries(answer.groups.status).map(([value, count]) => {
          const on = state.status === value;
          return (
            <li key={value}>
              <button type="button" class="facet" aria-pressed={on} onClick={() => go({ ...state, status: on ? '' : value, page: 1 })}>
                {value} ({formatNumber(count, lang)})
              </button>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
