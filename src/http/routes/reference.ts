import * as S from '../../reference/schemas.ts';
import type { Services } from '../../root.ts';
import type { Api } from '../endpoint.ts';

const tags = ['Reference data'];
const classTags = ['Trade mark classes'];

export function referenceRoutes(api: Api, { reference: service }: Pick<Services, 'reference'>): void {
  api.add({
    method: 'get',
    path: '/v1/reference/well-known-marks/',
    operationId: 'listWellKnownMarks',
    tags,
    security: 'apiKey',
    summary: 'Marks declared well known in India (cat_well_known)',
    description: 'A partial list; `coverage` says how partial. Without `q`, all marks alphabetically; with `q`, best matches first.',
    query: S.WellKnownQuery,
    response: S.WellKnownMarkList,
    category: 'cat_well_known',
    handler: ({ query }) => service.wellKnownMarks(query.q, query.limit, query.offset),
  });

  api.add({
    method: 'get',
    path: '/v1/reference/prohibited-marks/',
    operationId: 'listProhibitedMarks',
    tags,
    security: 'apiKey',
    summary: 'Emblems and names barred from registration (cat_prohibited)',
    description: 'A partial list; `coverage` says how partial.',
    query: S.ProhibitedQuery,
    response: S.ProhibitedMarkList,
    category: 'cat_prohibited',
    handler: ({ query }) => service.prohibitedMarks(query.q, query.limit, query.offset),
  });

  api.add({
    method: 'get',
    path: '/v1/reference/non-proprietary-names/',
    operationId: 'listNonProprietaryNames',
    tags,
    security: 'apiKey',
    summary: 'International Nonproprietary Names (INN) and the WHO stems a query contains (cat_inn_names)',
    description:
      'Trade Marks Act 1999 s.13(b) bars INNs. Results rank exact, prefix, substring, then similar spellings; ' +
      '`matching_stems` lists the INN stems found in `q`.',
    query: S.InnQuery,
    response: S.NonProprietaryNameList,
    category: 'cat_inn_names',
    handler: ({ query }) => service.nonProprietaryNames(query.q, query.limit, query.offset),
  });

  api.add({
    method: 'get',
    path: '/v1/reference/stamp-duty/',
    operationId: 'listStampDuty',
    tags,
    security: 'apiKey',
    summary: 'State stamp duty on trade mark affidavits and powers of attorney (cat_stamp_duty)',
    description:
      'A partial, mostly low-confidence list; `coverage` says how partial. An unknown `state` is a 400; ' +
      'a known state without data answers with no results.',
    query: S.StampDutyQuery,
    response: S.StampDutyList,
    category: 'cat_stamp_duty',
    handler: ({ query }) => service.stampDuty(query.state, query.instrument),
  });

  api.add({
    method: 'get',
    path: '/v1/reference/vienna-codes/',
    operationId: 'listViennaCodes',
    tags,
    security: 'apiKey',
    summary: 'Vienna codes of figurative elements, the values of the logo search filter vienna_codes',
    description:
      'In classification order, each code before the codes below it. `code` narrows to a code and its branch. ' +
      'On every plan: it is the vocabulary of a filter every logo search takes.',
    query: S.ViennaQuery,
    response: S.ViennaCodeList,
    handler: ({ query }) => service.viennaCodes(query.code, query.level, query.q, query.limit, query.offset),
  });

  // Registered before /:class_number/, which would otherwise take "search" as a class number.
  api.add({
    method: 'get',
    path: '/v1/tm-classes/search/',
    operationId: 'searchClassItems',
    tags: classTags,
    security: 'apiKey',
    summary: 'Search goods and services items across classes (cat_tm_class)',
    description: 'Ranked keyword search. Indian classification items (`item_b`) are not available yet, so `type=tm` finds nothing.',
    query: S.ClassSearchQuery,
    response: S.ClassSearchResponse,
    category: 'cat_tm_class',
    handler: ({ query }) => service.searchItems(query.q, query.type, query.class, query.limit, query.offset),
  });

  api.add({
    method: 'get',
    path: '/v1/tm-classes/',
    operationId: 'listClasses',
    tags: classTags,
    security: 'apiKey',
    summary: 'The 45 Nice classes with item counts (cat_tm_class)',
    response: S.ClassList,
    category: 'cat_tm_class',
    handler: () => service.classes(),
  });

  api.add({
    method: 'get',
    path: '/public/v1/tm-classes/',
    operationId: 'publicClasses',
    tags: classTags,
    security: 'none',
    summary: "The 45 Nice classes and their headings, free (for the public search page's class picker)",
    response: S.PublicClassList,
    handler: () => service.publicClasses(),
  });

  api.add({
    method: 'get',
    path: '/v1/tm-classes/:class_number/',
    operationId: 'getClass',
    tags: classTags,
    security: 'apiKey',
    summary: 'One class: heading, notes and its items (cat_tm_class)',
    description:
      '`type=nice` gives items with a WIPO Nice item (`item_a`); `type=tm` items with an Indian classification ' +
      'item (`item_b`): none are available yet, as no public source exists, so it returns no items; `both` gives all.',
    params: S.ClassParams,
    query: S.ClassItemsQuery,
    response: S.ClassDetail,
    category: 'cat_tm_class',
    handler: ({ params, query }) => service.classDetail(params.class_number, query.type, query.limit, query.offset),
  });
}
