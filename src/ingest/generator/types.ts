import type { TmType } from './marks.ts';
import type { Proprietor } from './parties.ts';
import type { Agent } from './people.ts';
import type { Status } from './status.ts';

// The in-memory shape of one mark and its linked records, between building and writing.

/**
 * Linked-record ids are `index * STRIDE + k`: unique per entity without any coordination between
 * shards. The baseline uses k < DELTA_K, a delta k >= DELTA_K, and a mark new in the delta has an
 * index beyond the baseline's, so delta ids can never collide with baseline ids.
 */
export const STRIDE = 16;
export const DELTA_K = 8;

/** A baseline state the delta needs on a mark it will change (see delta.ts). */
export type Force =
  | 'pending'
  | 'accepted'
  | 'advertised_recently'
  | 'opposed'
  | 'objected'
  | 'show_cause'
  | 'opposition_hearing'
  | 'marked_for_exam'
  | 'renewal_window';

export interface HistoryRow {
  id: number;
  old: string | null;
  status: string;
  day: number;
  minute: number;
}
export interface Opposition {
  id: number;
  number: string;
  opponent: string;
  opponentAddress: string;
  day: number;
  status: string;
  decision: string | null;
  decisionDay: number; // -1: undecided
}
export interface Hearing {
  id: number;
  day: number;
  type: string;
  slot: string;
  status: string;
}
export interface Doc {
  id: number;
  oppId: number;
  type: string;
  day: number;
  file: string;
} // oppId 0: none
export interface Exam {
  id: number;
  day: number;
  reasons: string[];
  replyDue: number;
}
export interface AlertRow {
  id: number;
  old: string | null;
  text: string;
  day: number;
  minute: number;
}

export interface Mark {
  i: number;
  appNo: string;
  type: TmType;
  cls: number;
  word: string;
  parent: number;
  filed: number;
  status: Status;
  path: Status[];
  pathDays: number[];
  expire: number; // -1: none
  journal: number; // 0: none
  office: string;
  filingMode: string;
  owners: Proprietor[];
  ownerIds: number[];
  agent: Agent | null;
  agentId: number;
  cited: number[]; // indices of the earlier similar marks the exam report cites
  goods: string;
  usedSince: string;
  vienna: string[];
  history: HistoryRow[];
  alert: string;
  opposition: Opposition | null;
  hearings: Hearing[];
  documents: Doc[];
  exam: Exam | null;
  alerts: AlertRow[];
}
