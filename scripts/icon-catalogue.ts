// Builds data/icons/catalogue.json, the concept catalogue of the demo register's device marks, from the
// installed icon sets (src/ingest/generator/iconSets.ts) and the concept table (concepts.ts):
//   tsx scripts/icon-catalogue.ts [--check]
// --check exits 1 when the committed file differs from what the installed packages give.
import fs from 'node:fs';
import { buildCatalogue, CATALOGUE_FILE } from '../src/ingest/generator/catalogue.ts';

const text = `${JSON.stringify(buildCatalogue(), null, 1)}\n`;
if (process.argv.includes('--check')) {
  const same = fs.existsSync(CATALOGUE_FILE) && fs.readFileSync(CATALOGUE_FILE, 'utf8') === text;
  console.log(same ? 'catalogue up to date' : `${CATALOGUE_FILE} differs from the installed icon sets: run scripts/icon-catalogue.ts`);
  process.exit(same ? 0 : 1);
}
fs.writeFileSync(CATALOGUE_FILE, text);
console.log(`wrote ${CATALOGUE_FILE}`);
