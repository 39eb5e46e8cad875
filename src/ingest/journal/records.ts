import { STATUS_GROUPS } from '../../search/statusGroups.ts';
import type { JournalEntry } from './layout.ts';
import { placeOf, tradingAs } from './parties.ts';
import { type JournalContent, type ReadEntry, SECTION_STATUS } from './readJournal.ts';
import type { StoredMark } from './repository.ts';

// A journal's content as the register's records (docs/journal.md): each advertised entry a trademark, new or updated in
// place with what the journal prints of it (its other fields kept), its proprietor and agent; corrigenda applied to the
// marks they name; the registered and renewed lists moving their marks on. The rows are what the importer takes
// (docs/ingest.md), so that everything flows as any delta does. A status only moves forward: a journal read late never
// takes a registered mark back to advertised.

type Row = Record<string, unknown>;

/** Record ids for a journal's rows: 8×10^15 + application number × 10 + the row's place. */
export const linkedId = (appNo: string, place: 0 | 1 | 2 | 3) => 8_000_000_000_000_000 + Number(appNo) * 10 + place;
const OWNER = 0;
const AGENT = 1;
const ADVERTISED_AT = 2;
const REGISTERED_AT = 3;

const OFFICE_CODES: Record<JournalEntry['office'], string> = {
  MUMBAI: 'MUM',
  DELHI: 'DEL',
  KOLKATA: 'KOL',
  CHENNAI: 'CHE',
  AHMEDABAD: 'AHD',
};

// The pending statuses are listed in the order of their stages: those before the advertisement end at 'Accepted'.
const pending: readonly string[] = STATUS_GROUPS.pending;
const BEFORE_ADVERTISEMENT = new Set(pending.slice(0, pending.indexOf('Accepted') + 1).map((s) => s.toUpperCase()));
const PENDING = new Set(pending.map((s) => s.toUpperCase()));

/** `for NUTRILITA read NUTRILITE`, the quotes optional. */
const FOR_READ = /\bfor\s+["'“‘]?(.+?)["'”’]?\s+read\s+["'“‘]?(.+?)["'”’]?\s*\.?$/i;

export interface JournalRecords {
  trademarks: Row[];
  proprietors: Row[];
  attorneys: Row[];
  status_history: Row[];
  logos: { application_number: string; png: Buffer }[];
  corrigenda: { applied: number; unapplied: { page: number; application_number: string; text: string; reason: string }[] };
  lists: { registered: number; renewed: number; unknown: { page: number; application_number: string; reason: string }[] };
}

/** The date `years` later (29 February to 28 February). */
export function addYears(iso: string, years: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const last = new Date(Date.UTC(y + years, m, 0)).getUTCDate();
  return `${String(y + years).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export function journalRecords(content: JournalContent, journalId: number, stored: Map<string, StoredMark>): JournalRecords {
  const marks = new Map<string, Row>();
  const owners = new Map<string, Row>();
  const agents = new Map<string, Row>();
  const history: Row[] = [];
  const logos: JournalRecords['logos'] = [];
  const at = `${content.publication_date}T00:00:00Z`;
  const out: Pick<JournalRecords, 'corrigenda' | 'lists'> = {
    corrigenda: { applied: 0, unapplied: [] },
    lists: { registered: 0, renewed: 0, unknown: [] },
  };
  /** The mark as this journal leaves it so far: an earlier part's row, or the stored one. */
  const current = (app: string): Row | undefined => {
    const had = marks.get(app);
    if (had) return had;
    const s = stored.get(app);
    if (!s) return undefined;
    const { journal_date: _, proprietor: __, agent: ___, ...row } = s;
    return { ...row };
  };

  for (const e of content.entries) {
    const s = stored.get(e.application_number);
    const row = current(e.application_number);
    if (e.section === 'corrigenda' && !row) {
      out.corrigenda.unapplied.push({ page: e.page, application_number: e.application_number, text: '', reason: 'not on the register' });
      continue;
    }
    const mark = { ...(row ?? fresh(e)), ...printed(e, row) };
    if (e.section !== 'corrigenda') {
      const status = SECTION_STATUS[e.section] as string;
      if (!row || BEFORE_ADVERTISEMENT.has(String(row.status).toUpperCase())) {
        mark.status = status;
        history.push(statusRow(e.application_number, ADVERTISED_AT, row ? String(row.status) : null, status, at));
      }
      if (!s?.journal_date || s.journal_date <= content.publication_date) mark.journal_id = journalId;
    } else out.corrigenda.applied++;
    marks.set(e.application_number, mark);
    const owner = tradingAs(e.proprietor.name);
    const address = e.proprietor.address.join(', ');
    const place = placeOf(address);
    owners.set(e.application_number, {
      ...(s?.proprietor ?? { id: linkedId(e.application_number, OWNER) }),
      application_number: e.application_number,
      name: owner.person,
      trading_as: owner.trading_as,
      entity_type: e.proprietor.kind,
      address: address || null,
      state: place.state,
      country: place.country,
    });
    if (e.agent)
      agents.set(e.application_number, {
        ...(s?.agent ?? { id: linkedId(e.application_number, AGENT) }),
        application_number: e.application_number,
        name: e.agent.name,
        address: e.agent.address.join(', ') || null,
      });
    if (e.image) logos.push({ application_number: e.application_number, png: e.image });
  }

  for (const c of content.corrigenda) {
    const unapplied = (reason: string) => out.corrigenda.unapplied.push({ ...c, reason });
    const row = current(c.application_number);
    if (!row) {
      unapplied('not on the register');
      continue;
    }
    const m = FOR_READ.exec(c.text);
    if (!m) {
      unapplied('not a correction of the form "for … read …"; left for a person to apply');
      continue;
    }
    const [, wrong, right] = m;
    const s = stored.get(c.application_number);
    const owner = owners.get(c.application_number) ?? (s?.proprietor ? { ...s.proprietor } : undefined);
    const agent = agents.get(c.application_number) ?? (s?.agent ? { ...s.agent } : undefined);
    const targets: [Row, string][] = [
      [row, 'word_mark'],
      [row, 'proprietor_name'],
      [row, 'goods_services'],
      ...(owner
        ? ([
            [owner, 'name'],
            [owner, 'address'],
          ] as [Row, string][])
        : []),
      ...(agent
        ? ([
            [agent, 'name'],
            [agent, 'address'],
          ] as [Row, string][])
        : []),
    ];
    const holds = (text: string) => targets.filter(([r, k]) => typeof r[k] === 'string' && (r[k] as string).includes(text));
    // Imported once already: the entry reads as corrected (the right text may hold the wrong one: STAR, STARR).
    if (holds(right).length) {
      out.corrigenda.applied++;
      continue;
    }
    const hit = holds(wrong);
    if (!hit.length) {
      unapplied(`"${wrong}" is not in the entry`);
      continue;
    }
    for (const [r, k] of hit) r[k] = (r[k] as string).replace(wrong, right);
    marks.set(c.application_number, row);
    if (owner && hit.some(([r]) => r === owner)) owners.set(c.application_number, owner);
    if (agent && hit.some(([r]) => r === agent)) agents.set(c.application_number, agent);
    out.corrigenda.applied++;
  }

  for (const r of content.registered) {
    const row = current(r.application_number);
    if (!row) {
      out.lists.unknown.push({ page: r.page, application_number: r.application_number, reason: 'registered, but not on the register' });
      continue;
    }
    out.lists.registered++;
    if (!PENDING.has(String(row.status).toUpperCase())) continue;
    history.push(statusRow(r.application_number, REGISTERED_AT, String(row.status), 'Registered', at));
    // Registered as of the application's date, for ten years (ss.23(1), 25(1)).
    marks.set(r.application_number, {
      ...row,
      status: 'Registered',
      expire_at: row.expire_at ?? addYears(String(row.application_date), 10),
    });
  }

  for (const r of content.renewed) {
    const row = current(r.application_number);
    const classes = row ? ((row.classes as number[] | null) ?? [row.class_number]) : [];
    if (!row || (r.class_number !== null && !classes.includes(r.class_number))) {
      const reason = row
        ? `renewed in class ${r.class_number}, but the register holds it in ${classes.join(', ')}`
        : 'renewed, but not on the register';
      out.lists.unknown.push({ page: r.page, application_number: r.application_number, reason });
      continue;
    }
    out.lists.renewed++;
    // Renewed for ten years from the date the list gives (s.25(2)).
    const until = addYears(r.date as string, 10);
    if (!row.expire_at || String(row.expire_at) < until) marks.set(r.application_number, { ...row, expire_at: until });
  }

  return {
    trademarks: [...marks.values()],
    proprietors: [...owners.values()],
    attorneys: [...agents.values()],
    status_history: history,
    logos,
    ...out,
  };
}

function statusRow(app: string, place: 2 | 3, old: string | null, status: string, at: string): Row {
  return { id: linkedId(app, place), application_number: app, old_status: old, new_status: status, changed_at: at };
}

/** A mark the register does not have yet: what only the register knows left empty. */
function fresh(e: ReadEntry): Row {
  return {
    application_number: e.application_number,
    word_mark: '',
    expire_at: null,
    filing_mode: null,
    alert: '',
    vienna_codes: [],
  };
}

/** The fields the journal prints, over the stored row's (which keeps a word mark the journal's device page omits). */
function printed(e: ReadEntry, row: Row | undefined): Row {
  const place = placeOf(e.proprietor.address.join(', '));
  const own = ['WORD', 'DEVICE', 'COMPOSITE'];
  const kind = e.word_mark ? (e.image ? 'COMPOSITE' : 'WORD') : 'DEVICE';
  return {
    ...(e.word_mark ? { word_mark: e.word_mark } : {}),
    class_number: e.class_number,
    classes: e.classes,
    application_date: e.application_date,
    proprietor_name: tradingAs(e.proprietor.name).printed,
    state: place.state ?? (place.country === 'India' ? ((row?.state as string | null) ?? null) : null),
    tm_type: row && !own.includes(String(row.tm_type)) ? row.tm_type : kind,
    goods_services: e.goods_services,
    used_since: e.used_since ?? 'Proposed to be Used',
    registry_office: OFFICE_CODES[e.office],
    international_registration: e.international_registration,
    priority_date: e.priority?.date ?? null,
    priority_number: e.priority?.number ?? null,
    priority_country: e.priority?.country ?? null,
    associated_with: e.associated_with.length ? e.associated_with : null,
    conditions: e.conditions.length ? e.conditions : null,
  };
}
