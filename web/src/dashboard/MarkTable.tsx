import { Link } from '../lib/router.tsx';
import type { Schemas } from './client.ts';
import { useDashStrings } from './strings.ts';

type Summary = Pick<
  Schemas['TrademarkSummary'],
  'application_number' | 'word_mark' | 'class_number' | 'status' | 'application_date' | 'proprietor_name' | 'owner_id'
>;

/** Marks as search and an owner's page list them: each linked to its page, its proprietor to its owner's. */
export function MarkTable({ rows, caption }: { rows: Summary[]; caption: string }) {
  const s = useDashStrings();
  return (
    <table class="dash-table">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{s.mark}</th>
          <th scope="col">{s.klass}</th>
          <th scope="col">{s.status}</th>
          <th scope="col">{s.date}</th>
          <th scope="col">{s.owner}</th>
          <th scope="col">{s.number}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.application_number}-${r.class_number}`}>
            <th scope="row">
              <Link href={`/marks/${r.application_number}/`}>{r.word_mark || '—'}</Link>
            </th>
            <td>{r.class_number}</td>
            <td>{r.status}</td>
            <td>{r.application_date}</td>
            <td>{r.owner_id ? <Link href={`/app/owners/${r.owner_id}/`}>{r.proprietor_name}</Link> : r.proprietor_name || '—'}</td>
            <td>{r.application_number}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
