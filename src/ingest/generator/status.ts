import { type Rng, Weighted } from './rng.ts';

// Where a mark is in the registry's pipeline, and the road it took to get there. The current
// status depends on the mark's age (old marks are settled, new ones pending), and the history is a
// plausible walk through the IP India statuses ending at it.

// Status labels exactly as the e-register prints them (tm_status_values.csv), plus the API
// contract's own "Under Examination" and "Advertised".
export const S = {
  NA: 'New Application',
  NAR: 'New Application Received',
  SVC: 'Send To Vienna Codification',
  FCP: 'Formalities Chk Pass',
  FCF: 'Formalities Chk Fail',
  EDP: 'Send Back to EDP',
  PRAS: 'Send to PRAS',
  ME: 'Marked for Exam',
  UE: 'Under Examination',
  ERI: 'Exam Report Issued',
  OBJ: 'Objected',
  SCH: 'Ready for Show Cause Hearing',
  ACC: 'Accepted',
  ABA: 'Advertised bef acc',
  AA: 'Accepted & Advertised',
  ADV: 'Advertised',
  RADV: 'ABA/Readvertised',
  AWP: 'Acceptance Withdrawn Process',
  OPP: 'Opposed',
  REG: 'Registered',
  REF: 'Refused',
  ABN: 'Abandoned',
  WDN: 'Withdrawn',
  INV: 'Invalid',
  REM: 'Removed',
  RECT: 'Rectification Filed',
  DIV: 'Under Division',
} as const;
export type Status = (typeof S)[keyof typeof S];

/** Labels the API contract adds to the e-register's own (which are in tm_status_values.csv). */
export const CONTRACT_STATUSES = new Set<string>([S.UE, S.ADV, S.REG, S.OBJ]);

/** Every label used here must be a real e-register status or one of the contract's. */
export function unknownStatuses(registerStatuses: Set<string>): string[] {
  return Object.values(S).filter((s) => !registerStatuses.has(s) && !CONTRACT_STATUSES.has(s));
}
/** Statuses reached only through an examination report, so the mark must have one. */
export const EXAM_STATUSES = new Set<Status>([S.ERI, S.OBJ, S.SCH, S.REF]);
export const ADVERTISED = new Set<Status>([S.ABA, S.AA, S.ADV, S.RADV]);
export const REGISTERED_LIKE = new Set<Status>([S.REG, S.RECT, S.DIV]);

type Band = [Status, number][];
const BANDS: { maxYears: number; table: Weighted<Status> }[] = [
  [
    0.25,
    [
      [S.NA, 30],
      [S.NAR, 3],
      [S.SVC, 8],
      [S.FCP, 25],
      [S.FCF, 4],
      [S.EDP, 1],
      [S.PRAS, 1],
      [S.ME, 15],
      [S.UE, 8],
      [S.ERI, 3],
      [S.OBJ, 3],
      [S.WDN, 0.5],
      [S.INV, 0.5],
    ],
  ],
  [
    1,
    [
      [S.FCP, 8],
      [S.SVC, 2],
      [S.FCF, 2],
      [S.ME, 10],
      [S.UE, 8],
      [S.ERI, 8],
      [S.OBJ, 25],
      [S.SCH, 4],
      [S.ACC, 6],
      [S.AA, 8],
      [S.ABA, 2],
      [S.ADV, 5],
      [S.OPP, 1],
      [S.REG, 6],
      [S.ABN, 3],
      [S.WDN, 1],
    ],
  ],
  [
    3,
    [
      [S.UE, 2],
      [S.OBJ, 15],
      [S.SCH, 6],
      [S.ACC, 3],
      [S.AA, 6],
      [S.ADV, 4],
      [S.ABA, 1],
      [S.RADV, 0.5],
      [S.AWP, 0.3],
      [S.OPP, 5],
      [S.REG, 40],
      [S.ABN, 12],
      [S.REF, 3],
      [S.WDN, 2],
    ],
  ],
  [
    10,
    [
      [S.REG, 62],
      [S.OPP, 4],
      [S.OBJ, 3],
      [S.SCH, 1.5],
      [S.AA, 1],
      [S.ABN, 16],
      [S.REF, 4],
      [S.WDN, 2],
      [S.RECT, 0.8],
      [S.DIV, 0.3],
    ],
  ],
  [
    Infinity,
    [
      [S.REG, 55],
      [S.REM, 25],
      [S.ABN, 10],
      [S.REF, 3],
      [S.WDN, 2],
      [S.RECT, 1],
      [S.OPP, 0.5],
      [S.DIV, 0.2],
      [S.INV, 0.3],
    ],
  ],
].map(([maxYears, band]) => ({
  maxYears: maxYears as number,
  table: new Weighted(
    (band as Band).map((b) => b[0]),
    (band as Band).map((b) => b[1]),
  ),
}));

/**
 * Current status for a mark `ageYears` old. `citable` says whether an earlier similar mark exists:
 * without one there is nothing to object to under s.11, so objection-driven statuses become the
 * neighbouring ones.
 */
export function currentStatus(rng: Rng, ageYears: number, hasDevice: boolean, citable: boolean): Status {
  let st = BANDS.find((b) => ageYears < b.maxYears)!.table.draw(rng);
  if (st === S.SVC && !hasDevice) st = S.FCP;
  if (!citable && EXAM_STATUSES.has(st)) st = st === S.REF ? S.ABN : ageYears < 1 ? S.UE : S.REG;
  if (st === S.REM && ageYears < 10.6) st = S.REG;
  return st;
}

/** Full route to `final`; `exam` and `opposed` decide whether the objection and opposition legs appear. */
export function route(final: Status, exam: boolean, opposed: boolean, rng: Rng): Status[] {
  const intake: Status[] = [S.NA, S.FCP, S.ME];
  const examined: Status[] = exam ? [...intake, S.ERI, S.OBJ] : [...intake];
  const advertised: Status[] = [...examined, S.ACC, S.AA];
  switch (final) {
    case S.NA:
    case S.NAR:
      return [final];
    case S.SVC:
    case S.FCF:
    case S.EDP:
    case S.INV:
      return [S.NA, final];
    case S.FCP:
      return [S.NA, S.FCP];
    case S.PRAS:
      return [S.NA, S.FCP, S.PRAS];
    case S.ME:
      return intake;
    case S.UE:
      return [...intake, S.UE];
    case S.ERI:
      return [...intake, S.ERI];
    case S.OBJ:
      return [...intake, S.ERI, S.OBJ];
    case S.SCH:
      return [...intake, S.ERI, S.OBJ, S.SCH];
    case S.ACC:
      return [...examined, S.ACC];
    case S.ABA:
      return [...examined, S.ABA];
    case S.RADV:
      return [...examined, S.ABA, S.RADV];
    case S.AA:
      return advertised;
    case S.ADV:
      return [...examined, S.ACC, S.ADV];
    case S.AWP:
      return [...examined, S.ACC, S.AWP];
    case S.OPP:
      return [...advertised, S.OPP];
    case S.REG:
      return opposed ? [...advertised, S.OPP, S.REG] : [...advertised, S.REG];
    case S.RECT:
    case S.DIV:
    case S.REM:
      return opposed ? [...advertised, S.OPP, S.REG, final] : [...advertised, S.REG, final];
    case S.REF:
      return opposed ? [...advertised, S.OPP, S.REF] : [...intake, S.ERI, S.OBJ, S.SCH, S.REF];
    case S.ABN:
      return opposed ? [...advertised, S.OPP, S.ABN] : exam ? [...intake, S.ERI, S.OBJ, S.ABN] : [...intake, S.ABN];
    case S.WDN:
      return rng.chance(0.5) ? [S.NA, S.FCP, S.WDN] : [...intake, S.WDN];
    default:
      return [S.NA, final];
  }
}

// Typical days from the previous step to this one: [min, max].
const GAP: Partial<Record<Status, [number, number]>> = {
  [S.FCP]: [7, 45],
  [S.FCF]: [7, 45],
  [S.SVC]: [5, 30],
  [S.EDP]: [10, 60],
  [S.PRAS]: [10, 60],
  [S.INV]: [5, 30],
  [S.ME]: [15, 120],
  [S.UE]: [10, 90],
  [S.ERI]: [30, 240],
  [S.OBJ]: [0, 10],
  [S.SCH]: [120, 500],
  [S.ACC]: [30, 300],
  [S.ABA]: [30, 200],
  [S.AA]: [20, 150],
  [S.ADV]: [20, 150],
  [S.RADV]: [90, 400],
  [S.AWP]: [30, 200],
  [S.OPP]: [30, 120],
  [S.REG]: [130, 400],
  [S.REF]: [60, 600],
  [S.ABN]: [60, 600],
  [S.WDN]: [30, 400],
  [S.RECT]: [365, 3000],
  [S.DIV]: [100, 1500],
  [S.REM]: [0, 0],
};

/**
 * Days (from the filing day) for each step of `path`, increasing and ending no later than `lastDay`.
 * Older applications moved more slowly; recent ones are squeezed into the time that has passed.
 */
export function timeline(path: readonly Status[], filed: number, lastDay: number, slow: number, rng: Rng): number[] {
  const days = new Array<number>(path.length);
  let t = filed;
  days[0] = filed;
  for (let k = 1; k < path.length; k++) {
    const g = GAP[path[k]] ?? [10, 100];
    t += Math.round((g[0] + rng.float() * (g[1] - g[0])) * (path[k] === S.REG && path[k - 1] === S.OPP ? 3 : slow));
    days[k] = t;
  }
  if (t > lastDay) {
    const scale = Math.max(0, lastDay - filed) / (t - filed);
    for (let k = 1; k < path.length; k++) days[k] = filed + Math.floor((days[k] - filed) * scale);
  }
  return days;
}

/** The steps the register still shows: always the current one, the filing if there is room, 1-5 in all. */
export function keptSteps(length: number, oldRecord: boolean, rng: Rng): number[] {
  const want = Math.min(length, oldRecord ? rng.range(1, 2) : rng.range(2, 5));
  if (want <= 1) return [length - 1];
  const middle: number[] = [];
  for (let k = 1; k < length - 1; k++) middle.push(k);
  while (middle.length > want - 2) middle.splice(rng.int(middle.length), 1);
  return [0, ...middle, length - 1];
}
