// The Trade Marks Journal as published, as Nishaan reads and writes it (docs/journal.md): one advertised application per
// page, classes in order, then the journal's other sections under their headings. Fields are told apart by their place
// on the page, their type size and the line spacing, and by the labels the Registry prints before some of them. The
// sizes are those measured on a published issue (No. 2216 of 07/07/2025, an HTML page printed by Chromium).

/** Type sizes in points, as the published journal sets them; the reader takes a band around each. */
export const SIZES = {
  header: 12,
  wordMark: 24,
  appLine: 12,
  /** The proprietor's and the agent's blocks (name, address, kind), the "Used Since" line and the goods. */
  body: 10.5,
  /** The agent's label, "Proposed to be Used" and the office. */
  label: 12,
  heading: 14,
  footer: 8,
} as const;

/** Lines of one paragraph follow at this pitch (in points) and paragraphs at PARAGRAPH_PITCH: 12 and 15 as published. */
export const LINE_PITCH = 12;
export const PARAGRAPH_PITCH = 15;

/** `Trade Marks Journal No: 2216 , 07/07/2025    Class 1`; the class is absent on pages of the lists. */
export const HEADER = /^Trade Marks Journal No\s*:\s*(\d+)\s*,\s*(\d{2})\/(\d{2})\/(\d{4})(?:\s+Class\s+(\d{1,2}))?$/;
/** `5895457    17/04/2023`: the application number and its filing date. */
export const APP_LINE = /^(\d{5,9})\s+(\d{2})\/(\d{2})\/(\d{4})$/;
export const IR_LINE = /^\[International Registration No\.?\s*:\s*(\d+)\]$/;
/** `Priority claimed from 18/10/2018; Application No. : 2018-130424 ;Japan`, printed above the application number. */
export const PRIORITY_LINE = /^Priority claimed from\s+(\d{2})\/(\d{2})\/(\d{4})\s*;\s*Application No\.?\s*:\s*(.+?)\s*;\s*(.+)$/;
export const AGENT_LABEL = /^Address for service in India\/(?:Attorney|Agents) address\s*:$/;
export const USED_SINCE = /^Used Since\s*:\s*(\d{2})\/(\d{2})\/(\d{4})$/;
export const PROPOSED = /^Proposed to be Used$/;
/** `To be associated with: 3865486, 3918097`; the numbers may follow on the next line. */
export const ASSOCIATED = /^To be associated with\s*:?\s*([\d,\s]*)$/;
/** A multi-class application's goods, class by class: `Cl.3;Soaps … Cl.5;Pharmaceutical …` (Rule 107(1)). */
export const CLASS_SEGMENT = /Cl\.\s*(\d{1,2})\s*;/g;
/** The class a multi-class application is printed under. */
export const MULTI_CLASS = 99;
/** `X trading as ;Y` (the register's form) or `X TRADING AS Y`. */
export const TRADING_AS = /\s+trading as\s*;?\s*/i;
export const OFFICES = ['MUMBAI', 'DELHI', 'KOLKATA', 'CHENNAI', 'AHMEDABAD'] as const;

/**
 * The journal's parts: advertisements (accepted, or before acceptance under the proviso to s.20(1)), international
 * registrations designating India, corrigenda, the lists of marks registered and registrations renewed, and sections
 * Nishaan does not take in (post-registration notices), whose pages are counted, not read.
 */
export type Section = 'advertised' | 'before_acceptance' | 'international' | 'corrigenda' | 'registered' | 'renewed' | 'other';

/** The headings that open each section, as the Registry prints them; matched whatever the case. */
export const HEADINGS: { section: Section; words: RegExp; title: string }[] = [
  { section: 'before_acceptance', words: /ADVERTISED BEFORE ACCEPTANCE/i, title: 'APPLICATIONS ADVERTISED BEFORE ACCEPTANCE' },
  { section: 'advertised', words: /ADVERTISED BEFORE REGISTRATION/i, title: 'APPLICATIONS ADVERTISED BEFORE REGISTRATION' },
  {
    section: 'international',
    words: /INTERNATIONAL REGISTRATIONS? DESIGNATING INDIA/i,
    title: 'International Registration designating India',
  },
  { section: 'corrigenda', words: /^CORRIGENDA$/i, title: 'CORRIGENDA' },
  {
    section: 'registered',
    words: /APPLICATIONS HAVE BEEN REGISTERED/i,
    title: 'Following Trade Mark applications have been Registered and registration certificates are available on the official website',
  },
  { section: 'renewed', words: /REGISTRATIONS? RENEWED/i, title: 'Following Trade Marks Registration Renewed for a Period Of Ten Years' },
  { section: 'other', words: /^PR SECTION$/i, title: 'PR SECTION' },
];

/** One advertised application as the journal prints it. */
export interface JournalEntry {
  journal_number: string;
  /** The journal's date, YYYY-MM-DD. */
  publication_date: string;
  /** The class, or the lowest of a multi-class application's (Rule 107(1) lists them from the lowest). */
  class_number: number;
  /** Every class of a multi-class application (printed under class 99), in order; null for one class. */
  classes: number[] | null;
  /** Null for a device mark (its image stands instead). */
  word_mark: string | null;
  application_number: string;
  /** YYYY-MM-DD. */
  application_date: string;
  international_registration: string | null;
  priority: { date: string; number: string; country: string } | null;
  /** The name as printed (a trading-as form whole); the kind is null where none is printed (Madrid designations). */
  proprietor: { name: string; address: string[]; kind: string | null };
  agent: { name: string; address: string[] } | null;
  /** YYYY-MM-DD, or null when proposed to be used. */
  used_since: string | null;
  /** Application numbers the mark is to be associated with (s.16). */
  associated_with: string[];
  office: (typeof OFFICES)[number];
  goods_services: string;
  conditions: string[];
}

/** An entry with the mark's image, as the page draws it (a device or label mark): a PNG to write, or one read back. */
export interface PrintedEntry extends JournalEntry {
  image?: Buffer | null;
}

/** A correction the journal prints: `5895457 - for NUTRILITA read NUTRILITE` (the text after the dash). */
export interface Corrigendum {
  application_number: string;
  text: string;
}

/** A row of the registered list (an application number) or of the renewed list (number, class, date renewed from). */
export interface ListRow {
  application_number: string;
  class_number: number | null;
  /** YYYY-MM-DD: the date the renewal runs from; null on the registered list. */
  date: string | null;
}

export const isoOf = (d: string, m: string, y: string) => `${y}-${m}-${d}`;
export const dmyOf = (iso: string) => iso.split('-').reverse().join('/');
