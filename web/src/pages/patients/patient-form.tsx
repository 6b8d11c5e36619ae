import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { CircleExclamationPoint, RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm, type UseFormRegister, type FieldError } from 'react-hook-form';
import { format } from 'date-fns';
import { ZPatientFields, type TDuplicatePatients, type TPatient, type TPatientFieldsInput } from '#domain/patients';
import type { z } from 'zod';
import { possibleDuplicates, useCreatePatient } from '../../api/patients/create-patient.ts';
import { reloadPatient } from '../../api/patients/patient.ts';
import { invalidatePatients } from '../../api/patients/patients.ts';
import { isStaleEdit, useUpdatePatient } from '../../api/patients/update-patient.ts';
import { Button } from '../../components/ui/button.tsx';
import { DialogClose, DialogFooter } from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { describeApiError, isUnauthorizedError, type TDisplayError } from '../../lib/api-errors.ts';
import { placeFieldErrors } from '../../lib/form-errors.ts';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { cn } from '../../lib/utils.ts';
import { DeactivatePatient } from './deactivate-patient.tsx';
import { DuplicateWarning } from './duplicate-warning.tsx';
import {
  PATIENT_FIELD_NAMES, PATIENT_FORM_SECTIONS, toFormValues,
  type TPatientFieldName, type TPatientFieldSpec,
} from './patient-form-fields.ts';

type TPatientFields = z.output<typeof ZPatientFields>;

/** The fields that differ from the record: only those are sent (spec section 7, PUT). */
function changedFields(values: TPatientFields, patient: TPatient): Partial<TPatientFields> {
  const changes: Partial<Record<TPatientFieldName, string | null>> = {};
  for (const name of PATIENT_FIELD_NAMES) {
    if (values[name] !== patient[name]) changes[name] = values[name];
  }
  return changes as Partial<TPatientFields>;
}

const DUPLICATE_KEYS: readonly string[] = ['firstName', 'lastName', 'dateOfBirth'] satisfies TPatientFieldName[];

export interface TPatientFormProps {
  /** null: a new patient. */
  patient: TPatient | null;
  canDeactivate: boolean;
  /** The save (or deactivation) succeeded: the dialog closes. */
  onDone: () => void;
}

/**
 * The patient form (spec sections 2 and 5): validated in the browser with the same schema the
 * server uses, with the server's own field errors shown under the fields too.
 */
export function PatientForm({ patient: initialPatient, canDeactivate, onDone }: TPatientFormProps) {
  const queryClient = useQueryClient();
  // The record being edited; replaced when the user reloads it after someone else's change.
  const [patient, setPatient] = useState(initialPatient);
  const [duplicates, setDuplicates] = useState<TDuplicatePatients['duplicates'] | null>(null);
  const [formError, setFormError] = useState<TDisplayError | null>(null);
  const [staleMessage, setStaleMessage] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  const create = useCreatePatient();
  const update = useUpdatePatient();
  const saving = create.isPending || update.isPending;
  const editing = patient !== null;

  const form = useForm<TPatientFieldsInput, unknown, TPatientFields>({
    resolver: zodResolver(ZPatientFields),
    defaultValues: toFormValues(initialPatient),
  });
  const { register, handleSubmit, reset, watch, formState } = form;

  // A warning about people with this name and birth date no longer applies once those change.
  useEffect(() => {
    const subscription = watch((_values, { name }) => {
      if (name && DUPLICATE_KEYS.includes(name)) setDuplicates(null);
    });
    return () => subscription.unsubscribe();
  }, [watch]);

  const failed = (error: unknown, description: string) => {
    const described = reportMutationError(error, description);
    if (!described) return;
    // Errors on the form's own fields show under them; only the rest need the summary box.
    const unplaced = placeFieldErrors(form, described.fieldErrors, PATIENT_FIELD_NAMES);
    const allPlaced = described.fieldErrors.length > 0 && unplaced.length === 0;
    setFormError(allPlaced ? null : { ...described, fieldErrors: unplaced });
  };

  const submitCreate = (values: TPatientFields, confirmDuplicate: boolean) => {
    setFormError(null);
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
    setFormError(null);
    const changes = changedFields(values, record);
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

  const onSubmit = handleSubmit((values) => (patient ? submitUpdate(values, patient) : submitCreate(values, false)));
  const onCreateAnyway = handleSubmit((values) => submitCreate(values, true));

  const reload = async () => {
    if (!patient) return;
    setReloading(true);
    try {
      const fresh = await reloadPatient(queryClient, patient.id);
      setPatient(fresh);
      reset(toFormValues(fresh));
      setStaleMessage(null);
      setFormError(null);
      void invalidatePatients(queryClient);
    } catch (error) {
      if (!isUnauthorizedError(error)) setFormError(describeApiError(error));
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
        </fieldset>
      ))}

      {staleMessage && patient && (
        <div role="alert" data-testid="patient-stale" className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm sm:flex-row sm:items-center">
          <p className="flex-1 text-amber-900">{staleMessage}</p>
          <Button variant="outline" size="sm" onClick={() => void reload()} disabled={reloading}>
            {reloading ? <Spinner className="size-4" /> : <RefreshCw aria-hidden="true" />}
            Reload patient
          </Button>
        </div>
      )}

      {formError && <FormError error={formError} />}

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

      {editing && canDeactivate && patient.isActive && (
        <DeactivatePatient patient={patient} disabled={saving} onDone={onDone} onStale={setStaleMessage} />
      )}

      {/* Kept in view at the foot of the scrolling dialog, so saving never needs a scroll. */}
      <DialogFooter className="sticky -bottom-6 z-10 -mx-6 -mb-6 flex-row justify-end border-t bg-background px-6 py-4">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={saving}>
          {saving && <Spinner className="size-4 text-white" />}
          {saving ? 'Saving...' : editing ? 'Update Patient' : 'Create Patient'}
        </Button>
      </DialogFooter>
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
        // The picker offers no future day; the schema still says why a typed one is refused.
        if (field.type === 'date') return <Input type="date" min="1880-01-01" max={format(new Date(), 'yyyy-MM-dd')} {...common} />;
        return <Input type={field.type ?? 'text'} {...common} />;
      }}
    </FormField>
  );
}

function FormError({ error }: { error: TDisplayError }) {
  return (
    <div role="alert" data-testid="patient-form-error" className="flex gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm">
      <CircleExclamationPoint className="mt-0.5 size-4 shrink-0 text-red-700" aria-hidden="true" />
      <div>
        <p className="font-semibold text-red-900">{error.code === 'auth.forbidden' ? 'Not allowed' : 'Could not save'}</p>
        <p className="text-red-800">{error.message}</p>
        {error.fieldErrors.length > 0 && (
          <ul className="mt-1 list-disc pl-4 text-red-800">
            {error.fieldErrors.map((fieldError) => (
              <li key={`${fieldError.path}:${fieldError.message}`}>
                {fieldError.path}: {fieldError.message}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
