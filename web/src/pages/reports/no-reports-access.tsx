import { NoAccess } from '../../components/no-access.tsx';
import { PageHeader } from '../../components/layout/page-header.tsx';

/** /reports for a role without reports (everyone but admin and scheduler): said plainly, no API call. */
export function NoReportsAccess() {
  return (
    <NoAccess header={<PageHeader title="Reports" />} testId="reports-no-access" title="You have no access to reports">
      Reports are for the clinic's administrators and schedulers. Ask your clinic administrator if you need figures for your work.
    </NoAccess>
  );
}
