// `npm run search-index -- rebuild | info`: the word-mark search index's snapshot.
//   rebuild  builds the index from PostgreSQL, saves it (SEARCH_SNAPSHOT), stores it for every node with
//            SEARCH_SNAPSHOT_SHARE=true, and tells running processes (of every node), which swap it in without a restart
//   info     says what the saved snapshot holds
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { SNAPSHOT_CHANNEL } from '../src/db/channels.ts';
import { createRoot } from '../src/root.ts';
import { buildIndex } from '../src/search/manager.ts';
import { publishSnapshot } from '../src/search/sharedSnapshot.ts';
import { loadSnapshot } from '../src/search/snapshot.ts';

export async function searchIndexCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const config = loadConfig();
  const file = config.searchSnapshot;
  if (!file) {
    out('SEARCH_SNAPSHOT is empty: this deployment keeps no snapshot');
    return 2;
  }
  switch (argv[0]) {
    case 'rebuild': {
      const { engine, ms } = await buildIndex(config.DATABASE_URL, file, out);
      out(
        `search index: ${engine.indexes[0].n.toLocaleString('en')} marks, ${engine.indexes[0].vocab.size.toLocaleString('en')} words, ` +
          `built in ${(ms / 1000).toFixed(1)} s, saved to ${file} (feed position ${engine.seq})`,
      );
      const root = createRoot(config, { dbPoolMax: 1 });
      try {
        if (config.SEARCH_SNAPSHOT_SHARE === 'true') {
          await publishSnapshot(file, root.store);
          out('stored in the object store for the other nodes');
        }
        await root.db.raw('select pg_notify(?, ?)', [SNAPSHOT_CHANNEL, '']);
      } finally {
        await root.close();
      }
      return 0;
    }
    case 'info': {
      const t0 = performance.now();
      const snap = await loadSnapshot(file);
      if (!snap) {
        out(`no snapshot at ${file}`);
        return 1;
      }
      out(
        `${file}: ${snap.index.n.toLocaleString('en')} marks, ${snap.index.vocab.size.toLocaleString('en')} words, feed position ` +
          `${snap.seq}, built ${snap.builtAt}, database ${snap.instance}; loaded in ${(performance.now() - t0).toFixed(0)} ms`,
      );
      return 0;
    }
    default:
      out('usage: npm run search-index -- rebuild | info');
      return 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  searchIndexCommand(process.argv.slice(2), (l) => console.log(l)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
