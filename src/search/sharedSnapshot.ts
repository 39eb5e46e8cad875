import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import type { ObjectStore } from '../storage/objectStore.ts';
import { ensureSearchSnapshot } from './manager.ts';
import { snapshotHeader } from './snapshot.ts';
import { instanceOf } from './source.ts';

// One search snapshot for every node (SEARCH_SNAPSHOT_SHARE, docs/deploy.md): kept in the object store under the
// database's own instance id, written by one node and loaded by the others, never built by every node. Which node
// builds is decided by a PostgreSQL advisory lock: the first to take it builds and stores the snapshot; a node that
// waited for the lock finds the stored one and loads it. A node then follows the change feed from the snapshot's
// position, as with a snapshot of its own.

// An arbitrary constant of this lock's own: advisory locks are one namespace per database.
const LOCK = 720_261_207;

const keyOf = (instance: string) => `search/snapshot-${instance}.bin`;

export type SharedOutcome = { kind: 'current' } | { kind: 'loaded' } | { kind: 'built'; ms: number; marks: number };

/** The local snapshot `file` made current for this database: kept, loaded from the store, or built and stored. */
export async function ensureSharedSnapshot(
  url: string,
  file: string,
  store: ObjectStore,
  log?: (msg: string) => void,
): Promise<SharedOutcome> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const instance = await instanceOf(client);
    if ((await snapshotHeader(file))?.instance === instance) return { kind: 'current' };
    const key = keyOf(instance);
    if (await fetchInto(store, key, file, instance)) return { kind: 'loaded' };
    // Held for the build and the upload; released when this session ends, should the process die.
    await client.query('select pg_advisory_lock($1)', [LOCK]);
    try {
      if (await fetchInto(store, key, file, instance)) return { kind: 'loaded' };
      const built = await ensureSearchSnapshot(url, file, log);
      await store.putStream(key, fs.createReadStream(file), 'application/octet-stream');
      return built ? { kind: 'built', ...built } : { kind: 'current' };
    } finally {
      await client.query('select pg_advisory_unlock($1)', [LOCK]);
    }
  } finally {
    await client.end();
  }
}

/** Copies the stored snapshot to `file` (whole, or not at all); false when there is none for this database. */
async function fetchInto(store: ObjectStore, key: string, file: string, instance: string): Promise<boolean> {
  if (!(await store.exists(key))) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const part = `${file}.part-${process.pid}`;
  try {
    await pipeline(await store.open(key), fs.createWriteStream(part));
    if ((await snapshotHeader(part))?.instance !== instance) return false;
    fs.renameSync(part, file);
    return true;
  } finally {
    fs.rmSync(part, { force: true });
  }
}
