import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { CHART_LIMITS, MEDICATION_ROUTES, MEDICATION_SOURCES, MEDICATION_STATUSES, ZMedicationFields, type TMedication } from '#domain/chart';
import type { TCurrentUser } from '#domain/auth';
import { useChangeEntry, useRecordEntry } from '../../api/chart/entries.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { FormDialog, FormDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { CataloguePicker } from '../../components/catalogue-picker.tsx';
import { useFormularyOptions } from '../../components/chart/formulary-options.ts';
import { ROUTE_LABELS } from '../../components/chart/route-labels.ts';
import { MEDICATION_SOURCE_LABELS, MEDICATION_STATUS_LABELS } from './chart-labels.ts';
import { Choice } from '../../components/choice-field.tsx';
import { entryDialogDescription } from './entry-dialog-parts.tsx';

interface TMedicationFormValues {
  medication: { formularyId: string; name: string };
  dose: string;
  route: '' | (typeof MEDICATION_ROUTES)[number];
  frequency: string;
  start: string;
  stop: string;
  status: (typeof MEDICATION_STATUSES)[number];
  stopReason: string;
  source: (typeof MEDICATION_SOURCES)[number];
  note: string;
}

const valuesOf = (m: TMedication | null): TMedicationFormValues => ({
  medication: { formularyId: m?.medication.formularyId ?? '', name: m?.medication.name ?? '' },
  dose: m?.dose ?? '',
  route: m?.route ?? '',
  frequency: m?.frequency ?? '',
  start: m?.start ?? '',
  stop: m?.stop ?? '',
  status: m?.status ?? 'active',
  stopReason: m?.stopReason ?? '',
  source: m?.source ?? 'patient_reported',
  note: m?.note ?? '',
});

/** The form's values as the API takes them, checked by the server's own rules (ZMedicationFields: a stopped one needs its day). */
const ZMedicationForm = z
  .object({
    medication: z.object({ formularyId: z.string(), name: z.string() }),
    dose: z.string(),
    route: z.union([z.literal(''), z.enum(MEDICATION_ROUTES)]),
    frequency: z.string(),
    start: z.string(),
    stop: z.string(),
    status: z.enum(MEDICATION_STATUSES),
    stopReason: z.string(),
    source: z.enum(MEDICATION_SOURCES),
    note: z.string(),
  })
  .transform((v): z.input<typeof ZMedicationFields> => ({
    medication: { formularyId: v.medication.formularyId || null, name: v.medication.name.trim() || null },
    dose: v.dose.trim() || null,
    route: v.route || null,
    frequency: v.frequency.trim() || null,
    start: v.start || null,
    stop: v.stop || null,
    status: v.status,
    stopReason: v.stopReason.trim() || null,
    source: v.source,
    note: v.note.trim() || null,
  }))
  .pipe(ZMedicationFields);

const FIELDS = ['medication.formularyId', 'medication.name', 'dose', 'route', 'frequency', 'start', 'stop', 'status', 'stopReason', 'source', 'note'] as const;

/** 'Add medication' or 'Edit medication': one from the formulary (or free text), dose, route, frequency, course, status and where it came from. */
export function MedicationDialog({
  patientId,
  medication,
  user,
  initialName = '',
  onClose,
}: {
  patientId: string;
  medication: TMedication | null;
  user: TCurrentUser;
  /** A new entry's medication as first typed (from the notes of her previous record). */
  initialName?: string;
  onClose: () => void;
}) {
  const record = useRecordEntry<TMedication>('medications');
  const change = useChangeEntry<TMedication>('medications');
  const busy = record.isPending || change.isPending;
  const form = useAppForm<TMedicationFormValues, z.output<typeof ZMedicationForm>>({
    schema: ZMedicationForm,
    defaultValues: medication ? valuesOf(medication) : { ...valuesOf(null), medication: { formularyId: '', name: initialName } },
    fields: FIELDS,
  });
  const errors = form.formState.errors;
  const stopped = form.watch('status') === 'stopped';
  const onSubmit = form.onSubmit((fields) => {
    const done = (saved: TMedication) => {
      toast({
        title: medication ? 'Medication updated' : saved.state === 'draft' ? 'Medication drafted for a nurse to confirm' : 'Medication recorded',
        variant: 'success',
      });
      onClose();
    };
    const failed = (error: unknown) =>
      form.failed(error, medication ? 'Could not update the medication' : 'Could not record the medication', { withReason: true });
    if (medication)
      change.mutate({ patientId, entryId: medication.id, change: { ...fields, version: medication.version } }, { onSuccess: done, onError: failed });
    else record.mutate({ patientId, fields }, { onSuccess: done, onError: failed });
  });
  const medicationError = errors.medication?.formularyId?.message ?? errors.medication?.name?.message ?? errors.medication?.message;
  const text = (name: 'dose' | 'frequency', label: string, placeholder: string) => (
    <FormField id={`medication-${name}`} label={label} error={errors[name]?.message} testId={name}>
      {(controlProps) => <Input {...controlProps} placeholder={placeholder} maxLength={CHART_LIMITS[name]} {...form.register(name)} disabled={busy} />}
    </FormField>
  );
  const day = (name: 'start' | 'stop', label: string) => (
    <FormField id={`medication-${name}`} label={label} required={name === 'stop' && stopped} error={errors[name]?.message} testId={name}>
      {(controlProps) => <Input {...controlProps} type="date" {...form.register(name)} disabled={busy} />}
    </FormField>
  );
  return (
    <FormDialog
      onClose={onClose}
      title={medication ? 'Edit medication' : 'Add medication'}
      description={entryDialogDescription(user)}
      className="max-w-xl"
      testId="medication-dialog"
    >
      <form noValidate autoComplete="off" className="space-y-4" onSubmit={onSubmit}>
        <FormField id="medication-name" label="Medication" required error={medicationError} testId="medication">
          {(controlProps) => (
            <Controller
              control={form.control}
              name="medication"
              render={({ field }) => (
                <CataloguePicker
                  id={controlProps.id}
                  text={field.value.name}
                  codedAs={field.value.formularyId ? 'From the formulary' : null}
                  placeholder="Type a medication's name"
                  useOptions={useFormularyOptions}
                  onType={(name) => field.onChange({ formularyId: '', name })}
                  onChoose={({ option }) => {
                    field.onChange({ formularyId: option.id, name: option.name });
                    if (option.route) form.setValue('route', option.route, { shouldDirty: true });
                  }}
                  invalid={Boolean(medicationError)}
                  describedBy={controlProps['aria-describedby']}
                  disabled={busy}
                />
              )}
            />
          )}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          {text('dose', 'Dose', 'e.g. 1 tablet')}
          <Choice
            id="medication-route"
            label="Route"
            options={MEDICATION_ROUTES}
            labels={ROUTE_LABELS}
            blank="Not known"
            {...form.register('route')}
            disabled={busy}
          />
          {text('frequency', 'Frequency', 'e.g. once daily')}
          <Choice
            id="medication-source"
            label="Source"
            options={MEDICATION_SOURCES}
            labels={MEDICATION_SOURCE_LABELS}
            {...form.register('source')}
            disabled={busy}
          />
          {day('start', 'Started')}
          {day('stop', 'Stopped')}
          <Choice
            id="medication-status"
            label="Status"
            options={MEDICATION_STATUSES.filter((s) => s !== 'entered_in_error')}
            labels={MEDICATION_STATUS_LABELS}
            {...form.register('status')}
            disabled={busy}
          />
        </div>
        {stopped && (
          <FormField id="medication-stop-reason" label="Why it was stopped" error={errors.stopReason?.message} testId="stopReason">
            {(controlProps) => <Input {...controlProps} maxLength={CHART_LIMITS.reason} {...form.register('stopReason')} disabled={busy} />}
          </FormField>
        )}
        <FormField id="medication-note" label="Note" error={errors.note?.message} testId="note">
          {(controlProps) => <Textarea {...controlProps} rows={2} maxLength={CHART_LIMITS.note} {...form.register('note')} disabled={busy} />}
        </FormField>
        {form.formError && <FormErrorAlert error={form.formError} testId="medication-error" />}
        <FormDialogFooter saving={busy} submitLabel={medication ? 'Save Medication' : 'Add Medication'} onCancel={onClose} />
      </form>
    </FormDialog>
  );
}
