import { coverOf, type GoodsReader } from '../clearance/goods.ts';
import type { OwnerRepository } from '../owners/repository.ts';
import type { SearchIndex } from '../search/manager.ts';
import type { Analyser, Finding } from '../threats/analysis.ts';
import { relatedClasses } from '../threats/classes.ts';
import type { ThreatRepository } from '../threats/repository.ts';
import type { RiskLevel } from '../threats/score.ts';
import { engineWeights } from '../threats/weights.ts';
import type { Hit, HitRecorder } from './hitRecorder.ts';
import { hitOf, ownerHitOf } from './hits.ts';
import type { MarkRow, WatchProbe, WatchRepository } from './repository.ts';
import { WatchIndex } from './watchIndex.ts';

// Meets marks (new in an import run or advertised in its journals, or a past journal's for a preview) with the watches they
// could fire: each mark looks up the watches of its trade sharing a key with its words (or, with a logo,
// the logo watches of its trade) in a WatchIndex, and each watch scores only the marks that met it,
// through the analysis a clearance runs (src/threats/analysis.ts). A hit is a mark at or above the
// watch's min_risk.

/** A watch's classes and their cognates, each once: the classes whose marks it meets (none given: every class). */
export const withCognates = (classes: number[]) =>
  classes.length ? [...new Set(classes.flatMap(relatedClasses))] : Array.from({ length: 45 }, (_, i) => i + 1);

const RANK: Record<RiskLevel, number> = { Low: 0, Medium: 1, High: 2 };

export interface Match {
  watch: WatchProbe;
  finding: Finding;
}

/** A match of any watch: a likeness scored, or (owner watches) a filing by the owner followed. */
export interface AnyMatch {
  watch: WatchProbe;
  row: MarkRow;
  finding: Finding | null;
  /** The owner followed, for an owner hit. */
  owner: string | null;
}

export class WatchMatcher {
  constructor(
    private readonly repo: WatchRepository,
    private readonly recorder: HitRecorder,
    private readonly analyser: Analyser,
    private readonly threats: ThreatRepository,
    private readonly search: SearchIndex,
    private readonly goods: GoodsReader,
    private readonly owners: OwnerRepository,
  ) {}

  /** Each match as its hit: the mark as a clearance lists it, with what it covers. */
  async hitsOf(matches: readonly (Match | AnyMatch)[]) {
    const rowOf = (m: Match | AnyMatch) => ('row' in m ? m.row : m.finding.row);
    const covers = await coverOf(
      this.goods,
      matches.map((m) => rowOf(m).application_number),
    );
    return matches.map((m) => {
      const hit = m.finding ? hitOf(m.finding) : ownerHitOf(rowOf(m) as MarkRow, (m as AnyMatch).owner ?? '');
      return { ...hit, goods_services: covers(hit.application_number) };
    });
  }

  /**
   * Every watch of any kind met with the marks: mark watches as match() meets them; a portfolio watch as one mark watch
   * per live mark of the account's own entity (its best match kept per filing); an owner watch by each mark's entity.
   * Filings by an excluded owner (and by the account's own entity, unless the watch includes it) are left out.
   */
  async matchAll(watches: readonly WatchProbe[], marks: readonly MarkRow[]): Promise<AnyMatch[]> {
    if (!watches.length || !marks.length) return [];
    const ids = watches.flatMap((w) => [...(w.exclude_owner_ids ?? []), w.owner_id ?? [], w.account_owner_id ?? []].flat());
    const resolved = await this.owners.resolveMany(ids);
    const now = (id: string | null | undefined) => (id ? (resolved.get(id)?.id ?? id) : null);
    const out: AnyMatch[] = [];
    const byKind = (k: WatchProbe['kind']) => watches.filter((w) => (w.kind ?? 'mark') === k);
    for (const m of await this.match(byKind('mark'), marks)) out.push({ ...m, row: m.finding.row as MarkRow, owner: null });

    const portfolios = byKind('portfolio').filter((w) => w.account_owner_id);
    // biome-ignore lint/style/noNonNullAssertion: filtered just above
    const own = await this.repo.portfolioMarks([...new Set(portfolios.map((w) => now(w.account_owner_id)!))]);
    const ownBy = new Map<string, typeof own>();
    for (const m of own) {
      const list = ownBy.get(m.entity_id);
      if (list) list.push(m);
      else ownBy.set(m.entity_id, [m]);
    }
    const probes = portfolios.flatMap((w) =>
      (ownBy.get(now(w.account_owner_id)!) ?? []).map(
        (m): WatchProbe => ({ ...w, kind: 'mark', word_mark: m.word_mark, classes: [m.class_number], logo: null }),
      ),
    );
    const best = new Map<string, Match & { watch: WatchProbe }>();
    for (const m of await this.match(probes, marks)) {
      const k = `${m.watch.id}|${m.finding.row.application_number}`;
      const was = best.get(k);
      if (!was || m.finding.score.overall > was.finding.score.overall) best.set(k, m);
    }
    const original = new Map(portfolios.map((w) => [w.id, w]));
    for (const m of best.values())
      out.push({ watch: original.get(m.watch.id)!, finding: m.finding, row: m.finding.row as MarkRow, owner: null });

    // The marks by their entity once, not every mark for every owner watch.
    const byOwner = new Map<string, MarkRow[]>();
    for (const row of marks) {
      const by = now(row.owner_id);
      const list = by ? byOwner.get(by) : undefined;
      if (list) list.push(row);
      else if (by) byOwner.set(by, [row]);
    }
    for (const w of byKind('owner')) {
      const followed = resolved.get(w.owner_id!);
      if (!followed) continue;
      for (const row of byOwner.get(followed.id) ?? []) {
        if (!w.classes.length || (row.classes ?? [row.class_number]).some((c) => w.classes.includes(c)))
          out.push({ watch: w, row, finding: null, owner: followed.name });
      }
    }
    return out.filter(({ watch: w, row }) => {
      const by = now(row.owner_id);
      if (!by) return true;
      if ((w.exclude_owner_ids ?? []).some((id) => now(id) === by)) return false;
      // An owner watch of one's own entity asked for its filings.
      return w.include_own || w.kind === 'owner' || by !== now(w.account_owner_id);
    });
  }

  /**
   * Every (watch, mark) pair that fires, best first within a watch. A multi-class application is met in each of its
   * classes, and its best finding kept (its class_number the class that met the watch).
   */
  async match(watches: readonly WatchProbe[], marks: readonly MarkRow[]): Promise<Match[]> {
    if (!marks.some((m) => m.classes?.length)) return this.matchEach(watches, marks);
    const each = marks.flatMap((m) => (m.classes?.length ? m.classes.map((c) => ({ ...m, class_number: c })) : [m]));
    const best = new Map<string, Match>();
    for (const m of await this.matchEach(watches, each)) {
      const k = `${m.watch.id}|${m.finding.row.application_number}`;
      const was = best.get(k);
      if (!was || m.finding.score.overall > was.finding.score.overall) best.set(k, m);
    }
    const order = new Map(watches.map((w, i) => [w, i]));
    return [...best.values()].sort(
      (a, b) => (order.get(a.watch) ?? 0) - (order.get(b.watch) ?? 0) || b.finding.score.overall - a.finding.score.overall,
    );
  }

  private async matchEach(watches: readonly WatchProbe[], marks: readonly MarkRow[]): Promise<Match[]> {
    if (!watches.length || !marks.length) return [];
    const engine = await this.search.ready();
    const weights = new Map<number, ReturnType<typeof engineWeights>>();
    const index = new WatchIndex(watches, (related) => {
      let w = weights.get(related[0]);
      if (!w) weights.set(related[0], (w = engineWeights(engine, related)));
      return w;
    });
    const met = new Map<WatchProbe, MarkRow[]>();
    for (const m of marks) {
      for (const w of index.candidates(m)) {
        const list = met.get(w);
        if (list) list.push(m);
        else met.set(w, [m]);
      }
    }
    const out: Match[] = [];
    for (const [watch, rows] of met) {
      const withLogo = rows.filter((r) => r.has_logo).map((r) => r.application_number);
      const cosines = watch.logo && withLogo.length ? await this.threats.similarities(watch.logo, withLogo) : new Map<string, number>();
      const proposal = { text: watch.word_mark ?? '', classes: watch.classes, logo: watch.logo, filed: null };
      const findings = await this.analyser.scoreMarks(proposal, rows, cosines);
      for (const f of findings.sort((a, b) => b.score.overall - a.score.overall)) {
        if (RANK[f.score.risk] >= RANK[watch.min_risk]) out.push({ watch, finding: f });
      }
    }
    return out;
  }

  /**
   * Matches the marks an import run brought (new filings, and marks it advertised in a journal) against every watch and
   * records the hits (each watch and mark once: matching a run again, or a mark again in a later run, records and
   * sends nothing twice). A watch without a webhook that is on records its hits all the same.
   */
  async matchRun(runId: number): Promise<{ marks: number; hits: number }> {
    const [marks, watches] = await Promise.all([this.repo.newMarks(runId), this.repo.all()]);
    const hits = await this.records(await this.matchAll(watches, marks));
    const fresh = await this.recorder.recordRun(runId, marks.length, hits);
    return { marks: marks.length, hits: fresh };
  }

  /** The matches as the recorder writes them. */
  async records(matches: readonly AnyMatch[]): Promise<Hit[]> {
    const results = await this.hitsOf(matches);
    return matches.map(({ watch, finding, row }, i) => ({
      watch,
      applicationNumber: row.application_number,
      risk: finding?.score.risk ?? null,
      result: results[i],
      journalId: row.journal_id,
    }));
  }

  /** Matches every import run not matched yet, oldest first; how many runs were matched. */
  async matchPending(): Promise<number> {
    const runs = await this.repo.unmatchedRuns();
    for (const id of runs) await this.matchRun(id);
    return runs.length;
  }
}
