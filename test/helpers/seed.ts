import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../src/db/knex.ts';
import { generate } from '../../src/ingest/generator/index.ts';
import { importSet } from '../../src/ingest/importer/index.ts';
import type { Root } from '../../src/root.ts';

/** A tiny hand-written registry: one fully linked mark, one bare mark, one cited mark, one journal. */
export async function seedRegistry(db: Db): Promise<void> {
  await db('journals').insert([
    { id: 7, journal_number: '2101', publication_date: '2024-05-06', object_key: 'journals/2101.pdf', page_count: 12 },
    { id: 8, journal_number: '2102', publication_date: '2024-05-13', object_key: null, page_count: null },
  ]);
  const base = { status: 'Registered', tm_type: 'WORD', filing_mode: 'E-FILING', alert: '', state: 'MAHARASHTRA' };
  await db('trademarks').insert([
    {
      ...base,
      application_number: '4000001',
      word_mark: 'SUNRISE FOODS',
      class_number: 30,
      application_date: '2019-04-12',
      expire_at: '2029-04-12',
      proprietor_name: 'SUNRISE AGRO PRIVATE LIMITED',
      slug: 'sunrise-foods-4000001',
      goods_services: 'tea, coffee',
      used_since: 'Proposed to be Used',
      registry_office: 'MUM',
      journal_id: 7,
      vienna_codes: ['01.03.01'],
      alert: 'Reply pending',
    },
    {
      ...base,
      application_number: '4000002',
      word_mark: 'SUNRYZE',
      class_number: 30,
      application_date: '2021-01-05',
      expire_at: null,
      status: 'Objected',
      proprietor_name: 'R K TRADERS',
      slug: 'sunryze-4000002',
      journal_id: 7,
    },
    {
      ...base,
      application_number: '4000003',
      word_mark: '',
      class_number: 25,
      application_date: '2020-02-02',
      expire_at: null,
      tm_type: 'DEVICE',
      proprietor_name: 'M/S STAR APPARELS',
      slug: 'device-mark-4000003',
      state: null,
      filing_mode: null,
    },
  ]);
  await db('status_history').insert([
    { id: 11, application_number: '4000001', old_status: null, new_status: 'New Application', changed_at: '2019-04-12T09:00:00Z' },
    { id: 12, application_number: '4000001', old_status: 'New Application', new_status: 'Registered', changed_at: '2020-01-10T09:00:00Z' },
  ]);
  await db('alerts').insert([
    { id: 21, application_number: '4000001', old_alert: null, new_alert: 'Reply pending', changed_at: '2020-03-01T00:00:00Z' },
  ]);
  await db('proprietors').insert([
    {
      id: 31,
      application_number: '4000001',
      name: 'SUNRISE AGRO PRIVATE LIMITED',
      entity_type: 'Company',
      address: '1 MG Road, Pune',
      state: 'MAHARASHTRA',
      trading_as: null,
    },
  ]);
  await db('attorneys').insert([
    {
      id: 41,
      application_number: '4000001',
      name: 'A. SHARMA & CO',
      agent_code: 'AG-1001',
      address: 'Delhi',
      email: 'ip@example.in',
      phone: null,
    },
  ]);
  await db('oppositions').insert([
    {
      id: 51,
      application_number: '4000001',
      opposition_number: 'OPP-900001',
      opponent_name: 'SUNSHINE FOODS LTD',
      opponent_address: 'Chennai',
      opposition_date: '2019-10-01',
      status: 'Decided',
      decision: 'Rejected',
      decision_date: '2020-01-05',
    },
  ]);
  await db('hearings').insert([
    {
      id: 61,
      application_number: '4000001',
      hearing_date: '2019-12-01',
      hearing_type: 'Show Cause',
      virtual_room_link: 'https://vc.example.in/r/61',
      time_slot: '10:30-11:00',
      status: 'Held',
    },
  ]);
  await db('documents').insert([
    {
      id: 71,
      application_number: '4000001',
      opposition_id: null,
      name: 'Examination Report',
      document_type: 'Examination Report',
      upload_date: '2019-06-01',
      object_key: 'blobs/doc71.pdf',
    },
    {
      id: 72,
      application_number: '4000001',
      opposition_id: 51,
      name: 'Notice of Opposition',
      document_type: 'TM-O',
      upload_date: '2019-10-01',
      object_key: 'blobs/doc72.pdf',
    },
  ]);
  await db('exam_reports').insert([
    {
      id: 81,
      application_number: '4000001',
      report_date: '2019-06-01',
      objection_reasons: ['Section 11(1)'],
      reply_due_date: '2019-07-01',
    },
  ]);
  await db('cited_marks').insert([
    { id: 91, exam_report_id: 81, application_number: '4000001', cited_application_number: '4000002' },
    { id: 92, exam_report_id: 81, application_number: '4000001', cited_application_number: '9999999' },
  ]);
  await db('logos').insert([{ application_number: '4000003', object_key: 'logos/4000003.png', width: 64, height: 64 }]);
}

/** A generated register (no logos) imported into the app's database, the generator's files removed afterwards. */
export async function importGenerated(deps: Pick<Root, 'db' | 'store'>, records: number, seed: number): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-generated-'));
  try {
    await generate({ records, seed, logos: 0, threads: 0, out: dir });
    await importSet({ db: deps.db, store: deps.store, dir: path.join(dir, 'baseline') });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
