import { FOREIGN, OFFICE_CITY } from './places.ts';
import { hash3, type Rng, Weighted, zipf } from './rng.ts';
import { genericWord, popularWord } from './words.ts';

// Applicants, agents and opponents. Names follow the register's conventions: upper case, firms as
// "M/S ...", companies with their legal suffix, sole proprietors "trading as" their firm.

const MALE = (
  'RAJESH SURESH RAMESH MAHESH DINESH MUKESH RAKESH ANIL SUNIL SANJAY VIJAY AJAY MANOJ ASHOK VINOD PRAKASH DEEPAK AMIT SUMIT ' +
  'ROHIT RAHUL VIKAS PANKAJ NITIN SACHIN ARUN KIRAN RAVI GOPAL MOHAN SHYAM HARISH NARESH JITENDRA BHARAT HEMANT KAMLESH PRAVIN ' +
  'DILIP MOHAMMED ABDUL IRFAN IMRAN SALIM GURPREET HARPREET JASWINDER MANPREET SENTHIL MURUGAN KARTHIK VENKATESH SRINIVAS ' +
  'RAGHAVENDRA SUBRAMANIAN BALAKRISHNAN ARJUN ADITYA KUNAL VARUN NIKHIL'
).split(' ');
const FEMALE = (
  'SUNITA ANITA KAVITA SAVITA PRIYA POOJA NEHA RENU MEENA GEETA SEEMA REKHA ASHA USHA LATA SHOBHA NISHA RITU ANJALI DEEPA ' +
  'LAKSHMI PADMA REVATHI FATIMA AYESHA SHABANA HARJEET KULWINDER SWATI SNEHA KOMAL'
).split(' ');
const MIDDLE = ['KUMAR', 'KUMAR', 'PRASAD', 'CHAND', 'LAL', 'BHAI', 'SINGH', 'DEVI', 'RANI', 'BEN', 'KANT', 'NATH'];
const SURNAMES = (
  'GUPTA AGARWAL SHARMA VERMA JAIN SHAH PATEL MEHTA DESAI JOSHI KULKARNI DESHPANDE PATIL SHINDE JADHAV PAWAR SINGH YADAV ' +
  'MISHRA TIWARI PANDEY DUBEY CHAUHAN RATHORE KHAN SHAIKH ANSARI QURESHI SIDDIQUI REDDY NAIDU RAO IYER IYENGAR NAIR MENON ' +
  'PILLAI KRISHNAN MUKHERJEE BANERJEE CHATTERJEE DAS BOSE GHOSH SEN DUTTA ROY GILL SANDHU DHILLON GREWAL BANSAL GOYAL MITTAL ' +
  'SINGHAL KHANDELWAL MAHESHWARI OSWAL CHOPRA KAPOOR MALHOTRA KHANNA ARORA BHATIA SETHI THAKKAR SONI CHAUDHARY'
).split(' ');
const surname = new Weighted(SURNAMES, zipf(SURNAMES.length, 0.7, 5));

const FIRM_TAILS = [
  'TRADERS',
  'ENTERPRISES',
  'INDUSTRIES',
  'AGENCIES',
  'CORPORATION',
  'EXPORTS',
  'SALES',
  'BROTHERS',
  '& SONS',
  'MANUFACTURERS',
  'IMPEX',
  'MARKETING',
  'DISTRIBUTORS',
];

export function personName(rng: Rng): string {
  const female = rng.chance(0.22);
  const first = rng.pick(female ? FEMALE : MALE);
  const middle = rng.chance(0.45) ? ` ${female ? rng.pick(['DEVI', 'RANI', 'BEN', 'KUMARI']) : rng.pick(MIDDLE)}` : '';
  if (first === 'GURPREET' || first === 'HARPREET' || first === 'JASWINDER' || first === 'MANPREET') return `${first} SINGH`;
  return `${first}${middle} ${surname.draw(rng)}`;
}

/** A firm name, usually echoing the mark: applicants name their business after their brand. */
function firmBase(rng: Rng, word: string, cls: number): string {
  const head =
    word && word.length <= 22 && /^[A-Z' ]+$/.test(word) && rng.chance(0.55)
      ? word.split(' ').slice(0, 2).join(' ')
      : rng.chance(0.5)
        ? `${popularWord(rng)} ${popularWord(rng)}`
        : `${surname.draw(rng)} ${genericWord(rng, cls)}`;
  return head.startsWith('SHREE') || rng.chance(0.8) ? head : `SHREE ${head}`;
}

export const ENTITY_TYPES = [
  'Individual',
  'Sole Proprietorship',
  'Partnership Firm',
  'Private Limited Company',
  'Public Limited Company',
  'Limited Liability Partnership',
  'Trust',
  'Hindu Undivided Family',
] as const;
const entityType = new Weighted([...ENTITY_TYPES], [25, 24, 15, 25, 3, 5, 1.5, 1.5]);

export interface Party {
  name: string;
  entityType: string;
  tradingAs: string | null;
}

export function indianParty(rng: Rng, word: string, cls: number): Party {
  const type = entityType.draw(rng);
  const base = firmBase(rng, word, cls);
  switch (type) {
    case 'Individual':
      return { name: personName(rng), entityType: type, tradingAs: null };
    case 'Sole Proprietorship':
      return { name: personName(rng), entityType: type, tradingAs: `M/S ${base} ${rng.pick(FIRM_TAILS)}` };
    case 'Partnership Firm':
      return { name: `M/S ${base} ${rng.pick(FIRM_TAILS)}`, entityType: type, tradingAs: null };
    case 'Private Limited Company':
      return { name: `${base} ${rng.chance(0.7) ? 'PRIVATE LIMITED' : 'PVT. LTD.'}`, entityType: type, tradingAs: null };
    case 'Public Limited Company':
      return { name: `${base} LIMITED`, entityType: type, tradingAs: null };
    case 'Limited Liability Partnership':
      return { name: `${base} LLP`, entityType: type, tradingAs: null };
    case 'Trust':
      return { name: `${base} CHARITABLE TRUST`, entityType: type, tradingAs: null };
    default:
      return { name: `${personName(rng)} (HUF)`, entityType: type, tradingAs: null };
  }
}

export function foreignParty(rng: Rng, word: string): Party & { country: string; address: string } {
  const f = rng.pick(FOREIGN);
  const head = word && /^[A-Z ]+$/.test(word) && rng.chance(0.6) ? word.split(' ')[0] : `${popularWord(rng)}`;
  const suffix = rng.pick(f.suffixes);
  const name = suffix === 'KABUSHIKI KAISHA' ? `${suffix} ${head}` : `${head} ${suffix}`;
  return {
    name,
    entityType: 'Body Incorporate',
    tradingAs: null,
    country: f.country,
    address:
      `${rng.range(1, 999)} ${rng.pick(['HARBOUR', 'PARK', 'KING', 'MAIN', 'CENTRAL', 'RIVER'])} ` +
      `${rng.pick(['STREET', 'AVENUE', 'ROAD', 'TOWER'])}, ${f.city}, ${f.country.toUpperCase()}`,
  };
}

// ---- trade marks agents ------------------------------------------------------------------------

// A few hundred agents per office file most of the register, with a long tail of one-off advocates.
const AGENTS_PER_OFFICE = 1500;
const agentRank = new Weighted(
  Array.from({ length: AGENTS_PER_OFFICE }, (_, k) => k),
  zipf(AGENTS_PER_OFFICE, 1.1, 4),
);
const AGENT_STYLES = ['& ASSOCIATES', '& CO.', 'LAW OFFICES', 'IP ATTORNEYS', 'LEGAL', '& PARTNERS'];
const OFFICE_STD: Record<string, string> = { MUM: '22', DEL: '11', KOL: '33', CHE: '44', AHD: '79' };

export interface Agent {
  name: string;
  code: string;
  address: string;
  email: string;
  phone: string;
}

/** The agent is a pure function of (seed, office, rank): the same firm reappears across marks. */
export function agentFor(a: Rng, seed: number, office: string, rank: number): Agent {
  const officeNo = ['MUM', 'DEL', 'KOL', 'CHE', 'AHD'].indexOf(office);
  a.reseed(seed, rank, 0x4a6e7 + officeNo);
  const sur = surname.draw(a);
  const name = a.chance(0.6) ? `${sur} ${a.pick(AGENT_STYLES)}` : `ADV. ${personName(a)}`;
  const slug = name.toLowerCase().replace(/[^a-z]+/g, '');
  const code = String(1000 + (hash3(seed, rank, officeNo) % 90000));
  return {
    name,
    code: `TMA/${office}/${code}`,
    address:
      `${a.range(1, 300)}, ${a.pick(['LAWYERS CHAMBERS', 'CHAMBER NO. 4', 'IP HOUSE', 'COMMERCIAL COMPLEX'])}, ` +
      `${OFFICE_CITY[office] ?? 'DELHI'}`,
    email: `${slug.slice(0, 18)}@${a.pick(['example.com', 'example.net', 'example.org'])}`,
    phone: `+91 ${OFFICE_STD[office] ?? '11'} ${String(a.range(20_000_000, 69_999_999))}`,
  };
}
agentFor.rank = (rng: Rng): number => agentRank.draw(rng);
