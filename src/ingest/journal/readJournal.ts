import sharp from 'sharp';
import { CLASS_SEGMENT, type Corrigendum, type ListRow, MULTI_CLASS, type PrintedEntry, type Section } from './layout.ts';
import { type PageEntry, parsePage } from './parse.ts';
import { JournalFileError, type PageImage, readPdf } from './read.ts';

// A journal PDF read whole (docs/journal.md): its pages in order, each read as what it holds under the section the
// headings before it opened; an entry's goods that go on over the next pages joined to it; pages before the first
// heading or entry that carry no journal header (the cover, notices, the index) and pages of sections Nishaan does not
// take in counted, not read; every page that cannot be read reported with its number and why, and the rest kept.

/** The advertisement sections: what their entries are as published. */
export const SECTION_STATUS: Partial<Record<Section, string>> = {
  advertised: 'Accepted & Advertised',
  before_acceptance: 'Advertised bef acc',
  international: 'Accepted & Advertised',
};

export interface ReadEntry extends PrintedEntry {
  section: Section;
  page: number;
}

export interface JournalContent {
  journal_number: string;
  publication_date: string;
  pages: number;
  /** Advertisements and the entries the corrigenda print again. */
  entries: ReadEntry[];
  corrigenda: (Corrigendum & { page: number })[];
  registered: (ListRow & { page: number })[];
  renewed: (ListRow & { page: number })[];
  refused: { page: number; reason: string }[];
  /** Pages not read: before the journal's first heading or entry, and of sections not taken in. */
  skipped: number;
}

interface Open {
  entry: PageEntry;
  section: Section;
  page: number;
  /** The class its page header prints (99 for a multi-class application). */
  printedClass: number;
  image: PageImage | undefined;
}

export async function readJournal(pdf: Uint8Array): Promise<JournalContent> {
  const pages = await readPdf(pdf);
  let section: Section = 'advertised';
  let started = false;
  let open: Open | null = null;
  let journal: { journal_number: string; publication_date: string } | null = null;
  const out: Omit<JournalContent, 'journal_number' | 'publication_date' | 'pages'> = {
    entries: [],
    corrigenda: [],
    registered: [],
    renewed: [],
    refused: [],
    skipped: 0,
  };
  const close = async () => {
    if (!open) return;
    const done = finish(open);
    if ('reason' in done) out.refused.push({ page: open.page, reason: done.reason });
    else out.entries.push({ ...done, image: open.image ? await pngOf(open.image) : null });
    open = null;
  };
  for (const [k, page] of pages.entries()) {
    const n = k + 1;
    const read = parsePage(page.lines, section);
    if (read.header) {
      const { journal_number, publication_date } = read.header;
      if (!journal) journal = { journal_number, publication_date };
      else if (journal.journal_number !== journal_number || journal.publication_date !== publication_date)
        throw new JournalFileError(`pages of two journals (No. ${journal.journal_number} and No. ${journal_number}) in one file`);
    }
    if (read.heading) {
      await close();
      section = read.heading;
      started = true;
    }
    const c = read.content;
    if (c.kind === 'continuation') {
      const o = open as Open | null;
      if (o && o.printedClass === read.header?.class_number && c.paragraphs.length) {
        // The first paragraph goes on from where the page before stopped.
        if (o.entry.tail.length) o.entry.tail[o.entry.tail.length - 1] += ` ${c.paragraphs[0]}`;
        else o.entry.tail.push(c.paragraphs[0]);
        o.entry.tail.push(...c.paragraphs.slice(1));
      } else out.refused.push({ page: n, reason: 'no application number and filing date, and no entry before it to go on from' });
      continue;
    }
    if (c.kind === 'refused' && !started && !read.header) {
      out.skipped++;
      continue;
    }
    await close();
    if (c.kind === 'refused') out.refused.push({ page: n, reason: c.reason });
    else if (c.kind === 'empty') {
      if (section === 'other') out.skipped++;
    } else if (c.kind === 'entry') {
      started = true;
      open = { entry: c.entry, section, page: n, printedClass: read.header!.class_number!, image: page.images[0] };
    } else if (c.kind === 'corrigenda') out.corrigenda.push(...c.items.map((x) => ({ ...x, page: n })));
    else if (section === 'registered') out.registered.push(...c.rows.map((x) => ({ ...x, page: n })));
    else out.renewed.push(...c.rows.map((x) => ({ ...x, page: n })));
  }
  await close();
  if (!journal || (!out.entries.length && !out.corrigenda.length && !out.registered.length && !out.renewed.length))
    throw new JournalFileError('no page reads as a Trade Marks Journal entry or list: another publication?');
  return { ...journal, pages: pages.length, ...out };
}

/**
 * An entry whose pages are all read: its tail told into goods and conditions (the goods are the first paragraph, and
 * for a multi-class application every paragraph of a class's goods; the paragraphs after them are the conditions), and
 * a multi-class application's classes read from its goods.
 */
function finish(o: Open): Omit<ReadEntry, 'image'> | { reason: string } {
  const { tail, ...entry } = o.entry;
  const multi = o.printedClass === MULTI_CLASS;
  let goods = 1;
  while (multi && goods < tail.length && /^Cl\.\s*\d{1,2}\s*;/.test(tail[goods])) goods++;
  const goodsText = tail.slice(0, goods).join(' ');
  if (!goodsText) return { reason: 'no goods or services after the office' };
  let classes: number[] | null = null;
  if (multi) {
    classes = [...new Set([...goodsText.matchAll(CLASS_SEGMENT)].map((m) => Number(m[1])))].sort((a, b) => a - b);
    if (!classes.length || classes.some((c) => c < 1 || c > 45))
      return { reason: 'a multi-class application (class 99) whose goods name no classes (Cl.NN;)' };
  } else if (o.printedClass < 1 || o.printedClass > 45) return { reason: `class ${o.printedClass} is no Nice class` };
  return {
    ...entry,
    class_number: classes ? classes[0] : o.printedClass,
    classes,
    goods_services: goodsText,
    conditions: tail.slice(goods),
    section: o.section,
    page: o.page,
  };
}

/** A decoded page image as the PNG its logo is stored as. */
function pngOf(img: PageImage): Promise<Buffer> {
  return sharp(Buffer.from(img.data), { raw: { width: img.width, height: img.height, channels: img.channels } })
    .png()
    .toBuffer();
}
