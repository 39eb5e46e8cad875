import type { Services } from '../../root.ts';
import * as H from '../../watches/hitSchemas.ts';
import * as S from '../../watches/schemas.ts';
import type { Api } from '../endpoint.ts';

const tags = ['Watches'];

const PLAN_NOTE = 'Needs an active subscription on a plan with watches (403 `watches_not_on_plan`, ' + '`subscription_inactive`).';

export function watchRoutes(
  api: Api,
  { watches: s, watchHits: h, watchBackfills: b }: Pick<Services, 'watches' | 'watchHits' | 'watchBackfills'>,
): void {
  const base = { tags, security: 'bearer' as const, cost: null };

  // Declared before /user/v1/watches/:watch_id/, which would read "hits" as a watch id.
  api.add({
    ...base,
    method: 'get',
    path: '/user/v1/watches/hits/',
    operationId: 'listWatchHits',
    summary: "Every watch's hits, newest first: the inbox (filters: watch, state, min risk, deadline, dates; cursor paging)",
    description:
      'Each match a watch made is recorded, whether or not its webhook is on, once per watch and mark. The journal and the ' +
      'opposition deadline are those of the mark as it stands: a hit recorded before its mark was advertised gets them when it is. ' +
      'docs/watches.md.',
    query: H.AccountHitsQuery,
    response: H.HitPage,
    handler: ({ caller, query }) => h.list(caller, query),
  });

  api.add({
    ...base,
    method: 'patch',
    path: '/user/v1/watches/hits/:hit_id/',
    operationId: 'updateWatchHit',
    summary: 'Triage a hit: set its state (new, acknowledged, dismissed) and/or its note',
    params: H.HitParams,
    body: H.UpdateHit,
    response: H.StoredHit,
    errors: [404],
    handler: ({ caller, params, body }) => h.update(caller, params.hit_id, body),
  });

  api.add({
    ...base,
    method: 'post',
    path: '/user/v1/watches/',
    operationId: 'createWatch',
    feature: 'watches',
    summary: 'Watch the register for new filings confusingly similar to a mark (words and/or a logo) in its classes',
    description:
      `${PLAN_NOTE} At least one of word_mark and logo_url; a logo is fetched once, now, as logo search fetches image_url, and ` +
      'its vector kept. Each new filing of an import in a watched or cognate class is analysed as a clearance would analyse it; ' +
      'one at or above min_risk is sent to the webhook (one of yours, else 404) as trademark.similar_filed, once per watch and ' +
      "mark. Each watch counts as one mark against the plan's monitored-mark limit (403 `monitored_limit_exceeded`). docs/watches.md.",
    body: S.CreateWatch,
    response: S.Watch,
    status: 201,
    errors: [404],
    handler: ({ caller, body }) => s.create(caller, body),
  });

  api.add({
    ...base,
    method: 'get',
    path: '/user/v1/watches/',
    operationId: 'listWatches',
    summary: 'Your similarity watches, and the monitored marks they and your webhooks use of the plan',
    response: S.WatchList,
    handler: ({ caller }) => s.list(caller),
  });

  api.add({
    ...base,
    method: 'get',
    path: '/user/v1/watches/owner/',
    operationId: 'getWatchOwner',
    summary: 'Your own owner entity: what a portfolio watch watches, and whose filings every watch leaves out',
    response: S.AccountOwner,
    handler: ({ caller }) => s.owner(caller),
  });

  api.add({
    ...base,
    method: 'put',
    path: '/user/v1/watches/owner/',
    operationId: 'setWatchOwner',
    summary: 'Set your own owner entity (GET /v1/owners/ finds it), or null for none',
    description: 'An owner_id of no entity is a 400 naming owner_id. docs/watches.md.',
    body: S.SetAccountOwner,
    response: S.AccountOwner,
    handler: ({ caller, body }) => s.setOwner(caller, body.owner_id),
  });

  api.add({
    ...base,
    method: 'post',
    path: '/user/v1/watches/preview/',
    operationId: 'estimateWatch',
    feature: 'watches',
    summary: 'How many hits a watch not yet made would have had in each of the latest journals, and the best of them',
    description:
      `${PLAN_NOTE} Words only. The latest journals' marks in the classes and their cognates are matched as new filings are, ` +
      'at or above min_risk; nothing is recorded or sent, and no watch is made.',
    body: S.EstimateWatch,
    response: S.WatchEstimate,
    errors: [403],
    handler: ({ caller, body }) => s.estimate(caller, body),
  });

  api.add({
    ...base,
    method: 'get',
    path: '/user/v1/watches/:watch_id/',
    operationId: 'getWatch',
    summary: 'One similarity watch',
    params: S.WatchParams,
    response: S.Watch,
    errors: [404],
    handler: ({ caller, params }) => s.get(caller, params.watch_id),
  });

  api.add({
    ...base,
    method: 'patch',
    path: '/user/v1/watches/:watch_id/',
    operationId: 'updateWatch',
    feature: 'watches',
    summary: "Change a watch's words, classes, min_risk or webhook (fields left out stay as they are)",
    description: `${PLAN_NOTE} The logo cannot be changed: delete the watch and create another. Hits already sent stay sent.`,
    params: S.WatchParams,
    body: S.UpdateWatch,
    response: S.Watch,
    errors: [404],
    handler: ({ caller, params, body }) => s.update(caller, params.watch_id, body),
  });

  api.add({
    ...base,
    method: 'delete',
    path: '/user/v1/watches/:watch_id/',
    operationId: 'deleteWatch',
    summary: 'Delete a watch (its hits are forgotten; events already written are still delivered)',
    params: S.WatchParams,
    response: S.DeletedWatch,
    errors: [404],
    handler: ({ caller, params }) => s.delete(caller, params.watch_id),
  });

  api.add({
    ...base,
    method: 'get',
    path: '/user/v1/watches/:watch_id/hits/',
    operationId: 'listHitsOfWatch',
    summary: "One watch's hits, newest first (filters and paging as GET /user/v1/watches/hits/)",
    params: S.WatchParams,
    query: H.WatchHitsQuery,
    response: H.HitPage,
    errors: [404],
    handler: ({ caller, params, query }) => h.list(caller, query, params.watch_id),
  });

  api.add({
    ...base,
    method: 'post',
    path: '/user/v1/watches/:watch_id/backfill/',
    operationId: 'backfillWatch',
    feature: 'watches',
    summary: 'Run a watch over the latest journals, as a job: its hits recorded (sent to no webhook)',
    description:
      `${PLAN_NOTE} 202 with the backfill; GET /user/v1/watches/{watch_id}/backfills/ follows it. Asking again while one of the ` +
      'same journal count is open answers that one; a finished one run again records nothing twice. docs/watches.md.',
    params: S.WatchParams,
    body: S.BackfillRequest,
    response: S.Backfill,
    status: 202,
    errors: [404],
    handler: ({ caller, params, body }) => b.request(caller, params.watch_id, body.journals),
  });

  api.add({
    ...base,
    method: 'get',
    path: '/user/v1/watches/:watch_id/backfills/',
    operationId: 'listWatchBackfills',
    summary: "A watch's backfills, newest first (the latest 50)",
    params: S.WatchParams,
    response: S.BackfillList,
    errors: [404],
    handler: ({ caller, params }) => b.list(caller, params.watch_id),
  });

  api.add({
    ...base,
    method: 'get',
    path: '/user/v1/watches/:watch_id/preview/',
    operationId: 'previewWatch',
    feature: 'watches',
    summary: "What the watch would have caught among a past journal's marks",
    description:
      "The journal's marks in the watch's classes and their cognates, matched as new filings are, at or above min_risk. Nothing " +
      'is recorded or sent. An unknown journal is 404.',
    params: S.WatchParams,
    query: S.PreviewQuery,
    response: S.WatchPreview,
    errors: [403, 404],
    handler: ({ caller, params, query }) => s.preview(caller, params.watch_id, query.journal_id),
  });
}
