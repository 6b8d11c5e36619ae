import { useQuery } from '@tanstack/react-query';
import { CircleExclamationPoint, Info } from 'lucide-react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Controller, type Path } from 'react-hook-form';
import { useLocation } from 'wouter';
import {
  APPOINTMENT_LIMITS,
  APPOINTMENT_TYPES,
  DEFAULT_APPOINTMENT_DURATION,
  type TAppointmentConflict,
  type TCreateAppointmentInput,
} from '#domain/appointments';
import type { TCurrentUser } from '#domain/auth';
import { conflictsOfError, useConflicts, type TConflictQuestion } from '../../api/appointments/conflicts.ts';
import { useCreateAppointment } from '../../api/appointments/create-appointment.ts';
import { patientQueryOptions } from '../../api/patients/patient.ts';
import { appointmentTypeLabel } from '../../components/appointments/appointment-format.ts';
import { clinicInstant, clinicToday } from '#domain/clinic-time';
import { ConflictList } from '../../components/appointments/conflict-list.tsx';
import { PatientPicker, type TChosenPatient } from '../../components/patient-picker.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { StaffSelect } from '../../components/appointments/staff-select.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { DurationSelect } from '../../components/appointments/duration-select.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import type { TDisplayError } from '../../lib/api-errors.ts';
import type { TServerPaths } from '../../lib/form-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';

/** Spec section 5: the message when patient, date or time is missing. */
export const REQUIRED_MESSAGE = 'Please fill in all required fields';
const CONFLICT_CHECK_DEBOUNCE_MS = 400;

interface TScheduleValues {
  patient: TChosenPatient | null;
  date: string;
  time: string;
  duration: string;
  appointmentType: string;
  roomNumber: string;
  assignedNurseId: string;
  assignedScribeId: string;
  reason: string;
  notes: string;
}

const FIELD_NAMES: Path<TScheduleValues>[] = [
  'patient',
  'date',
  'time',
  'duration',
  'appointmentType',
  'roomNumber',
  'assignedNurseId',
  'assignedScribeId',
  'reason',
  'notes',
];
/** The server names the payload's fields; the form shows them under its own. */
const FIELD_OF_PATH: TServerPaths<TScheduleValues> = { patientId: 'patient', appointmentDate: 'date' };

const blankToNull = (value: string) => value.trim() || null;

/**
 * The schedule form: four sections, the duration choices, nurse and scribe pickers with the none
 * choice, a minimum date of today in the clinic's zone. The date and time are read in the
 * clinic's zone (not the browser's) and sent as one ISO timestamp. Clashes show as the user
 * picks; the submit stays possible (the server judges, and its 409 lists them too).
 */
export function ScheduleForm({ user, timeZone, initialPatientId }: { user: TCurrentUser; timeZone: string; initialPatientId: string | null }) {
  const [, navigate] = useLocation();
  const create = useCreateAppointment();
  const [missing, setMissing] = useState(false);
  const [refused, setRefused] = useState<TAppointmentConflict[] | null>(null);
  const today = clinicToday(timeZone);

  // No schema: the fields' own rules (patient, date and time required) say what is missing.
  const form = useAppForm<TScheduleValues>({
    defaultValues: {
      patient: null,
      date: '',
      time: '',
      duration: String(DEFAULT_APPOINTMENT_DURATION),
      appointmentType: '',
      roomNumber: '',
      assignedNurseId: '',
      assignedScribeId: '',
      reason: '',
      notes: '',
    },
    fields: FIELD_NAMES,
    serverPaths: FIELD_OF_PATH,
  });
  const {
    register,
    control,
    onSubmit,
    watch,
    setValue,
    getValues,
    formState: { errors },
    formError,
  } = form;

  // Reached from a patient's appointments: that patient, once read, is chosen.
  const preset = useQuery({ ...patientQueryOptions(initialPatientId ?? ''), enabled: initialPatientId !== null });
  useEffect(() => {
    if (initialPatientId && preset.data && !getValues('patient')) setValue('patient', preset.data);
  }, [initialPatientId, preset.data, getValues, setValue]);

  const [patient, date, time, duration, roomNumber, nurse, scribe] = watch([
    'patient',
    'date',
    'time',
    'duration',
    'roomNumber',
    'assignedNurseId',
    'assignedScribeId',
  ]);
  // Whatever the user changes may change the clashes: the server's last refusal no longer applies.
  useEffect(() => setRefused(null), [patient, date, time, duration, roomNumber, nurse, scribe]);
  useEffect(() => {
    if (patient && date && time) setMissing(false);
  }, [patient, date, time]);

  const question = useMemo<TConflictQuestion | null>(() => {
    const room = roomNumber.trim();
    if (!date || !time || !(patient || room || nurse || scribe)) return null;
    return {
      appointmentDate: clinicInstant(date, time, timeZone),
      duration: Number(duration),
      patientId: patient?.id,
      roomNumber: room || undefined,
      assignedNurseId: nurse || undefined,
      assignedScribeId: scribe || undefined,
    };
  }, [patient, date, time, duration, roomNumber, nurse, scribe, timeZone]);
  const asked = useDebouncedValue(question, CONFLICT_CHECK_DEBOUNCE_MS);
  const conflicts = useConflicts(asked);
  const settled = asked === question && !conflicts.isFetching;

  const onValid = (values: TScheduleValues) => {
    setRefused(null);
    const payload: TCreateAppointmentInput & { providerId: string; status: string } = {
      patientId: values.patient!.id,
      providerId: user.id,
      appointmentDate: clinicInstant(values.date, values.time, timeZone),
      duration: Number(values.duration),
      appointmentType: values.appointmentType || null,
      reason: blankToNull(values.reason),
      notes: blankToNull(values.notes),
      roomNumber: blankToNull(values.roomNumber),
      assignedNurseId: values.assignedNurseId || null,
      assignedScribeId: values.assignedScribeId || null,
      status: 'scheduled',
    };
    create.mutate(payload, {
      onSuccess: () => {
        toast({ title: 'Appointment scheduled successfully with staff assignments', variant: 'success' });
        navigate('/appointments');
      },
      onError: (error) => {
        const described = reportMutationError(error, 'Failed to schedule appointment', { withReason: true });
        if (!described) return;
        const clashes = conflictsOfError(error);
        if (clashes) setRefused(clashes);
        else form.showServerError(described);
      },
    });
  };
  const onInvalid = () => {
    setMissing(true);
    toast({ title: 'Error', description: REQUIRED_MESSAGE, variant: 'destructive' });
  };

  const saving = create.isPending;
  return (
    <form onSubmit={onSubmit(onValid, onInvalid)} noValidate autoComplete="off" aria-label="New appointment" className="space-y-6">
      <Section title="Patient Information">
        <FormField id="schedule-patient" label="Patient" required error={errors.patient?.message} testId="patient">
          {(fieldControl) => (
            <Controller
              control={control}
              name="patient"
              rules={{ validate: (value) => value !== null || 'Required' }}
              render={({ field }) => <PatientPicker control={fieldControl} value={field.value} onChange={field.onChange} onBlur={field.onBlur} />}
            />
          )}
        </FormField>
      </Section>

      <Section title="Appointment Scheduling">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="schedule-date" label="Date" required error={errors.date?.message} testId="date">
            {(c) => <Input {...c} type="date" min={today} required {...register('date', { required: 'Required' })} />}
          </FormField>
          <FormField id="schedule-time" label="Time" required error={errors.time?.message} testId="time">
            {(c) => <Input {...c} type="time" required {...register('time', { required: 'Required' })} />}
          </FormField>
          <FormField id="schedule-duration" label="Duration" error={errors.duration?.message} testId="duration">
            {(c) => <DurationSelect {...c} {...register('duration')} />}
          </FormField>
          <FormField id="schedule-type" label="Appointment type" error={errors.appointmentType?.message} testId="appointmentType">
            {(c) => (
              <select {...c} className={SELECT_CLASS} {...register('appointmentType')}>
                <option value="">General (no type)</option>
                {APPOINTMENT_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {appointmentTypeLabel(type)}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField id="schedule-room" label="Room" error={errors.roomNumber?.message} testId="roomNumber">
            {(c) => <Input {...c} maxLength={APPOINTMENT_LIMITS.roomNumber} placeholder="e.g. 101" {...register('roomNumber')} />}
          </FormField>
        </div>
      </Section>

      <Section title="Staff Assignment">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="schedule-nurse" label="Nurse" error={errors.assignedNurseId?.message} testId="assignedNurseId">
            {(c) => (
              <Controller
                control={control}
                name="assignedNurseId"
                render={({ field }) => (
                  <StaffSelect user={user} role="nurse" control={c} name={field.name} value={field.value} onChange={field.onChange} onBlur={field.onBlur} />
                )}
              />
            )}
          </FormField>
          <FormField id="schedule-scribe" label="Scribe" error={errors.assignedScribeId?.message} testId="assignedScribeId">
            {(c) => (
              <Controller
                control={control}
                name="assignedScribeId"
                render={({ field }) => (
                  <StaffSelect user={user} role="scribe" control={c} name={field.name} value={field.value} onChange={field.onChange} onBlur={field.onBlur} />
                )}
              />
            )}
          </FormField>
        </div>
        <p className="flex gap-2 rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-950" data-testid="staff-note">
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          Assigned nurses and scribes will see the patient's name for this appointment and get a notification to provide notes after the appointment.
        </p>
      </Section>

      <ConflictCheck
        refused={refused}
        asking={question !== null}
        answer={settled ? conflicts.data : undefined}
        timeZone={timeZone}
        roomNumber={roomNumber.trim()}
      />

      <Section title="Additional Information">
        <div className="grid gap-4">
          <FormField id="schedule-reason" label="Reason for visit" error={errors.reason?.message} testId="reason">
            {(c) => <Textarea {...c} rows={2} maxLength={APPOINTMENT_LIMITS.longText} {...register('reason')} />}
          </FormField>
          <FormField id="schedule-notes" label="Notes" error={errors.notes?.message} testId="notes">
            {(c) => <Textarea {...c} rows={3} maxLength={APPOINTMENT_LIMITS.longText} placeholder="For the clinic's staff" {...register('notes')} />}
          </FormField>
        </div>
      </Section>

      {missing && (
        <p
          role="alert"
          data-testid="required-message"
          className="flex items-center gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm font-medium text-red-800"
        >
          <CircleExclamationPoint className="size-4 shrink-0" aria-hidden="true" />
          {REQUIRED_MESSAGE}
        </p>
      )}
      {formError && <ScheduleFormError error={formError} />}

      <div className="flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={() => navigate('/appointments')} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          {saving && <Spinner className="size-4 text-white" />}
          {saving ? 'Scheduling...' : 'Schedule Appointment'}
        </Button>
      </div>
    </form>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4">
      <legend className="mb-3 w-full border-b pb-1 text-sm font-semibold text-slate-900">{title}</legend>
      {children}
    </fieldset>
  );
}

/** The clashes of the booking as it stands: the server's refusal, else the live check's answer, or that it is asking. */
function ConflictCheck({
  refused,
  asking,
  answer,
  timeZone,
  roomNumber,
}: {
  refused: TAppointmentConflict[] | null;
  /** The form holds a complete question (a time and someone or somewhere). */
  asking: boolean;
  /** The answer to the question as it stands now; undefined while it is asked. */
  answer: TAppointmentConflict[] | undefined;
  timeZone: string;
  roomNumber: string;
}) {
  return (
    <div aria-live="polite" data-testid="conflict-check">
      {refused ? (
        <ConflictList conflicts={refused} timeZone={timeZone} roomNumber={roomNumber} refused />
      ) : !asking ? null : answer ? (
        answer.length > 0 ? (
          <ConflictList conflicts={answer} timeZone={timeZone} roomNumber={roomNumber} />
        ) : (
          <p className="text-sm text-green-800" data-testid="no-conflicts">
            No conflicts at this time.
          </p>
        )
      ) : (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" />
          Checking for conflicts…
        </p>
      )}
    </div>
  );
}

function ScheduleFormError({ error }: { error: TDisplayError }) {
  return (
    <div role="alert" data-testid="schedule-form-error" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      <p className="font-semibold text-red-900">{error.code === 'auth.forbidden' ? 'Not allowed' : 'Could not schedule'}</p>
      <p>{error.message}</p>
      {error.fieldErrors.length > 0 && (
        <ul className="mt-1 list-disc pl-4">
          {error.fieldErrors.map((e) => (
            <li key={`${e.path}:${e.message}`}>
              {e.path}: {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
