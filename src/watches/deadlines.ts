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

/** A hit as the mail digest and the calendar feed list it: the mark hit, its risk, the watch's words and the deadline. */
export interface HitLine {
  id: string;
  application_number: string;
  word_mark: string;
  class_number: number;
  risk_level: string;
  overall_similarity_score: number | null;
  state: string;
  /** The watch's words (null for a logo watch). */
  watched: string | null;
  deadline: string | null;
}

/** HitLine's columns, of watch_hits h, watches w and the advertising journal j. */
export const HIT_LINE_SQL = `h.id, h.application_number, h.result->>'word_mark' as word_mark,
  (h.result->>'class_number')::int as class_number, h.risk_level,
  (h.result->>'overall_similarity_score')::float8 as overall_similarity_score, h.state, w.word_mark as watched,
  ${isoDate(deadlineSql('j.publication_date'))} as deadline`;
