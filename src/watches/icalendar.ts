import type { DeadlineRow } from './calendarRepository.ts';

// The calendar feed as iCalendar (RFC 5545): one all-day event per open hit on its opposition deadline. Lines end in
// CRLF and are folded at 75 octets; text values escape backslash, semicolon, comma and newlines.

const escapeText = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** A content line folded at 75 octets (a continuation starts with a space), never inside a UTF-8 sequence. */
function fold(line: string): string {
  const out: string[] = [];
  let part = '';
  let octets = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch);
    if (octets + n > (out.length ? 74 : 75)) {
      out.push(part);
      part = '';
      octets = 0;
    }
    part += ch;
    octets += n;
  }
  out.push(part);
  return out.join('\r\n ');
}

const compact = (iso: string) => iso.replaceAll('-', '');
const nextDay = (iso: string) => new Date(Date.parse(iso) + 86_400_000).toISOString().slice(0, 10);

function event(r: DeadlineRow, host: string, markUrl: (app: string) => string): string[] {
  const score = r.overall_similarity_score === null ? '' : ` (${r.overall_similarity_score})`;
  const description = [
    `${r.word_mark}, application ${r.application_number}, class ${r.class_number}: ${r.risk_level} risk${score}` +
      (r.watched ? ` against your watch ${r.watched}.` : ' against your watch.'),
    `Advertised in Trade Marks Journal ${r.journal_number} of ${r.publication_date}.`,
    `Opposition: three months end on ${r.unextended}; with the most the Registrar may extend, the last day is ${r.deadline} ` +
      '(Trade Marks Act 1999, s.21(1)).',
    `Hit state: ${r.state}. ${markUrl(r.application_number)}`,
  ].join('\n');
  return [
    'BEGIN:VEVENT',
    `UID:watch-hit-${r.id}@${host}`,
    `DTSTAMP:${r.updated_at}`,
    `DTSTART;VALUE=DATE:${compact(r.deadline)}`,
    `DTEND;VALUE=DATE:${compact(nextDay(r.deadline))}`,
    `SUMMARY:${escapeText(`Opposition deadline: ${r.word_mark} (${r.application_number}, class ${r.class_number})`)}`,
    `DESCRIPTION:${escapeText(description)}`,
    `URL:${markUrl(r.application_number)}`,
    'TRANSP:TRANSPARENT',
    'END:VEVENT',
  ];
}

export function calendarOf(rows: DeadlineRow[], host: string, markUrl: (app: string) => string): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Nishaan//Watch opposition deadlines//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'X-WR-CALNAME:Nishaan opposition deadlines',
    ...rows.flatMap((r) => event(r, host, markUrl)),
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
