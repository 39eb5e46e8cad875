import fs from 'node:fs';
import { CONCEPTS, type ConceptGroup, conceptOfIconName } from './concepts.ts';
import { ICON_SETS, type IconStyle, iconNamesOf, OWN_SET, setVersion } from './iconSets.ts';

// The concept catalogue (data/icons/catalogue.json): for each concept of concepts.ts, the icons of every
// set whose name names it, each keyed `set:name` (the Iconify prefix and the icon's name in its set).
// Built by scripts/icon-catalogue.ts from the installed packages and committed, so what the demo draws
// is reviewable and stays the same until the file is rebuilt; a test checks it against the packages.

export const CATALOGUE_FILE = new URL('../../../data/icons/catalogue.json', import.meta.url).pathname;

export interface CatalogueSet {
  prefix: string;
  package: string;
  version: string;
  licence: string;
  style: IconStyle;
  /** Icons of the set in the catalogue. */
  icons: number;
}

export interface CatalogueConcept {
  name: string;
  words: string[];
  vienna: string;
  group: ConceptGroup;
  /** `set:name` keys, sorted. */
  icons: string[];
}

export interface Catalogue {
  about: string;
  sets: CatalogueSet[];
  concepts: CatalogueConcept[];
}

export function buildCatalogue(): Catalogue {
  const byConcept = new Map<string, string[]>(CONCEPTS.map((c) => [c.name, []]));
  const sets: CatalogueSet[] = [];
  for (const set of [...ICON_SETS, OWN_SET]) {
    let n = 0;
    for (const name of iconNamesOf(set.prefix)) {
      const c = conceptOfIconName(name, set.prefix);
      if (!c) continue;
      byConcept.get(c.name)?.push(`${set.prefix}:${name}`);
      n++;
    }
    const version = set === OWN_SET ? '-' : setVersion(set.prefix);
    sets.push({ prefix: set.prefix, package: set.package, version, licence: set.licence, style: set.style, icons: n });
  }
  return {
    about: 'Concepts of Indian device marks and the icons that draw them, by set; built by scripts/icon-catalogue.ts (docs/ingest.md)',
    sets,
    concepts: CONCEPTS.map((c) => ({
      name: c.name,
      words: [...c.words],
      vienna: c.vienna,
      group: c.group,
      icons: byConcept.get(c.name) ?? [],
    })),
  };
}

let cached: Catalogue | null = null;

/** The committed catalogue. */
export function catalogue(): Catalogue {
  cached ??= JSON.parse(fs.readFileSync(CATALOGUE_FILE, 'utf8')) as Catalogue;
  return cached;
}
