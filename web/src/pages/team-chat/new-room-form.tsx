import { CircleExclamationPoint } from 'lucide-react';
import { useEffect } from 'react';
import { useController } from 'react-hook-form';
import { z } from 'zod';
import type { TCurrentUser } from '#domain/auth';
import { ZCreateChatRoom, type TCreateChatRoom } from '#domain/chat';
import { useChatStaff } from '../../api/chat/chat-staff.ts';
import { useCreateChatRoom } from '../../api/chat/create-chat-room.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { PatientPicker, type TChosenPatient } from '../../components/patient-picker.tsx';
import { Button } from '../../components/ui/button.tsx';
import { StickyDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { StaffChoice, useRoomAccess } from './patient-room-access.tsx';

/** Spec section 5's messages for the create-room form. */
export const ROOM_REQUIRED = 'Patient and room name are required';
export const MEMBERS_REQUIRED = 'Please select at least one team member for the chat room';

interface TNewRoomValues {
  patient: TChosenPatient | null;
  name: string;
  description: string;
  memberIds: string[];
}

/**
 * Spec section 5's order: patient and name, then the team, then the server's own rules for a
 * room (domain/chat.ts), which see only a form that passed the first two.
 */
const ZNewRoom = z
  .object({
    patient: z.custom<TChosenPatient | null>().refine((patient) => patient !== null, ROOM_REQUIRED),
    name: z.string().refine((name) => name.trim() !== '', ROOM_REQUIRED),
    memberIds: z.array(z.string()).min(1, MEMBERS_REQUIRED),
    description: z.string(),
  })
  .transform(({ patient, name, description, memberIds }): { room: z.input<typeof ZCreateChatRoom>; memberIds: string[] } => ({
    room: { patientId: patient!.id, name, description: description.trim() || null },
    memberIds,
  }))
  .pipe(z.object({ room: ZCreateChatRoom, memberIds: z.array(z.string()) }));
type TNewRoom = { room: TCreateChatRoom; memberIds: string[] };

/** The first message among a form's errors, nested ones (the room's own rules) included. */
function firstMessage(errors: object): string | undefined {
  for (const error of Object.values(errors) as unknown[]) {
    if (typeof error !== 'object' || error === null) continue;
    // A field's error (it has a type; its `ref` is an element, not more errors), or a group of them.
    const found = 'type' in error ? (error as { message?: unknown }).message : firstMessage(error);
    if (typeof found === 'string' && found) return found;
  }
  return undefined;
}

const FIELDS = ['patient', 'name', 'description', 'memberIds'] as const;
/** What clears the form's message: the fields it is about (the description is never the cause). */
const CLEARS_PROBLEM: readonly string[] = ['patient', 'name', 'memberIds'];

/** The form of 'Create New Patient Chat Room' (new-room-dialog.tsx), loaded when the dialog first opens. */
export function NewRoomForm({ user, onClose, onCreated }: { user: TCurrentUser; onClose: () => void; onCreated: (roomId: string) => void }) {
  const staff = useChatStaff(true);
  const create = useCreateChatRoom();
  const people = (staff.data ?? []).filter((person) => person.id !== user.id);
  const accessOf = useRoomAccess();
  // The form's one message, not one per field: its problems re-checked only on the next try.
  const form = useAppForm<TNewRoomValues, TNewRoom>({
    schema: ZNewRoom,
    defaultValues: { patient: null, name: '', description: '', memberIds: [] },
    fields: FIELDS,
    serverPaths: { patientId: 'patient' },
    reValidateMode: 'onSubmit',
  });
  const {
    register,
    control,
    watch,
    clearErrors,
    setFormError,
    formState: { errors },
    formError,
  } = form;
  const patient = useController({ control, name: 'patient' }).field;
  const members = useController({ control, name: 'memberIds' }).field;
  const selected = members.value;
  useEffect(() => {
    const subscription = watch((_values, { name }) => {
      if (!name || !CLEARS_PROBLEM.includes(name)) return;
      clearErrors();
      setFormError(null);
    });
    return () => subscription.unsubscribe();
  }, [watch, clearErrors, setFormError]);
  const problem = firstMessage(errors) ?? formError?.fieldErrors[0]?.message ?? formError?.message;

  const toggle = (id: string, on: boolean) => members.onChange(on ? [...selected, id] : selected.filter((other) => other !== id));

  const onSubmit = form.onSubmit((values) =>
    create.mutate(values, {
      onSuccess: ({ id }) => {
        toast({ title: 'Chat room created successfully', variant: 'success' });
        onClose();
        onCreated(id);
      },
      onError: (error) => void form.failed(error, 'Failed to create chat room', { withReason: true }),
    }),
  );

  return (
    <form noValidate autoComplete="off" aria-label="New chat room" className="space-y-5" onSubmit={onSubmit}>
      <FormField id="room-patient" label="Select patient" required>
        {(fieldControl) => (
          <PatientPicker control={fieldControl} value={patient.value} disabled={create.isPending} onChange={patient.onChange} onBlur={patient.onBlur} />
        )}
      </FormField>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">User List - Select Team Members</legend>
        {staff.isPending ? (
          <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
            <Spinner className="size-4" />
            Loading staff...
          </p>
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
        <p className="text-sm text-slate-600" data-testid="selected-count" aria-live="polite">
          {selected.length} team member(s) selected
        </p>
      </fieldset>

      <FormField id="room-name" label="Room Name" required>
        {(fieldControl) => (
          <Input {...fieldControl} maxLength={200} placeholder="e.g., John Smith - Cardiology Care" {...register('name')} disabled={create.isPending} />
        )}
      </FormField>

      <FormField id="room-description" label="Description">
        {(fieldControl) => (
          <Textarea {...fieldControl} rows={2} placeholder="What this care team is coordinating" {...register('description')} disabled={create.isPending} />
        )}
      </FormField>

      {/* The form's message sits with its buttons at the foot of the dialog, kept in view however
          tall the form: the message shows where 'Create Room' was pressed, and pushes nothing away. */}
      <StickyDialogFooter className="flex-col items-stretch gap-3 sm:flex-col">
        {problem && (
          <p role="alert" data-testid="room-form-error" className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            <CircleExclamationPoint className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {problem}
          </p>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending && <Spinner className="size-4 text-white" />}
            {create.isPending ? 'Creating...' : 'Create Room'}
          </Button>
        </div>
      </StickyDialogFooter>
    </form>
  );
}
