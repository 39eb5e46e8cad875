import type { Builder } from './build.ts';
import { addYears, DELTA_DAY, DELTA_JOURNAL } from './dates.ts';
import {
  alertLine,
  attorneyLine,
  citedLine,
  documentLine,
  emitMark,
  examLine,
  hearingLine,
  historyLine,
  oppositionLine,
  proprietorLine,
  type Sink,
  trademarkLine,
} from './emit.ts';
import { docFile } from './files.ts';
import { ALERTS, examReasons, opponentOf, timeSlot } from './linked.ts';
import type { Plan, Slot } from './plan.ts';
import { Rng } from './rng.ts';
import { S, type Status } from './status.ts';
import { DELTA_K, type Doc, type Mark, STRIDE } from './types.ts';

// One registry day on top of the baseline. Each changed mark is rebuilt exactly as the baseline wrote
// it, changed the way the plan says, and written out: the full trademark line (so the importer sees
// every field) plus only the linked lines that are new or changed. New lines take ids from the
// delta's half of each mark's id block, so they never collide with the baseline.

const S_DELTA = 61;
const NEXT: Partial<Record<Status, Status>> = { [S.NA]: S.FCP, [S.FCP]: S.ME, [S.ME]: S.UE, [S.UE]: S.ACC };

class Change {
  private next = new Map<string, number>();
  private minute = 0;

  constructor(
    readonly m: Mark,
    readonly rng: Rng,
    readonly out: Sink,
  ) {}

  /** A fresh id for this mark's entity in the delta's id range. */
  id(entity: string): number {
    const k = this.next.get(entity) ?? DELTA_K;
    this.next.set(entity, k + 1);
    return this.m.i * STRIDE + k;
  }

  /** Times of day rise through the mark's changes, so their order survives sorting by time. */
  tick(): number {
    this.minute += 20 + this.rng.int(40);
    return this.minute;
  }

  status(to: Status): void {
    const m = this.m;
    this.out.add(
      'status_history',
      historyLine(m.appNo, { id: this.id('status'), old: m.status, status: to, day: DELTA_DAY, minute: this.tick() }),
    );
    m.status = to;
  }

  doc(type: string, oppId = 0): void {
    const d: Doc = { id: this.id('doc'), oppId, type, day: DELTA_DAY, file: docFile(type, this.rng) };
    this.out.add('documents', documentLine(this.m.appNo, d));
  }
}

/** Writes the delta's lines; returns the indices of the marks it files new. */
export function writeDelta(b: Builder, plan: Plan, out: Sink): number[] {
  const appNo = (i: number) => b.marks.appNo(i);
  for (const slot of plan.slots) {
    const m = b.build(slot.i, slot.force);
    const c = new Change(m, new Rng(b.seed, slot.i, S_DELTA), out);
    apply(b, slot, c);
    out.add('trademarks', trademarkLine(m));
  }
  const fresh: number[] = [];
  for (let k = 0; k < plan.newMarks; k++) {
    const i = b.n + k;
    emitMark(b.build(i), out, appNo);
    fresh.push(i);
  }
  return fresh;
}

function apply(b: Builder, slot: Slot, c: Change): void {
  const { m, rng, out } = c;
  switch (slot.kind) {
    case 'status':
      c.status(NEXT[m.status] ?? S.ME);
      break;
    case 'alert': {
      const options = [...ALERTS.generic, ALERTS.renewal].filter((a) => a !== m.alert);
      const text = rng.pick(options);
      out.add('alerts', alertLine(m.appNo, { id: c.id('alert'), old: m.alert || null, text, day: DELTA_DAY, minute: c.tick() }));
      m.alert = text;
      break;
    }
    case 'expiry':
      m.expire = addYears(m.expire, 10);
      c.doc('TM-R');
      break;
    case 'journal':
      c.status(S.AA);
      m.journal = DELTA_JOURNAL;
      break;
    case 'opposition_filed': {
      const id = c.id('opposition');
      const opp = opponentOf(b, m, rng);
      m.opposition = {
        id,
        number: `OPP-${id}`,
        opponent: opp.name,
        opponentAddress: opp.address,
        day: DELTA_DAY,
        status: 'Notice Filed',
        decision: null,
        decisionDay: -1,
      };
      out.add('oppositions', oppositionLine(m.appNo, m.opposition));
      c.status(S.OPP);
      c.doc('Notice of Opposition', id);
      break;
    }
    case 'opposition_updated': {
      const o = m.opposition!;
      const allowed = rng.chance(0.4);
      Object.assign(o, { status: 'Decided', decision: allowed ? 'Opposition Allowed' : 'Opposition Dismissed', decisionDay: DELTA_DAY });
      out.add('oppositions', oppositionLine(m.appNo, o));
      if (allowed) c.status(S.REF);
      else {
        c.status(S.REG);
        let k = 1;
        while (addYears(m.filed, 10 * k) < DELTA_DAY) k++;
        m.expire = addYears(m.filed, 10 * k);
      }
      break;
    }
    case 'opposition_document':
      c.doc(rng.chance(0.5) ? 'Counter Statement' : 'Evidence in Support of Opposition', m.opposition!.id);
      break;
    case 'hearing_scheduled': {
      const objected = m.status === S.OBJ;
      const h = {
        id: c.id('hearing'),
        day: DELTA_DAY + 14 + rng.int(45),
        type: objected ? 'Show Cause Hearing' : 'Opposition Hearing',
        slot: timeSlot(rng),
        status: 'Scheduled',
      };
      out.add('hearings', hearingLine(m, h));
      if (objected) c.status(S.SCH);
      c.doc('Hearing Notice');
      break;
    }
    case 'hearing_updated': {
      const h = m.hearings.find((x) => x.status === 'Scheduled')!;
      Object.assign(h, { status: 'Adjourned', day: h.day + 14 + rng.int(30), slot: timeSlot(rng) });
      out.add('hearings', hearingLine(m, h));
      break;
    }
    case 'exam_report': {
      const id = c.id('exam');
      out.add('exam_reports', examLine(m.appNo, { id, day: DELTA_DAY, reasons: examReasons(rng), replyDue: DELTA_DAY + 30 }));
      const cited = b.marks.citable(m.i);
      for (const j of cited) out.add('cited_marks', citedLine(c.id('cited'), id, m.appNo, b.marks.appNo(j)));
      c.status(S.OBJ);
      c.doc('Examination Report');
      break;
    }
    case 'document':
      c.doc(rng.pick(['TM-M', 'TM-48', 'Reply to Examination Report', 'Hearing Notice']));
      break;
    case 'proprietor': {
      const owner = b.parties.assignee(m.i, m.word, m.cls, 62);
      if (m.owners.length === 1 && rng.chance(0.3)) {
        // A joint applicant joins the existing owner.
        m.owners.push({ ...owner, entityType: 'Individual' });
        m.ownerIds.push(c.id('proprietor'));
        out.add('proprietors', proprietorLine(m, 1));
      } else {
        // Assignment: the same proprietor record now names the new owner.
        m.owners[0] = owner;
        out.add('proprietors', proprietorLine(m, 0));
      }
      break;
    }
    case 'attorney': {
      // A change of agent: keep drawing until a different firm comes up.
      let agent = b.parties.agent(rng, m.office);
      for (let t = 0; t < 20 && agent.code === m.agent?.code; t++) agent = b.parties.agent(rng, m.office);
      if (!m.agent) m.agentId = c.id('attorney');
      m.agent = agent;
      out.add('attorneys', attorneyLine(m));
      break;
    }
    case 'new':
      break;
  }
}
