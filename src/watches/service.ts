import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Caller } from '../accounts/callerRepository.ts';
import type { ProposedLogos } from '../clearance/logo.ts';
import { AppError, invalidParameter, notFound } from '../errors.ts';
import type { OwnerRepository } from '../owners/repository.ts';
import { normaliseMark, wordsOf } from '../search/normalise.ts';
import type { WebhookRepository } from '../webhooks/repository.ts';
import { type WatchMatcher, withCognates } from './matcher.ts';
import type { WatchProbe, WatchRepository, WatchRow } from './repository.ts';
import type { CreateWatchInput, EstimateWatchInput, UpdateWatchInput } from './schemas.ts';

// Similarity watches (/user/v1/watches/, docs/watches.md): the account's watches, each a proposal
// (words and/or a logo fetched and embedded once, at creation) in classes, with the risk level that
// fires it and the webhook (the account's) that receives its hits. The plan's monitored-mark limit
// counts each watch as one mark beside the webhooks' monitored marks, under the lock webhooks take. Whether the plan
// has watches is declared on the routes (feature: 'watches') and gated by the request pipeline.

const hasWords = (text: string | null | undefined) => Boolean(text && wordsOf(normaliseMark(text)).length);

const bodyError = (parameter: string, message: string) => invalidParameter('body', parameter, message, true);

export class WatchService {
  constructor(
    private readonly repo: WatchRepository,
    private readonly webhooks: WebhookRepository,
    private readonly logos: ProposedLogos,
    private readonly matcher: WatchMatcher,
    private readonly owners: OwnerRepository,
  ) {}

  /** A webhook id that is not the account's is 404, as the webhooks API answers for another account's webhook. */
  private async checkWebhook(accountId: string, id: string, q?: Knex.Transaction): Promise<void> {
    if (!(await this.repo.ownsWebhook(accountId, id, q))) throw notFound(`webhook ${id}`);
  }

  private async checkLimit(trx: Knex.Transaction, caller: Caller): Promise<void> {
    const limit = caller.monitoredMarksLimit;
    if (limit === null) return;
    // The count includes the account's watches (src/webhooks/repository.ts): one more for this one.
    const total = (await this.webhooks.monitoredCount(trx, caller.accountId, null, [])) + 1;
    if (total > limit) {
      throw new AppError(
        'monitored_limit_exceeded',
        `your plan allows ${limit} monitored marks across your webhooks and watches; this watch would make ${total}`,
        { limit, requested: total, plan: caller.planCode },
      );
    }
  }

  async create(caller: Caller, input: CreateWatchInput): Promise<WatchRow> {
    const words = hasWords(input.word_mark);
    const kinds = [words || input.logo_url ? 'mark' : null, input.owner_id ? 'owner' : null, input.portfolio ? 'portfolio' : null];
    const given = kinds.filter(Boolean);
    if (given.length > 1)
      throw bodyError(
        given[1] === 'owner' ? 'owner_id' : 'portfolio',
        'a watch is of words or a logo, an owner, or your portfolio: give one',
      );
    if (!given.length)
      throw bodyError('word_mark', 'give word_mark (with a letter or a digit), logo_url, or both; or owner_id; or portfolio');
    if (given[0] === 'mark' && !input.classes) throw bodyError('classes', 'classes is required for a watch of words or a logo');
    if (input.owner_id && !(await this.owners.resolve(input.owner_id))) throw notFound(`owner ${input.owner_id}`);
    if (input.portfolio && !(await this.repo.accountOwner(caller.accountId))) {
      throw bodyError(
        'portfolio',
        'set your own owner entity first (PUT /user/v1/watches/owner/): a portfolio watch watches its live marks',
      );
    }
    await this.checkOwners(input.exclude_owner_ids);
    if (input.webhook_id) await this.checkWebhook(caller.accountId, input.webhook_id);
    // Before the account's lock: fetching and embedding an image takes seconds.
    const logo = input.logo_url ? await this.logos.embed({ kind: 'url', url: input.logo_url }) : null;
    const id = randomUUID();
    return this.repo.transaction(async (trx) => {
      await this.webhooks.lockAccount(trx, caller.accountId);
      await this.checkLimit(trx, caller);
      if (input.webhook_id) await this.checkWebhook(caller.accountId, input.webhook_id, trx);
      await this.repo.insert(trx, {
        id,
        accountId: caller.accountId,
        webhookId: input.webhook_id ?? null,
        wordMark: words ? input.word_mark! : null,
        logo: logo && input.logo_url ? { url: input.logo_url, model: logo.model, vector: vectorText(logo.vector) } : null,
        classes: input.portfolio ? [] : (input.classes ?? []),
        minRisk: input.min_risk,
        ownerId: input.owner_id ?? null,
        portfolio: input.portfolio ?? false,
        excludeOwnerIds: input.exclude_owner_ids,
        includeOwn: input.include_own,
      });
      return (await this.repo.get(caller.accountId, id, trx))!;
    });
  }

  /** Each excluded owner must be one: an id of none would exclude nothing, silently. */
  private async checkOwners(ids: string[] | undefined): Promise<void> {
    if (!ids?.length) return;
    const found = await this.owners.resolveMany(ids);
    const missing = ids.find((id) => !found.has(id));
    if (missing) throw bodyError('exclude_owner_ids', `exclude_owner_ids: ${missing} is no owner (GET /v1/owners/)`);
  }

  /** The account's own owner entity: a portfolio watch watches its live marks, and every watch leaves out its filings. */
  async owner(caller: Caller) {
    const id = await this.repo.accountOwner(caller.accountId);
    const e = id ? await this.owners.resolve(id) : undefined;
    return { owner_id: e?.id ?? id, name: e?.name ?? null };
  }

  async setOwner(caller: Caller, ownerId: string | null) {
    if (ownerId && !(await this.owners.resolve(ownerId))) throw bodyError('owner_id', `owner_id: ${ownerId} is no owner (GET /v1/owners/)`);
    await this.repo.setAccountOwner(caller.accountId, ownerId);
    return this.owner(caller);
  }

  async update(caller: Caller, id: string, input: UpdateWatchInput): Promise<WatchRow> {
    return this.repo.transaction(async (trx) => {
      const now = await this.repo.get(caller.accountId, id, trx);
      if (!now) throw notFound(`watch ${id}`);
      if (input.webhook_id) await this.checkWebhook(caller.accountId, input.webhook_id, trx);
      if (now.kind !== 'mark' && (input.word_mark !== undefined || (now.kind === 'portfolio' && input.classes))) {
        throw bodyError(
          input.word_mark !== undefined ? 'word_mark' : 'classes',
          `a ${now.kind} watch has no words or classes of its own to change`,
        );
      }
      const words = input.word_mark === undefined ? hasWords(now.word_mark) : hasWords(input.word_mark);
      if (now.kind === 'mark' && !words && !now.logo)
        throw bodyError('word_mark', 'a watch without a logo needs word_mark (with a letter or a digit)');
      const word_mark = input.word_mark === undefined ? undefined : hasWords(input.word_mark) ? input.word_mark : null;
      await this.checkOwners(input.exclude_owner_ids);
      await this.repo.update(trx, caller.accountId, id, { ...input, word_mark });
      return (await this.repo.get(caller.accountId, id, trx))!;
    });
  }

  async get(caller: Caller, id: string): Promise<WatchRow> {
    const row = await this.repo.get(caller.accountId, id);
    if (!row) throw notFound(`watch ${id}`);
    return row;
  }

  async list(caller: Caller) {
    const [watches, used] = await Promise.all([this.repo.list(caller.accountId), this.webhooks.monitoredTotal(caller.accountId)]);
    return { count: watches.length, monitored_marks: { used, limit: caller.monitoredMarksLimit }, watches };
  }

  async delete(caller: Caller, id: string) {
    if (!(await this.repo.delete(caller.accountId, id))) throw notFound(`watch ${id}`);
    return { id, deleted: true as const };
  }

  /**
   * How many hits a watch not yet made would have had in each of the latest journals, and the best of them: what a
   * user weighs before making it (words only; nothing is recorded or sent).
   */
  async estimate(caller: Caller, input: EstimateWatchInput) {
    if (!hasWords(input.word_mark)) throw bodyError('word_mark', 'word_mark must have a letter or a digit');
    const probe: WatchProbe = {
      id: 'estimate',
      account_id: caller.accountId,
      webhook_id: null,
      word_mark: input.word_mark,
      logo: null,
      classes: input.classes,
      min_risk: input.min_risk,
    };
    const classes = withCognates(input.classes);
    const journals = [];
    const found = [];
    for (const j of await this.repo.latestJournals(input.journals)) {
      const marks = await this.repo.journalMarks(j.id, classes);
      const matches = await this.matcher.match([probe], marks);
      journals.push({ ...j, marks: marks.length, hits: matches.length });
      found.push(...matches);
    }
    found.sort((a, b) => b.finding.score.overall - a.finding.score.overall);
    const hits = found.length;
    return {
      journals,
      hits,
      hits_per_journal: journals.length ? Math.round((hits / journals.length) * 10) / 10 : 0,
      examples: await this.matcher.hitsOf(found.slice(0, 10)),
    };
  }

  /** What the watch would have caught among a past journal's marks (nothing is recorded or sent). */
  async preview(caller: Caller, id: string, journalId: number) {
    const watch = await this.repo.probe(caller.accountId, id);
    if (!watch) throw notFound(`watch ${id}`);
    const journal = await this.repo.journal(journalId);
    if (!journal) throw notFound(`journal ${journalId}`);
    const classes = withCognates(watch.classes);
    const marks = await this.repo.journalMarks(journalId, classes);
    const matches = await this.matcher.matchAll([watch], marks);
    const { marks: count, ...j } = journal;
    return { watch_id: id, journal: j, marks: count, count: matches.length, results: await this.matcher.hitsOf(matches) };
  }
}

function vectorText(v: string | ArrayLike<number>): string {
  return typeof v === 'string' ? v : `[${Array.from(v).join(',')}]`;
}
