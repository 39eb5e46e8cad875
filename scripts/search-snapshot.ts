// The search index's snapshot for `npm start` (scripts/start.ts), built in a process of its own: at
// 7.7M marks a build peaks near 3 GB, which the long-lived supervisor would otherwise keep for its
// whole life. Answers `{ built }` over IPC (null when the snapshot was already current) and exits.
import { loadConfig } from '../src/config.ts';
import { ensureSearchSnapshot } from '../src/search/manager.ts';

const config = loadConfig();
const built = await ensureSearchSnapshot(config.DATABASE_URL, config.searchSnapshot, (line) => console.error(line));
process.send!({ built }, () => process.exit(0));
