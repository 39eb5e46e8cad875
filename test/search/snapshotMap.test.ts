import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { IndexBuilder } from '../../src/search/build.ts';
import { SearchEngine } from '../../src/search/engine.ts';
import { prepareQuery } from '../../src/search/query.ts';
import { canMapSnapshots, loadSnapshot, saveSnapshot } from '../../src/search/snapshot.ts';
import type { Filter } from '../../src/search/types.ts';

// A snapshot mapped is the same index as one read, and its pages are the kernel's one copy: a second
// process mapping the same file shares them (docs/architecture.md, "One index per machine").

const SYLLABLES = ['SUN', 'RISE', 'GOLD', 'EN', 'STAR', 'SHREE', 'GA', 'NESH', 'KING', 'FISH', 'ER', 'MA', 'HA', 'RAJ', 'VI', 'JAY'];

function markText(i: number): string {
  let x = (i * 2654435761) >>> 0;
  const words: string[] = [];
  for (let w = 0; w < 1 + (x % 3); w++) {
    let word = '';
    for (let s = 0; s < 2 + ((x >>> 3) % 2); s++) {
      word += SYLLABLES[(x >>> (5 + s * 4)) % SYLLABLES.length];
    }
    words.push(word);
    x = (x * 1103515245 + 12345) >>> 0;
  }
  return words.join(' ');
}

/** The mapping of `file` in a process, summed over its parts, from /proc/PID/smaps (kB). */
function mappingOf(pid: number | 'self', file: string): { size: number; rss: number; sharedClean: number; privateDirty: number } | null {
  const out = { size: 0, rss: 0, sharedClean: 0, privateDirty: 0 };
  let inside = false;
  let found = false;
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
      inside = line.endsWith(` ${file}`);
      found ||= inside;
      continue;
    }
    if (!inside) continue;
    const m = /^(\w+):\s+(\d+) kB/.exec(line);
    if (!m) continue;
    const kb = Number(m[2]);
    if (m[1] === 'Size') out.size += kb;
    else if (m[1] === 'Rss') out.rss += kb;
    else if (m[1] === 'Shared_Clean') out.sharedClean += kb;
    else if (m[1] === 'Private_Dirty') out.privateDirty += kb;
  }
  return found ? out : null;
}

const none: Filter = { classes: null, status: null };
const QUERIES = ['SUNRISE', 'GOLDEN STAR', 'SHREEGANESH', 'KINGFISHER', 'RAJMA', 'VIJAY', 'SUNRIZE', 'GANESH'];

describe('search snapshot mapped into memory', function () {
  this.timeout(60_000);
  let dir: string;
  let file: string;
  let child: ChildProcess | null = null;

  before(() => {
    if (!canMapSnapshots) throw new Error('native/mmap was not built: npm ci builds it (node-gyp, g++)');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-snapmap-'));
    file = path.join(dir, 'index.snapshot');
    const b = new IndexBuilder();
    for (let i = 0; i < 30_000; i++) {
      b.add({
        appNo: 100_000 + i,
        wordMark: markText(i),
        cls: 1 + (i % 45),
        status: 'Registered',
        tmType: 'WORD',
        filingMode: 'E-FILING',
        state: 'DELHI',
      });
    }
    saveSnapshot(file, b.finish(), 7, 'test-instance');
  });

  after(() => {
    child?.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers every search as the snapshot read into the process does', async () => {
    const mapped = (await loadSnapshot(file, 'map'))!;
    const read = (await loadSnapshot(file, 'read'))!;
    expect(mapped.seq).to.equal(7);
    expect(mapped.instance).to.equal('test-instance');
    const a = new SearchEngine(mapped.index, mapped.seq);
    const b = new SearchEngine(read.index, read.seq);
    let hits = 0;
    for (const text of QUERIES) {
      const ra = a.search(prepareQuery(text, 'SMART'), none, 200, null);
      const rb = b.search(prepareQuery(text, 'SMART'), none, 200, null);
      expect(ra.count, text).to.equal(rb.count);
      expect(
        ra.hits.map((h) => [h.appNo, h.strategy]),
        text,
      ).to.deep.equal(rb.hits.map((h) => [h.appNo, h.strategy]));
      hits += ra.hits.length;
    }
    expect(hits).to.be.greaterThan(100);
  });

  it('keeps the pages the kernel shares between processes, copying none', async () => {
    const loaded = (await loadSnapshot(file, 'map'))!;
    new SearchEngine(loaded.index, loaded.seq).search(prepareQuery('SUNRISE', 'SMART'), none, 50, null);
    const kb = Math.floor(fs.statSync(file).size / 1024);
    const own = mappingOf('self', file);
    expect(own, 'the snapshot is mapped').to.not.equal(null);
    expect(own!.rss).to.be.at.least(kb * 0.95);
    expect(own!.privateDirty, 'pages copied by a write').to.equal(0);

    // A second process maps the same file: the pages resident in both are the same pages.
    const code = `import { loadSnapshot } from ${JSON.stringify(path.resolve('src/search/snapshot.ts'))};
      const s = await loadSnapshot(${JSON.stringify(file)}, 'map'); globalThis.keep = s; console.log('loaded');`;
    child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `${code} setInterval(() => {}, 1000);`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child!.stdout!.on('data', (d: Buffer) => d.toString().includes('loaded') && resolve());
      child!.once('exit', (c) => reject(new Error(`the second process exited (${c})`)));
    });
    const mine = mappingOf('self', file)!;
    const theirs = mappingOf(child.pid!, file)!;
    expect(mine.sharedClean, 'shared with the second process').to.be.at.least(kb * 0.95);
    expect(theirs.sharedClean).to.be.at.least(kb * 0.95);
    expect(theirs.privateDirty).to.equal(0);
    expect(loaded.index.n).to.equal(30_000);
  });

  it('read into the process, it maps nothing', async () => {
    const copy = path.join(dir, 'read.snapshot');
    fs.copyFileSync(file, copy);
    const read = (await loadSnapshot(copy, 'read'))!;
    expect(read.index.n).to.equal(30_000);
    expect(mappingOf('self', copy)).to.equal(null);
    const mapped = (await loadSnapshot(copy, 'map'))!;
    expect(mappingOf('self', copy)).to.not.equal(null);
    expect(mapped.index.n).to.equal(30_000);
  });

  it('is null for a file that is not there or not a snapshot', async () => {
    expect(await loadSnapshot(path.join(dir, 'missing.snapshot'), 'map')).to.equal(null);
    const other = path.join(dir, 'other.snapshot');
    fs.writeFileSync(other, 'not a snapshot at all');
    expect(await loadSnapshot(other, 'map')).to.equal(null);
    fs.writeFileSync(other, '');
    expect(await loadSnapshot(other, 'map')).to.equal(null);
  });
});

describe('search snapshot: ready answers kept in it', function () {
  this.timeout(120_000);
  let dir: string;
  let file: string;
  const N = 70_000;
  // Every mark begins with S (S and SU keep ready answers: 65,536 postings or more) and half hold SUNRISE
  // (searched alone it keeps one, and its marks a bitmap: 32,768 or more).
  const row = (i: number) => ({
    appNo: 500_000 + i,
    wordMark: i % 2 ? `SUNRISE ${markText(i)}` : `SU${markText(i)}`,
    cls: 1 + (i % 45),
    status: i % 3 ? 'Registered' : 'Objected',
    tmType: 'WORD',
    filingMode: 'E-FILING',
    state: 'DELHI',
  });
  const build = () => {
    const b = new IndexBuilder();
    for (let i = 0; i < N; i++) b.add(row(i));
    return b.finish();
  };
  const answers = (e: SearchEngine) =>
    ['S', 'SU', 'SUNRISE'].flatMap((text) =>
      [none, { classes: Uint8Array.from({ length: 46 }, (_, c) => (c === 3 || c === 30 ? 1 : 0)), status: null }].map((f) => {
        const r = e.search(prepareQuery(text, 'SMART'), f, 30, null);
        return { text, count: r.count, groups: Object.entries(r.groups).map(([k, m]) => [k, [...m]]), hits: r.hits.map((h) => h.appNo) };
      }),
    );

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-snapready-'));
    file = path.join(dir, 'index.snapshot');
    saveSnapshot(file, build(), 3, 'test-instance');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('holds the short prefixes and common words, and answers as answers made in the process', async () => {
    const loaded = (await loadSnapshot(file, 'map'))!;
    const ready = loaded.index.takeReady()!;
    expect([...ready.prefixes.keys()].sort()).to.include.members(['S', 'SU']);
    expect([...ready.words.keys()].map((w) => loaded.index.vocab.words.at(w))).to.include('SUNRISE');
    expect(ready.sets.size).to.be.greaterThan(0);
    loaded.index.offerReady(ready);
    const fresh = new SearchEngine(build(), 3);
    await fresh.prepare();
    const mapped = new SearchEngine(loaded.index, loaded.seq);
    expect(answers(mapped)).to.deep.equal(answers(fresh));
    expect(answers(mapped)[0].count).to.equal(N);
  });

  it('counts marks that go away in this process only, the file unchanged', async () => {
    const changes = Array.from({ length: 500 }, (_, k) => ({ seq: 4 + k, appNo: 500_000 + k * 7, row: null }));
    const mapped = (await loadSnapshot(file, 'map'))!;
    const a = new SearchEngine(mapped.index, 3);
    a.apply(changes, 503);
    const fresh = new SearchEngine(build(), 3);
    await fresh.prepare();
    fresh.apply(changes, 503);
    expect(answers(a)).to.deep.equal(answers(fresh));
    expect(answers(a)[0].count).to.equal(N - 500);
    // Loaded again, from the file and in a second process's view: nothing of the first one's changes.
    const again = (await loadSnapshot(file, 'map'))!;
    expect(answers(new SearchEngine(again.index, 3))[0].count).to.equal(N);
    expect(answers(new SearchEngine((await loadSnapshot(file, 'read'))!.index, 3))[0].count).to.equal(N);
  });

  it('gives its answers to one live index only: a second one over the same index makes its own', async () => {
    const loaded = (await loadSnapshot(file, 'map'))!;
    const first = new SearchEngine(loaded.index, 3);
    first.apply([{ seq: 4, appNo: 500_001, row: null }], 4);
    const second = new SearchEngine(loaded.index, 3);
    expect(answers(first)[0].count).to.equal(N - 1);
    expect(answers(second)[0].count).to.equal(N);
  });
});
