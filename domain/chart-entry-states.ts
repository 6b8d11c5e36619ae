/**
 * Where a chart entry stands (issue 51), in a module of its own: the workflow table
 * (domain/workflows.ts) rides with every screen, the chart's schemas must not.
 * An entry a scribe drafts waits for a nurse or an admin to confirm it (as notes wait for
 * review); theirs are confirmed as they write them.
 */
export const CHART_ENTRY_STATES = ['draft', 'confirmed'] as const;
export type TChartEntryState = (typeof CHART_ENTRY_STATES)[number];
