// Calendar helpers. Dates are day numbers (days since 1970-01-01, UTC) so that arithmetic is integer
// and formatting is a table lookup: tens of millions of dates are written per run.

const MS_PER_DAY = 86_400_000;

export function dayOf(iso: string): number {
  return Math.round(Date.parse(`${iso}T00:00:00Z`) / MS_PER_DAY);
}

/**
 * The registry snapshot the baseline describes (a Sunday); the delta is the Monday after, a Journal
 * day, so the delta can publish a new Journal. Fixed, not the clock: output must be reproducible.
 */
export const AS_OF = dayOf('2026-11-15');
export const DELTA_DAY = AS_OF + 1;

/** Earliest application date in the generated register. */
export const FIRST_DAY = dayOf('1942-01-01');

// Trade Marks Journal No. 2065 was published on Monday 15-08-2022; the Journal is weekly.
const JOURNAL_ANCHOR_NUMBER = 2065;
const JOURNAL_ANCHOR_DAY = dayOf('2022-08-15');
export const FIRST_JOURNAL = 1;

export function journalDay(n: number): number {
  return JOURNAL_ANCHOR_DAY + (n - JOURNAL_ANCHOR_NUMBER) * 7;
}

/** The first journal published on or after `day` (may be beyond the last baseline journal). */
export function journalOnOrAfter(day: number): number {
  return JOURNAL_ANCHOR_NUMBER + Math.ceil((day - JOURNAL_ANCHOR_DAY) / 7);
}

/** Last journal in the baseline: the newest one published on or before the snapshot day. */
export const LAST_JOURNAL = JOURNAL_ANCHOR_NUMBER + Math.floor((AS_OF - JOURNAL_ANCHOR_DAY) / 7);
export const DELTA_JOURNAL = journalOnOrAfter(DELTA_DAY);

const TABLE_FROM = dayOf('1930-01-01');
const TABLE_TO = dayOf('2060-12-31');
let table: string[] | null = null;

/** `YYYY-MM-DD` for a day number. */
export function iso(day: number): string {
  if (table === null) {
    table = new Array<string>(TABLE_TO - TABLE_FROM + 1);
    for (let d = TABLE_FROM; d <= TABLE_TO; d++) table[d - TABLE_FROM] = new Date(d * MS_PER_DAY).toISOString().slice(0, 10);
  }
  if (day < TABLE_FROM || day > TABLE_TO) return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
  return table[day - TABLE_FROM];
}

// Registry staff work 09:30-18:00 IST, i.e. 04:00-12:30 UTC; one string per minute of that window.
const OFFICE_MINUTES = 510;
const CLOCK: string[] = [];
for (let m = 0; m < OFFICE_MINUTES; m++) {
  const t = 240 + m;
  CLOCK.push(`T${String(Math.floor(t / 60)).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}:00Z`);
}

/** ISO timestamp at `minute` (0..509) of the office day. */
export function stamp(day: number, minute: number): string {
  return iso(day) + CLOCK[minute < 0 ? 0 : minute >= OFFICE_MINUTES ? OFFICE_MINUTES - 1 : minute];
}

const YEAR_FROM = 1900;
const YEAR_START: number[] = [];
for (let y = YEAR_FROM; y <= 2200; y++) YEAR_START.push(Math.round(Date.UTC(y, 0, 1) / MS_PER_DAY));
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

export function yearOf(day: number): number {
  let y = 1970 + Math.floor(day / 365.2425);
  while (YEAR_START[y + 1 - YEAR_FROM] <= day) y++;
  while (YEAR_START[y - YEAR_FROM] > day) y--;
  return y;
}

/** Adds whole years, turning 29 February into 28 February like the registry's renewal dates. */
export function addYears(day: number, years: number): number {
  const y = yearOf(day);
  const t = y + years;
  let doy = day - YEAR_START[y - YEAR_FROM];
  if (leap(y)) {
    if (doy === 59) return YEAR_START[t - YEAR_FROM] + 58;
    if (doy > 59) doy--;
  }
  return YEAR_START[t - YEAR_FROM] + doy + (leap(t) && doy >= 59 ? 1 : 0);
}
