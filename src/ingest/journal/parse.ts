import { AGENT_LABEL, APP_LINE, HEADER, IR_LINE, isoOf, type JournalEntry, OFFICES, PROPOSED, SIZES, USED_SINCE } from './layout.ts';
import type { Line } from './read.ts';

// A journal page's lines read as its entry (src/ingest/journal/layout.ts). The word mark is the type larger than the
// rest above the application line; the proprietor's and the agent's names are set a size above their addresses; the
// kind of proprietor is the last line of its block; the Registry's own labels mark the agent, the user detail and the
// office; the goods are the body text after the office, and the conditions the smaller type after them. A page that
// is no entry says why.

export type PageResult = { page: number; entry: JournalEntry } | { page: number; refused: string };

const near = (l: Line | undefined, size: number) => l !== undefined && Math.abs(l.size - size) <= 0.6;
/** Above this baseline is the page; below it the footer (the page number). */
const FOOTER_Y = 60;

export function parsePage(page: number, all: Line[]): PageResult {
  const lines = all.filter((l) => !(l.y < FOOTER_Y && near(l, SIZES.footer)));
  const refuse = (why: string): PageResult => ({ page, refused: why });
  const head = HEADER.exec(lines[0]?.text ?? '');
  if (!head) return refuse('no journal header (Trade Marks Journal No: …, date, class) at the top of the page');
  let i = 1;
  const words: string[] = [];
  while (i < lines.length && lines[i].size >= SIZES.wordMark - 2) words.push(lines[i++].text);
  const app = APP_LINE.exec(lines[i]?.text ?? '');
  if (!app) return refuse('no application number and filing date after the word mark');
  i++;
  const ir = IR_LINE.exec(lines[i]?.text ?? '');
  if (ir) i++;
  const block = (): { name: string; rest: string[] } => {
    const name: string[] = [];
    while (i < lines.length && near(lines[i], SIZES.name)) name.push(lines[i++].text);
    const rest: string[] = [];
    while (i < lines.length && near(lines[i], SIZES.body) && !isLabel(lines[i].text)) rest.push(lines[i++].text);
    return { name: name.join(' '), rest };
  };
  const owner = block();
  if (!owner.name || !owner.rest.length) return refuse("no proprietor's name and kind after the application number");
  let agent: JournalEntry['agent'] = null;
  if (AGENT_LABEL.test(lines[i]?.text ?? '')) {
    i++;
    const a = block();
    if (!a.name) return refuse("no agent's name after its label");
    agent = { name: a.name, address: a.rest };
  }
  const used = USED_SINCE.exec(lines[i]?.text ?? '');
  if (!used && !PROPOSED.test(lines[i]?.text ?? '')) return refuse('no user detail (Used Since : … or Proposed to be Used)');
  i++;
  const office = lines[i++]?.text as (typeof OFFICES)[number];
  if (!OFFICES.includes(office)) return refuse(`no registry office after the user detail (${OFFICES.join(', ')})`);
  const goods: string[] = [];
  while (i < lines.length && near(lines[i], SIZES.body)) goods.push(lines[i++].text);
  if (!goods.length) return refuse('no goods or services after the office');
  const conditions = paragraphs(lines.slice(i).filter((l) => near(l, SIZES.conditions)));
  return {
    page,
    entry: {
      journal_number: head[1],
      publication_date: isoOf(head[2], head[3], head[4]),
      class_number: Number(head[5]),
      word_mark: words.length ? words.join(' ') : null,
      application_number: app[1],
      application_date: isoOf(app[2], app[3], app[4]),
      international_registration: ir ? ir[1] : null,
      proprietor: { name: owner.name, address: owner.rest.slice(0, -1), kind: owner.rest.at(-1)! },
      agent,
      used_since: used ? isoOf(used[1], used[2], used[3]) : null,
      office,
      goods_services: goods.join(' '),
      conditions,
    },
  };
}

const isLabel = (t: string) => AGENT_LABEL.test(t) || USED_SINCE.test(t) || PROPOSED.test(t);

/** Lines of one paragraph follow at line spacing; a wider gap starts the next. */
function paragraphs(lines: Line[]): string[] {
  const out: string[] = [];
  lines.forEach((l, k) => {
    const joined = k > 0 && lines[k - 1].y - l.y < l.size * 1.3;
    if (joined) out[out.length - 1] += ` ${l.text}`;
    else out.push(l.text);
  });
  return out;
}
