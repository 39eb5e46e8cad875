import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import sharp from 'sharp';
import type { JournalEntry, PrintedEntry } from '../../src/ingest/journal/layout.ts';
import type { Part } from '../../src/ingest/journal/render.ts';

// A journal with every kind of page (issue 43), and the records it must read back as, written by hand: a cover page;
// word, device and label marks; a Devanagari mark; goods long enough to go on over a second page; an agent and none;
// conditions; a trading-as proprietor; a mark to be associated with others; a multi-class application (class 99);
// one advertised before acceptance; a Madrid designation with a priority claim; a damaged page; corrigenda; the
// registered and renewed lists; a section not taken in. Marks of the ingest fixture (test/fixtures/ingest) are named:
// 4100001 advertised, 4100003 registered, 4100002 printed again among the corrigenda and renewed, 4100004 corrected.

export const JOURNAL = { journal_number: '2216', publication_date: '2025-07-07' };
const base = JOURNAL;

/** Class 1's first 200 items of the Nice list: goods that do not fit one page. */
const longGoods = (): string =>
  (parse(fs.readFileSync('data/reference/nice_items.csv'), { columns: true }) as { class: string; item: string }[])
    .filter((r) => r.class === '1')
    .slice(0, 200)
    .map((r) => r.item)
    .join('; ');

const entry = (e: Partial<JournalEntry> & Pick<JournalEntry, 'application_number' | 'class_number'>): JournalEntry => ({
  ...base,
  classes: null,
  word_mark: null,
  application_date: '2023-04-17',
  international_registration: null,
  priority: null,
  proprietor: { name: '', address: [], kind: null },
  agent: null,
  used_since: null,
  associated_with: [],
  office: 'MUMBAI',
  goods_services: '',
  conditions: [],
  ...e,
});

export const LONG = (): JournalEntry =>
  entry({
    class_number: 1,
    word_mark: 'NUTRIGROW',
    application_number: '5895460',
    proprietor: {
      name: 'VOXNAT ORGANIC BIO FERTILIZER PVT. LTD.',
      address: ['SEC NO. 11, LC-2, SHOP NO. 3, NR. JADHAV CNG PUMP, GEET SIDDHI, PUNE, MAHARASHTRA - 412105'],
      kind: 'Private Limited Company',
    },
    agent: { name: 'S.SINGH & ASSOCIATES', address: ['B-1, 2ND FLOOR, DERAWAL NAGAR, DELHI - 110009'] },
    used_since: '2013-09-25',
    goods_services: longGoods(),
  });

export const CARE = entry({
  class_number: 5,
  word_mark: 'DHANVANTRI CARE',
  application_number: '5895457',
  proprietor: {
    name: 'DHANVANTRI HEALTHCARE PRIVATE LIMITED',
    address: ['PLOT NO. 14, MIDC AREA, ANDHERI (EAST)', 'MUMBAI - 400093'],
    kind: 'Private Limited Company',
  },
  agent: { name: 'R. K. DEWAN & CO.', address: ['PODAR CHAMBERS, S. A. BRELVI ROAD, FORT, MUMBAI - 400001'] },
  used_since: '2013-09-25',
  goods_services:
    'Pharmaceutical and veterinary preparations; sanitary preparations for medical purposes; dietetic food and substances ' +
    'adapted for medical use; food for babies; dietary supplements for humans and animals; plasters, materials for dressings.',
  conditions: [
    'REGISTRATION OF THIS TRADE MARK SHALL GIVE NO RIGHT TO THE EXCLUSIVE USE OF THE WORD CARE.',
    'THE MARK SHALL BE LIMITED TO THE COLOURS AS SHOWN IN THE REPRESENTATION ON THE FORM OF THE APPLICATION.',
  ],
});

export const SWEETS = entry({
  class_number: 30,
  application_number: '5901122',
  application_date: '2023-05-02',
  proprietor: {
    name: 'RAMESH KUMAR GUPTA trading as ;GUPTA SWEETS',
    address: ['12, CHANDNI CHOWK, DELHI - 110006'],
    kind: 'PROPRIETORSHIP',
  },
  associated_with: ['3865486', '3918097'],
  office: 'DELHI',
  goods_services: 'Sweets, namkeen, biscuits and confectionery.',
  conditions: ['Device of a lamp.'],
});

export const SUNRISE_HINDI = entry({
  class_number: 29,
  word_mark: 'सनराइज श्री घी',
  application_number: '5921001',
  application_date: '2023-05-09',
  proprietor: { name: 'किरण डेयरी प्राइवेट लिमिटेड', address: ['45, GANDHI ROAD, LUCKNOW 226001'], kind: 'Private Limited Company' },
  office: 'DELHI',
  goods_services: 'Ghee, butter, paneer and milk products.',
});

/** A mark the ingest fixture has (Objected, with its own proprietor and agent rows), advertised now with a label. */
export const SUNRISE = entry({
  class_number: 30,
  word_mark: 'SUNRISE FOODS',
  application_number: '4100001',
  application_date: '2019-04-12',
  proprietor: {
    name: 'SUNRISE FOODS PVT LTD',
    address: ['12 LINKING ROAD, BANDRA (WEST), MUMBAI 400050'],
    kind: 'Private Limited Company',
  },
  agent: { name: 'MEHTA & ASSOCIATES', address: ['FORT, MUMBAI 400001'] },
  goods_services: 'Rice, flour and preparations made from cereals; bread, pastry and confectionery',
});

export const MULTI = entry({
  class_number: 3,
  classes: [3, 30],
  word_mark: 'KESARI HERBALS',
  application_number: '5930001',
  application_date: '2023-06-01',
  proprietor: {
    name: 'KESARI AYURVED LLP',
    address: ['7, M.G. ROAD, INDORE, MADHYA PRADESH - 452001'],
    kind: 'Limited Liability Partnership',
  },
  agent: { name: 'LALL & SETHI', address: ['D-17, N.D.S.E.-II, NEW DELHI - 110049'] },
  office: 'AHMEDABAD',
  goods_services: 'Cl.3;Soaps, perfumery, essential oils, hair lotions. Cl.30;Saffron, tea, spices and herbal infusions.',
});

export const ABA = entry({
  class_number: 25,
  word_mark: 'ZARI KING',
  application_number: '5940001',
  application_date: '2023-07-11',
  proprietor: { name: 'M/S. ZARI EMPORIUM', address: ['RING ROAD, SURAT 395002'], kind: 'Partnership Firm' },
  used_since: '2001-01-01',
  office: 'AHMEDABAD',
  goods_services: 'Sarees, dress materials and readymade garments.',
});

export const MADRID = entry({
  class_number: 9,
  word_mark: 'NORDLICHT',
  application_number: '1623344',
  application_date: '2021-11-30',
  international_registration: '1623344',
  priority: { date: '2021-06-02', number: '30 2021 108 456', country: 'Germany' },
  proprietor: { name: 'NORDLICHT TECHNIK GMBH', address: ['HAUPTSTRASSE 5, 80331 MÜNCHEN, GERMANY'], kind: null },
  agent: { name: 'LALL & SETHI', address: ['D-17, N.D.S.E.-II, NEW DELHI - 110049'] },
  office: 'DELHI',
  goods_services: 'Scientific and electric apparatus; computer software.',
});

/** A red disc on white: the device mark's image, and the label mark's. */
export const DEVICE_IMAGE = () =>
  sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="72"><rect width="96" height="72" fill="#fff"/>' +
        '<circle cx="48" cy="36" r="28" fill="#c81e1e"/></svg>',
    ),
  )
    .png()
    .toBuffer();

/** A mark of the fixture (a registered device mark) printed again in full among the corrigenda, its goods corrected. */
export const REPRINT = entry({
  class_number: 25,
  application_number: '4100002',
  application_date: '2019-04-13',
  proprietor: { name: 'ASHA TEXTILES', address: ['RING ROAD, AHMEDABAD - 380001, GUJARAT'], kind: 'Partnership Firm' },
  used_since: '2015-06-01',
  office: 'AHMEDABAD',
  goods_services: 'Clothing, footwear, headgear; sarees and dress materials',
});

export const CORRECTIONS = [
  { application_number: '4100004', text: 'for ROYAL STAR read ROYAL STARR' },
  { application_number: '4100001', text: 'The user detail should read Used Since :01/04/2009' },
  { application_number: '7000001', text: 'for SUNSHINE read SUNSHYNE' },
];

/** The journal, page by page (the page numbers the records below name are these); the device and label marks' images. */
export const journalParts = async (images: { device?: Buffer; label?: Buffer } = {}): Promise<Part[]> => {
  const disc = await DEVICE_IMAGE();
  const e = (x: JournalEntry, image?: Buffer): Part => ({ kind: 'entry', entry: image ? ({ ...x, image } as PrintedEntry) : x });
  return [
    { kind: 'front', text: 'TRADE MARKS JOURNAL. Published by the Registrar of Trade Marks under the Trade Marks Act, 1999.' }, // 1
    { kind: 'heading', section: 'advertised' }, // 2
    e(LONG()), // 3, 4
    e(CARE), // 5
    { kind: 'damaged' }, // 6
    e(SWEETS, images.device ?? disc), // 7
    e(SUNRISE_HINDI), // 8
    e(SUNRISE, images.label ?? disc), // 9
    e(MULTI), // 10
    { kind: 'heading', section: 'before_acceptance' }, // 11
    e(ABA), // 12
    { kind: 'heading', section: 'international' }, // 13
    e(MADRID), // 14
    { kind: 'corrigenda', items: CORRECTIONS }, // 15
    e(REPRINT), // 16
    { kind: 'registered', numbers: ['4100003', '9999999'] }, // 17
    { kind: 'renewed', rows: [{ application_number: '4100002', class_number: 25, date: '2029-04-13' }] }, // 18
    { kind: 'other', lines: ['4100001 - Change of address of the proprietor recorded.'] }, // 19
  ];
};

/** What the journal reads back as: the entries in page order with their section and page. */
export const READ_ENTRIES = () => [
  { ...LONG(), section: 'advertised', page: 3, image: null },
  { ...CARE, section: 'advertised', page: 5, image: null },
  { ...SWEETS, section: 'advertised', page: 7 },
  { ...SUNRISE_HINDI, section: 'advertised', page: 8, image: null },
  { ...SUNRISE, section: 'advertised', page: 9 },
  { ...MULTI, section: 'advertised', page: 10, image: null },
  { ...ABA, section: 'before_acceptance', page: 12, image: null },
  { ...MADRID, section: 'international', page: 14, image: null },
  { ...REPRINT, section: 'corrigenda', page: 16, image: null },
];
