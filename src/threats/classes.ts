// How related two Nice classes are for confusion: the same class, a cognate class (goods and
// services an examiner cites across, because the same trade sells them or the public takes them to
// come from one source), or unrelated. The groups are the table of docs/threats.md.

export const CLASS_GROUPS: readonly { name: string; classes: readonly number[] }[] = [
  { name: 'food, drink and eating out', classes: [29, 30, 31, 32, 33, 43] },
  { name: 'health, medicine and personal care', classes: [3, 5, 10, 44] },
  { name: 'electronics, software and telecoms', classes: [9, 38, 42] },
  { name: 'clothing, jewellery, leather and textiles', classes: [14, 18, 24, 25, 26] },
  { name: 'business, finance, building, transport, education and legal services', classes: [35, 36, 37, 39, 40, 41, 45] },
  { name: 'chemicals, paints, fuels and materials', classes: [1, 2, 4, 17, 19] },
  { name: 'metals, machines, tools, appliances and vehicles', classes: [6, 7, 8, 11, 12, 13] },
  { name: 'household goods, paper, furniture, toys and tobacco', classes: [15, 16, 20, 21, 22, 23, 27, 28, 34] },
];

export type ClassRelation = 'same' | 'related' | 'unrelated';

const GROUP_OF = new Int8Array(46).fill(-1);
CLASS_GROUPS.forEach((g, i) => g.classes.forEach((c) => (GROUP_OF[c] = i)));

export function classRelation(a: number, b: number): ClassRelation {
  if (a === b) return 'same';
  return GROUP_OF[a] >= 0 && GROUP_OF[a] === GROUP_OF[b] ? 'related' : 'unrelated';
}

/** The mark's class and its cognates: where word candidates are looked for. */
export function relatedClasses(c: number): number[] {
  const g = GROUP_OF[c];
  return g >= 0 ? [...CLASS_GROUPS[g].classes] : [c];
}
