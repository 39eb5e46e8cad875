import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { readViennaCodes, ViennaTable } from '../../reference/vienna.ts';
import { GIVEN_CODES } from './vienna.ts';

// The public reference tables the generator draws from, as shipped in data/reference.
export const DEFAULT_DATA_DIRS = [new URL('../../../data/reference', import.meta.url).pathname];

export interface State {
  name: string; // upper case, as the register writes it
  code: string;
  office: string; // MUM, DEL, KOL, CHE, AHD
}

export interface Reference {
  dir: string;
  states: State[];
  statuses: Set<string>;
  /** goods/services items per class (index 1..45), already JSON-escaped. */
  items: string[][];
}

type Row = Record<string, string>;

function csv(dir: string, file: string): Row[] {
  return parse(fs.readFileSync(path.join(dir, file)), { columns: true, skip_empty_lines: true }) as Row[];
}

export function findDataDir(explicit?: string): string {
  const candidates = explicit ? [explicit] : DEFAULT_DATA_DIRS;
  for (const dir of candidates) {
    if (fs.existsSync(path.join(dir, 'nice_items.csv')) && fs.existsSync(path.join(dir, 'india_states.csv'))) return dir;
  }
  throw new Error(`reference data not found (looked for nice_items.csv and india_states.csv in ${candidates.join(', ')})`);
}

// JSON-escaped and pure ASCII, so lines can be written with a single-byte encoder.
const jsonAscii = (s: string) =>
  JSON.stringify(s)
    .slice(1, -1)
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function loadReference(explicitDir?: string): Reference {
  const dir = findDataDir(explicitDir);
  const states = csv(dir, 'india_states.csv').map((r) => ({
    name: r.name.toUpperCase(),
    code: r.code,
    office: r.tmr_office,
  }));
  const statuses = new Set(csv(dir, 'tm_status_values.csv').map((r) => r.status));
  const items: string[][] = Array.from({ length: 46 }, () => []);
  for (const r of csv(dir, 'nice_items.csv')) {
    const c = Number(r.class);
    // WIPO alternative wordings ("x / y") read oddly in a specification; keep the first.
    if (c >= 1 && c <= 45) items[c].push(jsonAscii(r.item.split(' / ')[0]));
  }
  for (let c = 1; c <= 45; c++) if (items[c].length === 0) items[c].push(jsonAscii(`goods and services in class ${c}`));
  // A logo's codes come from a table of the generator's own (vienna.ts): each must be one the importer takes.
  const vienna = new ViennaTable(readViennaCodes(path.join(dir, 'vienna_codes.csv')));
  const missing = GIVEN_CODES.filter((c) => !vienna.get(c));
  if (missing.length) throw new Error(`Vienna codes missing from vienna_codes.csv: ${missing.join(', ')}`);
  return { dir, states, statuses, items };
}
