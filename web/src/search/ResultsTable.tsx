import type { Schemas } from '../lib/api.ts';
import { useSearchStrings } from './strings.ts';

/** The page's marks: the fields the free search makes public. */
export function ResultsTable({ results }: { results: Schemas['PublicSearchResult'][] }) {
  const s = useSearchStrings();
  return (
    <div class="table-wrap">
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
                {r.word_mark ?? '—'}
              </th>
              <td>{r.class_number ?? '—'}</td>
              <td>{r.status ?? '—'}</td>
              <td class="nowrap">{r.application_date ?? '—'}</td>
              <td>{r.application_number}</td>
              <td>{r.state ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
