// Imports one file set: `tsx scripts/import.ts <dir>` (docs/ingest.md). Progress and refused lines
// go to stderr, a JSON summary to stdout. Exit status: 0 all lines imported, 1 some lines refused
// (the rest imported), 2 fatal error (nothing applied).
import { loadConfig } from '../src/config.ts';
import { importSet } from '../src/ingest/importer/index.ts';
import { createRoot, SCRIPT } from '../src/root.ts';

async function main(argv: string[]): Promise<number> {
  const dir = argv[0];
  if (!dir || argv.length > 1) {
    process.stderr.write('usage: tsx scripts/import.ts <dir>\n');
    return 2;
  }
  const root = createRoot(loadConfig(), SCRIPT);
  try {
    const say = (msg: string) => process.stderr.write(`${msg}\n`);
    const result = await importSet({ db: root.db, store: root.store, dir, log: say, onReject: say, keepErrors: 0 });
    const { errors: _errors, ...summary } = result;
    say(`owners: ${await root.services.owners.catchUp()} names grouped into entities`);
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    return result.rejected > 0 ? 1 : 0;
  } catch (err) {
    process.stderr.write(`import failed, nothing applied: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  } finally {
    await root.close();
  }
}

function die(err: unknown): never {
  process.stderr.write(`import failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(2);
}

// Node exits 1 on an uncaught error, and 1 means "some lines refused, the rest imported" here. Any
// failure that escapes importSet is fatal: the transaction dies with the connection, so report 2.
process.on('unhandledRejection', die);
process.on('uncaughtException', die);

main(process.argv.slice(2)).then((code) => process.exit(code), die);
