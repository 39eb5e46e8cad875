/** Connecting words of English and Hindi marks: they weigh little whatever the register says. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'THE',
  'A',
  'AN',
  'OF',
  'AND',
  'N',
  'AUR',
  'KA',
  'KE',
  'KI',
  'DE',
  'LA',
  'LE',
  'EN',
]);

/** How many of the query's first words are connecting words (THE, A, …): THE HOUSE OF ROYAL has one. */
export function leadingArticles(words: string[]): number {
  let lead = 0;
  while (lead < words.length && STOP_WORDS.has(words[lead])) lead++;
  return lead;
}
