// The register's statuses in three groups a searcher filters by (status=live, pending, dead), after
// the stage each has in the reference list (data/reference/tm_status_values.csv): `live` marks are on
// the register (registered, or registered and challenged), `pending` ones are applications still on
// their way (filing to opposition), `dead` ones will never be registered or are off the register
// (is_live 0). Clearing a name looks at live and pending marks. The contract's own labels (Under
// Examination, Advertised) are pending; the reference list's aliases name the same statuses.

export const STATUS_GROUPS = {
  live: ['Registered', 'Rectification Filed', 'Under Division'],
  pending: [
    'New Application',
    'New Application Received',
    'Send To Vienna Codification',
    'Send to Vienna Codification',
    'Formalities Chk Pass',
    'Formalities Check Pass',
    'Formalities Chk Fail',
    'Formalities Check Fail',
    'Send Back to EDP',
    'Send to PRAS',
    'Marked for Exam',
    'Marked for Examination',
    'Under Examination',
    'Exam Report Issued',
    'Examination Report Issued',
    'Objected',
    'Ready for Show Cause Hearing',
    'Awaiting Hearing',
    'Accepted',
    'Advertised bef acc',
    'Advertised before Acceptance',
    'ABA',
    'Advertised',
    'Accepted & Advertised',
    'Accepted and Advertised',
    'ABA/Readvertised',
    'Re-advertised',
    'Acceptance Withdrawn Process',
    'Opposed',
  ],
  dead: ['Refused', 'Abandoned', 'Withdrawn', 'Invalid', 'Removed'],
} as const;

export type StatusGroup = keyof typeof STATUS_GROUPS;
export const GROUP_NAMES = Object.keys(STATUS_GROUPS) as StatusGroup[];

const byLabel = new Map<string, StatusGroup>(
  GROUP_NAMES.flatMap((g) => STATUS_GROUPS[g].map((s) => [s.toUpperCase(), g] as [string, StatusGroup])),
);

/** The group of a status label (any case), or undefined for a label of no group. */
export function groupOf(status: string): StatusGroup | undefined {
  return byLabel.get(status.toUpperCase());
}

/** Whether `name` (any case) names a group. */
export function isGroup(name: string): name is StatusGroup {
  return (GROUP_NAMES as string[]).includes(name.toLowerCase());
}

/** The labels, among `known`, of the groups given (any case). */
export function labelsOf(groups: string[], known: Iterable<string>): string[] {
  const want = new Set(groups.map((g) => g.toLowerCase()));
  return [...known].filter((s) => {
    const g = groupOf(s);
    return g !== undefined && want.has(g);
  });
}
