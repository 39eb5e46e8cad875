// Imports Trade Marks Journal PDFs as published: `npm run import-journal -- FILE.pdf [FILE.pdf …]` (docs/journal.md).
// Each file is read, its entries applied through the importer in one transaction, its owners grouped; a summary per
// file (entries per class, the pages that are no entry and why) goes to stdout as JSON, progress to stderr. Exit
// status: 0 every page imported, 1 some pages refused (the rest imported), 2 a file refused or failed (nothing of it).
import { loadConfig } from '../src/config.ts';
import { importJournal } from '../src/ingest/journal/importJournal.ts';
import { JournalFileError } from '../src/ingest/journal/read.ts';
import { createRoot, SCRIPT } from '../src/root.ts';

async function main(files: string[]): Promise<number> {
  if (!files.length) {
    process.stderr.write('usage: npm run import-journal -- FILE.pdf [FILE.pdf …]\n');
    return 2;
  }
  const root = createRoot(loadConfig(), SCRIPT);
  let code = 0;
  try {
    for (const file of files) {
      try {
        const r = await importJournal({ db: root.db, store: root.store, file });
        for (const x of r.refused) process.stderr.write(`${file}: page ${x.page}: ${x.reason}\n`);
        const { inserted, updated } = r.result.counts.trademarks;
        const summary = {
          file,
          journal: r.journal,
          entries: r.entries,
          images: r.images,
          by_class: r.byClass,
          refused: r.refused.length,
          inserted,
          updated,
        };
        process.stdout.write(`${JSON.stringify(summary)}\n`);
        if (r.refused.length) code = Math.max(code, 1);
      } catch (err) {
        const why = err instanceof JournalFileError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
        process.stderr.write(`${file}: refused, nothing imported: ${why}\n`);
        code = 2;
      }
    }
    process.stderr.write(`owners: ${await root.services.owners.catchUp()} names grouped into entities\n`);
    return code;
  } finally {
    await root.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`import-journal failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  },
);
