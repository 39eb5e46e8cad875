import type { Caller } from '../accounts/callerRepository.ts';
import { notFound } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { BackfillRepository } from './backfillRepository.ts';
import type { HitRecorder } from './hitRecorder.ts';
import { type WatchMatcher, withCognates } from './matcher.ts';
import type { WatchRepository } from './repository.ts';

// Backfills (docs/watches.md): a watch run over the latest journals' marks, as a job of the workers, its hits recorded
// as a run's are (each watch and mark once, so running it again adds nothing) but sent to no webhook.

export class BackfillService {
  constructor(
    private readonly repo: BackfillRepository,
    private readonly watches: WatchRepository,
    private readonly matcher: WatchMatcher,
    private readonly recorder: HitRecorder,
    private readonly log: Logger,
  ) {}

  /** A request (202): the one already open for the watch and journal count when there is one. */
  async request(caller: Caller, watchId: string, journals: number) {
    if (!(await this.watches.get(caller.accountId, watchId))) throw notFound(`watch ${watchId}`);
    return (await this.repo.request(caller.accountId, watchId, journals)).row;
  }

  async list(caller: Caller, watchId: string) {
    if (!(await this.watches.get(caller.accountId, watchId))) throw notFound(`watch ${watchId}`);
    const backfills = await this.repo.list(caller.accountId, watchId);
    return { count: backfills.length, backfills };
  }

  /** Requests not finished, for the workers to hand over. */
  open(): Promise<string[]> {
    return this.repo.open();
  }

  /** Runs one request, journal by journal, newest first; a request finished or gone is left alone. */
  async run(id: string): Promise<void> {
    const b = await this.repo.start(id);
    if (!b) return;
    try {
      const watch = await this.watches.probe(b.account_id, b.watch_id);
      if (!watch) return void (await this.repo.finish(id, 'the watch was deleted'));
      const classes = withCognates(watch.classes);
      for (const j of await this.watches.latestJournals(b.journals)) {
        const marks = await this.watches.journalMarks(j.id, classes);
        const hits = await this.matcher.records(await this.matcher.matchAll([watch], marks));
        await this.repo.progress(id, marks.length, await this.recorder.recordBackfill(hits));
      }
      await this.repo.finish(id);
    } catch (err) {
      this.log.error({ err, backfill: id }, 'watch backfill failed');
      await this.repo.finish(id, err instanceof Error ? err.message : String(err));
      throw err;
    }
  }
}
