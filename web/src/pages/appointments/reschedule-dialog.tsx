import { useMemo, useState } from 'react';
import {
  APPOINTMENT_DURATIONS, APPOINTMENT_LIMITS, type TAppointment, type TAppointmentConflict, type TUpdateAppointmentInput,
} from '#domain/appointments';
import type { TCurrentUser } from '#domain/auth';
import { conflictsOfError, useConflicts, type TConflictQuestion } from '../../api/appointments/conflicts.ts';
import { useUpdateAppointment } from '../../api/appointments/update-appointment.ts';
import { patientShown } from '../../components/appointments/appointment-format.ts';
import { clinicInstant, clinicToday, clinicWallClock, formatDate, formatTime } from '../../components/appointments/appointment-time.ts';
import { ConflictList } from '../../components/appointments/conflict-list.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { StaffSelect } from '../../components/appointments/staff-select.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import { toast } from '../../lib/toast.ts';
import type { TDisplayError } from '../../lib/api-errors.ts';

const CONFLICT_CHECK_DEBOUNCE_MS = 300;

interface TPlacementForm {
  date: string;
  time: string;
  duration: string;
  roomNumber: string;
  assignedNurseId: string;
  assignedScribeId: string;
}

const FIELD_OF_PATH: Record<string, keyof TPlacementForm> = {
  appointmentDate: 'date', duration: 'duration', roomNumber: 'roomNumber', assignedNurseId: 'assignedNurseId', assignedScribeId: 'assignedScribeId',
};

/**
 * Moves an appointment (scheduler and admin, while it is scheduled or checked in): date and
 * time in the clinic's zone, duration, room, nurse and scribe. Clashes show as they are picked;
 * the server judges on save, and its 409 lists them too. Only what changed is sent, with the
 * version shown, so a change made meanwhile is refused rather than overwritten.
 */
export function RescheduleDialog({ appointment, user, timeZone, onClose }: {
  appointment: TAppointment;
  user: TCurrentUser;
  timeZone: string;
  onClose: () => void;
}) {
  const start = clinicWallClock(appointment.appointmentDate, timeZone);
  const initial: TPlacementForm = {
    date: start.date,
    time: start.time,
    duration: String(appointment.duration),
    roomNumber: appointment.roomNumber ?? '',
    assignedNurseId: appointment.assignedNurseId ?? '',
    assignedScribeId: appointment.assignedScribeId ?? '',
  };
  const [form, setForm] = useState(initial);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof TPlacementForm, string>>>({});
  const [refused, setRefused] = useState<TAppointmentConflict[] | null>(null);
  const [failure, setFailure] = useState<TDisplayError | null>(null);
  const update = useUpdateAppointment();
  const set = (name: keyof TPlacementForm) => (value: string) => {
    setForm((f) => ({ ...f, [name]: value }));
    setFieldErrors((e) => ({ ...e, [name]: undefined }));
    setRefused(null);
  };

  const complete = form.date !== '' && form.time !== '';
  const question = useMemo<TConflictQuestion | null>(() => complete ? {
    appointmentDate: clinicInstant(form.date, form.time, timeZone),
    duration: Number(form.duration),
    // Those who reschedule see the patient, so the id is there; without it, no patient clash is asked.
    patientId: appointment.patientId ?? undefined,
    roomNumber: form.roomNumber.trim() || undefined,
    assignedNurseId: form.assignedNurseId || undefined,
    assignedScribeId: form.assignedScribeId || undefined,
    excludeId: appointment.id,
  } : null, [complete, form, timeZone, appointment.patientId, appointment.id]);
  const asked = useDebouncedValue(question, CONFLICT_CHECK_DEBOUNCE_MS);
  const conflicts = useConflicts(asked);

  const changes = (): TUpdateAppointmentInput => {
    const out: TUpdateAppointmentInput = {};
    const instant = clinicInstant(form.date, form.time, timeZone);
    if (new Date(instant).getTime() !== new Date(appointment.appointmentDate).getTime()) out.appointmentDate = instant;
    if (Number(form.duration) !== appointment.duration) out.duration = Number(form.duration);
    if ((form.roomNumber.trim() || null) !== appointment.roomNumber) out.roomNumber = form.roomNumber.trim() || null;
    if ((form.assignedNurseId || null) !== appointment.assignedNurseId) out.assignedNurseId = form.assignedNurseId || null;
    if ((form.assignedScribeId || null) !== appointment.assignedScribeId) out.assignedScribeId = form.assignedScribeId || null;
    return out;
  };

  const submit = () => {
    setFailure(null);
    setRefused(null);
    if (!complete) {
      setFieldErrors({ date: form.date ? undefined : 'Required', time: form.time ? undefined : 'Required' });
      return;
    }
    const changed = changes();
    if (Object.keys(changed).length === 0) {
      toast({ title: 'No changes to save' });
      onClose();
      return;
    }
    update.mutate({ id: appointment.id, changes: { ...changed, updatedAt: appointment.updatedAt } }, {
      onSuccess: () => {
        toast({ title: 'Appointment updated successfully', variant: 'success' });
        onClose();
      },
      onError: (error) => {
        const described = reportMutationError(error, 'Failed to update appointment', { withReason: true });
        if (!described) return;
        const clashes = conflictsOfError(error);
        if (clashes) return setRefused(clashes);
        const placed: Partial<Record<keyof TPlacementForm, string>> = {};
        for (const e of described.fieldErrors) {
          const field = FIELD_OF_PATH[e.path];
          if (field) placed[field] = e.message;
        }
        setFieldErrors(placed);
        if (Object.keys(placed).length === 0) setFailure(described);
      },
    });
  };

  const liveConflicts = conflicts.data ?? [];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-xl" data-testid="reschedule-dialog" onInteractOutside={(event) => event.preventDefault()}>
        <DialogHeader className="pr-6">
          <DialogTitle>Reschedule appointment</DialogTitle>
          <DialogDescription>
            {patientShown(appointment)}, now {formatDate(appointment.appointmentDate, timeZone)} at {formatTime(appointment.appointmentDate, timeZone)}.
            Times are the clinic's ({timeZone}).
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="reschedule-date" label="Date" required error={fieldErrors.date}>
              {(control) => <Input {...control} type="date" min={clinicToday(timeZone)} required value={form.date} onChange={(e) => set('date')(e.target.value)} />}
            </FormField>
            <FormField id="reschedule-time" label="Time" required error={fieldErrors.time}>
              {(control) => <Input {...control} type="time" required value={form.time} onChange={(e) => set('time')(e.target.value)} />}
            </FormField>
            <FormField id="reschedule-duration" label="Duration" error={fieldErrors.duration}>
              {(control) => (
                <select {...control} className={SELECT_CLASS} value={form.duration} onChange={(e) => set('duration')(e.target.value)}>
                  {APPOINTMENT_DURATIONS.map((minutes) => (
                    <option key={minutes} value={minutes}>{minutes} minutes</option>
                  ))}
                </select>
              )}
            </FormField>
            <FormField id="reschedule-room" label="Room" error={fieldErrors.roomNumber}>
              {(control) => (
                <Input {...control} maxLength={APPOINTMENT_LIMITS.roomNumber} placeholder="e.g. 101" value={form.roomNumber} onChange={(e) => set('roomNumber')(e.target.value)} />
              )}
            </FormField>
            <FormField id="reschedule-nurse" label="Nurse" error={fieldErrors.assignedNurseId}>
              {(control) => <StaffSelect user={user} role="nurse" control={control} value={form.assignedNurseId} onChange={set('assignedNurseId')} />}
            </FormField>
            <FormField id="reschedule-scribe" label="Scribe" error={fieldErrors.assignedScribeId}>
              {(control) => <StaffSelect user={user} role="scribe" control={control} value={form.assignedScribeId} onChange={set('assignedScribeId')} />}
            </FormField>
          </div>

          <div aria-live="polite">
            {refused ? (
              <ConflictList conflicts={refused} timeZone={timeZone} roomNumber={form.roomNumber} refused />
            ) : (
              <ConflictList conflicts={liveConflicts} timeZone={timeZone} roomNumber={form.roomNumber} />
            )}
          </div>
          {failure && (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              {failure.message}
            </p>
          )}

          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Saving...' : 'Save changes'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
