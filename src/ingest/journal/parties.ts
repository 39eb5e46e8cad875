import { TRADING_AS } from './layout.ts';

// A proprietor as the journal prints it, read into the register's fields: the trading-as form into the person (or firm)
// and the name traded under, and the address into its state (upper case, as the register keeps it) and country. The
// state is the last state or union territory the address names (data/reference/india_states.csv, and the short forms
// addresses use: U.P., M.P., T.N.), else the one its PIN code falls in; the country is India unless the address ends in
// another one. An address that names neither leaves the state unknown (null) and the country India.

/** `X trading as ;Y` → X and Y; a name without the form is its own person and trades under no other name. */
export function tradingAs(name: string): { person: string; trading_as: string | null; printed: string } {
  const parts = name.split(TRADING_AS);
  if (parts.length !== 2 || !parts[0].trim() || !parts[1].trim()) return { person: name, trading_as: null, printed: name };
  const [person, trade] = parts.map((p) => p.trim());
  return { person, trading_as: trade, printed: `${person} trading as ${trade}` };
}

const STATES = [
  'ANDAMAN AND NICOBAR ISLANDS',
  'ANDHRA PRADESH',
  'ARUNACHAL PRADESH',
  'ASSAM',
  'BIHAR',
  'CHANDIGARH',
  'CHHATTISGARH',
  'DADRA AND NAGAR HAVELI AND DAMAN AND DIU',
  'DELHI',
  'GOA',
  'GUJARAT',
  'HIMACHAL PRADESH',
  'HARYANA',
  'JHARKHAND',
  'JAMMU AND KASHMIR',
  'KARNATAKA',
  'KERALA',
  'LADAKH',
  'LAKSHADWEEP',
  'MAHARASHTRA',
  'MEGHALAYA',
  'MANIPUR',
  'MADHYA PRADESH',
  'MIZORAM',
  'NAGALAND',
  'ODISHA',
  'PUNJAB',
  'PUDUCHERRY',
  'RAJASTHAN',
  'SIKKIM',
  'TELANGANA',
  'TAMIL NADU',
  'TRIPURA',
  'UTTAR PRADESH',
  'UTTARAKHAND',
  'WEST BENGAL',
];

/** Other spellings an address uses, and the state each names. */
const ALIASES: [string, string][] = [
  ['NEW DELHI', 'DELHI'],
  ['U\\.\\s?P\\.', 'UTTAR PRADESH'],
  ['M\\.\\s?P\\.', 'MADHYA PRADESH'],
  ['T\\.\\s?N\\.', 'TAMIL NADU'],
  ['A\\.\\s?P\\.', 'ANDHRA PRADESH'],
  ['H\\.\\s?P\\.', 'HIMACHAL PRADESH'],
  ['W\\.\\s?B\\.', 'WEST BENGAL'],
  ['J\\s?&\\s?K', 'JAMMU AND KASHMIR'],
  ['ORISSA', 'ODISHA'],
  ['PONDICHERRY', 'PUDUCHERRY'],
  ['UTTARANCHAL', 'UTTARAKHAND'],
  ['MAHARASTRA', 'MAHARASHTRA'],
  ['GUJRAT', 'GUJARAT'],
  ['TAMILNADU', 'TAMIL NADU'],
];

const NAMES: [RegExp, string][] = [
  ...STATES.map((s): [RegExp, string] => [new RegExp(`(?<![A-Z])${s.replace(/ /g, '\\s+')}(?![A-Z])`, 'g'), s]),
  ...ALIASES.map(([a, s]): [RegExp, string] => [new RegExp(`(?<![A-Z])${a}(?![A-Z])`, 'g'), s]),
];

// PIN codes by their first digits (India Post's postal circles), longest prefix first where a circle splits a zone.
const PIN: [string, string][] = [
  ['11', 'DELHI'],
  ['12', 'HARYANA'],
  ['13', 'HARYANA'],
  ['160', 'CHANDIGARH'],
  ['14', 'PUNJAB'],
  ['15', 'PUNJAB'],
  ['16', 'PUNJAB'],
  ['17', 'HIMACHAL PRADESH'],
  ['194', 'LADAKH'],
  ['18', 'JAMMU AND KASHMIR'],
  ['19', 'JAMMU AND KASHMIR'],
  ['246', 'UTTARAKHAND'],
  ['248', 'UTTARAKHAND'],
  ['249', 'UTTARAKHAND'],
  ['262', 'UTTARAKHAND'],
  ['263', 'UTTARAKHAND'],
  ['2', 'UTTAR PRADESH'],
  ['3', 'RAJASTHAN'],
  ['36', 'GUJARAT'],
  ['37', 'GUJARAT'],
  ['38', 'GUJARAT'],
  ['39', 'GUJARAT'],
  ['403', 'GOA'],
  ['4', 'MAHARASHTRA'],
  ['45', 'MADHYA PRADESH'],
  ['46', 'MADHYA PRADESH'],
  ['47', 'MADHYA PRADESH'],
  ['48', 'MADHYA PRADESH'],
  ['49', 'CHHATTISGARH'],
  ['50', 'TELANGANA'],
  ['5', 'ANDHRA PRADESH'],
  ['56', 'KARNATAKA'],
  ['57', 'KARNATAKA'],
  ['58', 'KARNATAKA'],
  ['59', 'KARNATAKA'],
  ['605', 'PUDUCHERRY'],
  ['6', 'TAMIL NADU'],
  ['67', 'KERALA'],
  ['68', 'KERALA'],
  ['69', 'KERALA'],
  ['737', 'SIKKIM'],
  ['744', 'ANDAMAN AND NICOBAR ISLANDS'],
  ['7', 'WEST BENGAL'],
  ['75', 'ODISHA'],
  ['76', 'ODISHA'],
  ['77', 'ODISHA'],
  ['78', 'ASSAM'],
  ['790', 'ARUNACHAL PRADESH'],
  ['791', 'ARUNACHAL PRADESH'],
  ['792', 'ARUNACHAL PRADESH'],
  ['793', 'MEGHALAYA'],
  ['794', 'MEGHALAYA'],
  ['795', 'MANIPUR'],
  ['796', 'MIZORAM'],
  ['797', 'NAGALAND'],
  ['798', 'NAGALAND'],
  ['799', 'TRIPURA'],
  ['814', 'JHARKHAND'],
  ['815', 'JHARKHAND'],
  ['816', 'JHARKHAND'],
  ['822', 'JHARKHAND'],
  ['825', 'JHARKHAND'],
  ['826', 'JHARKHAND'],
  ['827', 'JHARKHAND'],
  ['828', 'JHARKHAND'],
  ['829', 'JHARKHAND'],
  ['83', 'JHARKHAND'],
  ['8', 'BIHAR'],
].sort((a, b) => b[0].length - a[0].length) as [string, string][];

/** Countries a foreign proprietor's address ends in, as the register names them. */
const COUNTRIES: [RegExp, string][] = (
  [
    ['UNITED STATES OF AMERICA|U\\.?S\\.?A\\.?|UNITED STATES', 'United States of America'],
    ['UNITED KINGDOM|U\\.?K\\.?|ENGLAND|GREAT BRITAIN', 'United Kingdom'],
    ['JAPAN', 'Japan'],
    ['GERMANY', 'Germany'],
    ['FRANCE', 'France'],
    ['SWITZERLAND', 'Switzerland'],
    ['CHINA|P\\.?R\\.? CHINA', 'China'],
    ['REPUBLIC OF KOREA|KOREA|SOUTH KOREA', 'Republic of Korea'],
    ['UNITED ARAB EMIRATES|U\\.?A\\.?E\\.?', 'United Arab Emirates'],
    ['SINGAPORE', 'Singapore'],
    ['ITALY', 'Italy'],
    ['SPAIN', 'Spain'],
    ['NETHERLANDS|THE NETHERLANDS', 'Netherlands'],
    ['SWEDEN', 'Sweden'],
    ['DENMARK', 'Denmark'],
    ['BELGIUM', 'Belgium'],
    ['AUSTRIA', 'Austria'],
    ['CANADA', 'Canada'],
    ['AUSTRALIA', 'Australia'],
    ['TAIWAN', 'Taiwan'],
    ['HONG KONG', 'Hong Kong'],
    ['THAILAND', 'Thailand'],
    ['MALAYSIA', 'Malaysia'],
    ['INDONESIA', 'Indonesia'],
    ['SRI LANKA', 'Sri Lanka'],
    ['BANGLADESH', 'Bangladesh'],
    ['NEPAL', 'Nepal'],
    ['ISRAEL', 'Israel'],
    ['TURKEY|TÜRKIYE|TURKIYE', 'Turkey'],
    ['FINLAND', 'Finland'],
    ['NORWAY', 'Norway'],
    ['IRELAND', 'Ireland'],
    ['LUXEMBOURG', 'Luxembourg'],
    ['RUSSIA|RUSSIAN FEDERATION', 'Russian Federation'],
    ['BRAZIL', 'Brazil'],
    ['MEXICO', 'Mexico'],
    ['SAUDI ARABIA', 'Saudi Arabia'],
    ['SOUTH AFRICA', 'South Africa'],
    ['NEW ZEALAND', 'New Zealand'],
    ['VIETNAM|VIET NAM', 'Viet Nam'],
  ] as [string, string][]
).map(([re, name]) => [new RegExp(`(?:^|[\\s,.(])(?:${re})[\\s.)]*$`, 'i'), name]);

/** The state and country of an address (its lines joined). */
export function placeOf(address: string): { state: string | null; country: string } {
  const text = address.toUpperCase();
  const foreign = COUNTRIES.find(([re]) => re.test(text.replace(/[\s.,;]+$/, '')));
  if (foreign && !/\bINDIA[\s.]*$/.test(text)) return { state: null, country: foreign[1] };
  // The state named last and the PIN code's state: whichever the address gives later (a street may be named after
  // a state: PUNJAB NATIONAL BANK BUILDING, … MUMBAI 400001).
  let named: { at: number; state: string } | null = null;
  for (const [re, state] of NAMES)
    for (const m of text.matchAll(re)) if (!named || (m.index ?? 0) >= named.at) named = { at: m.index ?? 0, state };
  // A PIN code: six digits, sometimes printed 3 + 3.
  const pin = [...text.matchAll(/(?<!\d)([1-8]\d{2})\s?(\d{3})(?!\d)/g)].at(-1);
  const byPin = pin ? PIN.find(([p]) => (pin[1] + pin[2]).startsWith(p)) : undefined;
  if (byPin && (!named || (pin?.index ?? 0) > named.at)) return { state: byPin[1], country: 'India' };
  return { state: named?.state ?? null, country: 'India' };
}
