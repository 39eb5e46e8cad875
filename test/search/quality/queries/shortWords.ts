import { of } from '../kinds.ts';

// A word of two or three letters mistyped (a letter swapped, dropped, doubled or changed: SAY BABA, TSV
// MOTOR, LA QILA) beside a word typed right that anchors the mark.
export const SHORT_TYPO = of('short_typo', [
  ['SAY BABA', [9_0029_01, 9_0029_02]],
  ['SIA KRIPA', [9_0088_01, 9_0088_02, 9_0088_03]],
  ['JIA HIND', [9_0016_01, 9_0016_02, 9_0016_03]],
  ['HARI OMM', [9_0096_01, 9_0096_02]],
  ['TEJ MAHAL', [9_0081_01, 9_0081_02]],
  ['LA QILA', [9_0128_01, 9_0128_03, 9_0128_02]],
  ['RAD TAPE', [9_0062_01, 9_0062_02]],
  ['RD CHIEF', [9_0062_03]],
  ['BIH BAZAAR', [9_0080_01, 9_0080_02, 9_0080_03]],
  ['VAM HEUSEN', [9_0064_01, 9_0064_02, 9_0064_03]],
  ['AAJ TIK', [9_0146_01, 9_0146_02, 9_0146_03]],
  ['JAI MATA DO', [9_0087_01, 9_0087_02, 9_0087_03]],
  ['OM SAY RAM TRADERS', [9_0570_01]],
  ['OMM SAI RAM TRADERS', [9_0570_01]],
  ['MFR TYRES', [9_0572_01]],
  ['TSV MOTOR', [9_0573_01]],
  ['ITS SUNFEAST', [9_0574_01]],
  ['HTM WATCHES', [9_0575_01]],
  ['BAS CYCLES', [9_0576_01]],
  ['MRT FOODS', [9_0577_01]],
  ['OAL CABS', [9_0578_01]],
  ['RAQ PRESSERY', [9_0581_01]],
  ['ZEE TVV', [9_0582_01]],
  ['ZE CINEMA', [9_0582_02]],
  ['ATC FIBERNET', [9_0584_01]],
  ['SIB LIFE', [9_0586_01]],
]);
