// First start: an empty registry gets a generated demo registry, so the API answers with data at once.
import path from 'node:path';
import type { Config } from '../src/config.ts';
import { generate } from '../src/ingest/generator/index.ts';
import { importSet } from '../src/ingest/importer/index.ts';
import { writeDeltaJournal } from '../src/ingest/journal/fromDelta.ts';
import { createRoot, SCRIPT } from '../src/root.ts';

export async function seedDemoRegistry(config: Config): Promise<void> {
  const root = createRoot(config, SCRIPT);
  try {
    const { rows } = await root.db.raw('select exists (select 1 from trademarks) as any');
    if (rows[0].any || config.DEMO_RECORDS === 0) return;
    const out = path.resolve(config.DEMO_DIR);
    const t0 = Date.now();
    console.error(`empty registry: generating a demo registry of ${config.DEMO_RECORDS} marks in ${out}`);
    await generate({ records: config.DEMO_RECORDS, seed: 1, out, logos: config.DEMO_LOGOS });
    const r = await importSet({ db: root.db, store: root.store, dir: path.join(out, 'baseline'), log: (m) => console.error(m) });
    if (r.rejected) throw new Error(`demo import rejected ${r.rejected} lines: ${r.errors.slice(0, 5).join('; ')}`);
    console.error(`demo registry: ${await root.services.owners.catchUp()} proprietor names grouped into owners`);
    console.error(`demo registry imported in ${((Date.now() - t0) / 1000).toFixed(1)} s (delta set left in ${out}/delta)`);
    const journal = await writeDeltaJournal(path.join(out, 'delta'));
    if (journal) {
      console.error(
        `the delta's journal, as published: ${journal.file}, ${journal.entries} marks (${journal.left} it cannot print left out); ` +
          `npm run import-journal -- ${journal.file}`,
      );
    }
  } finally {
    await root.close();
  }
}
