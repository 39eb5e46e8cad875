import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { ChangeListener } from '../../src/db/listener.ts';
import { withFileLock } from '../../src/search/fileLock.ts';
import { buildIndex, SearchIndex } from '../../src/search/manager.ts';
import { prepareQuery } from '../../src/search/query.ts';
import { ensureSharedSnapshot, publishSnapshot, refreshFromStore } from '../../src/search/sharedSnapshot.ts';
import { snapshotHeader } from '../../src/search/snapshot.ts';
import { LocalObjectStore } from '../../src/storage/localStore.ts';
import { UrlSigner } from '../../src/storage/urlSigner.ts';
import { cloneTestDatabase } from '../helpers/db.ts';

// SEARCH_SNAPSHOT_SHARE: nodes starting at once against one database and one object store build the search
// snapshot once between them; the others load the stored one.

describe('the search snapshot shared through the object store', function () {
  this.timeout(60_000);

  it('is built by one of three nodes starting at once, and loaded by the other two; later starts keep their own', async () => {
    const { url, db } = await cloneTestDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-shared-snapshot-'));
    try {
      await db.raw(`insert into trademarks (application_number, word_mark, class_number, status, application_date, proprietor_name,
        tm_type, slug) select (9200000 + i)::text, 'SHARED MARK ' || i, 9, 'Registered', '2020-01-01', 'OWNER', 'WORD', 'shared-' || i
        from generate_series(1, 50) i`);
      const store = new LocalObjectStore(
        path.join(dir, 'objects'),
        new UrlSigner('test-signing-secret-0123456789'),
        () => 'http://127.0.0.1',
      );
      const files = [1, 2, 3].map((n) => path.join(dir, `node${n}`, 'index.snapshot'));
      const outcomes = await Promise.all(files.map((f) => ensureSharedSnapshot(url, f, store)));
      expect(outcomes.map((o) => o.kind).sort()).to.deep.equal(['built', 'loaded', 'loaded']);
      const headers = await Promise.all(files.map((f) => snapshotHeader(f)));
      expect(new Set(headers.map((h) => `${h?.instance}:${h?.seq}:${h?.builtAt}`)).size).to.equal(1);
      expect(headers[0]?.seq).to.be.above(0);
      // A node whose own snapshot is of this database keeps it.
      expect((await ensureSharedSnapshot(url, files[0], store)).kind).to.equal('current');
      // A new node after them loads the stored one without building.
      expect((await ensureSharedSnapshot(url, path.join(dir, 'node4', 'index.snapshot'), store)).kind).to.equal('loaded');
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a shared search snapshot rebuilt on one node', function () {
  this.timeout(120_000);

  it('reaches the others: each fetches it when told, swaps it in, and fetches nothing when it has it', async () => {
    const { url, db } = await cloneTestDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-shared-rebuild-'));
    const log = pino({ level: 'silent' });
    const listener = new ChangeListener(url, log);
    let index: SearchIndex | null = null;
    try {
      const store = new LocalObjectStore(
        path.join(dir, 'objects'),
        new UrlSigner('test-signing-secret-0123456789'),
        () => 'http://127.0.0.1',
      );
      const [a, b] = ['a', 'b'].map((n) => path.join(dir, n, 'index.snapshot'));
      await ensureSharedSnapshot(url, a, store);
      await ensureSharedSnapshot(url, b, store);
      const first = (await snapshotHeader(b))!;
      await listener.start();
      index = new SearchIndex(url, b, listener, log, 'map', () => refreshFromStore(b, store));
      await index.ready();
      expect(await refreshFromStore(b, store), 'nothing newer yet').to.equal(false);

      await db.raw(`insert into trademarks (application_number, word_mark, class_number, status, application_date, proprietor_name,
        tm_type, slug) values ('9300001', 'REBUILT ZANTHOR', 9, 'Registered', '2020-01-01', 'OWNER', 'WORD', 'rebuilt-zanthor')`);
      await buildIndex(url, a);
      await publishSnapshot(a, store);
      const rebuilt = (await snapshotHeader(a))!;
      expect(rebuilt.seq).to.be.above(first.seq);

      // The processes of node B, told at once, fetch it once: the others wait for the first and find it there.
      let opened = 0;
      const open = store.open.bind(store);
      store.open = (key: string) => {
        opened++;
        return open(key);
      };
      const fetched = await Promise.all([1, 2, 3].map(() => refreshFromStore(b, store)));
      expect(fetched.filter(Boolean)).to.have.length(1);
      expect(opened).to.equal(1);
      expect(fs.existsSync(`${b}.lock`), 'the lock released').to.equal(false);
      // Each swaps in what is in the file (here, node B's one process).
      expect(await index.reload()).to.equal(true);
      expect((await snapshotHeader(b))?.seq).to.equal(rebuilt.seq);
      expect((await snapshotHeader(b))?.builtAt).to.equal(rebuilt.builtAt);
      const engine = await index.ready();
      const hit = engine.search(prepareQuery('ZANTHOR', 'SMART'), { classes: null, status: null }, 10, null).hits;
      expect(hit.map((h) => h.appNo)).to.include(9300001);
      // Told again with nothing newer: nothing fetched, nothing swapped.
      expect(await refreshFromStore(b, store)).to.equal(false);
      expect(await index.reload()).to.equal(false);
    } finally {
      await index?.close();
      await listener.close();
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the lock the processes of a machine take to fetch a snapshot', () => {
  it('is taken over from a holder that died, and runs its work once released', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-lock-'));
    try {
      const lock = path.join(dir, 'index.snapshot.lock');
      // A process that has exited left its lock behind.
      const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
      fs.writeFileSync(lock, dead.stdout);
      expect(await withFileLock(lock, async () => 'ran', 5_000)).to.equal('ran');
      expect(fs.existsSync(lock)).to.equal(false);
      // A live holder (this process) is waited for: the second runs after the first has finished.
      const order: string[] = [];
      const first = withFileLock(lock, async () => {
        order.push('first in');
        await new Promise((r) => setTimeout(r, 300));
        order.push('first out');
      });
      const second = withFileLock(lock, async () => void order.push('second'));
      await Promise.all([first, second]);
      expect(order).to.deep.equal(['first in', 'first out', 'second']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
