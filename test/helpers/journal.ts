import sharp from 'sharp';
import type { JournalEntry, PrintedEntry } from '../../src/ingest/journal/layout.ts';

// Journal entries with every kind of field (issue 43): a word mark with an agent and conditions, a device mark of a
// trading-as proprietor with no agent, a Madrid designation; written by hand as the records they must read back as.

const base = { journal_number: '2216', publication_date: '2025-07-07' };
export const ENTRIES: JournalEntry[] = [
  {
    ...base,
    class_number: 5,
    word_mark: 'DHANVANTRI CARE',
    application_number: '5895457',
    application_date: '2023-04-17',
    international_registration: null,
    proprietor: {
      name: 'DHANVANTRI HEALTHCARE PRIVATE LIMITED',
      address: ['PLOT NO. 14, MIDC AREA, ANDHERI (EAST)', 'MUMBAI - 400093, MAHARASHTRA'],
      kind: 'Private Limited Company',
    },
    agent: { name: 'R. K. DEWAN & CO.', address: ['PODAR CHAMBERS, S. A. BRELVI ROAD, FORT, MUMBAI - 400001'] },
    used_since: '2013-09-25',
    office: 'MUMBAI',
    goods_services:
      'Pharmaceutical and veterinary preparations; sanitary preparations for medical purposes; dietetic food and substances ' +
      'adapted for medical use; food for babies; dietary supplements for humans and animals; plasters, materials for dressings.',
    conditions: ['NO RIGHT TO THE EXCLUSIVE USE OF THE WORD CARE.'],
  },
  {
    ...base,
    class_number: 30,
    word_mark: null,
    application_number: '5901122',
    application_date: '2023-05-02',
    international_registration: null,
    proprietor: {
      name: 'RAMESH KUMAR GUPTA TRADING AS GUPTA SWEETS',
      address: ['12, CHANDNI CHOWK, DELHI - 110006'],
      kind: 'PROPRIETORSHIP',
    },
    agent: null,
    used_since: null,
    office: 'DELHI',
    goods_services: 'Sweets, namkeen, biscuits and confectionery.',
    conditions: ['Applicant claims rights in all colours as shown in the label.', 'Device of a lamp.'],
  },
  {
    ...base,
    class_number: 9,
    word_mark: 'NORDLICHT',
    application_number: '1623344',
    application_date: '2021-11-30',
    international_registration: '1623344',
    proprietor: { name: 'NORDLICHT TECHNIK GMBH', address: ['HAUPTSTRASSE 5, 80331 MÜNCHEN, GERMANY'], kind: 'Body Incorporate' },
    agent: { name: 'LALL & SETHI', address: ['D-17, N.D.S.E.-II, NEW DELHI - 110049'] },
    used_since: null,
    office: 'DELHI',
    goods_services: 'Scientific and electric apparatus; computer software.',
    conditions: [],
  },
];

/** The device mark's image: a red disc on white, as its page draws it. */
export const DEVICE_IMAGE = () =>
  sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="72"><rect width="96" height="72" fill="#fff"/>' +
        '<circle cx="48" cy="36" r="28" fill="#c81e1e"/></svg>',
    ),
  )
    .png()
    .toBuffer();

/** The entries as a journal prints them: the device mark with its image. */
export const printed = async (): Promise<PrintedEntry[]> => {
  const image = await DEVICE_IMAGE();
  return ENTRIES.map((e) => (e.word_mark ? e : { ...e, image }));
};
