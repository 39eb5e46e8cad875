/** `sunrise-foods-1234567`; a mark without (Latin) words gets `device-mark-…` or `mark-…`. */
export function slugOf(wordMark: string, applicationNumber: string): string {
  let s = wordMark;
  // Only non-ASCII marks pay for Unicode normalisation (accents dropped: "Café" -> "cafe").
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range, NUL included, is what this tests for
  if (/[^\x00-\x7f]/.test(s)) s = s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  s = s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (s.length > 60) s = s.slice(0, 60).replace(/-+$/, '');
  if (!s) s = wordMark.trim() === '' ? 'device-mark' : 'mark';
  return `${s}-${applicationNumber}`;
}
