// The ingest format of docs/ingest.md as data: one entry per JSON Lines file, in the order a set is
// applied (journals, trademarks, then the linked entities; oppositions before documents and exam
// reports before cited marks, because the later ones refer to the earlier ones).

/** How a JSON value is checked and turned into a column value. */
export type Kind =
  | 'id' // non-negative safe integer (bigint columns; registry ids start at 0)
  | 'int32' // non-negative integer that fits an integer column
  | 'class' // Nice class 1-45
  | 'classes' // two or more Nice classes (a multi-class application), stored in order, each once
  | 'digits' // application number: 1-12 digits (the API's app_no limit)
  | 'text'
  | 'upper' // text stored upper case (states)
  | 'date'
  | 'timestamp'
  | 'textArray'
  | 'viennaCodes' // array of Vienna codes of the shipped table (src/reference/vienna.ts), stored as printed
  | 'tmType'
  | 'office'
  | 'usedSince'
  | 'slug' // computed from word_mark and application_number when absent
  | 'file'; // path of a file in the set; becomes an object key (and file facts) via files.ts

export interface Field {
  name: string;
  kind: Kind;
  required?: boolean;
  /** Value used when the field is absent or null (already in the column's text form). */
  fallback?: string;
  /** The longest string, in characters (of each item, for an array): TEXT_MAX unless given. */
  max?: number;
  /** The most items of an array: ITEMS_MAX unless given. */
  items?: number;
}

// Limits of the ingest format (docs/ingest.md#limits): every value has a bounded length, so that no record
// costs the API more than the register's own records do (a 200,000-character word mark once stopped search).
/** The longest value of a string field that has no limit of its own, in characters. */
export const TEXT_MAX = 1000;
/** The most items of an array field that has no limit of its own. */
export const ITEMS_MAX = 100;

/** A column the importer computes instead of reading it from the line (its type comes from the target table). */
export interface Computed {
  name: string;
}

/** The set's files (and target tables), in the order a set is applied. */
export const ENTITY_NAMES = [
  'journals',
  'trademarks',
  'status_history',
  'proprietors',
  'attorneys',
  'oppositions',
  'hearings',
  'documents',
  'exam_reports',
  'cited_marks',
  'alerts',
  'logos',
] as const;
export type EntityName = (typeof ENTITY_NAMES)[number];

export interface Entity {
  name: EntityName;
  /** The target table (same name as the entity). */
  table: EntityName;
  /** The conflict key: the registry id, or the application number for trademarks and logos. */
  key: 'id' | 'application_number';
  fields: Field[];
  computed: Computed[];
}

const id: Field = { name: 'id', kind: 'id', required: true };
const app: Field = { name: 'application_number', kind: 'digits', required: true };
const f = (name: string, kind: Kind, required = false, fallback?: string): Field => ({ name, kind, required, fallback });
/** A field with limits of its own. */
const limited = (field: Field, max: number, items?: number): Field => ({ ...field, max, items });

export const ENTITIES: readonly Entity[] = [
  {
    name: 'journals',
    table: 'journals',
    key: 'id',
    fields: [
      { name: 'id', kind: 'int32', required: true },
      f('journal_number', 'text', true),
      f('publication_date', 'date', true),
      f('file', 'file'),
      f('page_count', 'int32'),
    ],
    computed: [{ name: 'object_key' }],
  },
  {
    name: 'trademarks',
    table: 'trademarks',
    key: 'application_number',
    fields: [
      app,
      limited(f('word_mark', 'text', false, ''), 500),
      f('class_number', 'class', true),
      f('status', 'text', true),
      f('application_date', 'date', true),
      f('expire_at', 'date'),
      f('proprietor_name', 'text', false, ''),
      f('state', 'upper'),
      f('tm_type', 'tmType', true),
      f('filing_mode', 'text'),
      f('alert', 'text', false, ''),
      limited(f('goods_services', 'text'), 32_000),
      f('used_since', 'usedSince'),
      f('registry_office', 'office'),
      f('journal_id', 'int32'),
      limited(f('vienna_codes', 'viennaCodes'), 20),
      f('slug', 'slug'),
      // What the Trade Marks Journal prints beyond the summary (docs/journal.md).
      f('classes', 'classes'),
      limited(f('international_registration', 'text'), 20),
      f('priority_date', 'date'),
      limited(f('priority_number', 'text'), 50),
      limited(f('priority_country', 'text'), 100),
      limited(f('associated_with', 'textArray'), 12),
      limited(f('conditions', 'textArray'), 4000, 20),
    ],
    computed: [],
  },
  {
    name: 'status_history',
    table: 'status_history',
    key: 'id',
    fields: [id, app, f('old_status', 'text'), f('new_status', 'text', true), f('changed_at', 'timestamp', true)],
    computed: [],
  },
  {
    name: 'proprietors',
    table: 'proprietors',
    key: 'id',
    fields: [
      id,
      app,
      f('name', 'text', true),
      f('entity_type', 'text'),
      f('address', 'text'),
      f('state', 'text'),
      f('country', 'text', false, 'India'),
      f('trading_as', 'text'),
    ],
    computed: [],
  },
  {
    name: 'attorneys',
    table: 'attorneys',
    key: 'id',
    fields: [id, app, f('name', 'text', true), f('agent_code', 'text'), f('address', 'text'), f('email', 'text'), f('phone', 'text')],
    computed: [],
  },
  {
    name: 'oppositions',
    table: 'oppositions',
    key: 'id',
    fields: [
      id,
      app,
      f('opposition_number', 'text', true),
      f('opponent_name', 'text', true),
      f('opponent_address', 'text'),
      f('opposition_date', 'date', true),
      f('status', 'text', true),
      limited(f('decision', 'text'), 10_000),
      f('decision_date', 'date'),
    ],
    computed: [],
  },
  {
    name: 'hearings',
    table: 'hearings',
    key: 'id',
    fields: [
      id,
      app,
      f('hearing_date', 'date', true),
      f('hearing_type', 'text', true),
      f('virtual_room_link', 'text'),
      f('time_slot', 'text'),
      f('status', 'text', false, 'Scheduled'),
    ],
    computed: [],
  },
  {
    name: 'documents',
    table: 'documents',
    key: 'id',
    fields: [
      id,
      app,
      f('opposition_id', 'id'),
      f('name', 'text', true),
      f('document_type', 'text', true),
      f('upload_date', 'date', true),
      f('file', 'file', true),
      f('content_type', 'text', false, 'application/pdf'),
    ],
    computed: [{ name: 'object_key' }, { name: 'size_bytes' }],
  },
  {
    name: 'exam_reports',
    table: 'exam_reports',
    key: 'id',
    fields: [
      id,
      app,
      f('report_date', 'date', true),
      limited(f('objection_reasons', 'textArray', false, '{}'), 2000, 50),
      f('reply_due_date', 'date'),
    ],
    computed: [],
  },
  {
    name: 'cited_marks',
    table: 'cited_marks',
    key: 'id',
    fields: [id, f('exam_report_id', 'id', true), app, f('cited_application_number', 'digits', true)],
    computed: [],
  },
  {
    name: 'alerts',
    table: 'alerts',
    key: 'id',
    fields: [id, app, f('old_alert', 'text'), f('new_alert', 'text', true), f('changed_at', 'timestamp', true)],
    computed: [],
  },
  {
    name: 'logos',
    table: 'logos',
    key: 'application_number',
    fields: [app, f('file', 'file', true), f('ocr_text', 'text')],
    computed: [{ name: 'object_key' }, { name: 'content_type' }, { name: 'width' }, { name: 'height' }],
  },
];

export const ENTITY_BY_NAME = new Map(ENTITIES.map((e) => [e.name, e]));

/** Columns a staged row carries, in COPY order: the line's fields (a `file` field is not a column) then computed ones. */
export function stagedColumns(e: Entity): string[] {
  return [...e.fields.filter((x) => x.kind !== 'file').map((x) => x.name), ...e.computed.map((c) => c.name)];
}
