import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { generate } from '../../src/ingest/generator/index.ts';
import { writeDeltaJournal } from '../../src/ingest/journal/fromDelta.ts';
import { tradingAs } from '../../src/ingest/journal/parties.ts';
import { readJournal } from '../../src/ingest/journal/readJournal.ts';

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
    const read = await readJournal(fs.readFileSync(written!.file));
    expect(read.refused).to.deep.equal([]);
    expect(read.entries).to.have.length(written!.entries);
    for (const e of read.entries) {
      const t = advertised.find((x) => x.application_number === e.application_number);
      expect(t, e.application_number).to.not.equal(undefined);
      expect(e).to.deep.include({
        journal_number: journal.journal_number,
        publication_date: journal.publication_date,
        class_number: t.class_number,
        word_mark: t.word_mark || null,
        application_date: t.application_date,
      });
      expect(tradingAs(e.proprietor.name).person).to.equal(t.proprietor_name);
      expect(e.goods_services).to.equal(t.goods_services.replace(/\s+/g, ' ').trim());
    }
  });
});
