// Imports Trade Marks Journal PDFs as published: `npm run import-journal -- FILE.pdf [FILE.pdf …]` (docs/journal.md).
// Each file is read, its content applied through the importer in one transaction, its owners grouped; a summary per
// file (entries per section and class, images taken, corrigenda and lists applied) goes to stdout as JSON, and every
// refusal (a page, a correction, a list row, a record) to stderr. Exit status: 0 all of it imported, 1 something
// refused (the rest imported), 2 a file refused or failed (nothing of it).
import { loadConfig } from '../src/config.ts';
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
        const r = await root.services.journalImport.importFile(file);
        for (const x of r.refused) process.stderr.write(`${file}: page ${x.page}: ${x.reason}\n`);
        for (const x of r.corrigenda.unapplied)
          process.stderr.write(`${file}: page ${x.page}: corrigendum for ${x.application_number} not applied: ${x.reason}\n`);
        for (const x of r.lists.unknown) process.stderr.write(`${file}: page ${x.page}: ${x.application_number}: ${x.reason}\n`);
        const { inserted, updated } = r.result.counts.trademarks;
        const summary = {
          file,
          journal: r.journal,
          entries: r.entries,
          by_section: r.bySection,
          by_class: r.byClass,
          images: r.images,
          corrigenda: { applied: r.corrigenda.applied, not_applied: r.corrigenda.unapplied.length },
          registered: r.lists.registered,
          renewed: r.lists.renewed,
          not_on_register: r.lists.unknown.length,
          pages_refused: r.refused.length,
          pages_skipped: r.skipped,
          inserted,
          updated,
          rejected: r.result.rejected,
        };
        process.stdout.write(`${JSON.stringify(summary)}\n`);
        for (const e of r.result.errors) process.stderr.write(`${file}: ${e}\n`);
        if (r.refused.length || r.corrigenda.unapplied.length || r.lists.unknown.length || r.result.rejected) code = Math.max(code, 1);
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
