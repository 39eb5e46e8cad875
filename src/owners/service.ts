import type { Knex } from 'knex';
import { invalidParameter, notFound } from '../errors.ts';
import { groupOf } from '../search/statusGroups.ts';
import { type FacetValues, type MarkFilterParams, resolveMarkFilter } from '../trademarks/markFilter.ts';
import { ownerParts } from './entityName.ts';
import { groupNames, keysOf, type NameCount } from './grouping.ts';
import type { EntityRow, OwnerRepository, ProfileRow } from './repository.ts';

// Owner entities (docs/owners.md): the register's proprietor names grouped after each import, and what the owner
// endpoints answer. Grouping is a catch-up, as search indexing is: the names no entity holds yet, in batches, each
// joined to the entities already made.

/** Names grouped per transaction: large enough to be few, small enough that one batch's key rows fit in memory. */
const BATCH = 50_000;

export class OwnerService {
  private running: Promise<number> | undefined;

  constructor(
    private readonly repo: OwnerRepository,
    private readonly values: FacetValues,
  ) {}

  /**
   * Groups the names no entity holds yet, when an import has finished since the last grouping (or always, with
   * `force`: names written without an import). How many names were grouped. Calls at once in this process share one
   * run; another process grouping meanwhile is left to it.
   */
  catchUp(opts: { force?: boolean } = {}): Promise<number> {
    this.running ??= this.group(opts.force ?? false).finally(() => (this.running = undefined));
    return this.running;
  }

  private async group(force: boolean): Promise<number> {
    const done = await this.repo.grouping(async (q) => {
      const runs = await this.repo.ungroupedRuns(q);
      if (!runs.length && !force) return 0;
      const names = await this.repo.ungroupedNames(q);
      // A stable order: the same register grouped twice gives the same entities.
      names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (let i = 0; i < names.length || i === 0; i += BATCH) {
        const last = i + BATCH >= names.length;
        await this.groupBatch(q, names.slice(i, i + BATCH), last ? runs : [], names.length);
      }
      return names.length;
    });
    return done ?? 0;
  }

  private async groupBatch(q: Knex.Transaction, batch: NameCount[], runs: number[], total: number): Promise<void> {
    const keys = new Set<string>();
    const skeletons = new Set<string>();
    for (const n of batch) {
      for (const k of keysOf(n.name)) {
        if (k.key.startsWith('~')) skeletons.add(k.skeleton);
        else keys.add(k.key);
      }
    }
    const existing = await this.repo.keyRows(q, [...keys], [...skeletons]);
    let grouped = groupNames(batch, existing);
    // An id already an entity's that this batch did not meet (a key of another qualification): made again, around it.
    const clash = await this.repo.existingIds(
      q,
      grouped.created.map((c) => c.id),
    );
    if (clash.size) grouped = groupNames(batch, existing, clash);
    await this.repo.write(q, grouped, runs, total);
  }

  /** Entities whose name begins with `q`, read as names are grouped (M/S, legal forms, spacing and punctuation folded). */
  async search(q: string, limit: number, offset: number) {
    const prefix = ownerParts(q)[0]?.key;
    if (!prefix) throw invalidParameter('query', 'q', 'q must name an owner: a letter or a digit besides legal forms and titles', true);
    const { rows, count } = await this.repo.search(prefix, limit, offset);
    return { query: q, count, limit, offset, owners: await this.profiled(rows) };
  }

  /** One entity with every name it holds; an id of an entity since merged into another answers the one kept. */
  async get(id: string) {
    const e = await this.repo.resolve(id);
    if (!e) throw notFound(`owner ${id}`);
    const [[profiled], names] = await Promise.all([this.profiled([e]), this.repo.names(e.id)]);
    return { ...profiled, names };
  }

  /** An entity's marks, filtered as a journal's are; an unknown entity is a 404, not an empty page. */
  async trademarks(id: string, limit: number, offset: number, filters: MarkFilterParams = {}) {
    const filter = await resolveMarkFilter(filters, this.values, 'query');
    const e = await this.repo.resolve(id);
    if (!e) throw notFound(`owner ${id}`);
    const { rows, count } = await this.repo.trademarks(e.id, filter, limit, offset);
    return { owner_id: e.id, name: e.name, count, limit, offset, results: rows };
  }

  private async profiled(rows: EntityRow[]) {
    const profiles = await this.repo.profiles(rows.map((r) => r.id));
    return rows.map((r) => ({ id: r.id, name: r.name, ...summarise(profiles.filter((p) => p.entity_id === r.id)) }));
  }
}

/** An entity's marks: how many, in which classes, by status group, and in which states. */
function summarise(rows: ProfileRow[]) {
  const statuses = { live: 0, pending: 0, dead: 0, other: 0 };
  const classes = new Map<number, number>();
  const states = new Map<string, number>();
  let marks = 0;
  for (const r of rows) {
    marks += r.marks;
    statuses[groupOf(r.status) ?? 'other'] += r.marks;
    classes.set(r.class_number, (classes.get(r.class_number) ?? 0) + r.marks);
    if (r.state) states.set(r.state, (states.get(r.state) ?? 0) + r.marks);
  }
  const list = <K>(m: Map<K, number>, key: string) =>
    [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, n]) => ({ [key]: k, marks: n }));
  return {
    marks,
    statuses,
    classes: list(classes, 'class_number') as { class_number: number; marks: number }[],
    states: list(states, 'state') as { state: string; marks: number }[],
  };
}
