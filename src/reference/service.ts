import { invalidParameter, notFound } from '../errors.ts';
import type { ReferenceRepository } from './repository.ts';
import type { ItemType } from './schemas.ts';
import { type ViennaLevel, viennaTable } from './vienna.ts';
import type { ViennaRepository } from './viennaRepository.ts';

// Said in every response of a partial list, so an empty result is never read as "clear". Keep these in step
// with data/reference/README.md.
export const COVERAGE = {
  wellKnown:
    "Partial: 44 marks out of the Trade Marks Registry's official list of a few hundred. 9 rows of the official list " +
    '(A to C only), 6 of the 20 marks in Journal No. 2065, about 20 court declarations and a few article mentions. ' +
    'A mark missing here may still be well known.',
  prohibited:
    'Partial: 12 entries. Items of the Emblems and Names (Prevention of Improper Use) Act 1950 Schedule that were ' +
    'confirmed in sources (the full Schedule has 30 or more), the Geneva Conventions Act 1960 s.12 emblems, the ' +
    'State Emblem of India Act 2005, and Trade Marks Act 1999 ss.9(2)(d) and 13. A term missing here may still be prohibited.',
  inn:
    'About 9,300 International Nonproprietary Names from the Eurasian Economic Union normative list (to about 2022), ' +
    'not the official WHO list; newer INNs may be missing. Stems from the WHO "use of stems" list (2018).',
  stampDuty:
    'Partial and mostly low confidence: 39 rows. Affidavits for 28 states from one third-party article; powers of ' +
    'attorney for 7 states from the official IP India page (only part of it could be read) plus forum figures for ' +
    '4 states. No data for assignment deeds. Check the current state notification before filing.',
  classes:
    'Items are the WIPO Nice alphabetical list (NCL 12th edition); headings and notes are NCL 13-2026, so a few items may ' +
    'differ from the current edition. Indian classification items (item_b) have no public source yet: none are present, ' +
    'so type=tm returns no items.',
  vienna:
    'The Vienna Classification of figurative elements, EUIPO variant: 2,014 codes of categories 01 to 29 (its internal ' +
    'categories 98 and 99 are left out). Some descriptions are cut at 80 characters, commas are written as ";", and a few ' +
    'sections are marked "Category deleted in new version".',
} as const;

export class ReferenceService {
  constructor(
    private readonly repo: ReferenceRepository,
    private readonly vienna: ViennaRepository,
  ) {}

  async wellKnownMarks(q: string | undefined, limit: number, offset: number) {
    const { count, rows } = await this.repo.wellKnownMarks(q ?? '', limit, offset);
    return { count, limit, offset, results: rows, coverage: COVERAGE.wellKnown };
  }

  async prohibitedMarks(q: string | undefined, limit: number, offset: number) {
    const { count, rows } = await this.repo.prohibitedMarks(q ?? '', limit, offset);
    return { count, limit, offset, results: rows, coverage: COVERAGE.prohibited };
  }

  async nonProprietaryNames(q: string | undefined, limit: number, offset: number) {
    const [{ count, rows }, stems] = await Promise.all([
      this.repo.nonProprietaryNames(q ?? '', limit, offset),
      q ? this.repo.innStems(q) : Promise.resolve([]),
    ]);
    return { count, limit, offset, results: rows, matching_stems: stems, coverage: COVERAGE.inn };
  }

  async stampDuty(stateText: string | undefined, instrument: 'affidavit' | 'power_of_attorney' | undefined) {
    const state = stateText ? await this.repo.findState(stateText) : undefined;
    // An unknown state is a typo to report, not a state without data (those answer with no rows).
    if (stateText && !state) {
      throw invalidParameter(
        'query',
        'state',
        'state must name an Indian state or union territory: its name, ISO 3166-2 code (IN-MH) or code (MH)',
      );
    }
    const results = await this.repo.stampDuty(state?.iso_3166_2 ?? null, instrument ?? null);
    return { count: results.length, state: state ?? null, instrument: instrument ?? null, results, coverage: COVERAGE.stampDuty };
  }

  async classes() {
    const classes = await this.repo.classes();
    return { count: classes.length, classes };
  }

  /** The classes without their counts: what the free search page needs to name them. */
  async publicClasses() {
    const { count, classes } = await this.classes();
    return { count, classes: classes.map((c) => ({ class: c.class, kind: c.kind, heading: c.heading })) };
  }

  async classDetail(classNumber: number, type: ItemType, limit: number, offset: number) {
    const [row, { count, rows }] = await Promise.all([
      this.repo.classDetail(classNumber),
      this.repo.classItems(classNumber, type, limit, offset),
    ]);
    // Classes 1-45 are always loaded; this guards a database without reference data.
    if (!row) throw notFound(`class ${classNumber}`);
    return { ...row, type, count, limit, offset, items: rows, coverage: COVERAGE.classes };
  }

  async searchItems(q: string, type: ItemType, classNumber: number | undefined, limit: number, offset: number) {
    const { count, rows } = await this.repo.searchItems(q, type, classNumber, limit, offset);
    return { query: q, type, class: classNumber ?? null, count, limit, offset, results: rows, coverage: COVERAGE.classes };
  }

  async viennaCodes(codeText: string | undefined, level: ViennaLevel | undefined, q: string | undefined, limit: number, offset: number) {
    const code = codeText === undefined ? null : viennaTable().known(codeText);
    // A code that is not one is a typo to report, not a branch without codes.
    if (codeText !== undefined && code === null) {
      throw invalidParameter('query', 'code', `unknown Vienna code "${codeText}"; a code is category.division.section, e.g. 03.01.01`);
    }
    const { count, rows } = await this.vienna.list(code, level ?? null, q ?? '', limit, offset);
    return { count, limit, offset, results: rows, coverage: COVERAGE.vienna };
  }
}
