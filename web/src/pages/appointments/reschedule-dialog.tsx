import { useEffect, useMemo, useState } from 'react';
import { Controller } from 'react-hook-form';
import { APPOINTMENT_LIMITS, type TAppointment, type TAppointmentConflict, type TUpdateAppointmentInput } from '#domain/appointments';
import type { TCurrentUser } from '#domain/auth';
import { conflictsOfError, useConflicts, type TConflictQuestion } from '../../api/appointments/conflicts.ts';
import { useUpdateAppointment } from '../../api/appointments/update-appointment.ts';
import { patientShown } from '../../components/appointments/appointment-format.ts';
import { clinicInstant, clinicToday, clinicWallClock, formatDate, formatTime } from '#domain/clinic-time';
import { ConflictList } from '../../components/appointments/conflict-list.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { StaffSelect } from '../../components/appointments/staff-select.tsx';
import { DurationSelect } from '../../components/appointments/duration-select.tsx';
import { Button } from '../../components/ui/button.tsx';
import { DialogFooter } from '../../components/ui/dialog.tsx';
import { PatientAllergyBanner } from '../../components/chart/patient-allergy-banner.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { FormField, type TFieldControlProps } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import type { TServerPaths } from '../../lib/form-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';

const CONFLICT_CHECK_DEBOUNCE_MS = 300;

interface TPlacementForm {
  date: string;
  time: string;
  duration: string;
  roomNumber: string;
  assignedNurseId: string;
  assignedScribeId: string;
}

const FIELD_NAMES = ['date', 'time', 'duration', 'roomNumber', 'assignedNurseId', 'assignedScribeId'] as const;
/** The server names the moment by the payload's field; the form shows it under the date. */
const FIELD_OF_PATH: TServerPaths<TPlacementForm> = { appointmentDate: 'date' };

/**
 * Moves an appointment (scheduler and admin, while it is scheduled or checked in): date and
 * time in the clinic's zone, duration, room, nurse and scribe. Clashes show as they are picked;
 * the server judges on save, and its 409 lists them too. Only what changed is sent, with the
 * version shown, so a change made meanwhile is refused rather than overwritten.
 */
export function RescheduleDialog({
  appointment,
  user,
  timeZone,
  onClose,
}: {
  appointment: TAppointment;
  user: TCurrentUser;
  timeZone: string;
  onClose: () => void;
}) {
  const start = clinicWallClock(appointment.appointmentDate, timeZone);
  // No schema: date and time are required by their own rules; the rest may be anything offered.
  const form = useAppForm<TPlacementForm>({
    defaultValues: {
      date: start.date,
      time: start.time,
      duration: String(appointment.duration),
      roomNumber: appointment.roomNumber ?? '',
      assignedNurseId: appointment.assignedNurseId ?? '',
      assignedScribeId: appointment.assignedScribeId ?? '',
    },
    fields: FIELD_NAMES,
    serverPaths: FIELD_OF_PATH,
  });
  const {
    register,
    control,
    watch,
    formState: { errors },
    formError,
  } = form;
  const [refused, setRefused] = useState<TAppointmentConflict[] | null>(null);
  const update = useUpdateAppointment();
  const values = watch();
  // Whatever the user changes may change the clashes: the server's last refusal no longer applies.
  useEffect(() => {
    const subscription = watch(() => setRefused(null));
    return () => subscription.unsubscribe();
  }, [watch]);

  const complete = values.date !== '' && values.time !== '';
  const question = useMemo<TConflictQuestion | null>(
    () =>
      complete
        ? {
            appointmentDate: clinicInstant(values.date, values.time, timeZone),
            duration: Number(values.duration),
            // Those who reschedule see the patient, so the id is there; without it, no patient clash is asked.
            patientId: appointment.patientId ?? undefined,
            roomNumber: values.roomNumber.trim() || undefined,
            assignedNurseId: values.assignedNurseId || undefined,
            assignedScribeId: values.assignedScribeId || undefined,
            excludeId: appointment.id,
          }
        : null,
    [
      complete,
      values.date,
      values.time,
      values.duration,
      values.roomNumber,
      values.assignedNurseId,
      values.assignedScribeId,
      timeZone,
      appointment.patientId,
      appointment.id,
    ],
  );
  const asked = useDebouncedValue(question, CONFLICT_CHECK_DEBOUNCE_MS);
  const conflicts = useConflicts(asked);

  /** Of the fields the user changed, those that differ from the appointment, as the server names and holds them. */
  const changes = (placement: TPlacementForm): TUpdateAppointmentInput => {
    const out: TUpdateAppointmentInput = form.changedValues(
      {
        duration: Number(placement.duration),
        roomNumber: placement.roomNumber.trim() || null,
        assignedNurseId: placement.assignedNurseId || null,
        assignedScribeId: placement.assignedScribeId || null,
      },
      appointment,
    );
    // Date and time make one moment.
    if (form.getFieldState('date').isDirty || form.getFieldState('time').isDirty) {
      const instant = clinicInstant(placement.date, placement.time, timeZone);
      if (Date.parse(instant) !== Date.parse(appointment.appointmentDate)) out.appointmentDate = instant;
    }
    return out;
  };

  const onSubmit = form.onSubmit((placement) => {
    setRefused(null);
    const changed = changes(placement);
    if (Object.keys(changed).length === 0) {
      toast({ title: 'No changes to save' });
      onClose();
      return;
    }
    update.mutate(
      { id: appointment.id, changes: { ...changed, updatedAt: appointment.updatedAt } },
      {
        onSuccess: () => {
          toast({ title: 'Appointment updated successfully', variant: 'success' });
          onClose();
        },
        onError: (error) => {
          const described = reportMutationError(error, 'Failed to update appointment', { withReason: true });
          if (!described) return;
          const clashes = conflictsOfError(error);
          if (clashes) setRefused(clashes);
          else form.showServerError(described);
        },
      },
    );
  });

  const liveConflicts = conflicts.data ?? [];
  const staff = (role: 'nurse' | 'scribe', name: 'assignedNurseId' | 'assignedScribeId') => (fieldControl: TFieldControlProps) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <StaffSelect user={user} role={role} control={fieldControl} name={field.name} value={field.value} onChange={field.onChange} onBlur={field.onBlur} />
      )}
    />
  );
  return (
    <FormDialog
      onClose={onClose}
      className="max-w-xl"
      testId="reschedule-dialog"
      title="Reschedule appointment"
      description={
        <>
          {patientShown(appointment)}, now {formatDate(appointment.appointmentDate, timeZone)} at {formatTime(appointment.appointmentDate, timeZone)}. Times are
          the clinic's ({timeZone}).
        </>
      }
    >
      <form noValidate className="space-y-4" onSubmit={onSubmit}>
        {appointment.patientId && <PatientAllergyBanner patientId={appointment.patientId} />}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="reschedule-date" label="Date" required error={errors.date?.message}>
            {(c) => <Input {...c} type="date" min={clinicToday(timeZone)} required {...register('date', { required: 'Required' })} />}
          </FormField>
          <FormField id="reschedule-time" label="Time" required error={errors.time?.message}>
            {(c) => <Input {...c} type="time" required {...register('time', { required: 'Required' })} />}
          </FormField>
          <FormField id="reschedule-duration" label="Duration" error={errors.duration?.message}>
            {(c) => <DurationSelect {...c} {...register('duration')} />}
          </FormField>
          <FormField id="reschedule-room" label="Room" error={errors.roomNumber?.message}>
            {(c) => <Input {...c} maxLength={APPOINTMENT_LIMITS.roomNumber} placeholder="e.g. 101" {...register('roomNumber')} />}
          </FormField>
          <FormField id="reschedule-nurse" label="Nurse" error={errors.assignedNurseId?.message}>
            {staff('nurse', 'assignedNurseId')}
          </FormField>
          <FormField id="reschedule-scribe" label="Scribe" error={errors.assignedScribeId?.message}>
            {staff('scribe', 'assignedScribeId')}
          </FormField>
        </div>

        <div aria-live="polite">
          {refused ? (
            <ConflictList conflicts={refused} timeZone={timeZone} roomNumber={values.roomNumber} refused />
          ) : (
            <ConflictList conflicts={liveConflicts} timeZone={timeZone} roomNumber={values.roomNumber} />
          )}
        </div>
        {formError && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {formError.message}
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
    </FormDialog>
  );
}
