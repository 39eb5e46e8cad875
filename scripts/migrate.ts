// Creates the database if needed, ensures pgvector, migrates, and (re)loads reference data.
import { execFileSync } from 'node:child_process';
import { loadConfig } from '../src/config.ts';
import { createDb, splitDbUrl } from '../src/db/knex.ts';
import { ensureDatabase, migrateLatest } from '../src/db/migrate.ts';
import { loadReferenceData } from '../src/reference/loader.ts';

export async function prepareDatabase(databaseUrl: string, log: (msg: string) => void = console.error): Promise<void> {
  execFileSync('bash', [new URL('./ensure-pgvector.sh', import.meta.url).pathname], { stdio: 'inherit' });
  const { name, adminUrl } = splitDbUrl(databaseUrl);
  const admin = createDb(adminUrl, 1);
  try {
    if (await ensureDatabase(admin, name)) log(`created database ${name}`);
  } finally {
    await admin.destroy();
  }
  const db = createDb(databaseUrl, 2);
  try {
    const applied = await migrateLatest(db);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
    const counts = await loadReferenceData(db);
    log(
      `reference data: ${Object.entries(counts)
        .map(([t, n]) => `${t}=${n}`)
        .join(' ')}`,
    );
  } finally {
    await db.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  prepareDatabase(loadConfig().DATABASE_URL).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
