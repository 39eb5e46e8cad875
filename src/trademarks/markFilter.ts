import { invalidParameter, type Where } from '../errors.ts';
import { viennaTable } from '../reference/vienna.ts';
import { GROUP_NAMES, isGroup, labelsOf, STATUS_GROUPS, type StatusGroup } from '../search/statusGroups.ts';

// A filter of marks by their register fields, as listings other than word-mark search apply it (a
// journal's marks, logo search): the parameters of src/schema/markFilters.ts, each value checked
// against what the register has and written as the register spells it. Word-mark search reads the
// same parameters the same way (src/search/service.ts), against its index.

export type Facet = 'status' | 'tm_type' | 'filing_mode' | 'state';

/** The parameters as src/schema/markFilters.ts reads them; a listing takes those of its results' fields. */
export interface MarkFilterParams {
  class_number?: number;
  classes?: number[];
  status?: string[];
  tm_type?: string[];
  filing_mode?: string[];
  state?: string[];
  /** Days since 1970-01-01, inclusive. */
  application_date_from?: number;
  application_date_to?: number;
  /** Vienna codes in any form the shipped table reads (src/reference/vienna.ts). */
  vienna_codes?: string[];
}

/** Each null is no condition; a list keeps marks with any of its values. */
export interface MarkFilter {
  classes: number[] | null;
  status: string[] | null;
  tm_type: string[] | null;
  filing_mode: string[] | null;
  state: string[] | null;
  /** Days since 1970-01-01, inclusive; an open end is null. */
  applicationDays: { from: number | null; to: number | null } | null;
  /** The Vienna codes asked for and every code below them, as the table prints them: a mark with any of them is kept. */
  vienna: string[] | null;
}

/** The values of a facet a filter may name. */
export interface FacetValues {
  values(facet: Facet): Promise<string[]>;
}

/**
 * The values of each facet some mark of the register has, from the word-mark search index (which
 * keeps them as marks change), and for status also the reference list's labels: a listing knows the
 * register's values without scanning it.
 */
export class RegisterValues implements FacetValues {
  // Narrow shapes of the search index and the trademark repository, not their modules: those modules
  // reach this one through the SQL of the filter, and importing them back would make a cycle.
  constructor(
    private readonly index: { ready(): Promise<{ values(facet: Facet): string[] }> },
    private readonly repo: { statusLabels(): Promise<string[]> },
  ) {}

  async values(facet: Facet): Promise<string[]> {
    const engine = await this.index.ready();
    const on = engine.values(facet);
    return facet === 'status' ? [...(await this.repo.statusLabels()), ...on] : on;
  }
}

/**
 * The filter the parameters ask for, or null when they ask for none. A value the register does not
 * have is a 400 naming its parameter and listing the known values; a status may also be a group
 * (live, pending, dead: src/search/statusGroups.ts), which stands for its labels.
 */
export async function resolveMarkFilter(p: MarkFilterParams, known: FacetValues, where: Where): Promise<MarkFilter | null> {
  const classes = [...new Set([...(p.classes ?? []), ...(p.class_number ? [p.class_number] : [])])].sort((a, b) => a - b);
  const facet = async (name: Exclude<Facet, 'status'>) => {
    const given = p[name];
    if (given === undefined) return null;
    const values = await known.values(name);
    return given.map((v) => spelled(name, v, values, where));
  };
  const from = p.application_date_from ?? null;
  const to = p.application_date_to ?? null;
  if (from !== null && to !== null && from > to)
    throw invalidParameter(where, 'application_date_to', 'application_date_to must not be before application_date_from');
  const f: MarkFilter = {
    classes: classes.length ? classes : null,
    status: p.status === undefined ? null : statuses(p.status, await known.values('status'), where),
    tm_type: await facet('tm_type'),
    filing_mode: await facet('filing_mode'),
    state: await facet('state'),
    applicationDays: from === null && to === null ? null : { from, to },
    vienna: p.vienna_codes === undefined ? null : viennaBranches(p.vienna_codes, where),
  };
  return Object.values(f).some((x) => x !== null) ? f : null;
}

/**
 * Each code asked for with every code below it, so 03.01 keeps a mark coded 03.01.01; a code the table
 * does not have is a 400 naming the parameter (it would match nothing, which reads as "no such logo").
 */
function viennaBranches(given: string[], where: Where): string[] {
  const table = viennaTable();
  const out = new Set<string>();
  for (const g of given) {
    const code = table.known(g);
    if (code === null) {
      throw invalidParameter(
        where,
        'vienna_codes',
        `unknown Vienna code "${g}"; a code is category.division.section (e.g. 03.01.01, 03.01 or 03), ` +
          'as GET /v1/reference/vienna-codes/ lists them',
      );
    }
    for (const c of table.below(code)) out.add(c);
  }
  return [...out];
}

/** Status labels and groups as the labels they stand for. */
function statuses(given: string[], labels: string[], where: Where): string[] {
  const out = new Set<string>();
  for (const g of given) {
    if (isGroup(g)) for (const l of labelsOf([g], new Set([...labels, ...STATUS_GROUPS[g.toLowerCase() as StatusGroup]]))) out.add(l);
    else out.add(spelled('status', g, labels, where, ` or a group: ${GROUP_NAMES.join(', ')}`));
  }
  return [...out];
}

/** The value as the register spells it, given in any case; unknown, a 400 listing the known ones. */
function spelled(name: string, value: string, values: string[], where: Where, more = ''): string {
  const map = new Map(values.filter((v) => v !== '').map((v) => [v.toUpperCase(), v]));
  const found = map.get(value.toUpperCase());
  if (!found)
    throw invalidParameter(where, name, `unknown ${name} "${value}"; ${name} is one of: ${[...map.values()].sort().join(', ')}${more}`);
  return found;
}
