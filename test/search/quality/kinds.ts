// What a labelled query tests, and its shape. Kept apart from queries.ts so that the files of
// queries can use it while queries.ts gathers them.

export const KINDS = [
  'exact',
  'partial',
  'misspelling',
  'sound_alike',
  'hinglish',
  'compound_split',
  'compound_join',
  'digit_word',
  'word_order',
  'article',
  'word_absent',
  'joined_long',
  'split_long',
  'short_typo',
  'first_word',
  'last_word',
  'other_script',
  'clearance_multiword',
] as const;
export type Kind = (typeof KINDS)[number];

export interface Query {
  q: string;
  /** Application numbers a trade mark examiner expects among the first ten results. */
  expect: number[];
  kind: Kind;
}

export const of = (kind: Kind, rows: [q: string, expect: number[]][]): Query[] => rows.map(([q, expect]) => ({ q, expect, kind }));
