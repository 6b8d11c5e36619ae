import { z } from 'zod';
import { clinicInstant, clinicWallClock } from '#domain/clinic-time';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import type { TUnitSystem } from '#domain/units';
import { displayUnit, VITAL_SIGNS, ZVitalsInput, type TVitalSign, type TVitalsSet } from '#domain/vital-signs';
import { useRecordEntry } from '../../api/chart/entries.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormDialog, StickyDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { signLabel } from './vital-format.ts';

type TVitalsFormValues = Record<TVitalSign, string> & { takenAt: string; note: string };

/** A typed number, '' for none; what is not a number stays one the server's rules refuse by name. */
const entered = (text: string) => (text.trim() === '' ? null : Number(text.replace(',', '.')));

/** The form as the API takes it: the values as entered, in the clinic's units (the server converts them, once). */
function bodyOf(v: TVitalsFormValues, system: TUnitSystem, timeZone: string): z.input<typeof ZVitalsInput> {
  const [date, time] = v.takenAt.split('T') as [string, string];
  return {
    takenAt: v.takenAt ? clinicInstant(date, time, timeZone) : undefined,
    unitSystem: system,
    note: v.note.trim() || null,
    ...Object.fromEntries(VITAL_SIGNS.map((s) => [s, entered(v[s])])),
  };
}

/** The form checked by the server's own rules (ZVitalsInput) before it is sent. */
const formSchema = (system: TUnitSystem, timeZone: string) =>
  z
    .object({ takenAt: z.string().min(1, 'Required'), note: z.string(), ...Object.fromEntries(VITAL_SIGNS.map((s) => [s, z.string()])) } as Record<
      keyof TVitalsFormValues,
      z.ZodString
    >)
    .transform((v) => bodyOf(v, system, timeZone))
    .pipe(ZVitalsInput);

const FIELDS = ['takenAt', 'note', ...VITAL_SIGNS] as const;
const GROUPS: { title: string; signs: TVitalSign[] }[] = [
  { title: 'Blood pressure and pulse', signs: ['systolic', 'diastolic', 'heartRate', 'respiratoryRate'] },
  { title: 'Temperature and oxygen', signs: ['temperature', 'spo2', 'pain'] },
  { title: 'Weight and height (BMI is computed)', signs: ['weight', 'height'] },
];

/** 'Record vital signs': a set taken at one time, each sign optional, in the clinic's units. Impossible values are refused naming the sign. */
export function VitalsDialog({
  patientId,
  system,
  timeZone,
  user,
  onClose,
}: {
  patientId: string;
  system: TUnitSystem;
  timeZone: string;
  user: TCurrentUser;
  onClose: () => void;
}) {
  const record = useRecordEntry<TVitalsSet>('vitals');
  const now = clinicWallClock(new Date().toISOString(), timeZone);
  const form = useAppForm<TVitalsFormValues, z.output<typeof ZVitalsInput>>({
    schema: formSchema(system, timeZone),
    defaultValues: { takenAt: `${now.date}T${now.time}`, note: '', ...(Object.fromEntries(VITAL_SIGNS.map((s) => [s, ''])) as Record<TVitalSign, string>) },
    fields: FIELDS,
  });
  const errors = form.formState.errors;
  // Checked as a whole by the schema; sent as entered.
  const onSubmit = form.onSubmit(() =>
    record.mutate(
      { patientId, fields: bodyOf(form.getValues(), system, timeZone) },
      {
        onSuccess: (saved) => {
          toast({ title: saved.state === 'draft' ? 'Vital signs drafted for a nurse to confirm' : 'Vital signs recorded', variant: 'success' });
          onClose();
        },
        onError: (error) => form.failed(error, 'Could not record the vital signs', { withReason: true }),
      },
    ),
  );
  return (
    <FormDialog
      onClose={onClose}
      title="Record vital signs"
      description={`${can(user, 'chart.confirm') ? 'Recorded with your name.' : 'Recorded as a draft: a nurse or an admin confirms it.'} Leave out what was not taken.`}
      className="max-w-2xl"
      testId="vitals-dialog"
    >
      <form noValidate autoComplete="off" className="space-y-4" onSubmit={onSubmit}>
        {GROUPS.map((group) => (
          <fieldset key={group.title} className="space-y-2">
            <legend className="text-sm font-semibold text-slate-900">{group.title}</legend>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {group.signs.map((sign) => (
                <FormField
                  key={sign}
                  id={`vital-${sign}`}
                  label={`${signLabel(sign)} (${displayUnit(sign, system).unit})`}
                  error={errors[sign]?.message}
                  testId={sign}
                >
                  {(controlProps) => <Input {...controlProps} inputMode="decimal" {...form.register(sign)} disabled={record.isPending} />}
                </FormField>
              ))}
            </div>
          </fieldset>
        ))}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="vital-taken-at" label={`Taken at (${timeZone})`} required error={errors.takenAt?.message} testId="takenAt">
            {(controlProps) => <Input {...controlProps} type="datetime-local" {...form.register('takenAt')} disabled={record.isPending} />}
          </FormField>
        </div>
        <FormField id="vital-note" label="Note" error={errors.note?.message} testId="note">
          {(controlProps) => <Textarea {...controlProps} rows={2} {...form.register('note')} disabled={record.isPending} />}
        </FormField>
        {form.formError && <FormErrorAlert error={form.formError} testId="vitals-error" />}
        <StickyDialogFooter>
          <Button variant="outline" onClick={onClose} disabled={record.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={record.isPending}>
            {record.isPending && <Spinner className="size-4 text-white" />}
            Record Vital Signs
          </Button>
        </StickyDialogFooter>
      </form>
    </FormDialog>
  );
}
