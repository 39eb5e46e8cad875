import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import type { ObjectStore } from '../storage/objectStore.ts';
import { withFileLock } from './fileLock.ts';
import { ensureSearchSnapshot } from './manager.ts';
import { snapshotHeader } from './snapshot.ts';
import { instanceOf } from './source.ts';

// One search snapshot for every node (SEARCH_SNAPSHOT_SHARE, docs/deploy.md): kept in the object store under the
// database's own instance id, written by one node and loaded by the others, never built by every node. Which node
// builds is decided by a PostgreSQL advisory lock: the first to take it builds and stores the snapshot; a node that
// waited for the lock finds the stored one and loads it. A node then follows the change feed from the snapshot's
// position, as with a snapshot of its own. A snapshot rebuilt later (`npm run search-index -- rebuild`) is stored
// over it with its feed position beside it (a small JSON object); the nodes, told by PostgreSQL, fetch it when it is
// newer than their own and swap it in (refreshFromStore, called by SearchIndex.reload).

// An arbitrary constant of this lock's own: advisory locks are one namespace per database.
const LOCK = 720_261_207;

const keyOf = (instance: string) => `search/snapshot-${instance}.bin`;
/** Beside the snapshot: its feed position, so that a node can tell a newer one without fetching it. */
const positionKey = (instance: string) => `search/snapshot-${instance}.json`;

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
      await publishSnapshot(file, store);
      return built ? { kind: 'built', ...built } : { kind: 'current' };
    } finally {
      await client.query('select pg_advisory_unlock($1)', [LOCK]);
    }
  } finally {
    await client.end();
  }
}

/** Stores the snapshot `file` for every node of its database, then its feed position (read first by the nodes). */
export async function publishSnapshot(file: string, store: ObjectStore): Promise<void> {
  const header = await snapshotHeader(file);
  if (!header) throw new Error(`${file} is not a search snapshot`);
  await store.putStream(keyOf(header.instance), fs.createReadStream(file), 'application/octet-stream');
  await store.put(
    positionKey(header.instance),
    Buffer.from(JSON.stringify({ seq: header.seq, builtAt: header.builtAt })),
    'application/json',
  );
}

/**
 * Fetches the stored snapshot of `file`'s database into `file` when it is newer (a later feed position) than the one
 * there; true when it did. A store without a position (a snapshot stored before positions were) has nothing newer.
 */
export function refreshFromStore(file: string, store: ObjectStore): Promise<boolean> {
  // One fetch per machine: the processes that share the file take turns, and those after the first find it current.
  return withFileLock(`${file}.lock`, async () => {
    const own = await snapshotHeader(file);
    if (!own || !(await store.exists(positionKey(own.instance)))) return false;
    const stored = JSON.parse((await store.read(positionKey(own.instance))).toString('utf8')) as { seq: number };
    if (!(stored.seq > own.seq)) return false;
    return fetchInto(store, keyOf(own.instance), file, own.instance);
  });
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
