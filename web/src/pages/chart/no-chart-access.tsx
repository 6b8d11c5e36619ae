import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { NoAccess } from '../../components/no-access.tsx';
import { ChartHeader } from './chart-header.tsx';

/** /chart for a role without the chart (a scheduler sees only the allergy banner, a supplier nothing): said plainly, no API call. */
export function NoChartAccess({ user }: { user: TCurrentUser }) {
  return (
    <NoAccess header={<ChartHeader />} testId="chart-no-access" title="You have no access to the clinical chart">
      Your role does not include patients&apos; allergies, problems, medications and vital signs.
      {can(user, 'chart.banner') ? " A patient's allergies show in the banner wherever she is shown." : ''}
    </NoAccess>
  );
}
