import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';

/** What a chart form tells its user about the entry she writes: confirmed with her name, or a draft for a nurse (CHART_ENTRY_WORKFLOW). */
export const entryDialogDescription = (user: TCurrentUser) =>
  can(user, 'chart.confirm') ? 'Recorded as confirmed, with your name.' : 'Recorded as a draft: a nurse or an admin confirms it.';
