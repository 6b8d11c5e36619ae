import { NoAccess } from '../../components/no-access.tsx';
import { PrescriptionsHeader } from './prescriptions-header.tsx';

/** /prescriptions for a role without prescriptions (a scheduler, a supplier): said plainly, no API call. */
export function NoPrescriptionAccess() {
  return (
    <NoAccess header={<PrescriptionsHeader />} testId="rx-no-access" title="You have no access to prescriptions">
      Your role does not include prescriptions. A visit's care team writes and signs them; ask your clinic administrator if you need them for your work.
    </NoAccess>
  );
}
