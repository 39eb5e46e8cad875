import { hasIndic } from '../search/loanwords.ts';
import { entityIdOf, ownerParts } from './entityName.ts';

// Proprietor names grouped into owner entities (docs/owners.md), batch by batch: the names an import brought are
// joined to the entities already made and to one another through the keys of their parts (src/owners/entityName.ts).
// Pairwise sameOwner() is not transitive, so the grouping keeps to rules that are:
// - a name is linked by its own keys (a person's, a company's, a firm's) with the kind of legal person;
// - a trade name a person trades under links a bare name of those words to that person only while one owner trades
//   under it (two people trading as SHREE FOODS stay two owners, and the bare name joins neither);
// - a qualified key (a gender, a parent) links only to its own qualification once a key has two of them, and an
//   unqualified name joins a qualified entity only while the key has one qualification;
// - a name in an Indic script links by its consonants to the one Latin key that has them, and to none when several do.

/** A key a name is linked by: K its own parts' keys, T a trade name it trades under. */
export interface GroupKey {
  kind: 'K' | 'T';
  /** The part's key and kind of legal person, `KEY|legal`. */
  key: string;
  /** Gender and parent: empty when the name says neither. */
  qual: string;
  /** The key's consonants, through which a name in an Indic script finds its Latin spelling. */
  skeleton: string;
}

/** A name to group, with how many marks bear it (the entity is named by its commonest name). */
export interface NameCount {
  name: string;
  marks: number;
}

/** A key row of an entity already made. */
export interface KeyRow extends GroupKey {
  entity_id: string;
}

export interface Grouped {
  /** Name → entity id, for every name of the batch. */
  names: Map<string, string>;
  /** Entities made by this batch: id and the name they are known by. */
  created: { id: string; name: string }[];
  /** Entities of earlier batches that a name of this one joined into another: id → the id kept. */
  merged: Map<string, string>;
  /** Key rows to add (those already stored are left out). */
  keys: KeyRow[];
}

/** The keys a name is linked by; an Indic name's keys are its consonants until the Latin key is found. */
export function keysOf(name: string): GroupKey[] {
  const parts = ownerParts(name);
  const indic = hasIndic(name);
  const hasPerson = parts.some((p) => p.role === 'person');
  return parts.map((p) => ({
    kind: hasPerson && p.role === 'trade' ? 'T' : 'K',
    key: indic ? `~${p.skeleton}|${p.legal}` : `${p.key}|${p.legal}`,
    qual: `${p.gender ?? ''}${p.parent ? `/${p.parent}` : ''}`,
    skeleton: `${p.skeleton}|${p.legal}`,
  }));
}

class Union {
  private readonly up: number[] = [];
  add(): number {
    this.up.push(this.up.length);
    return this.up.length - 1;
  }
  find(x: number): number {
    while (this.up[x] !== x) x = this.up[x] = this.up[this.up[x]];
    return x;
  }
  join(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    // The lower node stays the root: existing entities are added first, so a root is an entity when one is there.
    if (ra !== rb) this.up[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
};

/**
 * Groups a batch of names, given the key rows of existing entities that share any of the batch's keys or skeletons.
 * Node 0…E-1 are the existing entities, then one node per name. A new entity's id is never one of `taken`.
 */
export function groupNames(batch: NameCount[], existing: KeyRow[], taken: ReadonlySet<string> = new Set()): Grouped {
  const uf = new Union();
  const entityIds = [...new Set(existing.map((r) => r.entity_id))].sort();
  const entityNode = new Map(entityIds.map((id) => [id, uf.add()]));
  const nameKeys = batch.map((n) => keysOf(n.name));
  const nameNode = batch.map(() => uf.add());

  // Latin keys by consonants: an Indic key becomes the one Latin key with its consonants.
  const latinBySkeleton = new Map<string, Set<string>>();
  const latin = (k: GroupKey) => {
    if (k.key.startsWith('~')) return;
    let s = latinBySkeleton.get(k.skeleton);
    if (!s) latinBySkeleton.set(k.skeleton, (s = new Set()));
    s.add(k.key);
  };
  existing.forEach(latin);
  nameKeys.forEach((ks) => ks.forEach(latin));
  const resolved = (k: GroupKey): GroupKey => {
    if (!k.key.startsWith('~')) return k;
    const found = latinBySkeleton.get(k.skeleton);
    return found?.size === 1 ? { ...k, key: [...found][0] } : k;
  };
  const members: { node: number; k: GroupKey }[] = [];
  existing.forEach((r) => members.push({ node: entityNode.get(r.entity_id)!, k: r }));
  nameKeys.forEach((ks, i) => ks.forEach((k) => members.push({ node: nameNode[i], k: resolved(k) })));

  // Own keys (K): nodes of one key and compatible qualification are one owner.
  const byKey = new Map<string, { node: number; qual: string }[]>();
  for (const { node, k } of members) if (k.kind === 'K') push(byKey, k.key, { node, qual: k.qual });
  const linkOf = new Map<string, number>();
  for (const [key, list] of byKey) {
    const quals = new Set(list.map((m) => m.qual).filter(Boolean));
    const groups = new Map<string, number[]>();
    for (const m of list) push(groups, quals.size > 1 ? m.qual : '', m.node);
    for (const nodes of groups.values()) for (const n of nodes.slice(1)) uf.join(nodes[0], n);
    linkOf.set(key, (groups.get('') ?? [...groups.values()][0])[0]);
  }
  // Trade names (T): a bare name of the trade name's words joins its one owner.
  const traders = new Map<string, number[]>();
  for (const { node, k } of members) if (k.kind === 'T') push(traders, k.key, node);
  for (const [key, nodes] of traders) {
    const owners = new Set(nodes.map((n) => uf.find(n)));
    const bare = linkOf.get(key);
    if (owners.size === 1 && bare !== undefined) uf.join(nodes[0], bare);
  }

  // Each component: the existing entity it holds (the first, others merged into it), or a new one.
  const names = new Map<string, string>();
  const created: Grouped['created'] = [];
  const merged = new Map<string, string>();
  const idOfRoot = new Map<number, string>();
  entityIds.forEach((id, i) => {
    const root = uf.find(i);
    const kept = idOfRoot.get(root);
    if (kept === undefined) idOfRoot.set(root, id);
    else merged.set(id, kept);
  });
  const byRoot = new Map<number, number[]>();
  batch.forEach((_, i) => push(byRoot, uf.find(nameNode[i]), i));
  const used = new Set([...entityIds, ...taken]);
  for (const [root, idx] of byRoot) {
    let id = idOfRoot.get(root);
    if (id === undefined) {
      const own = idx.flatMap((i) => nameKeys[i].map((k) => resolved(k))).filter((k) => k.kind === 'K');
      const least = (own.length ? own : idx.flatMap((i) => nameKeys[i])).map((k) => `${k.key}#${k.qual}`).sort()[0];
      id = entityIdOf(least);
      for (let salt = 2; used.has(id); salt++) id = entityIdOf(`${least}#${salt}`);
      used.add(id);
      idOfRoot.set(root, id);
      const commonest = idx.reduce((a, b) => (batch[b].marks > batch[a].marks ? b : a));
      created.push({ id, name: batch[commonest].name });
    }
    for (const i of idx) names.set(batch[i].name, id);
  }

  const stored = new Set(existing.map((r) => `${r.kind}${r.key}#${r.qual}@${merged.get(r.entity_id) ?? r.entity_id}`));
  const keys: KeyRow[] = [];
  nameKeys.forEach((ks, i) => {
    for (const raw of ks) {
      const k = resolved(raw);
      const row = { ...k, entity_id: names.get(batch[i].name)! };
      const tag = `${row.kind}${row.key}#${row.qual}@${row.entity_id}`;
      if (!stored.has(tag)) {
        stored.add(tag);
        keys.push(row);
      }
    }
  });
  return { names, created, merged, keys };
}
