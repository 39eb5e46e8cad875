import { ENTITY_NAMES, type EntityName } from '../importer/entities.ts';
import { iso, stamp } from './dates.ts';
import { hearingLink } from './linked.ts';
import type { AlertRow, Doc, Exam, Hearing, HistoryRow, Mark, Opposition } from './types.ts';

// JSON Lines for the ingest format (docs/ingest.md). Lines are assembled as template strings: every
// generated string is drawn from vocabularies without quotes or backslashes (goods items are escaped
// once at load), which makes this several times faster than JSON.stringify on an object per line.

/** The files of a set: those of the ingest format, in the importer's order. */
export const ENTITIES = ENTITY_NAMES;
export type Entity = EntityName;

/**
 * Per-entity bytes for one chunk of marks. Lines are encoded into growing buffers as they are made,
 * so no long-lived string ropes pile up for the garbage collector. Every generated string is ASCII
 * (reference text is \u-escaped at load), so a one-byte encoder is exact.
 */
export class Sink {
  private bufs: Buffer[] = ENTITIES.map(() => Buffer.allocUnsafe(1 << 16));
  private pos: number[] = ENTITIES.map(() => 0);
  private counts: number[] = ENTITIES.map(() => 0);

  add(e: Entity, line: string): void {
    const k = INDEX[e];
    let buf = this.bufs[k];
    const need = this.pos[k] + line.length;
    if (need > buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, buf.length * 2));
      buf.copy(grown, 0, 0, this.pos[k]);
      this.bufs[k] = buf = grown;
    }
    this.pos[k] += (buf as unknown as FastWrite).latin1Write(line, this.pos[k]);
    this.counts[k]++;
  }

  /** The bytes and line counts so far, leaving the sink empty. */
  take(): { bytes: Record<Entity, Buffer>; lines: Record<Entity, number> } {
    const bytes = {} as Record<Entity, Buffer>;
    const lines = {} as Record<Entity, number>;
    ENTITIES.forEach((e, k) => {
      bytes[e] = this.bufs[k].subarray(0, this.pos[k]);
      lines[e] = this.counts[k];
      this.bufs[k] = Buffer.allocUnsafe(Math.max(1 << 16, Math.min(this.pos[k] + (this.pos[k] >> 3), 1 << 26)));
      this.pos[k] = 0;
      this.counts[k] = 0;
    });
    return { bytes, lines };
  }
}

// Node's internal one-byte writer: Buffer#write without the argument parsing.
interface FastWrite {
  latin1Write(s: string, offset: number): number;
}

const INDEX = Object.fromEntries(ENTITIES.map((e, k) => [e, k])) as Record<Entity, number>;

const q = (s: string | null) => (s === null ? 'null' : `"${s}"`);
const qDay = (d: number) => (d < 0 ? 'null' : `"${iso(d)}"`);

export function trademarkLine(m: Mark): string {
  const owner = m.owners[0];
  const name = m.owners.length > 1 ? `${owner.name} AND ${m.owners[1].name}` : owner.name;
  let s =
    `{"application_number":"${m.appNo}","word_mark":"${m.word}","class_number":${m.cls},"status":"${m.status}",` +
    `"application_date":"${iso(m.filed)}","expire_at":${qDay(m.expire)},"proprietor_name":"${name}"`;
  if (owner.state) s += `,"state":"${owner.state.name}"`;
  s +=
    `,"tm_type":"${m.type}","filing_mode":"${m.filingMode}","alert":"${m.alert}","goods_services":"${m.goods}",` +
    `"used_since":"${m.usedSince}","registry_office":"${m.office}"`;
  if (m.journal > 0) s += `,"journal_id":${m.journal}`;
  if (m.vienna.length) s += `,"vienna_codes":["${m.vienna.join('","')}"]`;
  return `${s}}\n`;
}

export function historyLine(appNo: string, h: HistoryRow): string {
  return (
    `{"id":${h.id},"application_number":"${appNo}","old_status":${q(h.old)},"new_status":"${h.status}",` +
    `"changed_at":"${stamp(h.day, h.minute)}"}\n`
  );
}

export function proprietorLine(m: Mark, k: number): string {
  const p = m.owners[k];
  return (
    `{"id":${m.ownerIds[k]},"application_number":"${m.appNo}","name":"${p.name}","entity_type":"${p.entityType}",` +
    `"address":"${p.address}","state":${q(p.state ? p.state.name : null)},"country":"${p.country}","trading_as":${q(p.tradingAs)}}\n`
  );
}

export function attorneyLine(m: Mark): string {
  const a = m.agent!;
  return (
    `{"id":${m.agentId},"application_number":"${m.appNo}","name":"${a.name}","agent_code":"${a.code}",` +
    `"address":"${a.address}","email":"${a.email}","phone":"${a.phone}"}\n`
  );
}

export function oppositionLine(appNo: string, o: Opposition): string {
  return (
    `{"id":${o.id},"application_number":"${appNo}","opposition_number":"${o.number}","opponent_name":"${o.opponent}",` +
    `"opponent_address":"${o.opponentAddress}","opposition_date":"${iso(o.day)}","status":"${o.status}",` +
    `"decision":${q(o.decision)},"decision_date":${qDay(o.decisionDay)}}\n`
  );
}

export function hearingLine(m: Mark, h: Hearing): string {
  return (
    `{"id":${h.id},"application_number":"${m.appNo}","hearing_date":"${iso(h.day)}","hearing_type":"${h.type}",` +
    `"virtual_room_link":"${hearingLink(m.office, h.id)}","time_slot":"${h.slot}","status":"${h.status}"}\n`
  );
}

export function documentLine(appNo: string, d: Doc): string {
  const opp = d.oppId > 0 ? `,"opposition_id":${d.oppId}` : '';
  return (
    `{"id":${d.id},"application_number":"${appNo}"${opp},"name":"${d.type} ${iso(d.day)}","document_type":"${d.type}",` +
    `"upload_date":"${iso(d.day)}","file":"${d.file}","content_type":"application/pdf"}\n`
  );
}

export function examLine(appNo: string, e: Exam): string {
  return (
    `{"id":${e.id},"application_number":"${appNo}","report_date":"${iso(e.day)}",` +
    `"objection_reasons":["${e.reasons.join('","')}"],"reply_due_date":"${iso(e.replyDue)}"}\n`
  );
}

export function citedLine(id: number, examId: number, appNo: string, citedAppNo: string): string {
  return `{"id":${id},"exam_report_id":${examId},"application_number":"${appNo}","cited_application_number":"${citedAppNo}"}\n`;
}

export function alertLine(appNo: string, a: AlertRow): string {
  return (
    `{"id":${a.id},"application_number":"${appNo}","old_alert":${q(a.old)},"new_alert":"${a.text}",` +
    `"changed_at":"${stamp(a.day, a.minute)}"}\n`
  );
}

/** Every line of a mark, as it appears in a baseline (or as a mark new in a delta). */
export function emitMark(m: Mark, out: Sink, appNoOf: (i: number) => string): void {
  out.add('trademarks', trademarkLine(m));
  for (const h of m.history) out.add('status_history', historyLine(m.appNo, h));
  for (let k = 0; k < m.owners.length; k++) out.add('proprietors', proprietorLine(m, k));
  if (m.agent) out.add('attorneys', attorneyLine(m));
  if (m.opposition) out.add('oppositions', oppositionLine(m.appNo, m.opposition));
  for (const h of m.hearings) out.add('hearings', hearingLine(m, h));
  for (const d of m.documents) out.add('documents', documentLine(m.appNo, d));
  if (m.exam) {
    out.add('exam_reports', examLine(m.appNo, m.exam));
    for (let k = 0; k < m.cited.length; k++) out.add('cited_marks', citedLine(m.exam.id + k, m.exam.id, m.appNo, appNoOf(m.cited[k])));
  }
  for (const a of m.alerts) out.add('alerts', alertLine(m.appNo, a));
}
