// Registrability grounds on the hand-labelled cases of test/clearance/groundCases.ts (issue 41): recall per
// ground kind and precision over every ground raised, on the cases used while building (tuning) and on those held
// out, beside a plain baseline in the same run: the whole proposal looked up as it is in the same lists (a listed
// well-known mark, INN, prohibited term, or a single plain word), which is what a naive check of the lists does.
// Reads the reference lists from PostgreSQL (loaded from data/reference/ first, as every start loads them).
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/nishaan_dev npx tsx bench/grounds.ts [--misses tuning|all]
import knex from 'knex';
import { GROUND_KINDS, type GroundKind, type GroundLists, Grounds } from '../src/clearance/registrability.ts';
import { loadReferenceData } from '../src/reference/loader.ts';
import { ReferenceRepository } from '../src/reference/repository.ts';
import { normaliseMark } from '../src/search/normalise.ts';
import { GROUND_CASES, type GroundCase } from '../test/clearance/groundCases.ts';
import { args } from './lib.ts';

const a = args();
const misses = a.get('misses') ?? 'tuning';
const db = knex({ client: 'pg', connection: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/nishaan_dev' });

/** The naive check: the proposal, normalised, is itself a listed name or term, or a single listed plain word. */
function baseline(lists: GroundLists, grounds: Grounds): (c: GroundCase) => Set<GroundKind> {
  const wellKnown = new Set(lists.wellKnown.map((w) => normaliseMark(w.mark)));
  const inn = new Set(lists.inn.map((n) => normaliseMark(n)));
  const prohibited = new Set(lists.prohibited.flatMap((p) => p.terms.map((t) => normaliseMark(t))));
  return (c) => {
    const n = normaliseMark(c.text);
    const out = new Set<GroundKind>();
    if (wellKnown.has(n)) out.add('well_known');
    if (inn.has(n)) out.add('inn');
    if (prohibited.has(n)) out.add('prohibited');
    if (!n.includes(' '))
      for (const g of grounds.assess(n, c.classes).grounds) if (!['well_known', 'inn', 'prohibited'].includes(g.ground)) out.add(g.ground);
    return out;
  };
}

interface Tally {
  found: Record<GroundKind, number>;
  wanted: Record<GroundKind, number>;
  raised: number;
  right: number;
}

const zero = () => Object.fromEntries(GROUND_KINDS.map((k) => [k, 0])) as Record<GroundKind, number>;

function tally(cases: GroundCase[], judge: (c: GroundCase) => Set<GroundKind>, show: boolean, label: string): Tally {
  const t: Tally = { found: zero(), wanted: zero(), raised: 0, right: 0 };
  for (const c of cases) {
    const got = judge(c);
    const want = new Set(c.expect);
    for (const k of want) {
      t.wanted[k]++;
      if (got.has(k)) t.found[k]++;
    }
    t.raised += got.size;
    for (const k of got) if (want.has(k)) t.right++;
    const wrong = [...got].filter((k) => !want.has(k));
    const missed = [...want].filter((k) => !got.has(k));
    if (show && (wrong.length || missed.length))
      console.log(
        `  ${label} ${JSON.stringify(c.text)} [${c.classes}] missed ${missed.join(',') || '-'} extra ${wrong.join(',') || '-'} (${c.note})`,
      );
  }
  return t;
}

const ratio = (x: number, y: number) => (y ? (x / y).toFixed(3) : '—');

async function main() {
  await loadReferenceData(db);
  const lists = await new ReferenceRepository(db).groundLists();
  const grounds = new Grounds(lists);
  const ours = (c: GroundCase) => new Set(grounds.assess(c.text, c.classes).grounds.map((g) => g.ground));
  const naive = baseline(lists, grounds);
  const splits = { tuning: GROUND_CASES.filter((c) => !c.held_out), held_out: GROUND_CASES.filter((c) => c.held_out) };
  const rows: string[] = [];
  for (const [name, cases] of Object.entries(splits)) {
    const show = misses === 'all' || misses === name;
    const t = tally(cases, ours, show, name);
    const b = tally(cases, naive, false, name);
    for (const k of GROUND_KINDS)
      rows.push(`| ${name} | ${k} | ${t.wanted[k]} | ${ratio(t.found[k], t.wanted[k])} | ${ratio(b.found[k], b.wanted[k])} |`);
    const negatives = cases.filter((c) => !c.expect.length).length;
    rows.push(
      `| ${name} | precision (${t.raised} raised; ${negatives} negative cases) | | ${ratio(t.right, t.raised)} | ` +
        `${ratio(b.right, b.raised)} |`,
    );
  }
  console.log('| cases | kind | positives | recall (grounds) | recall (whole-name lookup) |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(r);
  await db.destroy();
}

await main();
