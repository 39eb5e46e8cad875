import type { Schemas } from '../lib/api.ts';
import { Link } from '../lib/router.tsx';
import { useSearchStrings } from './strings.ts';

/** The page's marks: the fields the free search makes public. */
export function ResultsTable({ results }: { results: Schemas['PublicSearchResult'][] }) {
  const s = useSearchStrings();
  return (
    // A phone scrolls the table sideways in its box: focusable and named, so the keyboard can scroll it too.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
    <section class="table-wrap" aria-label={s.results} tabIndex={0}>
      <table class="results">
        <caption class="visually-hidden">{s.results}</caption>
        <thead>
          <tr>
            <th scope="col">{s.colMark}</th>
            <th scope="col">{s.colClass}</th>
            <th scope="col">{s.colStatus}</th>
            <th scope="col">{s.colDate}</th>
            <th scope="col">{s.colNumber}</th>
            <th scope="col">{s.colState}</th>
          </tr>
        </thead>
        <tbody>
          {results.map((r) => (
            <tr key={`${r.application_number}-${r.class_number}`}>
              <th scope="row" class="mark">
                <Link href={`/marks/${r.application_number}/`}>{r.word_mark || r.application_number}</Link>
              </th>
              <td data-label={s.colClass}>{r.class_number ?? '—'}</td>
              <td data-label={s.colStatus}>{r.status ?? '—'}</td>
              <td data-label={s.colDate} class="nowrap">
                {r.application_date ?? '—'}
              </td>
              <td data-label={s.colNumber}>{r.application_number}</td>
              <td data-label={s.colState}>{r.state ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
