import { CircleExclamationPoint } from 'lucide-react';
import { useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { ZCreateChatRoom } from '#domain/chat';
import { useChatStaff } from '../../api/chat/chat-staff.ts';
import { useCreateChatRoom } from '../../api/chat/create-chat-room.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { PatientPicker, type TChosenPatient } from '../../components/patient-picker.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { StaffChoice, useRoomAccess } from './patient-room-access.tsx';

/** Spec section 5's messages for the create-room form. */
export const ROOM_REQUIRED = 'Patient and room name are required';
export const MEMBERS_REQUIRED = 'Please select at least one team member for the chat room';

/**
 * 'Create New Patient Chat Room' (spec section 2, admin or scheduler): the patient, the team
 * (every active staff member but the creator, who joins by creating it), a name and a
 * description. The room is created, then each chosen member is added with a call of her own.
 */
export function NewRoomDialog({ open, user, onClose, onCreated }: {
  open: boolean;
  user: TCurrentUser;
  onClose: () => void;
  onCreated: (roomId: string) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent
        className="max-w-xl"
        data-testid="new-room-dialog"
        onInteractOutside={(event) => event.preventDefault()}
        // Escape in the patient search closes its list of matches, not the whole form.
        onEscapeKeyDown={(event) => {
          const target = event.target instanceof HTMLElement ? event.target : null;
          if (target?.getAttribute('role') === 'combobox' && target.getAttribute('aria-expanded') === 'true') event.preventDefault();
        }}
      >
        <DialogHeader className="pr-6">
          <DialogTitle>Create New Patient Chat Room</DialogTitle>
          <DialogDescription>A secure room about one patient, for the team members you choose.</DialogDescription>
        </DialogHeader>
        {open && <NewRoomForm user={user} onClose={onClose} onCreated={onCreated} />}
      </DialogContent>
    </Dialog>
  );
}

function NewRoomForm({ user, onClose, onCreated }: { user: TCurrentUser; onClose: () => void; onCreated: (roomId: string) => void }) {
  const [patient, setPatient] = useState<TChosenPatient | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const staff = useChatStaff(true);
  const create = useCreateChatRoom();
  const people = (staff.data ?? []).filter((person) => person.id !== user.id);
  const accessOf = useRoomAccess();

  const toggle = (id: string, on: boolean) => {
    setSelected((list) => (on ? [...list, id] : list.filter((other) => other !== id)));
    setProblem(null);
  };

  const submit = () => {
    if (!patient || !name.trim()) return setProblem(ROOM_REQUIRED);
    if (selected.length === 0) return setProblem(MEMBERS_REQUIRED);
    const parsed = ZCreateChatRoom.safeParse({ patientId: patient.id, name, description: description.trim() || null });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? ROOM_REQUIRED);
    setProblem(null);
    create.mutate({ room: parsed.data, memberIds: selected }, {
      onSuccess: ({ id }) => {
        toast({ title: 'Chat room created successfully', variant: 'success' });
        onClose();
        onCreated(id);
      },
      onError: (error) => {
        const described = reportMutationError(error, 'Failed to create chat room', { withReason: true });
        if (described) setProblem(described.fieldErrors[0]?.message ?? described.message);
      },
    });
  };

  return (
    <form
      noValidate
      autoComplete="off"
      aria-label="New chat room"
      className="space-y-5"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <FormField id="room-patient" label="Select patient" required>
        {(control) => (
          <PatientPicker
            control={control}
            value={patient}
            disabled={create.isPending}
            onChange={(next) => {
              setPatient(next);
              setProblem(null);
            }}
          />
        )}
      </FormField>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">User List - Select Team Members</legend>
        {staff.isPending ? (
          <p className="flex items-center gap-2 text-sm text-slate-600" role="status"><Spinner className="size-4" />Loading staff...</p>
        ) : staff.isError ? (
          <ErrorState title="Could not load staff" error={staff.error} onRetry={() => void staff.refetch()} />
        ) : people.length === 0 ? (
          <p className="rounded-md border border-dashed p-4 text-center text-sm text-slate-600">No users available</p>
        ) : (
          <ul className="max-h-48 space-y-1 overflow-y-auto rounded-md border p-1" data-testid="team-checklist">
            {people.map((person) => (
              <li key={person.id}>
                <StaffChoice
                  person={person}
                  access={accessOf(person.role)}
                  type="checkbox"
                  checked={selected.includes(person.id)}
                  disabled={create.isPending}
                  onChange={(on) => toggle(person.id, on)}
                />
              </li>
            ))}
          </ul>
        )}
        <p className="text-sm text-slate-600" data-testid="selected-count" aria-live="polite">{selected.length} team member(s) selected</p>
      </fieldset>

      <FormField id="room-name" label="Room Name" required>
        {(control) => (
          <Input
            {...control}
            value={name}
            maxLength={200}
            placeholder="e.g., John Smith - Cardiology Care"
            disabled={create.isPending}
            onChange={(event) => {
              setName(event.target.value);
              setProblem(null);
            }}
          />
        )}
      </FormField>

      <FormField id="room-description" label="Description">
        {(control) => (
          <Textarea
            {...control}
            rows={2}
            value={description}
            placeholder="What this care team is coordinating"
            disabled={create.isPending}
            onChange={(event) => setDescription(event.target.value)}
          />
        )}
      </FormField>

      {problem && (
        <p role="alert" data-testid="room-form-error" className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <CircleExclamationPoint className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {problem}
        </p>
      )}

      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={create.isPending}>Cancel</Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <Spinner className="size-4 text-white" />}
          {create.isPending ? 'Creating...' : 'Create Room'}
        </Button>
      </DialogFooter>
    </form>
  );
}

