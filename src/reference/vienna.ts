import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

// The Vienna classification of figurative elements as shipped in data/reference/vienna_codes.csv
// (EUIPO variant, data/reference/README.md). One table serves every reader: the importer checks a
// mark's codes against it, logo search reads its filter through it, the reference loader fills the
// vienna_codes table from it, and the generator checks its own concept table against it.
//
// A code is written category.division.section with two digits a part, as the register prints it
// (03.01.01); a division (03.01) or a category (03) is a code too. Also read: the CSV's own forms,
// unpadded dots (3.1.1) and bare digits (030101, 0301, 03), and any mix of one- and two-digit parts.
// Categories 98 and 99 of the file are EUIPO's internal codes (sound marks, "too bad logo"), not
// Vienna codes, and are left out.

export const VIENNA_FILE = new URL('../../data/reference/vienna_codes.csv', import.meta.url).pathname;

export type ViennaLevel = 'category' | 'division' | 'section';

export interface ViennaCode {
  code: string;
  level: ViennaLevel;
  /** The category (03) and, for a section, its division (03.01); a division's division is itself. */
  category: string;
  division: string | null;
  /** The file's wording: cut at 80 characters in places, commas written as `;`; null where it has none. */
  description: string | null;
}

/** The forms a code may be given in (see above), before the table is asked whether it exists. */
const DOTTED = /^\d{1,2}(\.\d{1,2}){0,2}$/;
const DIGITS = /^(\d{2}){2,3}$/;
const LEVELS: ViennaLevel[] = ['category', 'division', 'section'];

/** The code in its printed form (03.01.01), or null when it is not written as a Vienna code at all. */
export function viennaForm(text: string): string | null {
  const s = text.trim();
  let parts: string[];
  if (DOTTED.test(s)) parts = s.split('.');
  else if (DIGITS.test(s)) parts = s.match(/\d{2}/g) as string[];
  else return null;
  return parts.map((p) => p.padStart(2, '0')).join('.');
}

export class ViennaTable {
  private readonly byCode: Map<string, ViennaCode>;
  /** Codes in the table's order: a code before those below it (the printed forms sort so). */
  readonly codes: readonly ViennaCode[];

  constructor(rows: ViennaCode[]) {
    this.codes = [...rows].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
    this.byCode = new Map(this.codes.map((r) => [r.code, r]));
  }

  /** The code as the table holds it, when it is one of the table's in any accepted form; else null. */
  known(text: string): string | null {
    const code = viennaForm(text);
    return code !== null && this.byCode.has(code) ? code : null;
  }

  get(code: string): ViennaCode | undefined {
    return this.byCode.get(code);
  }

  /** The code and every code below it (03.01: 03.01 and 03.01.01, 03.01.02, ...), as the table holds them. */
  below(code: string): string[] {
    const out: string[] = [];
    const under = `${code}.`;
    for (const r of this.codes) if (r.code === code || r.code.startsWith(under)) out.push(r.code);
    return out;
  }
}

/** The rows of a vienna_codes.csv (columns code, dotted, level, category, division, description). */
export function readViennaCodes(file = VIENNA_FILE): ViennaCode[] {
  const rows = parse(fs.readFileSync(file), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const out: ViennaCode[] = [];
  for (const r of rows) {
    const code = viennaForm(r.code);
    if (code === null || Number(code.slice(0, 2)) > 29) continue;
    const level = LEVELS[code.split('.').length - 1];
    if (r.level !== level) throw new Error(`${path.basename(file)}: ${r.code} is a ${level}, the file says ${r.level}`);
    out.push({
      code,
      level,
      category: code.slice(0, 2),
      division: level === 'category' ? null : code.slice(0, 5),
      description: r.description?.trim() ? r.description.trim() : null,
    });
  }
  return out;
}

const tables = new Map<string, ViennaTable>();

/** The shipped table (or another file's), read once. */
export function viennaTable(file = VIENNA_FILE): ViennaTable {
  let t = tables.get(file);
  if (!t) tables.set(file, (t = new ViennaTable(readViennaCodes(file))));
  return t;
}
