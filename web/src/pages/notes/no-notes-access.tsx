import { NoAccess } from '../../components/no-access.tsx';
import { NotesHeader } from './notes-header.tsx';

/** /notes for a role without patient notes (a supplier). */
export function NoNotesAccess() {
  return (
    <NoAccess header={<NotesHeader />} testId="notes-no-access" title="You have no access to patient notes">
      Your role does not include clinical notes. Ask your clinic administrator if you need them for your work.
    </NoAccess>
  );
}
