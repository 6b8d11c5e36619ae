import { lazy, Suspense } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';

// The form (its form library and validation) loads when the dialog first opens: most visits to
// the screen only read and write messages.
const NewRoomForm = lazy(async () => ({ default: (await import('./new-room-form.tsx')).NewRoomForm }));

/**
 * 'Create New Patient Chat Room' (spec section 2, admin or scheduler): the patient, the team
 * (every active staff member but the creator, who joins by creating it), a name and a
 * description. The room is created, then each chosen member is added with a call of her own.
 */
export function NewRoomDialog({
  open,
  user,
  onClose,
  onCreated,
}: {
  open: boolean;
  user: TCurrentUser;
  onClose: () => void;
  onCreated: (roomId: string) => void;
}) {
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      className="max-w-xl"
      testId="new-room-dialog"
      title="Create New Patient Chat Room"
      description="A secure room about one patient, for the team members you choose."
    >
      {open && (
        <Suspense fallback={<LoadingBlock />}>
          <NewRoomForm user={user} onClose={onClose} onCreated={onCreated} />
        </Suspense>
      )}
    </FormDialog>
  );
}
