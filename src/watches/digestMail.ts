import type { DigestFrequency, DigestHit } from './digestRepository.ts';

// The mail digest of watch hits (docs/watches.md), in plain text: the new hits, highest risk first, and the open
// hits whose opposition deadline is near. Nothing new and nothing near: no mail.

/** At most this many hits are listed per part; the rest are counted, and are in the inbox. */
const LISTED = 100;

const score = (h: DigestHit) => (h.overall_similarity_score === null ? '' : ` ${h.overall_similarity_score}`);
// A filing by a followed owner has no risk and no score of likeness.
const level = (h: DigestHit) => (h.risk_level ? `${h.risk_level}${score(h)}` : 'Filed by an owner you follow');
const line = (h: DigestHit) =>
  `- ${level(h)}: ${h.word_mark} (application ${h.application_number}, class ${h.class_number})` +
  `${h.watched ? `, against your watch ${h.watched}` : ''}; ` +
  (h.deadline ? `opposition deadline ${h.deadline}` : 'not advertised yet (no opposition deadline)');

function part(title: string, hits: DigestHit[]): string[] {
  if (!hits.length) return [];
  const more = hits.length - LISTED;
  return ['', title, ...hits.slice(0, LISTED).map(line), ...(more > 0 ? [`… and ${more} more in your inbox.`] : [])];
}

export function digestMail(
  frequency: DigestFrequency,
  fresh: DigestHit[],
  approaching: DigestHit[],
  links: { inbox: string; settings: string },
): { subject: string; body: string } | null {
  if (!fresh.length && !approaching.length) return null;
  const high = fresh.filter((h) => h.risk_level === 'High').length;
  const counts = [
    fresh.length ? `${fresh.length} new watch hit${fresh.length > 1 ? 's' : ''}${high ? ` (${high} High)` : ''}` : '',
    approaching.length ? `${approaching.length} opposition deadline${approaching.length > 1 ? 's' : ''} within 30 days` : '',
  ].filter(Boolean);
  return {
    subject: `Nishaan: ${counts.join(', ')}`,
    body: [
      'Hello,',
      '',
      `Your ${frequency} digest of similarity watch hits.`,
      ...part('New hits:', fresh),
      ...part(
        'Opposition deadlines within 30 days (open hits; s.21(1) of the Trade Marks Act 1999: four months from the journal):',
        approaching,
      ),
      '',
      `Triage them in your watch inbox: ${links.inbox}`,
      `Change or stop this digest: ${links.settings}`,
    ].join('\n'),
  };
}
