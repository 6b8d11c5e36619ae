import { useState } from 'react';
import { useAddChatMember } from '../../api/chat/add-chat-member.ts';
import { useChatStaff } from '../../api/chat/chat-staff.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { StaffChoice, useRoomAccess } from './patient-room-access.tsx';

/** 'Add Member' (admin or scheduler): the active staff who are not in the room yet (spec section 5). */
export function AddMemberDialog({
  roomId,
  roomName,
  memberIds,
  membersLoaded,
  onClose,
}: {
  roomId: string;
  roomName: string;
  memberIds: ReadonlySet<string>;
  membersLoaded: boolean;
  onClose: () => void;
}) {
  const staff = useChatStaff(true);
  const add = useAddChatMember(roomId);
  const [chosen, setChosen] = useState<string | null>(null);
  const offered = (staff.data ?? []).filter((person) => !memberIds.has(person.id));
  const accessOf = useRoomAccess();

  const submit = () => {
    if (!chosen) return;
    add.mutate(chosen, {
      onSuccess: () => {
        toast({ title: 'Member added successfully', variant: 'success' });
        onClose();
      },
      onError: (error) => reportMutationError(error, 'Failed to add member', { withReason: true }),
    });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md" data-testid="add-member-dialog">
        <DialogHeader className="pr-6">
          <DialogTitle>Add Member</DialogTitle>
          <DialogDescription>Add a team member to {roomName}. They are told they were added.</DialogDescription>
        </DialogHeader>
        {staff.isPending || !membersLoaded ? (
          <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
            <Spinner className="size-4" />
            Loading staff...
          </p>
        ) : staff.isError ? (
          <ErrorState title="Could not load staff" error={staff.error} onRetry={() => void staff.refetch()} />
        ) : offered.length === 0 ? (
          <p className="rounded-md border border-dashed p-4 text-center text-sm text-slate-600">No users available</p>
        ) : (
          <fieldset>
            <legend className="mb-2 text-sm font-medium">Choose a team member</legend>
            <ul className="max-h-72 space-y-1 overflow-y-auto rounded-md border p-1">
              {offered.map((person) => (
                <li key={person.id}>
                  <StaffChoice
                    person={person}
                    access={accessOf(person.role)}
                    type="radio"
                    name="new-member"
                    checked={chosen === person.id}
                    onChange={() => setChosen(person.id)}
                  />
                </li>
              ))}
            </ul>
          </fieldset>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={!chosen || add.isPending}>
            {add.isPending && <Spinner className="size-4 text-white" />}
            {add.isPending ? 'Adding...' : 'Add Member'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
