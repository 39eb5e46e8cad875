import { coverOf, type GoodsReader } from '../clearance/goods.ts';
import type { SearchIndex } from '../search/manager.ts';
import type { Analyser, Finding } from '../threats/analysis.ts';
import type { ThreatRepository } from '../threats/repository.ts';
import type { RiskLevel } from '../threats/score.ts';
import { engineWeights } from '../threats/weights.ts';
import type { Hit, HitRecorder } from './hitRecorder.ts';
import { hitOf } from './hits.ts';
import type { MarkRow, WatchProbe, WatchRepository } from './repository.ts';
import { WatchIndex } from './watchIndex.ts';

// Meets marks (new in an import run or advertised in its journals, or a past journal's for a preview) with the watches they
// could fire: each mark looks up the watches of its trade sharing a key with its words (or, with a logo,
// the logo watches of its trade) in a WatchIndex, and each watch scores only the marks that met it,
// through the analysis a clearance runs (src/threats/analysis.ts). A hit is a mark at or above the
// watch's min_risk.

const RANK: Record<RiskLevel, number> = { Low: 0, Medium: 1, High: 2 };

export interface Match {
  watch: WatchProbe;
  finding: Finding;
}

export class WatchMatcher {
  constructor(
    private readonly repo: WatchRepository,
    private readonly recorder: HitRecorder,
    private readonly analyser: Analyser,
    private readonly threats: ThreatRepository,
    private readonly search: SearchIndex,
    private readonly goods: GoodsReader,
  ) {}

  /** Each match as its hit: the mark as a clearance lists it, with what it covers. */
  async hitsOf(matches: readonly Match[]) {
    const covers = await coverOf(
      this.goods,
      matches.map((m) => m.finding.row.application_number),
    );
    return matches.map(({ finding }) => ({ ...hitOf(finding), goods_services: covers(finding.row.application_number) }));
  }

  /** Every (watch, mark) pair that fires, best first within a watch. */
  async match(watches: readonly WatchProbe[], marks: readonly MarkRow[]): Promise<Match[]> {
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
    const matches = await this.match(watches, marks);
    const results = await this.hitsOf(matches);
    const hits: Hit[] = matches.map(({ watch, finding }, i) => ({
      watch,
      applicationNumber: finding.row.application_number,
      risk: finding.score.risk,
      result: results[i],
      journalId: (finding.row as MarkRow).journal_id,
    }));
    const fresh = await this.recorder.recordRun(runId, marks.length, hits);
    return { marks: marks.length, hits: fresh };
  }

  /** Matches every import run not matched yet, oldest first; how many runs were matched. */
  async matchPending(): Promise<number> {
    const runs = await this.repo.unmatchedRuns();
    for (const id of runs) await this.matchRun(id);
    return runs.length;
  }
}
