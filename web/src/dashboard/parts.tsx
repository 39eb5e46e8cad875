import { useDashStrings } from './strings.ts';

/** A secret shown once (a new key or signing secret), selectable. */
export function NewSecret({ label, value }: { label: string; value: string }) {
  const s = useDashStrings();
  return (
    <div class="dash-secret" role="status">
      <label>
        {label}
        <input readOnly value={value} class="dash-mono" onFocus={(e) => e.currentTarget.select()} />
      </label>
      <p>{s.shownOnce}</p>
    </div>
  );
}

export function ErrorLine({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" class="alert">
      {error}
    </p>
  ) : null;
}

/** Where a page of a list stands ("51–100 of 228"), with the way to the pages before and after it. */
export function Pager(p: { offset: number; shown: number; count: number; page: number; onTurn: (offset: number) => void }) {
  const s = useDashStrings();
  if (p.count === 0) return null;
  return (
    <nav class="dash-row dash-pager" aria-label={s.pages}>
      <p role="status">{s.range(p.offset + 1, p.offset + p.shown, p.count)}</p>
      {p.offset > 0 && (
        <button type="button" onClick={() => p.onTurn(Math.max(0, p.offset - p.page))}>
          {s.prev}
        </button>
      )}
      {p.offset + p.shown < p.count && (
        <button type="button" onClick={() => p.onTurn(p.offset + p.page)}>
          {s.next}
        </button>
      )}
    </nav>
  );
}
