import {
  AGENT_LABEL,
  APP_LINE,
  ASSOCIATED,
  type Corrigendum,
  HEADER,
  HEADINGS,
  IR_LINE,
  isoOf,
  type JournalEntry,
  type ListRow,
  OFFICES,
  PRIORITY_LINE,
  PROPOSED,
  type Section,
  SIZES,
  USED_SINCE,
} from './layout.ts';
import type { Line } from './read.ts';

// One journal page's lines read as what the page holds (src/ingest/journal/layout.ts): the header, a section heading,
// then an advertised entry, the rest of one (a continuation page), corrections, or rows of a list. An entry's word mark
// is the large type above the application line; the proprietor's and the agent's blocks are told into name, address
// and kind by line spacing (a paragraph's lines follow at 12 pt, paragraphs at 15); the Registry's labels mark the
// agent, the user detail, the association and the office; the goods and the conditions are the paragraphs after the
// office, split when the entry is complete (its goods may go on over the next pages).

export interface Header {
  journal_number: string;
  publication_date: string;
  class_number: number | null;
}

/** An entry as one page gives it: the paragraphs after the office are its tail, goods then conditions. */
export interface PageEntry extends Omit<JournalEntry, 'classes' | 'goods_services' | 'conditions'> {
  tail: string[];
}

export type PageContent =
  | { kind: 'entry'; entry: PageEntry }
  | { kind: 'continuation'; paragraphs: string[] }
  | { kind: 'corrigenda'; items: Corrigendum[] }
  | { kind: 'list'; rows: ListRow[] }
  /** Nothing below the header and heading: a section's title page. */
  | { kind: 'empty' }
  | { kind: 'refused'; reason: string };

export interface PageRead {
  header: Header | null;
  /** The section a heading on this page opens. */
  heading: Section | null;
  content: PageContent;
}

const near = (l: Line | undefined, size: number, band = 1) => l !== undefined && Math.abs(l.size - size) <= band;
const isLabel = (t: string) => AGENT_LABEL.test(t) || USED_SINCE.test(t) || PROPOSED.test(t) || ASSOCIATED.test(t);

/** Reads one page, given the section the pages before it opened. */
export function parsePage(all: Line[], section: Section): PageRead {
  // The printed page number: small type, digits alone, at the foot.
  const lines = all.filter((l, k) => !(k === all.length - 1 && l.size < SIZES.body - 1 && /^\d+$/.test(l.text)));
  let i = 0;
  const head = HEADER.exec(lines[0]?.text ?? '');
  const header = head
    ? { journal_number: head[1], publication_date: isoOf(head[2], head[3], head[4]), class_number: head[5] ? Number(head[5]) : null }
    : null;
  if (head) i++;
  let heading: Section | null = null;
  const h = lines[i] && lines[i].size >= SIZES.heading - 1.5 && lines[i].size < SIZES.wordMark - 3 ? headingOf(lines[i].text) : null;
  if (h) {
    heading = h;
    i++;
  }
  const rest = lines.slice(i);
  const at = heading ?? section;
  if (!header && !heading)
    return {
      header,
      heading,
      content: { kind: 'refused', reason: 'no journal header (Trade Marks Journal No: …, date) at the top of the page' },
    };
  if (!rest.length) return { header, heading, content: { kind: 'empty' } };
  if (at === 'registered') return { header, heading, content: registeredRows(rest) };
  if (at === 'renewed') return { header, heading, content: renewedRows(rest) };
  if (at === 'other') return { header, heading, content: { kind: 'empty' } };
  if (at === 'corrigenda' && !rest.some((l) => APP_LINE.test(l.text))) return { header, heading, content: corrections(rest) };
  if (!header?.class_number)
    return { header, heading, content: { kind: 'refused', reason: 'no class in the journal header of an entry page' } };
  return { header, heading, content: entryOf(rest, header as Header & { class_number: number }) };
}

function headingOf(text: string): Section | null {
  return HEADINGS.find((x) => x.words.test(text.trim()))?.section ?? null;
}

function entryOf(lines: Line[], header: Header & { class_number: number }): PageContent {
  const refuse = (reason: string): PageContent => ({ kind: 'refused', reason });
  let i = 0;
  const words: string[] = [];
  let priority: JournalEntry['priority'] = null;
  const takePriority = () => {
    const p = PRIORITY_LINE.exec(lines[i]?.text ?? '');
    if (!p) return false;
    priority = { date: isoOf(p[1], p[2], p[3]), number: p[4], country: p[5].trim() };
    i++;
    return true;
  };
  // The word mark's lines and the priority claim, in either order, above the application line.
  for (;;) {
    if (i < lines.length && lines[i].size >= SIZES.wordMark - 6) words.push(lines[i++].text);
    else if (!takePriority()) break;
  }
  const app = APP_LINE.exec(lines[i]?.text ?? '');
  if (!app) {
    // The header and body text alone: the goods of the entry before, going on over this page.
    if (!words.length && !priority && lines.every((l) => !isLabel(l.text))) return { kind: 'continuation', paragraphs: paragraphs(lines) };
    return refuse('no application number and filing date after the word mark');
  }
  i++;
  const ir = IR_LINE.exec(lines[i]?.text ?? '');
  if (ir) i++;
  takePriority();
  const block = (): string[] => {
    const start = i;
    while (i < lines.length && !isLabel(lines[i].text) && !near(lines[i], SIZES.label, 0.6)) i++;
    return paragraphs(lines.slice(start, i));
  };
  const owner = block();
  if (!owner.length) return refuse("no proprietor's name after the application number");
  let agent: JournalEntry['agent'] = null;
  if (AGENT_LABEL.test(lines[i]?.text ?? '')) {
    i++;
    const a = block();
    if (!a.length) return refuse("no agent's name after its label");
    agent = { name: a[0], address: a.slice(1) };
  }
  const used = USED_SINCE.exec(lines[i]?.text ?? '');
  if (!used && !PROPOSED.test(lines[i]?.text ?? '')) return refuse('no user detail (Used Since : … or Proposed to be Used)');
  i++;
  const associated: string[] = [];
  const assoc = ASSOCIATED.exec(lines[i]?.text ?? '');
  if (assoc) {
    let numbers = assoc[1];
    i++;
    // The numbers may run on over the lines below the label.
    while (i < lines.length && /^[\d,\s]+$/.test(lines[i].text)) numbers += ` ${lines[i++].text}`;
    associated.push(...(numbers.match(/\d{5,9}/g) ?? []));
  }
  const office = lines[i++]?.text as (typeof OFFICES)[number];
  if (!OFFICES.includes(office)) return refuse(`no registry office after the user detail (${OFFICES.join(', ')})`);
  return {
    kind: 'entry',
    entry: {
      journal_number: header.journal_number,
      publication_date: header.publication_date,
      class_number: header.class_number,
      word_mark: words.length ? words.join(' ') : null,
      application_number: app[1],
      application_date: isoOf(app[2], app[3], app[4]),
      international_registration: ir ? ir[1] : null,
      priority,
      // The kind is the block's last paragraph when it has one: never under a Madrid designation, which prints none.
      proprietor: {
        name: owner[0],
        address: owner.length > 2 && !ir ? owner.slice(1, -1) : owner.slice(1),
        kind: owner.length > 2 && !ir ? owner[owner.length - 1] : null,
      },
      agent,
      used_since: used ? isoOf(used[1], used[2], used[3]) : null,
      associated_with: associated,
      office,
      tail: paragraphs(lines.slice(i)),
    },
  };
}

/** `5895457 - for NUTRILITA read NUTRILITE`: a correction per paragraph that begins with an application number. */
function corrections(lines: Line[]): PageContent {
  const items: Corrigendum[] = [];
  for (const p of paragraphs(lines)) {
    const m = /^(\d{5,9})\s*[-–—]\s*(.+)$/.exec(p);
    if (m) items.push({ application_number: m[1], text: m[2].trim() });
  }
  if (!items.length)
    return { kind: 'refused', reason: 'no corrections (an application number, a dash, the correction) on a page of the corrigenda' };
  return { kind: 'corrigenda', items };
}

/** The registered list: application numbers in rows of several. */
function registeredRows(lines: Line[]): PageContent {
  const rows: ListRow[] = [];
  for (const l of lines)
    if (/^\d{5,9}(?:\s+\d{5,9})*$/.test(l.text))
      for (const n of l.text.split(/\s+/)) rows.push({ application_number: n, class_number: null, date: null });
  if (!rows.length) return { kind: 'refused', reason: 'no application numbers on a page of the registered list' };
  return { kind: 'list', rows };
}

/** The renewed list: `1234567    5    12/04/2025`, the number, its class and the date the renewal runs from. */
function renewedRows(lines: Line[]): PageContent {
  const rows: ListRow[] = [];
  for (const l of lines) {
    const m = /^(\d{5,9})\s+(\d{1,2})\s+(\d{2})\/(\d{2})\/(\d{4})$/.exec(l.text);
    if (m) rows.push({ application_number: m[1], class_number: Number(m[2]), date: isoOf(m[3], m[4], m[5]) });
  }
  if (!rows.length) return { kind: 'refused', reason: 'no rows (application number, class, date) on a page of the renewed list' };
  return { kind: 'list', rows };
}

/** Lines of one paragraph follow at line pitch; a wider gap (15 pt as published, against 12) starts the next. */
export function paragraphs(lines: Line[]): string[] {
  const out: string[] = [];
  lines.forEach((l, k) => {
    const joined = k > 0 && lines[k - 1].y - l.y < Math.max(l.size, lines[k - 1].size) * 1.3;
    if (joined) out[out.length - 1] += ` ${l.text}`;
    else out.push(l.text);
  });
  return out;
}
