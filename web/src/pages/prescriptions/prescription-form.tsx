import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import type { TCurrentUser } from '#domain/auth';
import { MEDICATION_ROUTES } from '#domain/chart';
import { PRESCRIPTION_LIMITS, type TPrescription } from '#domain/prescriptions';
import { daysOfSupply, DOSE_UNITS, SIG_LIMITS, sigSentence } from '#domain/sig';
import { chartQueryOptions } from '../../api/chart/chart.ts';
import { useSigningPrescribers } from '../../api/prescriptions/prescriptions.ts';
import { useCreatePrescription, usePrescriptionChecks, useUpdatePrescription } from '../../api/prescriptions/prescription-writes.ts';
import { CataloguePicker } from '../../components/catalogue-picker.tsx';
import { PatientAllergyBanner } from '../../components/chart/patient-allergy-banner.tsx';
import { ROUTE_LABELS } from '../../components/chart/route-labels.ts';
import { useFormularyOptions } from '../../components/chart/formulary-options.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { FormPatientField } from '../../components/preset-patient-field.tsx';
import { FormDialogFooter } from '../../components/ui/form-dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm, type TAppForm } from '../../lib/use-app-form.ts';
import { Choice } from '../../components/choice-field.tsx';
import { PrescriptionAlerts } from './prescription-alerts.tsx';
import {
  checkBody,
  emptyPrescriptionValues,
  FREQUENCY_CODES,
  PRESCRIPTION_FIELDS,
  PRESCRIPTION_SERVER_PATHS,
  prescriptionBody,
  prescriptionChecks,
  prescriptionFormSchema,
  typedSig,
  unitOfForm,
  valuesOfPrescription,
  type TPrescriptionOutput,
  type TPrescriptionValues,
} from './prescription-form-values.ts';
import { FREQUENCY_LABELS, unitLabels } from './prescription-labels.ts';

type TForm = TAppForm<TPrescriptionValues, TPrescriptionOutput>;

const UNIT_LABELS = unitLabels(DOSE_UNITS);
/** The checks are asked again this long after the last keystroke. */
const CHECK_DEBOUNCE_MS = 300;

/**
 * A prescription written or a draft rewritten (issue 52): the patient (her allergy banner under
 * her name), a medication of the formulary (by name or brand), the sig from its fields and read
 * back as the sentence the patient will read, how much and for how long, what it treats, who
 * signs, a note to the pharmacy; the checks against her chart shown as it is written.
 */
export function PrescriptionForm({
  user,
  draft,
  presetPatientId,
  appointmentId,
  onCancel,
  onSaved,
}: {
  user: TCurrentUser;
  /** The visit it is written at (from the visit's 'Prescribe'): kept with it, so the visit shows it. */
  appointmentId?: string | undefined;
  /** The draft rewritten; null for a new one. */
  draft: TPrescription | null;
  presetPatientId: string | undefined;
  onCancel: () => void;
  onSaved: (rx: TPrescription) => void;
}) {
  const create = useCreatePrescription();
  const update = useUpdatePrescription();
  const saving = create.isPending || update.isPending;
  const form = useAppForm<TPrescriptionValues, TPrescriptionOutput>({
    schema: prescriptionFormSchema,
    check: prescriptionChecks,
    defaultValues: draft ? valuesOfPrescription(draft) : emptyPrescriptionValues(''),
    fields: PRESCRIPTION_FIELDS,
    serverPaths: PRESCRIPTION_SERVER_PATHS,
  });
  const errors = form.formState.errors;
  const values = useWatch({ control: form.control }) as TPrescriptionValues;
  const sig = typedSig(values);
  const lasts = sig && values.quantityUnit === sig.doseUnit && Number(values.quantity) > 0 ? daysOfSupply(sig, Number(values.quantity)) : null;
  // Debounced as text: a new object every render would never settle.
  const asked = useDebouncedValue(JSON.stringify(checkBody(values, draft?.id)), CHECK_DEBOUNCE_MS);
  const checks = usePrescriptionChecks(JSON.parse(asked) as ReturnType<typeof checkBody>);

  const onSubmit = form.onSubmit((output) => {
    const body = prescriptionBody(output);
    const failed = (error: unknown) => void form.failed(error, draft ? 'Could not save the draft' : 'Could not write the prescription');
    const saved = (rx: TPrescription) => {
      toast({
        title: draft ? 'Draft saved' : 'Prescription drafted',
        description: `${rx.number}: ${rx.medicationName} for ${rx.patientName}`,
        variant: 'success',
      });
      onSaved(rx);
    };
    // The visit goes only with its own patient (she may have been changed in the form).
    const visit = appointmentId && output.patient === presetPatientId ? appointmentId : null;
    if (draft) update.mutate({ id: draft.id, body: { ...body, updatedAt: draft.updatedAt } }, { onSuccess: saved, onError: failed });
    else create.mutate({ ...body, patientId: output.patient, appointmentId: visit }, { onSuccess: saved, onError: failed });
  });

  const number = (
    name: 'doseAmount' | 'durationDays' | 'quantity' | 'refills' | 'daysSupply',
    label: string,
    options: { max: number; step?: string; placeholder?: string; required?: boolean },
  ) => (
    <FormField id={`rx-${name}`} label={label} required={options.required} error={errors[name]?.message} testId={name}>
      {(control) => (
        <Input
          {...control}
          type="number"
          inputMode="decimal"
          min={0}
          max={options.max}
          step={options.step ?? '1'}
          placeholder={options.placeholder}
          {...form.register(name)}
          disabled={saving}
        />
      )}
    </FormField>
  );

  return (
    <form noValidate autoComplete="off" aria-label={draft ? 'Edit prescription' : 'New prescription'} className="space-y-4" onSubmit={onSubmit}>
      {draft ? (
        <div className="space-y-2">
          <p className="text-sm">
            <span className="font-medium">Patient: </span>
            <span data-testid="rx-patient">{draft.patientName}</span>
          </p>
          <PatientAllergyBanner patientId={draft.patientId} />
        </div>
      ) : (
        <FormPatientField form={form} id="rx-patient" presetPatientId={presetPatientId} disabled={saving} />
      )}

      <DrugField form={form} initialText={draft?.medicationName ?? ''} disabled={saving} />

      <SigFields form={form} values={values} number={number} disabled={saving} />

      <div className="grid gap-3 sm:grid-cols-2">
        {number('quantity', 'Quantity', { max: PRESCRIPTION_LIMITS.quantity, step: 'any', required: true })}
        <Choice
          id="rx-quantityUnit"
          label="Quantity unit"
          required
          options={DOSE_UNITS}
          labels={UNIT_LABELS}
          blank="Choose"
          error={errors.quantityUnit?.message}
          {...form.register('quantityUnit')}
          disabled={saving}
        />
        {number('refills', 'Refills', { max: values.drug?.schedule === 'II' ? 0 : PRESCRIPTION_LIMITS.refills })}
        {number('daysSupply', "Days' supply", { max: PRESCRIPTION_LIMITS.supplyDays, placeholder: lasts !== null ? `${lasts} at this sig` : undefined })}
      </div>
      <label className="flex items-center gap-2 text-sm" htmlFor="rx-substitutionAllowed">
        <input id="rx-substitutionAllowed" type="checkbox" className="size-4 accent-blue-700" {...form.register('substitutionAllowed')} disabled={saving} />
        Generic substitution allowed
      </label>

      <div className="grid gap-3 sm:grid-cols-2">
        <DiagnosisChoice form={form} patientId={values.patient?.id ?? null} disabled={saving} />
        <PrescriberChoice form={form} user={user} schedule={values.drug?.schedule ?? null} disabled={saving} />
      </div>

      <FormField id="rx-pharmacyNote" label="Note to the pharmacy" error={errors.pharmacyNote?.message} testId="pharmacyNote">
        {(control) => <Textarea {...control} rows={2} maxLength={PRESCRIPTION_LIMITS.pharmacyNote} {...form.register('pharmacyNote')} disabled={saving} />}
      </FormField>

      <ChecksSection checks={checks} ready={Boolean(values.patient && values.drug)} />

      {form.formError && <FormErrorAlert error={form.formError} testId="rx-form-error" />}
      <FormDialogFooter saving={saving} submitLabel={draft ? 'Save Draft' : 'Save as Draft'} onCancel={onCancel} />
    </form>
  );
}

/** What it treats: a problem of her list (active ones first), once her chart is read. */
function DiagnosisChoice({ form, patientId, disabled }: { form: TForm; patientId: string | null; disabled: boolean }) {
  const chart = useQuery({ ...chartQueryOptions(patientId ?? ''), enabled: patientId !== null });
  const problems = patientId ? (chart.data?.problems ?? []).filter((p) => p.verification !== 'entered_in_error') : [];
  const ordered = [...problems].sort((a, b) => Number(b.clinicalStatus === 'active') - Number(a.clinicalStatus === 'active'));
  return (
    <FormField id="rx-diagnosisId" label="For (diagnosis)" error={form.formState.errors.diagnosisId?.message} testId="diagnosisId">
      {(control) => (
        <select {...control} className={SELECT_CLASS} {...form.register('diagnosisId')} disabled={disabled || !patientId}>
          <option value="">{!patientId ? 'Choose the patient first' : chart.isPending ? 'Loading her problem list…' : 'Not given'}</option>
          {ordered.map((p) => (
            <option key={p.id} value={p.id}>
              {p.condition.name}
              {p.condition.code ? ` (${p.condition.code})` : ''}
              {p.clinicalStatus !== 'active' ? ` (${p.clinicalStatus})` : ''}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

type TNumberField = (
  name: 'doseAmount' | 'durationDays' | 'quantity' | 'refills' | 'daysSupply',
  label: string,
  options: { max: number; step?: string; placeholder?: string; required?: boolean },
) => ReactNode;

/** The medication: typed, then chosen from the formulary (by name, brand or ingredient); its route and count unit fill in. */
function DrugField({ form, initialText, disabled }: { form: TForm; initialText: string; disabled: boolean }) {
  // What is typed until one is chosen (the form keeps only a formulary item).
  const [text, setText] = useState(initialText);
  return (
    <FormField id="rx-drug" label="Medication" required error={form.formState.errors.drug?.message} testId="drug">
      {(control) => (
        <Controller
          control={form.control}
          name="drug"
          render={({ field }) => (
            <CataloguePicker
              id={control.id}
              text={field.value?.name ?? text}
              codedAs={
                field.value
                  ? [field.value.schedule && `Controlled substance, schedule ${field.value.schedule}`, 'From the formulary'].filter(Boolean).join(' · ')
                  : null
              }
              placeholder="Type a name, a brand or an ingredient"
              useOptions={useFormularyOptions}
              freeText={false}
              onType={(text) => {
                setText(text);
                field.onChange(null);
              }}
              onChoose={({ option }) => {
                setText(option.name);
                field.onChange({ id: option.id, name: option.name, schedule: option.schedule, doseForm: option.doseForm });
                const unit = unitOfForm(option.doseForm);
                if (option.route) form.setValue('route', option.route, { shouldDirty: true });
                if (unit) {
                  form.setValue('doseUnit', unit, { shouldDirty: true });
                  form.setValue('quantityUnit', unit, { shouldDirty: true });
                }
              }}
              invalid={Boolean(form.formState.errors.drug)}
              describedBy={control['aria-describedby']}
              disabled={disabled}
            />
          )}
        />
      )}
    </FormField>
  );
}

/** The directions from their fields, read back as the sentence the patient will read. */
function SigFields({ form, values, number, disabled }: { form: TForm; values: TPrescriptionValues; number: TNumberField; disabled: boolean }) {
  const sig = typedSig(values);
  return (
    <fieldset className="space-y-3 rounded-md border p-3">
      <legend className="px-1 text-sm font-medium">Directions (sig)</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {number('doseAmount', 'Dose', { max: SIG_LIMITS.dose, step: 'any', required: true })}
        <Choice
          id="rx-doseUnit"
          label="Dose unit"
          required
          options={DOSE_UNITS}
          labels={UNIT_LABELS}
          blank="Choose"
          error={form.formState.errors.doseUnit?.message}
          {...form.register('doseUnit')}
          disabled={disabled}
        />
        <Choice
          id="rx-route"
          label="Route"
          required
          options={MEDICATION_ROUTES}
          labels={ROUTE_LABELS}
          blank="Choose"
          error={form.formState.errors.route?.message}
          {...form.register('route')}
          disabled={disabled}
        />
        <Choice
          id="rx-frequency"
          label="How often"
          required
          options={FREQUENCY_CODES}
          labels={FREQUENCY_LABELS}
          blank="Choose"
          error={form.formState.errors.frequency?.message}
          {...form.register('frequency')}
          disabled={disabled}
        />
        {number('durationDays', 'For (days)', { max: SIG_LIMITS.durationDays, placeholder: 'Ongoing' })}
      </div>
      <label className="flex items-center gap-2 text-sm" htmlFor="rx-asNeeded">
        <input id="rx-asNeeded" type="checkbox" className="size-4 accent-blue-700" {...form.register('asNeeded')} disabled={disabled} />
        As needed (PRN)
      </label>
      {values.asNeeded && (
        <FormField id="rx-asNeededReason" label="Taken as needed for" required error={form.formState.errors.asNeededReason?.message} testId="asNeededReason">
          {(control) => <Input {...control} maxLength={SIG_LIMITS.reason} placeholder="e.g. pain" {...form.register('asNeededReason')} disabled={disabled} />}
        </FormField>
      )}
      <p className="rounded bg-slate-50 p-2 text-sm text-slate-900" data-testid="rx-sig-sentence" aria-live="polite">
        {sig ? sigSentence(sig) : 'The directions read here as a sentence once the dose, unit, route and how often are given.'}
      </p>
    </fieldset>
  );
}

/** Who is to sign it: the writer when she prescribes (chosen for her), else a prescriber she names; for a controlled substance, one with a DEA number. */
function PrescriberChoice({ form, user, schedule, disabled }: { form: TForm; user: TCurrentUser; schedule: string | null; disabled: boolean }) {
  const prescribers = useSigningPrescribers();
  const mine = prescribers.data?.some((p) => p.userId === user.id) ?? false;
  // Until she picks another, a prescriber writes for herself.
  useEffect(() => {
    if (mine && form.getValues('prescriberId') === '') form.setValue('prescriberId', user.id);
  }, [mine, form, user.id]);
  return (
    <FormField id="rx-prescriberId" label="To be signed by" required error={form.formState.errors.prescriberId?.message} testId="prescriberId">
      {(control) => (
        <select {...control} className={SELECT_CLASS} {...form.register('prescriberId')} disabled={disabled} aria-busy={prescribers.isPending || undefined}>
          <option value="">{prescribers.isPending ? 'Loading prescribers…' : 'Choose a prescriber'}</option>
          {(prescribers.data ?? []).map((p) => (
            <option key={p.userId} value={p.userId} disabled={Boolean(schedule) && !p.controlled}>
              {p.userId === user.id ? `${p.name} (me)` : p.name}
              {schedule && !p.controlled ? ' (no DEA number)' : ''}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** The checks' answer as it is written: the alerts, or why there are none yet, or that they could not run. */
function ChecksSection({ checks, ready }: { checks: ReturnType<typeof usePrescriptionChecks>; ready: boolean }) {
  return (
    <section aria-labelledby="rx-checks-heading" className="space-y-2">
      <h3 id="rx-checks-heading" className="text-sm font-semibold text-slate-900">
        Checks
      </h3>
      {checks.isError ? (
        <p role="alert" className="text-sm text-red-800" data-testid="rx-checks-error">
          The checks could not be run just now; they run again when it is signed.
        </p>
      ) : (
        <PrescriptionAlerts
          alerts={checks.data ?? []}
          checking={checks.isFetching}
          none={ready ? undefined : 'Choose the patient and the medication to check them against her chart.'}
        />
      )}
    </section>
  );
}
