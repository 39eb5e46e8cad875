// Marks across scripts (issue 41, item 2): English words written in Devanagari as Hindi labels write them
// (bench/clearance/devanagariWords.ts, chosen before the reading was built), each screened by clearance in its class:
// is the Latin mark that is the word (SUNRISE in class 30 for सनराइज) among the first 10 findings? Beside it, in the
// same run, the same clearance with the reading as English off (the romanisation alone, as before issue 41).
// --plant first puts each word as a registered word mark in its class (application numbers 92,000,000 up, replaced
// on each run), so that the mark exists whatever the register; rebuild the search snapshot after planting.
//   DATABASE_URL=… npx tsx bench/devanagari.ts --plant && npx tsx scripts/search-index.ts rebuild
//   DATABASE_URL=… SEARCH_SNAPSHOT=FILE npx tsx bench/devanagari.ts [--all] [--show]
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { createRoot } from '../src/root.ts';
import { normaliseMark } from '../src/search/normalise.ts';
import { Analyser } from '../src/threats/analysis.ts';
import { ThreatRepository } from '../src/threats/repository.ts';
import { TrademarkRepository } from '../src/trademarks/repository.ts';
import { DEVANAGARI_WORDS } from './clearance/devanagariWords.ts';
import { args, DEFAULT_URL } from './lib.ts';

const PLANTED_FROM = 92_000_000;
const a = args();
const url = process.env.DATABASE_URL ?? DEFAULT_URL;

if (a.has('plant')) {
  const c = new pg.Client(url);
  await c.connect();
  await c.query('begin');
  await c.query(`delete from trademarks where length(application_number) = 8 and application_number between $1 and $2`, [
    String(PLANTED_FROM),
    String(PLANTED_FROM + 999),
  ]);
  const apps = DEVANAGARI_WORDS.map((_, i) => String(PLANTED_FROM + i));
  await c.query(
    `insert into trademarks (application_number, word_mark, class_number, status, application_date, proprietor_name, tm_type, slug)
     select app, mark, cls, 'Registered', date '2015-01-01', 'PLANTED HOLDER', 'WORD', 'planted-' || app
     from unnest($1::text[], $2::text[], $3::int[]) as t(app, mark, cls)`,
    [apps, DEVANAGARI_WORDS.map((w) => w[1]), DEVANAGARI_WORDS.map((w) => w[2])],
  );
  await c.query('commit');
  await c.end();
  console.log(`${apps.length} marks planted at ${apps[0]}-${apps.at(-1)}`);
  process.exit(0);
}

const config = loadConfig({ ...process.env, DATABASE_URL: url, SEARCH_CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'silent' });
const deps = createRoot(config);
const engine = await deps.search.ready();
console.log(`search index: ${engine.indexes[0].n.toLocaleString('en')} marks`);
const analyser = new Analyser(deps.search, new TrademarkRepository(deps.db), new ThreatRepository(deps.db), deps.logos.texts);
const words = a.has('all') ? DEVANAGARI_WORDS : DEVANAGARI_WORDS.slice(0, 50);

async function rankOf(text: string, word: string, cls: number): Promise<{ rank: number; top: string }> {
  const found = await analyser.analyse({ text, classes: [cls], logo: null, filed: null });
  const rank = found.findIndex((f) => f.row.class_number === cls && normaliseMark(f.row.word_mark) === word);
  return {
    rank,
    top: found
      .slice(0, 3)
      .map((f) => `${f.row.word_mark} ${f.score.overall.toFixed(0)}`)
      .join(', '),
  };
}

const result = { reading: 0, romanised: 0 };
const misses: string[] = [];
for (const [text, word, cls] of words) {
  analyser.readEnglish = true;
  const ours = await rankOf(text, word, cls);
  analyser.readEnglish = false;
  const before = await rankOf(text, word, cls);
  if (ours.rank >= 0 && ours.rank < 10) result.reading++;
  else misses.push(`${text} ${word} [${cls}] rank ${ours.rank}: ${ours.top}`);
  if (before.rank >= 0 && before.rank < 10) result.romanised++;
  if (a.has('show')) console.log(`${text} ${normaliseMark(text)} → ${word} [${cls}]: ${ours.rank} (before ${before.rank}) ${ours.top}`);
}
const n = words.length;
console.log(`| words | read as English: top-10 | romanisation alone: top-10 | ratio |`);
console.log(`| --- | --- | --- | --- |`);
console.log(
  `| ${n} | ${(result.reading / n).toFixed(2)} (${result.reading}) | ${(result.romanised / n).toFixed(2)} (${result.romanised}) | ` +
    `${result.romanised ? (result.reading / result.romanised).toFixed(2) : '—'} |`,
);
for (const m of misses) console.log(`  missed ${m}`);
await deps.close();
