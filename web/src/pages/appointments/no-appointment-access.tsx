import { NoAccess } from '../../components/no-access.tsx';
import { AppointmentsHeader } from './appointments-header.tsx';

/** /appointments for a role without appointments (a supplier). */
export function NoAppointmentAccess() {
  return (
    <NoAccess header={<AppointmentsHeader />} testId="appointments-no-access" title="You have no access to appointments">
      Your role does not include the clinic's schedule. Ask your clinic administrator if you need it for your work.
    </NoAccess>
  );
}
