import { AS_OF, addYears } from './dates.ts';
import type { Marks } from './marks.ts';
import { Rng } from './rng.ts';
import type { Force } from './types.ts';

// Which baseline marks the delta changes, and how. Chosen before the baseline is written: a change
// needs a precondition (an opposition to decide, a hearing to adjourn, an accepted mark to
// advertise), and the baseline builder is told to give exactly those marks that state.

export const KINDS = [
  'status',
  'alert',
  'expiry',
  'journal',
  'opposition_filed',
  'opposition_updated',
  'opposition_document',
  'hearing_scheduled',
  'hearing_updated',
  'exam_report',
  'document',
  'proprietor',
  'attorney',
  'new',
] as const;
export type Kind = (typeof KINDS)[number];

/** Every kind occurs at least this often, whatever the requested size. */
export const MIN_PER_KIND = 3;
// Share of the remaining slots: a registry day is mostly status moves, new filings and paperwork.
const WEIGHT: Record<Kind, number> = {
  status: 24,
  alert: 5,
  expiry: 7,
  journal: 8,
  opposition_filed: 3,
  opposition_updated: 3,
  opposition_document: 3,
  hearing_scheduled: 4,
  hearing_updated: 3,
  exam_report: 9,
  document: 10,
  proprietor: 4,
  attorney: 3,
  new: 14,
};

export interface Slot {
  i: number;
  kind: Kind;
  force?: Force;
}

export interface Plan {
  slots: Slot[]; // changes to baseline marks, in index order
  newMarks: number; // marks filed on the delta day, indices n .. n + newMarks - 1
  forced: [number, Force][];
}

export function defaultDeltaSize(n: number): number {
  return Math.max(50, Math.floor(n / 2000));
}

export function planDelta(marks: Marks, size: number): Plan {
  const n = marks.n;
  const total = Math.max(size, MIN_PER_KIND * KINDS.length);
  const spare = total - MIN_PER_KIND * KINDS.length;
  const sum = KINDS.reduce((s, k) => s + WEIGHT[k], 0);
  const counts = new Map<Kind, number>(KINDS.map((k) => [k, MIN_PER_KIND + Math.floor((spare * WEIGHT[k]) / sum)]));
  counts.set('status', counts.get('status')! + total - [...counts.values()].reduce((s, c) => s + c, 0));

  const used = new Set<number>();
  const slots: Slot[] = [];
  const rng = new Rng(marks.seed, 0x5eed, 0xde17a);
  for (const kind of KINDS) {
    if (kind === 'new') continue;
    for (let c = 0; c < counts.get(kind)!; c++) {
      const found = find(marks, kind, rng, used);
      if (found === null) break;
      used.add(found.i);
      slots.push(found);
    }
  }
  slots.sort((a, b) => a.i - b.i);
  const forced = slots.filter((s) => s.force).map((s) => [s.i, s.force!] as [number, Force]);
  return { slots, newMarks: n > 0 ? counts.get('new')! : 0, forced };
}

interface Want {
  minYears: number;
  maxYears: number;
  test?: (i: number) => boolean;
  force?: (i: number) => Force;
}

function want(marks: Marks, kind: Kind): Want {
  const citable = (i: number) => marks.citable(i).length > 0;
  switch (kind) {
    case 'status':
      return { minYears: 0, maxYears: 1.5, force: () => 'pending' };
    case 'journal':
      return { minYears: 0.3, maxYears: 3, force: () => 'accepted' };
    case 'opposition_filed':
      return { minYears: 0.5, maxYears: 3, force: () => 'advertised_recently' };
    case 'opposition_updated':
    case 'opposition_document':
      return { minYears: 1, maxYears: 6, force: () => 'opposed' };
    case 'hearing_scheduled':
      return { minYears: 0.3, maxYears: 4, force: (i) => (citable(i) ? 'objected' : 'opposed') };
    case 'hearing_updated':
      return { minYears: 0.5, maxYears: 4, force: (i) => (citable(i) ? 'show_cause' : 'opposition_hearing') };
    case 'exam_report':
      return { minYears: 0, maxYears: 2, test: citable, force: () => 'marked_for_exam' };
    case 'expiry':
      return { minYears: 10, maxYears: 200, test: (i) => inRenewalWindow(marks.day(i)), force: () => 'renewal_window' };
    default:
      return { minYears: 0, maxYears: 200 };
  }
}

/** A registration falls due inside the window in which a renewal would be filed now. */
export function inRenewalWindow(filed: number): boolean {
  for (let k = 1; k < 20; k++) {
    const due = addYears(filed, 10 * k);
    if (due > AS_OF + 180) return false;
    if (due >= AS_OF - 270) return true;
  }
  return false;
}

function find(marks: Marks, kind: Kind, rng: Rng, used: Set<number>): Slot | null {
  const w = want(marks, kind);
  // Filing days rise with the index, so an age range is an index range.
  const lo = firstIndexFiledOnOrAfter(marks, AS_OF - Math.round(w.maxYears * 365.25));
  const hi = firstIndexFiledOnOrAfter(marks, AS_OF - Math.round(w.minYears * 365.25));
  if (hi <= lo) return null;
  const ok = (i: number) => !used.has(i) && (!w.test || w.test(i));
  let pick = -1;
  for (let t = 0; t < 400 && pick < 0; t++) {
    const i = lo + rng.int(hi - lo);
    if (ok(i)) pick = i;
  }
  if (pick < 0) {
    const start = rng.int(hi - lo);
    for (let k = 0; k < hi - lo && pick < 0; k++) if (ok(lo + ((start + k) % (hi - lo)))) pick = lo + ((start + k) % (hi - lo));
  }
  if (pick < 0) return null;
  return { i: pick, kind, force: w.force?.(pick) };
}

function firstIndexFiledOnOrAfter(marks: Marks, day: number): number {
  let a = 0;
  let b = marks.n;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (marks.day(mid) < day) a = mid + 1;
    else b = mid;
  }
  return a;
}
