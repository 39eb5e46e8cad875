// The search index's snapshot for `npm start` (scripts/start.ts), built in a process of its own: at
// 7.7M marks a build peaks near 3 GB, which the long-lived supervisor would otherwise keep for its
// whole life. Answers `{ built }` over IPC (null when the snapshot was already current or was loaded
// from the object store, SEARCH_SNAPSHOT_SHARE) and exits.
import { loadConfig } from '../src/config.ts';
import { createRoot } from '../src/root.ts';
import { ensureSearchSnapshot } from '../src/search/manager.ts';
import { ensureSharedSnapshot } from '../src/search/sharedSnapshot.ts';

const config = loadConfig();
const log = (line: string) => console.error(line);
let built: { ms: number; marks: number } | null = null;
if (config.SEARCH_SNAPSHOT_SHARE === 'true' && config.searchSnapshot) {
  const root = createRoot(config);
  try {
    const r = await ensureSharedSnapshot(config.DATABASE_URL, config.searchSnapshot, root.store, log);
    if (r.kind === 'loaded') console.error('search index snapshot loaded from the object store');
    if (r.kind === 'built') built = { ms: r.ms, marks: r.marks };
  } finally {
    await root.close();
  }
} else built = await ensureSearchSnapshot(config.DATABASE_URL, config.searchSnapshot, log);
process.send!({ built }, () => process.exit(0));
