import { AS_OF, addYears, dayOf } from './dates.ts';
import { docFile } from './files.ts';
import type { Marks } from './marks.ts';
import type { Parties } from './parties.ts';
import { indianParty } from './people.ts';
import type { Rng } from './rng.ts';
import { S } from './status.ts';
import { DELTA_K, type Doc, type Force, type Hearing, type Mark, STRIDE } from './types.ts';

// Examination reports, hearings, oppositions, documents and alerts of one mark, each tied to the
// step of the mark's history it belongs to, so dates and statuses tell one consistent story.

/** What of the builder linking reads: the marks and parties drawn for the whole set. */
export interface Drawn {
  readonly marks: Marks;
  readonly parties: Parties;
}

const CERTIFICATES_FROM = dayOf('2005-01-01');
const TIME_SLOTS = [
  '10:30-11:00',
  '11:00-11:30',
  '11:30-12:00',
  '12:00-12:30',
  '12:30-13:00',
  '14:30-15:00',
  '15:00-15:30',
  '15:30-16:00',
  '16:00-16:30',
  '16:30-17:00',
];

export const ALERTS = {
  opposed: 'Opposition filed: counter statement awaited',
  objected: 'Reply to examination report awaited',
  showCause: 'Show cause hearing scheduled',
  rectification: 'Rectification petition filed',
  renewal: 'Renewal due',
  generic: [
    'Request on Form TM-M pending',
    'Change of address recorded',
    'Correspondence returned undelivered',
    'Power of attorney on record',
    'Request for certified copy pending',
  ],
};

export function hearingLink(office: string, id: number): string {
  return `https://hearings.example.com/tmr-${office.toLowerCase()}/${id}`;
}
export function timeSlot(rng: Rng): string {
  return rng.pick(TIME_SLOTS);
}

export function examReasons(rng: Rng): string[] {
  const reasons: string[] = [];
  if (rng.chance(0.3)) reasons.push('Section 9(1)(a)');
  if (rng.chance(0.15)) reasons.push('Section 9(1)(b)');
  reasons.push('Section 11(1)');
  if (rng.chance(0.05)) reasons.push('Section 11(2)');
  return reasons;
}

/** Whoever opposes a copy is, most often, the owner of the mark it copies. */
export function opponentOf(b: Drawn, m: Mark, rng: Rng): { name: string; address: string } {
  if (m.parent >= 0) {
    const pc = b.marks.core(m.parent);
    const owner = b.parties.applicants(m.parent, pc.word, pc.cls, b.marks.day(m.parent)).owners[0];
    return { name: owner.name, address: owner.address };
  }
  return { name: indianParty(rng, '', m.cls).name, address: b.parties.assignee(m.i, '', m.cls, 77).address };
}

// Arrow helpers would be re-created (and re-named by tsx) per mark; methods are not.
class Links {
  constructor(
    readonly m: Mark,
    readonly rng: Rng,
  ) {}

  day(s: string): number {
    const k = this.m.path.indexOf(s as never);
    return k < 0 ? -1 : this.m.pathDays[k];
  }

  doc(type: string, day: number, oppId = 0): void {
    const m = this.m;
    if (m.documents.length < DELTA_K) {
      m.documents.push({
        id: m.i * STRIDE + m.documents.length,
        oppId,
        type,
        day: Math.min(day, AS_OF),
        file: docFile(type, this.rng),
      } satisfies Doc);
    }
  }

  hearing(day: number, type: string, status: string): void {
    const m = this.m;
    m.hearings.push({ id: m.i * STRIDE + m.hearings.length, day, type, slot: timeSlot(this.rng), status } satisfies Hearing);
  }
}

export function linkRecords(b: Drawn, m: Mark, exam: boolean, opposed: boolean, force: Force | undefined, rng: Rng): void {
  const l = new Links(m, rng);
  if (m.filingMode === 'E-FILING' && rng.chance(0.35)) l.doc('TM-A', m.filed);

  if (exam) {
    const day = l.day(S.ERI) >= 0 ? l.day(S.ERI) : m.pathDays[m.pathDays.length - 1];
    m.exam = { id: m.i * STRIDE, day, reasons: examReasons(rng), replyDue: day + 30 };
    l.doc('Examination Report', day);
    const replied = m.status !== S.OBJ && m.status !== S.ERI ? rng.chance(0.85) : day + 30 < AS_OF && rng.chance(0.5);
    if (replied) l.doc('Reply to Examination Report', day + 3 + rng.int(27));
    const sc = l.day(S.SCH);
    if (m.status === S.SCH) {
      if (rng.chance(0.3)) l.hearing(Math.min(AS_OF - 1, sc + 30 + rng.int(60)), 'Show Cause Hearing', 'Adjourned');
      l.hearing(AS_OF + 7 + rng.int(80), 'Show Cause Hearing', 'Scheduled');
    } else if (m.status === S.REF && sc >= 0) {
      l.hearing(Math.max(sc, l.day(S.REF) - 10 - rng.int(50)), 'Show Cause Hearing', 'Held');
    } else if (l.day(S.ACC) >= 0 && rng.chance(0.3)) {
      const obj = l.day(S.OBJ);
      l.hearing(obj + Math.floor((l.day(S.ACC) - obj) * 0.8), 'Show Cause Hearing', 'Held');
    }
    if (m.hearings.length && rng.chance(0.6)) l.doc('Hearing Notice', m.hearings[0].day - 21);
  }

  if (opposed) opposition(b, l, force);

  const reg = l.day(S.REG);
  if (reg >= CERTIFICATES_FROM && rng.chance(0.7)) l.doc('Registration Certificate', reg + rng.int(20));
  if (m.expire > 0 && m.expire > addYears(m.filed, 10) && rng.chance(0.6)) {
    let renewedFor = m.expire;
    while (addYears(renewedFor, -10) > m.filed + 3650) renewedFor = addYears(renewedFor, -10);
    if (renewedFor < AS_OF) l.doc('TM-R', renewedFor - rng.int(150));
  }
  if (rng.chance(0.02)) l.doc('TM-M', m.filed + rng.int(Math.max(1, AS_OF - m.filed)));
  if (m.agent && rng.chance(0.05)) l.doc('TM-48', m.filed);

  alerts(m, m.i * STRIDE, rng);
}

function opposition(b: Drawn, l: Links, force: Force | undefined): void {
  const { m, rng } = l;
  const k = m.path.indexOf(S.OPP);
  const day = m.pathDays[k];
  const next = k + 1 < m.path.length ? m.path[k + 1] : null;
  const nextDay = next ? m.pathDays[k + 1] : -1;
  const id = m.i * STRIDE;
  let status = 'Counter Statement Filed';
  let decision: string | null = null;
  let decisionDay = -1;
  if (next === null) {
    if (force === 'opposition_hearing' || (force === undefined && rng.chance(0.15))) {
      status = 'Hearing Scheduled';
      l.hearing(AS_OF + 10 + rng.int(90), 'Opposition Hearing', 'Scheduled');
    } else if (force === undefined) {
      status = AS_OF - day < 60 ? 'Notice Filed' : rng.pick(['Counter Statement Filed', 'Evidence Stage']);
    }
  } else if (next === S.REF) {
    [status, decision, decisionDay] = ['Decided', 'Opposition Allowed', nextDay];
  } else if (next === S.ABN) {
    [status, decision, decisionDay] = ['Closed', 'Application Abandoned: No Counter Statement', nextDay];
  } else if (rng.chance(0.2)) {
    [status, decision, decisionDay] = ['Withdrawn', 'Opposition Withdrawn', Math.max(day, nextDay - 20 - rng.int(60))];
  } else {
    [status, decision, decisionDay] = ['Decided', 'Opposition Dismissed', Math.max(day, nextDay - 5 - rng.int(55))];
  }
  if (decision === 'Opposition Allowed' || (decision === 'Opposition Dismissed' && rng.chance(0.4))) {
    l.hearing(Math.max(day, decisionDay - 30 - rng.int(60)), 'Opposition Hearing', 'Held');
  }
  const opp = opponentOf(b, m, rng);
  m.opposition = { id, number: `OPP-${id}`, opponent: opp.name, opponentAddress: opp.address, day, status, decision, decisionDay };
  if (rng.chance(0.6)) l.doc('Notice of Opposition', day, id);
  if (status !== 'Notice Filed' && next !== S.ABN && rng.chance(0.5)) l.doc('Counter Statement', day + 60 + rng.int(60), id);
}

function alerts(m: Mark, base: number, rng: Rng): void {
  let text: string | null = null;
  let day = m.pathDays[m.pathDays.length - 1];
  if (m.status === S.OPP && rng.chance(0.5)) text = ALERTS.opposed;
  else if (m.status === S.OBJ && rng.chance(0.25)) text = ALERTS.objected;
  else if (m.status === S.SCH && rng.chance(0.5)) text = ALERTS.showCause;
  else if (m.status === S.RECT && rng.chance(0.6)) text = ALERTS.rectification;
  else if (m.status === S.REG && m.expire > 0 && m.expire < AS_OF + 180 && rng.chance(0.35)) {
    text = ALERTS.renewal;
    day = Math.max(day, m.expire - 180);
  } else if (rng.chance(0.012)) {
    text = rng.pick(ALERTS.generic);
    day = m.filed + rng.int(Math.max(1, AS_OF - m.filed));
  }
  if (text === null) return;
  day = Math.min(day, AS_OF);
  let old: string | null = null;
  if (rng.chance(0.25) && day - m.filed > 60) {
    old = rng.pick(ALERTS.generic);
    m.alerts.push({ id: base, old: null, text: old, day: m.filed + rng.int(day - m.filed), minute: rng.int(400) });
  }
  m.alerts.push({ id: base + m.alerts.length, old, text, day, minute: 400 + rng.int(100) });
  m.alert = text;
}
