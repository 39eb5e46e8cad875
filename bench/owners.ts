// Owner entities (issue 42, item 4): precision and recall of "same owner" on the hand-labelled proprietor name
// pairs of bench/owners/pairs.ts (written by hand from the forms Indian proprietor names take, before the normaliser
// was tuned), overall, per kind, and on the tuning and held-out parts (held out: every third pair, i % 3 === 2,
// chosen before the normaliser was run on them), beside a baseline in the same run: two names are one owner when
// they normalise alike as word marks do (src/search/normalise.ts, which the proprietor filter uses).
//   npx tsx bench/owners.ts [--misses]
import { sameOwner } from '../src/owners/entityName.ts';
import { groupNames } from '../src/owners/grouping.ts';
import { normaliseMark } from '../src/search/normalise.ts';
import { NAME_PAIRS, type NamePair } from './owners/pairs.ts';
import { FRESH_PAIRS } from './owners/pairs2.ts';

const baseline = (a: string, b: string) => normaliseMark(a) === normaliseMark(b);

interface Tally {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

function tally(pairs: NamePair[], same: (a: string, b: string, p: NamePair) => boolean): Tally {
  const t = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const p of pairs) {
    const said = same(p.a, p.b, p);
    if (said && p.same) t.tp++;
    else if (said) t.fp++;
    else if (p.same) t.fn++;
    else t.tn++;
  }
  return t;
}

const ratio = (n: number, d: number) => (d ? (n / d).toFixed(3) : '—');
const pr = (t: Tally) => `P ${ratio(t.tp, t.tp + t.fp)} R ${ratio(t.tp, t.tp + t.fn)} (${t.tp + t.fn} same, ${t.fp + t.tn} different)`;

const parts: [string, NamePair[]][] = [
  ['all', NAME_PAIRS],
  ['tuning', NAME_PAIRS.filter((_, i) => i % 3 !== 2)],
  ['held out', NAME_PAIRS.filter((_, i) => i % 3 === 2)],
];
// The entities as the register gets them (src/owners/grouping.ts): each pair's two names grouped alone, and every name
// of the set grouped in one batch, where a name can join two others that are not one owner (grouping is transitive).
const alone = (a: string, b: string) => {
  const g = groupNames(
    [
      { name: a, marks: 1 },
      { name: b, marks: 1 },
    ],
    [],
  );
  return g.names.get(a) === g.names.get(b);
};
const batchOf = (pairs: NamePair[]) =>
  groupNames(
    [...new Set(pairs.flatMap((p) => [p.a, p.b]))].map((name) => ({ name, marks: 1 })),
    [],
  ).names;
// Each set grouped as a register of its own: a pair is read in the batch of its set.
const FRESH = new Set(FRESH_PAIRS);
const batches = { first: batchOf(NAME_PAIRS), fresh: batchOf(FRESH_PAIRS) };
const oneBatch = (a: string, b: string, p: NamePair) => {
  const names = FRESH.has(p) ? batches.fresh : batches.first;
  return names.get(a) === names.get(b);
};
console.log(
  '| pairs | owner keys (pairwise) | entities, each pair alone | entities, all names in one batch | baseline (normalised alike) |\n' +
    '| --- | --- | --- | --- | --- |',
);
// The second set (bench/owners/pairs2.ts): written after the rules, by a session that saw no code; never tuned on.
parts.push(['fresh (pairs2, never tuned)', FRESH_PAIRS], ['never tuned on (held out + fresh)', [...parts[2][1], ...FRESH_PAIRS]]);
for (const [name, pairs] of parts) {
  const cells = [sameOwner, alone, oneBatch, baseline].map((f) => pr(tally(pairs, f)));
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
console.log('\n| kind | pairs | owner keys: right | baseline: right |\n| --- | --- | --- | --- |');
const kinds = [...new Set(NAME_PAIRS.map((p) => p.kind))].sort();
for (const k of kinds) {
  const pairs = NAME_PAIRS.filter((p) => p.kind === k);
  const right = (f: (a: string, b: string) => boolean) => pairs.filter((p) => f(p.a, p.b) === p.same).length;
  console.log(`| ${k} | ${pairs.length} | ${right(sameOwner)} | ${right(baseline)} |`);
}
if (process.argv.includes('--misses')) {
  console.log('\nmisses (tuning part only):');
  NAME_PAIRS.forEach((p, i) => {
    if (i % 3 !== 2 && sameOwner(p.a, p.b) !== p.same) console.log(`  ${p.same ? 'missed' : 'merged'} [${p.kind}] ${p.a} | ${p.b}`);
  });
}
