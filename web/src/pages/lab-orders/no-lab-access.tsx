import { NoAccess } from '../../components/no-access.tsx';
import { LabOrdersHeader } from './lab-orders-header.tsx';

/** /lab-orders for a role without lab orders (a scheduler, a supplier): said plainly, no API call. */
export function NoLabAccess() {
  return (
    <NoAccess header={<LabOrdersHeader />} testId="lab-orders-no-access" title="You have no access to lab orders">
      Your role does not include lab orders or their results. Ask your clinic administrator if you need them for your work.
    </NoAccess>
  );
}
