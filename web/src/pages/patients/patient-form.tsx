import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { UseFormRegister, FieldError } from 'react-hook-form';
import { format } from 'date-fns';
import { ZPatientFields, type TDuplicatePatients, type TPatient, type TPatientFieldsInput } from '#domain/patients';
import type { z } from 'zod';
import { possibleDuplicates, useCreatePatient } from '../../api/patients/create-patient.ts';
import { reloadPatient } from '../../api/patients/patient.ts';
import { invalidatePatients } from '../../api/patients/patients.ts';
import { isStaleEdit, useUpdatePatient } from '../../api/patients/update-patient.ts';
import { FormErrorAlert } from '../../components/form-error-alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { DialogClose } from '../../components/ui/dialog.tsx';
import { StickyDialogFooter } from '../../components/ui/form-dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { StaleBanner } from '../../components/ui/stale-banner.tsx';
import { SELECT_CLASS } from '../../components/ui/select.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { describeApiError, isUnauthorizedError } from '../../lib/api-errors.ts';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { cn } from '../../lib/utils.ts';
import { DeactivatePatient } from './deactivate-patient.tsx';
import { DuplicateWarning } from './duplicate-warning.tsx';
import { PatientChartSummary } from './patient-chart-summary.tsx';
import { PATIENT_FIELD_NAMES, PATIENT_FORM_SECTIONS, toFormValues, type TPatientFieldName, type TPatientFieldSpec } from './patient-form-fields.ts';

type TPatientFields = z.output<typeof ZPatientFields>;

const DUPLICATE_KEYS: readonly string[] = ['firstName', 'lastName', 'dateOfBirth'] satisfies TPatientFieldName[];

export interface TPatientFormProps {
  /** null: a new patient. */
  patient: TPatient | null;
  canDeactivate: boolean;
  /** Her chart's link under Medical Information (chart.read). */
  showChartLink?: boolean;
  /** The save (or deactivation) succeeded: the dialog closes. */
  onDone: () => void;
}

/**
 * The patient form (spec sections 2 and 5): validated in the browser with the same schema the
 * server uses, with the server's own field errors shown under the fields too.
 */
export function PatientForm({ patient: initialPatient, canDeactivate, showChartLink = false, onDone }: TPatientFormProps) {
  const queryClient = useQueryClient();
  // The record being edited; replaced when the user reloads it after someone else's change.
  const [patient, setPatient] = useState(initialPatient);
  const [duplicates, setDuplicates] = useState<TDuplicatePatients['duplicates'] | null>(null);
  const [staleMessage, setStaleMessage] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  const create = useCreatePatient();
  const update = useUpdatePatient();
  const saving = create.isPending || update.isPending;
  const editing = patient !== null;

  const form = useAppForm<TPatientFieldsInput, TPatientFields>({
    schema: ZPatientFields,
    defaultValues: toFormValues(initialPatient),
    fields: PATIENT_FIELD_NAMES,
  });
  const { register, onSubmit: submitWith, reset, watch, formState, failed } = form;

  // A warning about people with this name and birth date no longer applies once those change.
  useEffect(() => {
    const subscription = watch((_values, { name }) => {
      if (name && DUPLICATE_KEYS.includes(name)) setDuplicates(null);
    });
    return () => subscription.unsubscribe();
  }, [watch]);

  const submitCreate = (values: TPatientFields, confirmDuplicate: boolean) => {
    create.mutate(confirmDuplicate ? { ...values, confirmDuplicate: true } : values, {
      onSuccess: () => {
        toast({ title: 'Patient created successfully', variant: 'success' });
        onDone();
      },
      onError: (error) => {
        const matches = possibleDuplicates(error);
        // Not a failure: a question for the user, answered inside the form.
        if (matches) setDuplicates(matches);
        else failed(error, 'Failed to create patient');
      },
    });
  };

  const submitUpdate = (values: TPatientFields, record: TPatient) => {
    // Only the fields the user changed, and of those only what differs from the record (spec section 7, PUT).
    const changes = form.changedValues(values, record);
    if (Object.keys(changes).length === 0) {
      toast({ title: 'No changes to save' });
      onDone();
      return;
    }
    update.mutate(
      { id: record.id, changes: { ...changes, updatedAt: record.updatedAt } },
      {
        onSuccess: () => {
          toast({ title: 'Patient updated successfully', variant: 'success' });
          onDone();
        },
        onError: (error) => {
          if (isStaleEdit(error)) {
            setStaleMessage(describeApiError(error).message);
            reportMutationError(error, 'Failed to update patient');
          } else {
            failed(error, 'Failed to update patient');
          }
        },
      },
    );
  };

  const onSubmit = submitWith((values) => (patient ? submitUpdate(values, patient) : submitCreate(values, false)));
  const onCreateAnyway = submitWith((values) => submitCreate(values, true));

  const reload = async () => {
    if (!patient) return;
    setReloading(true);
    try {
      const fresh = await reloadPatient(queryClient, patient.id);
      setPatient(fresh);
      reset(toFormValues(fresh));
      setStaleMessage(null);
      form.setFormError(null);
      void invalidatePatients(queryClient);
    } catch (error) {
      if (!isUnauthorizedError(error)) form.setFormError(describeApiError(error));
    } finally {
      setReloading(false);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate autoComplete="off" aria-label={editing ? 'Edit patient' : 'New patient'} className="space-y-6">
      {PATIENT_FORM_SECTIONS.map((section) => (
        <fieldset key={section.title} className="space-y-3">
          <legend className="mb-3 w-full border-b pb-1 text-sm font-semibold text-slate-900">{section.title}</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            {section.fields.map((field) => (
              <PatientField key={field.name} field={field} register={register} error={formState.errors[field.name]} />
            ))}
          </div>
          {section.title === 'Medical Information' && <PatientChartSummary patient={patient} showChartLink={showChartLink} />}
        </fieldset>
      ))}

      {staleMessage && patient && (
        <StaleBanner message={staleMessage} reloadLabel="Reload patient" reloading={reloading} onReload={() => void reload()} testId="patient-stale" />
      )}

      {form.formError && <FormErrorAlert error={form.formError} testId="patient-form-error" />}

      {duplicates && !editing && (
        <DuplicateWarning
          duplicates={duplicates}
          saving={saving}
          onCreateAnyway={() => void onCreateAnyway()}
          // Same as the dialog's own 'Cancel': nothing is created. (Changing the name or date of
          // birth instead clears the warning and keeps the form.)
          onCancel={onDone}
        />
      )}

      {editing && canDeactivate && patient.isActive && <DeactivatePatient patient={patient} disabled={saving} onDone={onDone} onStale={setStaleMessage} />}

      <StickyDialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={saving}>
          {saving && <Spinner className="size-4 text-white" />}
          {saving ? 'Saving...' : editing ? 'Update Patient' : 'Create Patient'}
        </Button>
      </StickyDialogFooter>
    </form>
  );
}

function PatientField({ field, register, error }: { field: TPatientFieldSpec; register: UseFormRegister<TPatientFieldsInput>; error: FieldError | undefined }) {
  return (
    <FormField
      id={`patient-${field.name}`}
      label={field.label}
      required={field.required}
      error={error?.message}
      testId={field.name}
      className={cn(field.wide && 'sm:col-span-2')}
    >
      {(control) => {
        const common = { ...control, maxLength: field.maxLength, required: field.required, ...register(field.name) };
        if (field.multiline) return <Textarea rows={field.name === 'address' ? 2 : 3} {...common} />;
        if (field.options) {
          return (
            <select className={SELECT_CLASS} {...control} {...register(field.name)}>
              {field.options.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          );
        }
        // The picker offers no future day; the schema still says why a typed one is refused.
        if (field.type === 'date') return <Input type="date" min="1880-01-01" max={format(new Date(), 'yyyy-MM-dd')} {...common} />;
        return <Input type={field.type ?? 'text'} {...common} />;
      }}
    </FormField>
  );
}
