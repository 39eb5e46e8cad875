import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { generate } from '../../src/ingest/generator/index.ts';
import { writeDeltaJournal } from '../../src/ingest/journal/fromDelta.ts';
import { parsePage } from '../../src/ingest/journal/parse.ts';
import { readPdf } from '../../src/ingest/journal/read.ts';

// The demo's delta written as the journal that advertises its marks (docs/journal.md): every page reads back as the
// delta's mark, with its number, class, words and proprietor.

describe("journal: the demo delta's journal", () => {
  let dir: string;
  before(async function () {
    this.timeout(60_000);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-demo-journal-'));
    await generate({ records: 3000, seed: 1, logos: 20, threads: 0, out: dir });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("prints each mark the delta's journal advertises on a page that reads back as that mark", async () => {
    const delta = path.join(dir, 'delta');
    const journal = JSON.parse(fs.readFileSync(path.join(delta, 'journals.jsonl'), 'utf8').trim().split('\n').at(-1)!);
    const advertised = fs
      .readFileSync(path.join(delta, 'trademarks.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((t) => t.journal_id === journal.id);
    const written = await writeDeltaJournal(delta);
    expect(written).to.deep.include({ file: path.join(delta, `journal-${journal.journal_number}.pdf`) });
    expect(written!.entries + written!.left).to.equal(advertised.length);
    expect(written!.entries).to.be.greaterThan(0);
    const pages = await readPdf(fs.readFileSync(written!.file));
    const read = pages.map((p, i) => parsePage(i + 1, p.lines));
    expect(read.filter((r) => 'refused' in r)).to.deep.equal([]);
    for (const r of read) {
      if (!('entry' in r)) continue;
      const t = advertised.find((x) => x.application_number === r.entry.application_number);
      expect(t, r.entry.application_number).to.not.equal(undefined);
      expect(r.entry).to.deep.include({
        journal_number: journal.journal_number,
        publication_date: journal.publication_date,
        class_number: t.class_number,
        word_mark: t.word_mark || null,
        application_date: t.application_date,
      });
      expect(r.entry.proprietor.name).to.equal(t.proprietor_name);
      expect(r.entry.goods_services).to.equal(t.goods_services.replace(/\s+/g, ' ').trim());
    }
  });
});
