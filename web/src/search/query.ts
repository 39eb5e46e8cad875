// The search a page shows, kept in its address (?q=&match=&classes=&status=&page=): a search can be
// shared, reloaded and gone back to.

export type Match = 'SMART' | 'EXACT';

export interface SearchState {
  q: string;
  match: Match;
  classes: number[];
  status: string;
  page: number;
}

/** Pages of the free search: 10 marks each, offsets up to PUBLIC_OFFSET_MAX (the API refuses further). */
export const PAGE_SIZE = 10;
export const MAX_PAGES = 10;

export function readState(search: string): SearchState {
  const p = new URLSearchParams(search);
  const classes = (p.get('classes') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 1 && n <= 45);
  const page = Number(p.get('page') ?? '1');
  return {
    q: p.get('q') ?? '',
    match: p.get('match') === 'EXACT' ? 'EXACT' : 'SMART',
    classes: [...new Set(classes)].sort((a, b) => a - b),
    status: p.get('status') ?? '',
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGES ? page : 1,
  };
}

export function writeState(s: SearchState): string {
  const p = new URLSearchParams();
  if (s.q) p.set('q', s.q);
  if (s.match !== 'SMART') p.set('match', s.match);
  if (s.classes.length) p.set('classes', s.classes.join(','));
  if (s.status) p.set('status', s.status);
  if (s.page > 1) p.set('page', String(s.page));
  const qs = p.toString();
  return qs ? `/?${qs}` : '/';
}
