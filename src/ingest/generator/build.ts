import { AS_OF, addYears, dayOf, FIRST_JOURNAL, iso, journalDay, journalOnOrAfter, LAST_JOURNAL } from './dates.ts';
import { linkRecords } from './linked.ts';
import { LogoDesigner } from './logoDesign.ts';
import { Marks } from './marks.ts';
import { Parties } from './parties.ts';
import { OFFICE_CITY } from './places.ts';
import type { Reference } from './reference.ts';
import { Rng } from './rng.ts';
import { ADVERTISED, currentStatus, EXAM_STATUSES, keptSteps, REGISTERED_LIKE, route, S, type Status, timeline } from './status.ts';
import { type Force, type HistoryRow, type Mark, STRIDE } from './types.ts';
import { logoVienna } from './vienna.ts';

// Everything the register holds about one mark, as plain data. Built from pure functions of
// (seed, index), so the delta can rebuild a baseline mark exactly and change only what it means to.

const S_STATUS = 31,
  S_DETAIL = 32;
const POST_EXAM = new Set<Status>([S.ACC, S.ABA, S.AA, S.ADV, S.RADV, S.AWP, S.OPP, S.REG, S.RECT, S.DIV, S.REM, S.ABN]);
const PENDING: Status[] = [S.NA, S.FCP, S.ME, S.UE];
const E_FILING_FROM = dayOf('2009-01-01');

export class Builder {
  readonly marks: Marks;
  readonly parties: Parties;
  private readonly rng = new Rng();
  private designer: LogoDesigner | null = null;

  constructor(
    readonly seed: number,
    readonly n: number,
    readonly ref: Reference,
  ) {
    this.marks = new Marks(seed, n);
    this.parties = new Parties(seed, ref);
  }

  build(i: number, force?: Force): Mark {
    const m = this.marks;
    const core = m.core(i);
    const type = m.type(i);
    const filed = m.day(i);
    const ageYears = (AS_OF - filed) / 365.25;
    const citable = m.citable(i);
    const hasDevice = type !== 'WORD';
    const rng = this.rng.reseed(this.seed, i, S_STATUS);

    // A mark filed on the delta day has only just entered the system.
    const status =
      i >= this.n
        ? rng.chance(0.7)
          ? S.NA
          : hasDevice
            ? S.SVC
            : S.FCP
        : force
          ? forcedStatus(force, rng)
          : currentStatus(rng, ageYears, hasDevice, citable.length > 0);
    const exam =
      citable.length > 0 &&
      force !== 'marked_for_exam' &&
      force !== 'pending' &&
      (EXAM_STATUSES.has(status) || force === 'objected' || (POST_EXAM.has(status) && rng.chance(0.65)));
    const opposed =
      status === S.OPP ||
      (status === S.REG && rng.chance(0.025)) ||
      (status === S.REF && rng.chance(0.2)) ||
      (status === S.ABN && rng.chance(0.05));
    const path = route(status, exam, opposed, rng);
    const slow = filed < E_FILING_FROM ? 2 + rng.float() * 2 : 1;
    let lastDay = AS_OF;
    // A mark the delta will oppose must have been advertised within the four-month window.
    if (force === 'advertised_recently') lastDay = journalDay(LAST_JOURNAL - rng.int(10));
    const days = timeline(path, filed, lastDay, slow, rng);

    let expire = -1;
    if (REGISTERED_LIKE.has(status) || status === S.REM) expire = expiry(filed, days, status, force === 'renewal_window');
    if (status === S.REM) days[days.length - 1] = Math.min(AS_OF, Math.max(days[days.length - 2], expire + 180 + rng.int(120)));

    let journal = 0;
    for (let k = 0; k < path.length; k++) {
      if (!ADVERTISED.has(path[k])) continue;
      const j = Math.min(LAST_JOURNAL, journalOnOrAfter(days[k]));
      if (j >= FIRST_JOURNAL) {
        journal = j;
        const jd = journalDay(j);
        if (jd >= days[k - 1] && (k === path.length - 1 || jd <= days[k + 1])) days[k] = jd;
      }
      break;
    }

    const who = this.parties.applicants(i, core.word, core.cls, filed);
    const detail = this.rng.reseed(this.seed, i, S_DETAIL);
    const agent = detail.chance(who.owners[0].country === 'India' ? 0.58 : 0.98) ? this.parties.agent(detail, who.office) : null;

    const mark: Mark = {
      i,
      appNo: m.appNo(i),
      type,
      cls: core.cls,
      word: core.word,
      parent: core.parent,
      filed,
      status,
      path,
      pathDays: days,
      expire,
      journal,
      office: who.office,
      filingMode: filed >= E_FILING_FROM && detail.chance(0.85) ? 'E-FILING' : OFFICE_CITY[who.office],
      owners: who.owners,
      ownerIds: who.owners.map((_, k) => i * STRIDE + k),
      agent,
      agentId: agent ? i * STRIDE : 0,
      cited: exam ? citable.slice(0, 1 + detail.int(citable.length)) : [],
      goods: goods(this.ref, core.cls, detail),
      usedSince: usedSince(filed, detail),
      vienna: this.vienna(i, type, detail),
      history: [],
      alert: '',
      opposition: null,
      hearings: [],
      documents: [],
      exam: null,
      alerts: [],
    };
    mark.history = history(mark, i * STRIDE, filed < E_FILING_FROM - 3650, detail);
    linkRecords(this, mark, exam, opposed, force, detail);
    return mark;
  }

  /**
   * A device or composite mark's Vienna codes describe its logo's design, whether or not the set ships
   * its image (logoDesign.ts, vienna.ts); other marks have no logo and no codes.
   */
  private vienna(i: number, type: Mark['type'], detail: Rng): string[] {
    // The detail stream once drew random codes for every mark but word and sound marks. It still draws
    // as many numbers, so what is drawn after (history, linked records, citations) is as it was.
    if (type !== 'WORD' && type !== 'SOUND') {
      const n = detail.range(1, 3);
      for (let k = 0; k < n; k++) detail.u32();
    }
    if (type !== 'DEVICE' && type !== 'COMPOSITE') return [];
    this.designer ??= new LogoDesigner(this.seed, this.marks);
    return logoVienna(this.designer.design(i));
  }
}

function forcedStatus(force: Force, rng: Rng): Status {
  switch (force) {
    case 'pending':
      return rng.pick(PENDING);
    case 'accepted':
      return S.ACC;
    case 'advertised_recently':
      return S.AA;
    case 'opposed':
    case 'opposition_hearing':
      return S.OPP;
    case 'objected':
      return S.OBJ;
    case 'show_cause':
      return S.SCH;
    case 'marked_for_exam':
      return S.ME;
    case 'renewal_window':
      return S.REG;
  }
}

/** Registration runs ten years from filing and renews in ten-year steps (s.25). */
function expiry(filed: number, days: number[], status: Status, renewalWindow: boolean): number {
  let k = 1;
  if (status === S.REM) {
    while (addYears(filed, 10 * (k + 1)) + 300 < AS_OF) k++;
    return addYears(filed, 10 * k);
  }
  const floor = renewalWindow ? AS_OF - 270 : AS_OF - 150;
  while (addYears(filed, 10 * k) < floor || addYears(filed, 10 * k) < days[days.length - 1]) k++;
  return addYears(filed, 10 * k);
}

function history(mark: Mark, base: number, oldRecord: boolean, rng: Rng): HistoryRow[] {
  const keep = keptSteps(mark.path.length, oldRecord, rng);
  const rows: HistoryRow[] = [];
  let prevDay = -1;
  let prevMinute = -1;
  for (let k = 0; k < keep.length; k++) {
    const step = keep[k];
    const day = mark.pathDays[step];
    // Same-day steps keep their order through the time of day.
    const minute = day === prevDay ? prevMinute + 1 + rng.int(30) : rng.int(300);
    rows.push({ id: base + k, old: k === 0 ? null : mark.path[keep[k - 1]], status: mark.path[step], day, minute });
    prevDay = day;
    prevMinute = minute;
  }
  return rows;
}

function goods(ref: Reference, cls: number, rng: Rng): string {
  const items = ref.items[cls];
  const n = Math.min(items.length, rng.chance(0.4) ? 1 : rng.range(2, 6));
  let at = rng.int(items.length);
  let s = items[at];
  // Nearby items in the alphabetical list read like a real specification.
  for (let k = 1; k < n; k++) {
    at += 1 + rng.int(7);
    s += `; ${items[at % items.length]}`;
  }
  return s;
}

const Y2K = dayOf('2000-01-01');
function usedSince(filed: number, rng: Rng): string {
  if (rng.chance(filed > Y2K ? 0.55 : 0.3)) return 'Proposed to be Used';
  return iso(filed - 30 - rng.int(rng.chance(0.7) ? 1500 : 8000));
}
