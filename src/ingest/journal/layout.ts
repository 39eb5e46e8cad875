// The Trade Marks Journal's page as published, as Nishaan reads and writes it (docs/journal.md): one advertised
// application per page. Fields are told apart by their position on the page and their type size, and by the labels
// the Registry prints before some of them; the sizes below are the ones our renderer writes and the reader's bands.

/** Type sizes in points: what the renderer writes. The reader takes a size band around each. */
export const SIZES = { header: 8, wordMark: 18, appLine: 11, name: 10, body: 9, conditions: 8, footer: 7 } as const;

/** `Trade Marks Journal No: 2216 , 07/07/2025    Class 1`. */
export const HEADER = /^Trade Marks Journal No\s*:\s*(\d+)\s*,\s*(\d{2})\/(\d{2})\/(\d{4})\s+Class\s+(\d{1,2})$/;
/** `5895457    17/04/2023`: the application number and its filing date. */
export const APP_LINE = /^(\d{5,9})\s+(\d{2})\/(\d{2})\/(\d{4})$/;
export const IR_LINE = /^\[International Registration No\.?\s*:\s*(\d+)\]$/;
export const AGENT_LABEL = /^Address for service in India\/(?:Attorney|Agents) address\s*:$/;
export const USED_SINCE = /^Used Since\s*:\s*(\d{2})\/(\d{2})\/(\d{4})$/;
export const PROPOSED = /^Proposed to be Used$/;
export const OFFICES = ['MUMBAI', 'DELHI', 'KOLKATA', 'CHENNAI', 'AHMEDABAD'] as const;

/** One advertised application as the journal prints it. */
export interface JournalEntry {
  journal_number: string;
  /** The journal's date, YYYY-MM-DD. */
  publication_date: string;
  class_number: number;
  /** Null for a device mark (its image stands instead). */
  word_mark: string | null;
  application_number: string;
  /** YYYY-MM-DD. */
  application_date: string;
  international_registration: string | null;
  proprietor: { name: string; address: string[]; kind: string };
  agent: { name: string; address: string[] } | null;
  /** YYYY-MM-DD, or null when proposed to be used. */
  used_since: string | null;
  office: (typeof OFFICES)[number];
  goods_services: string;
  conditions: string[];
}

/** An entry with the mark's image, as the page draws it (a device or label mark): a PNG to write, or one read back. */
export interface PrintedEntry extends JournalEntry {
  image?: Buffer | null;
}

export const isoOf = (d: string, m: string, y: string) => `${y}-${m}-${d}`;
export const dmyOf = (iso: string) => iso.split('-').reverse().join('/');
