import { NoAccess } from '../../components/no-access.tsx';
import { PatientsHeader } from './patients-header.tsx';

/** /patients for a role without patient records (a supplier). */
export function NoPatientAccess() {
  return (
    <NoAccess header={<PatientsHeader />} testId="patients-no-access" title="You have no access to patient records">
      Your role does not include patient records. Ask your clinic administrator if you need them for your work.
    </NoAccess>
  );
}
