import { randomUUID } from 'node:crypto';
import type { Resource } from '../accounts/callerRepository.ts';
import type { Expiring } from '../clock.ts';
import { invalidParameter, notFound } from '../errors.ts';
import type { ReferenceRepository } from '../reference/repository.ts';
import { isUuid } from '../schema/params.ts';
import { normaliseMark, wordsOf } from '../search/normalise.ts';
import { signedLink } from '../storage/links.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { type Analyser, MAX_FINDINGS } from '../threats/analysis.ts';
import { goodsWords } from '../threats/goods.ts';
import type { TrademarkRepository } from '../trademarks/repository.ts';
import { classesOfGoods, coverOf } from './goods.ts';
import type { LogoSource, ProposedLogos } from './logo.ts';
import { type Grounds, overallRisk } from './registrability.ts';
import type { ClearanceRepository } from './repository.ts';
import { groupsOf, kept, pageOf, resultOf, type Screened } from './results.ts';
import type { ClearanceInput } from './schemas.ts';
import { proposalLogoKey, thumbnail } from './thumbnail.ts';

// POST /v1/clearance/: is this name or logo free in these classes? The analysis a mark's threats run
// (src/threats/analysis.ts), of a proposal not yet filed: nothing is left out and no mark is later
// than it. Costs one clearances credit per class screened and one logo_searches credit with a logo
// (docs/clearance.md), taken once the request is known to be sound and before the work.

/** Takes credits for this request (the request pipeline's ctx.charge): given back if it fails. */
export type Charge = (units: number, resource?: Resource) => Promise<void>;

export class ClearanceService {
  constructor(
    private readonly analyser: Analyser,
    private readonly logos: ProposedLogos,
    private readonly repo: ClearanceRepository,
    private readonly store: ObjectStore,
    private readonly grounds: Expiring<Grounds>,
    private readonly goods: { reference: ReferenceRepository; marks: TrademarkRepository },
  ) {}

  /**
   * Screens the proposal and keeps every conflict it found for its reports and later pages, under a new
   * clearance_id (docs/clearance.md, *Reports*); answers the page asked for.
   */
  async clear(q: ClearanceInput, accountId: string, charge: Charge) {
    const id = randomUUID();
    const logoKey = proposalLogoKey(id);
    const { screened, logoKept } = await this.run(q, charge, logoKey);
    // Clearances past their retention, and their thumbnails, go as new ones come.
    for (const key of await this.repo.save(id, accountId, screened, logoKept ? logoKey : null)) {
      await this.store.delete(key).catch(() => undefined);
    }
    return { clearance_id: id, ...this.signed(await this.covering(pageOf(screened, q.offset, q.limit)), accountId) };
  }

  /** Another page of a clearance kept for the account (free: it is read, not screened again); 404 for another's or an expired one. */
  async page(id: string, accountId: string, p: { offset: number; limit: number }) {
    const kept = isUuid(id) ? await this.repo.get(id, accountId) : undefined;
    if (!kept) throw notFound(`clearance ${id}`);
    return { clearance_id: id, ...this.signed(await this.covering(pageOf(kept.result, p.offset, p.limit)), accountId) };
  }

  /**
   * The page asked for of the answer, with each listed mark's logo as its object key: a batch keeps it so, and
   * signs the links when the answer is read (a signed link lives 30 minutes, a batch's answers longer). With
   * logoKey, the proposal's logo (if any) is kept there as a thumbnail for the reports.
   */
  async screen(q: ClearanceInput, charge: Charge, logoKey?: string): Promise<Screened> {
    return this.covering(pageOf((await this.run(q, charge, logoKey)).screened, q.offset, q.limit));
  }

  /**
   * The page with what each listed mark covers (an excerpt of its goods and services), read for the page only: a
   * clearance keeps up to 500 conflicts, and reading every one's goods from a register of millions costs more than
   * the screening (the reports read them whole when they are made).
   */
  private async covering(page: Screened): Promise<Screened> {
    const covers = await coverOf(
      this.goods.marks,
      page.results.map((r) => r.application_number),
    );
    return { ...page, results: page.results.map((r) => ({ ...r, goods_services: covers(r.application_number) })) };
  }

  private async run(q: ClearanceInput, charge: Charge, logoKey?: string): Promise<{ screened: Screened; logoKept: boolean }> {
    const text = q.word_mark ?? '';
    const hasWords = wordsOf(normaliseMark(text)).length > 0;
    if (q.uploaded_file && q.logo_url) throw invalidParameter('body', 'logo_url', 'give one logo: uploaded_file or logo_url, not both');
    const source: LogoSource | null = q.uploaded_file
      ? { kind: 'upload', file: q.uploaded_file }
      : q.logo_url
        ? { kind: 'url', url: q.logo_url }
        : null;
    if (!hasWords && !source) {
      throw invalidParameter('body', 'word_mark', 'give word_mark (with a letter or a digit), a logo (uploaded_file or logo_url), or both');
    }
    if (source) this.logos.check(source);
    const goodsText = q.goods_services?.trim() || null;
    const fromGoods = goodsText ? await classesOfGoods(this.goods.reference, goodsText) : null;
    if (!q.classes?.length && !fromGoods?.length) {
      throw invalidParameter(
        'body',
        'classes',
        goodsText
          ? 'no Nice class was found for the goods_services given: give classes (1-45)'
          : 'give classes (1-45), or goods_services to screen the classes its goods fall in',
      );
    }
    const classes = [...(q.classes ?? fromGoods!.map((g) => g.class_number))].sort((a, b) => a - b);
    await charge(classes.length);
    if (source) await charge(1, 'logo_searches');

    const bytes = source ? await this.logos.read(source) : null;
    // The logo is embedded (by the sidecar) while the analysis searches the words.
    const embedding = bytes ? this.logos.embedBytes(bytes) : Promise.resolve(null);
    embedding.catch(() => {});
    const drawing = bytes && logoKey ? thumbnail(bytes) : Promise.resolve(null);
    drawing.catch(() => {});
    const [findings, grounds] = await Promise.all([
      this.analyser.analyse({
        text: hasWords ? text : '',
        classes,
        logo: embedding,
        filed: null,
        goods: goodsText ? goodsWords(goodsText) : undefined,
      }),
      this.grounds.get(),
    ]);
    const registrability = grounds.assess(hasWords ? text : null, classes);
    const [logo, png] = await Promise.all([embedding, drawing]);
    // Kept once the analysis has answered, so a clearance that fails leaves no thumbnail behind.
    const logoKept = png && logoKey ? await this.keep(logoKey, png) : false;
    const listed = kept(findings, q.status, q.risk_level).slice(0, MAX_FINDINGS);
    const groups = groupsOf(listed);
    const keys = await this.repo.logoKeys(listed.map((f) => f.row.application_number));
    const screened: Screened = {
      query: {
        word_mark: hasWords ? text : null,
        goods_services: goodsText,
        logo: source && logo ? { source: source.kind, model: logo.model } : null,
        risk_level: q.risk_level ?? null,
        status: q.status,
        limit: q.limit,
        offset: q.offset,
      },
      classes,
      classes_from_goods: fromGoods,
      registrability,
      overall_risk: overallRisk(groups.risk_level, registrability),
      count: listed.length,
      groups,
      results: listed.map((f) => resultOf(f, keys.get(f.row.application_number) ?? null)),
    };
    return { screened, logoKept };
  }

  /**
   * The proposal's logo thumbnail in the object store; false when it cannot be stored: the report then
   * goes without it, which is no reason to fail the clearance (nor is a logo that cannot be drawn).
   */
  private async keep(key: string, png: Buffer): Promise<boolean> {
    return this.store.put(key, png, 'image/png').then(
      () => true,
      () => false,
    );
  }

  /** A screened answer as the client reads it: each logo key a 30-minute link signed for the account. */
  signed(r: Screened, accountId: string) {
    return { ...r, results: r.results.map((x) => ({ ...x, logo_url: x.logo_url ? signedLink(this.store, x.logo_url, accountId) : null })) };
  }
}
