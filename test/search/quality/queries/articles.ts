import { of } from '../kinds.ts';

// A leading THE left out of the query, or added to it: THE BOMBAY STORE searched as BOMBAY STORE, TAJ
// MAHAL as THE TAJ MAHAL. The article tells no trader from another; an examiner reads past it.
export const ARTICLE = of('article', [
  ['BOMBAY STORE', [9_0501_01, 9_0501_02]],
  ['BODY SHOP', [9_0502_01, 9_0502_02]],
  ['MAN COMPANY', [9_0503_01]],
  ['SOULED STORE', [9_0504_01, 9_0504_02]],
  ['DERMA CO', [9_0505_01, 9_0505_02, 9_0505_03]],
  ['HINDU', [9_0506_01, 9_0506_02]],
  ['TIMES OF INDIA', [9_0507_01]],
  ['OBEROI', [9_0508_01, 9_0508_02]],
  ['LEELA', [9_0509_01, 9_0509_02, 9_0509_03]],
  ['CHOCOLATE ROOM', [9_0510_01]],
  ['YELLOW CHILLI', [9_0511_01, 9_0511_02]],
  ['BEAR HOUSE', [9_0512_01]],
  ['SLEEP COMPANY', [9_0513_01]],
  ['INDIAN GARAGE CO', [9_0514_01]],
  ['THE TAJ MAHAL', [9_0081_01, 9_0081_02]],
  ['THE BIG BAZAAR', [9_0080_01, 9_0080_02, 9_0080_03]],
  ['THE MOTHER DAIRY', [9_0023_01, 9_0023_02]],
  ['THE RED LABEL', [9_0082_01, 9_0082_02]],
  ['THE INDIA GATE', [9_0127_01, 9_0127_02]],
  ['THE KITCHEN KING', [9_0125_01, 9_0125_02]],
  ['THE GOOD DAY', [9_0024_04, 9_0024_05, 9_0024_03]],
  ['THE ROYAL ENFIELD', [9_0060_01, 9_0060_02]],
  ['THE LOUIS PHILIPPE', [9_0065_01, 9_0065_02]],
  ['THE BLUE STAR', [9_0061_01, 9_0061_02]],
  ['THE MONTE CARLO', [9_0067_01, 9_0067_02, 9_0067_03]],
  ['THE SLEEPWELL', [9_0513_02]],
  ['THE NIRMA', [9_0523_01, 9_0523_02, 9_0523_03]],
]);
