import { isoDate } from '../db/sql.ts';

// The opposition deadline of an advertised mark, in SQL, so that every surface (the hits inbox, the events, the
// reminders, the calendar) counts it alike: s.21(1) of the Trade Marks Act 1999 allows three months from the
// journal's date of advertisement, and at most one more month in all; four months is the last day (docs/watches.md).

/** Months from the journal's publication date to the last day of opposition, and to the end of the unextended period. */
export const OPPOSITION_MONTHS = 4;
export const UNEXTENDED_MONTHS = 3;

/** The last day of opposition (a date) of a journal publication date column. */
export const deadlineSql = (publication: string, months = OPPOSITION_MONTHS) => `(${publication} + interval '${months} months')::date`;

/** The journal (alias j) as the API shows it, or null, and the two deadlines as YYYY-MM-DD, as jsonb fields. */
export const journalFieldsSql = (j: string) =>
  `jsonb_build_object('journal', case when ${j}.id is null then null else jsonb_build_object('id', ${j}.id,
     'journal_number', ${j}.journal_number, 'publication_date', ${isoDate(`${j}.publication_date`)}) end,
   'opposition_deadline', ${isoDate(deadlineSql(`${j}.publication_date`))},
   'opposition_deadline_unextended', ${isoDate(deadlineSql(`${j}.publication_date`, UNEXTENDED_MONTHS))})`;
