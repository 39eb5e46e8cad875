import { of } from '../kinds.ts';

// The first word of a mark alone, as a searcher remembers a name (CHITALE for CHITALE BANDHU
// MITHAIWALE PUNE): the marks holding it as a whole word come before marks whose first word merely
// begins with it (AMRUT PREMIUM TULSI TEA before AMRUTANJAN).
export const FIRST_WORD = of('first_word', [
  ['CHITALE', [9_0547_02, 9_0547_01]],
  ['KHANDELWAL', [9_0553_01]],
  ['AMRUTANJAN', [9_0528_01, 9_0528_02]],
  ['MANYAVAR', [9_0530_01, 9_0530_02]],
  ['SANTOOR', [9_0525_01, 9_0525_02]],
  ['KESARI', [9_0534_02, 9_0534_01]],
  ['PIDILITE', [9_0539_01, 9_0539_02]],
  ['AMBUJA', [9_0540_02, 9_0540_01, 9_0540_03]],
  ['AMRUT', [9_0552_01]],
  ['KAKA', [9_0546_01]],
  ['SHOPPERS', [9_0531_01, 9_0531_02]],
  ['CHOCOLATE', [9_0510_02, 9_0510_01]],
  ['YELLOW', [9_0511_02, 9_0511_01]],
  ['BHAGYALAXMI', [9_0555_01]],
  ['DADIMA', [9_0559_01]],
  ['CHHOTA', [9_0527_01, 9_0527_02]],
  ['NIRMA', [9_0523_01, 9_0523_02, 9_0523_03]],
  ['MOTHER', [9_0023_01, 9_0023_02, 9_0023_03, 9_0562_01]],
  ['RASNA', [9_0535_01, 9_0535_02]],
  ['COFFEE', [9_0541_03, 9_0541_01, 9_0541_02]],
  ['EMAMI', [9_0533_01, 9_0533_02]],
  ['DOMS', [9_0537_01, 9_0537_02]],
]);

// The last word of a mark alone (MOHEY for MANYAVAR MOHEY, SUNRISE for AMBIKA SUNRISE): found as a
// whole word of the mark, not behind every mark that begins with a longer word (AYURVED, ULTRA).
export const LAST_WORD = of('last_word', [
  ['MOHEY', [9_0530_02]],
  ['NEOTIA', [9_0540_03]],
  ['FEVICRYL', [9_0539_02]],
  ['VEDICA', [9_0018_03]],
  ['BHUJIAWALA', [9_0002_03]],
  ['VAPORUB', [9_0111_03]],
  ['WHITELINE', [9_0085_03]],
  ['INTERIO', [9_0141_04]],
  ['AYURVED', [9_0022_02]],
  ['ROSHNI', [9_0031_03]],
  ['SUNFEAST', [9_0574_01]],
  ['APACHE', [9_0573_03]],
  ['CAMLIN', [9_0538_02, 9_0538_01]],
  ['BHEEM', [9_0527_01, 9_0527_02]],
  ['SUNRISE', [9_0008_02, 9_0008_01, 9_0008_03, 9_0008_04, 9_0520_01, 9_0520_02, 9_0520_03]],
  ['ULTRA', [9_0007_04, 9_0107_02]],
  ['KOOL', [9_0006_02]],
  ['PRESSERY', [9_0581_01]],
  ['FIBERNET', [9_0584_01]],
  ['DYEING', [9_0501_03]],
  ['ZOOM', [9_0537_02]],
]);
