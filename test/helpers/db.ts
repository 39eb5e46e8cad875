import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createDb, type Db } from '../../src/db/knex.ts';
import { migrateLatest, quoteIdent } from '../../src/db/migrate.ts';
import { loadReferenceData } from '../../src/reference/loader.ts';

// Migrate once into a template database; each test file clones it (CREATE DATABASE ... TEMPLATE is
// a file copy, far faster than migrating again).
const ADMIN_URL = process.env.TEST_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// One template per test run, so runs in parallel (CI beside a developer's run) never share one.
export const TEMPLATE = `nishaan_test_template_${process.pid}`;
// The run's clones are found by their names' prefix, not kept in a list here: the root hooks (test/setup.ts) and the
// test files can hold two instances of this module, and a list in one was empty in the other, so every clone of a
// full run was left behind.
const CLONE_PREFIX = `nishaan_test_${process.pid}_`;

function urlFor(name: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function buildTemplate(): Promise<void> {
  execFileSync('bash', [new URL('../../scripts/ensure-pgvector.sh', import.meta.url).pathname], { stdio: 'inherit' });
  const admin = createDb(ADMIN_URL, 1);
  try {
    await admin.raw(`drop database if exists ${quoteIdent(TEMPLATE)} with (force)`);
    await admin.raw(`create database ${quoteIdent(TEMPLATE)}`);
  } finally {
    await admin.destroy();
  }
  const db = createDb(urlFor(TEMPLATE), 2);
  try {
    await migrateLatest(db);
    await loadReferenceData(db);
  } finally {
    await db.destroy();
  }
}

/** A fresh database for one test file, cloned from the template; dropped by dropTestDatabases. */
export async function cloneTestDatabase(): Promise<{ url: string; db: Db; name: string }> {
  const name = `${CLONE_PREFIX}${randomBytes(5).toString('hex')}`;
  const admin = createDb(ADMIN_URL, 1);
  try {
    await admin.raw(`create database ${quoteIdent(name)} template ${quoteIdent(TEMPLATE)}`);
  } finally {
    await admin.destroy();
  }
  const url = urlFor(name);
  return { url, db: createDb(url, 4), name };
}

export async function dropTestDatabases(): Promise<void> {
  const admin = createDb(ADMIN_URL, 8);
  const drop = (name: string) => admin.raw(`drop database if exists ${quoteIdent(name)} with (force)`);
  try {
    // Each DROP DATABASE waits for a checkpoint (seconds on a busy server); drops in flight together share
    // one. Eight at a time, one per pool connection, so none waits for a connection (and times out there).
    const mine = await admin.raw('select datname from pg_database where starts_with(datname, ?)', [CLONE_PREFIX]);
    const queue = (mine.rows as { datname: string }[]).map((r) => r.datname);
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let name = queue.pop(); name !== undefined; name = queue.pop()) await drop(name);
      }),
    );
    await drop(TEMPLATE);
  } finally {
    await admin.destroy();
  }
}
