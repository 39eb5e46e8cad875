import { dayOf } from './dates.ts';
import type { Reference, State } from './reference.ts';
import { type Rng, Weighted } from './rng.ts';

// Where applicants are. Filing volume is heavily concentrated in a few commercial states, and a
// state's registry office follows from it (Trade Marks Rules r.4), so both are drawn together.

// Share of filings by state code (rough, from the Registry's annual reports' office-wise split).
const STATE_WEIGHT: Record<string, number> = {
  MH: 17,
  DL: 14,
  GJ: 10,
  TN: 8,
  KA: 8,
  UP: 8,
  WB: 6,
  TG: 5,
  RJ: 4,
  HR: 4,
  PB: 3.5,
  KL: 3,
  MP: 3,
  AP: 2.5,
  BR: 1.2,
  OR: 1,
  UT: 1,
  CH: 0.8,
  AS: 0.8,
  HP: 0.6,
  JH: 0.7,
  CT: 0.7,
  GA: 0.6,
  JK: 0.5,
  PY: 0.2,
  DH: 0.2,
  TR: 0.1,
  ML: 0.08,
  MN: 0.06,
  NL: 0.05,
  AR: 0.04,
  MZ: 0.04,
  SK: 0.05,
  AN: 0.03,
  LA: 0.02,
  LD: 0.01,
};

// Cities with the first three digits of their PIN codes; enough variety for addresses to look real.
const CITIES: Record<string, string[]> = {
  MH: ['MUMBAI:400', 'PUNE:411', 'NAGPUR:440', 'NASHIK:422', 'THANE:400', 'AURANGABAD:431', 'KOLHAPUR:416', 'BHIWANDI:421'],
  DL: ['NEW DELHI:110', 'DELHI:110'],
  GJ: ['AHMEDABAD:380', 'SURAT:395', 'RAJKOT:360', 'VADODARA:390', 'JAMNAGAR:361', 'MORBI:363'],
  TN: ['CHENNAI:600', 'COIMBATORE:641', 'MADURAI:625', 'TIRUPUR:641', 'SALEM:636', 'SIVAKASI:626'],
  KA: ['BENGALURU:560', 'MYSURU:570', 'HUBBALLI:580', 'MANGALURU:575', 'BELAGAVI:590'],
  UP: ['LUCKNOW:226', 'KANPUR:208', 'NOIDA:201', 'GHAZIABAD:201', 'AGRA:282', 'VARANASI:221', 'MEERUT:250', 'ALIGARH:202'],
  WB: ['KOLKATA:700', 'HOWRAH:711', 'SILIGURI:734', 'DURGAPUR:713'],
  TG: ['HYDERABAD:500', 'SECUNDERABAD:500', 'WARANGAL:506'],
  RJ: ['JAIPUR:302', 'JODHPUR:342', 'UDAIPUR:313', 'KOTA:324', 'BHILWARA:311'],
  HR: ['GURUGRAM:122', 'FARIDABAD:121', 'PANIPAT:132', 'KARNAL:132', 'SONIPAT:131'],
  PB: ['LUDHIANA:141', 'AMRITSAR:143', 'JALANDHAR:144', 'MOHALI:160'],
  KL: ['KOCHI:682', 'THIRUVANANTHAPURAM:695', 'KOZHIKODE:673', 'THRISSUR:680'],
  MP: ['INDORE:452', 'BHOPAL:462', 'JABALPUR:482', 'GWALIOR:474'],
  AP: ['VISAKHAPATNAM:530', 'VIJAYAWADA:520', 'GUNTUR:522', 'TIRUPATI:517'],
  BR: ['PATNA:800', 'MUZAFFARPUR:842', 'GAYA:823'],
  OR: ['BHUBANESWAR:751', 'CUTTACK:753', 'ROURKELA:769'],
  UT: ['DEHRADUN:248', 'HARIDWAR:249', 'RUDRAPUR:263'],
  CH: ['CHANDIGARH:160'],
  AS: ['GUWAHATI:781', 'DIBRUGARH:786'],
  HP: ['SHIMLA:171', 'BADDI:173', 'SOLAN:173'],
  JH: ['RANCHI:834', 'JAMSHEDPUR:831', 'DHANBAD:826'],
  CT: ['RAIPUR:492', 'BHILAI:490', 'BILASPUR:495'],
  GA: ['PANAJI:403', 'MARGAO:403'],
  JK: ['JAMMU:180', 'SRINAGAR:190'],
  PY: ['PUDUCHERRY:605'],
  DH: ['SILVASSA:396', 'DAMAN:396'],
  TR: ['AGARTALA:799'],
  ML: ['SHILLONG:793'],
  MN: ['IMPHAL:795'],
  NL: ['DIMAPUR:797', 'KOHIMA:797'],
  AR: ['ITANAGAR:791'],
  MZ: ['AIZAWL:796'],
  SK: ['GANGTOK:737'],
  AN: ['PORT BLAIR:744'],
  LA: ['LEH:194'],
  LD: ['KAVARATTI:682'],
};

const SPLIT_CITIES: Record<string, [string, string][]> = Object.fromEntries(
  Object.entries(CITIES).map(([code, list]) => [code, list.map((c) => c.split(':') as [string, string])]),
);

const STREETS = [
  'M.G. ROAD',
  'STATION ROAD',
  'MAIN ROAD',
  'GANDHI NAGAR',
  'NEHRU PLACE',
  'MARKET YARD',
  'INDUSTRIAL AREA',
  'MIDC',
  'G.T. ROAD',
  'RING ROAD',
  'CIVIL LINES',
  'SADAR BAZAR',
  'NEW MARKET',
  'PHASE II',
  'SECTOR 18',
  'BAZAR PETH',
  'RAILWAY ROAD',
  'TILAK ROAD',
  'PATEL NAGAR',
  'SHASTRI NAGAR',
];
const UNITS = ['SHOP NO.', 'PLOT NO.', 'FLAT NO.', 'H.NO.', 'GALA NO.', 'OFFICE NO.', 'KHASRA NO.'];

// Carved-out states did not exist when older marks were filed; the register shows the parent state.
const PARENT_BEFORE: Record<string, [string, number]> = {
  TG: ['AP', dayOf('2014-06-02')],
  CT: ['MP', dayOf('2000-11-01')],
  JH: ['BR', dayOf('2000-11-15')],
  UT: ['UP', dayOf('2000-11-09')],
  LA: ['JK', dayOf('2019-10-31')],
};

export class Places {
  private readonly draw: Weighted<State>;
  private readonly byCode = new Map<string, State>();

  constructor(ref: Reference) {
    for (const s of ref.states) this.byCode.set(s.code, s);
    const states = ref.states.filter((s) => CITIES[s.code]);
    this.draw = new Weighted(
      states,
      states.map((s) => STATE_WEIGHT[s.code] ?? 0.05),
    );
  }

  state(rng: Rng, day: number): State {
    let s = this.draw.draw(rng);
    const parent = PARENT_BEFORE[s.code];
    if (parent && day < parent[1]) s = this.byCode.get(parent[0]) ?? s;
    return s;
  }

  address(rng: Rng, state: State): string {
    const [city, pin] = rng.pick(SPLIT_CITIES[state.code] ?? [['CITY', '100']]);
    return (
      `${rng.pick(UNITS)} ${rng.range(1, 450)}, ${rng.pick(STREETS)}, ${city}, ` +
      `${state.name} - ${pin}${String(rng.range(1, 99)).padStart(3, '0')}`
    );
  }
}

export const OFFICE_CITY: Record<string, string> = { MUM: 'MUMBAI', DEL: 'DELHI', KOL: 'KOLKATA', CHE: 'CHENNAI', AHD: 'AHMEDABAD' };

export const FOREIGN: { country: string; city: string; suffixes: string[] }[] = [
  { country: 'United States of America', city: 'NEW YORK, NY 10001', suffixes: ['INC.', 'LLC', 'CORPORATION'] },
  { country: 'Japan', city: 'TOKYO 100-0005', suffixes: ['KABUSHIKI KAISHA', 'CO., LTD.'] },
  { country: 'Germany', city: '80331 MUNICH', suffixes: ['GMBH', 'AG'] },
  { country: 'United Kingdom', city: 'LONDON EC1A 1BB', suffixes: ['LIMITED', 'PLC'] },
  { country: 'China', city: 'SHENZHEN 518000', suffixes: ['CO., LTD.', 'TECHNOLOGY CO., LTD.'] },
  { country: 'Switzerland', city: '8001 ZURICH', suffixes: ['AG', 'SA'] },
  { country: 'France', city: '75008 PARIS', suffixes: ['S.A.S.', 'S.A.'] },
  { country: 'Republic of Korea', city: 'SEOUL 04524', suffixes: ['CO., LTD.', 'CORPORATION'] },
  { country: 'United Arab Emirates', city: 'DUBAI', suffixes: ['L.L.C.', 'FZE'] },
  { country: 'Singapore', city: 'SINGAPORE 048583', suffixes: ['PTE. LTD.'] },
];
