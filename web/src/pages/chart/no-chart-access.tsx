import { NoAccess } from '../../components/no-access.tsx';
import { ChartHeader } from './chart-header.tsx';

/** /chart for a role without the chart (a scheduler sees only the allergy banner, a supplier nothing): said plainly, no API call. */
export function NoChartAccess() {
  return (
    <NoAccess header={<ChartHeader />} testId="chart-no-access" title="You have no access to the clinical chart">
      Your role does not include patients' allergies, problems, medications and vital signs. A patient's allergies show in the banner wherever she is shown.
    </NoAccess>
  );
}
