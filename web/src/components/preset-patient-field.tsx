import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useController, type FieldValues, type Path, type PathValue, type UseFormReturn } from 'react-hook-form';
import { patientQueryOptions } from '../api/patients/patient.ts';
import { PatientPicker, type TChosenPatient } from './patient-picker.tsx';
import { FormField } from './ui/form-field.tsx';
import { Spinner } from './ui/spinner.tsx';

/**
 * A form's patient: searched for, or the screen's own patient (`presetPatientId`: a list
 * filtered to her) once her record is read, until the user changes it. `onPreset` puts her in
 * the form without marking it changed by the user. The note, lab order and prescription forms
 * share it, through FormPatientField.
 */
export function PresetPatientField({
  id,
  presetPatientId,
  value,
  error,
  disabled,
  onChange,
  onBlur,
  onPreset,
}: {
  id: string;
  presetPatientId: string | undefined;
  value: TChosenPatient | null;
  error: string | undefined;
  disabled: boolean;
  onChange: (patient: TChosenPatient | null) => void;
  onBlur: () => void;
  onPreset: (patient: TChosenPatient) => void;
}) {
  const preset = useQuery({ ...patientQueryOptions(presetPatientId ?? ''), enabled: Boolean(presetPatientId) });
  const applied = useRef(false);
  useEffect(() => {
    if (!preset.data || applied.current) return;
    applied.current = true;
    onPreset(preset.data);
  }, [preset.data, onPreset]);
  const loading = Boolean(presetPatientId) && value === null && preset.isPending;
  return (
    <FormField id={id} label="Patient" required error={error} testId="patientId">
      {(control) =>
        loading ? (
          <p className="flex h-10 items-center gap-2 text-sm text-slate-600" role="status">
            <Spinner className="size-4" />
            Loading patient…
          </p>
        ) : (
          <PatientPicker control={control} value={value} disabled={disabled} onChange={onChange} onBlur={onBlur} />
        )
      }
    </FormField>
  );
}

/**
 * A form's `patient` field as a PresetPatientField: searched for, or the screen's patient once
 * her record is read (until the user changes it; a patient she chose is never replaced).
 */
export function FormPatientField<T extends FieldValues & { patient: TChosenPatient | null }, TOutput>({
  form,
  id,
  presetPatientId,
  disabled,
}: {
  form: UseFormReturn<T, unknown, TOutput>;
  id: string;
  presetPatientId: string | undefined;
  disabled: boolean;
}) {
  const name = 'patient' as Path<T>;
  const { field, fieldState } = useController({ control: form.control, name });
  const { getValues, setValue } = form;
  const onPreset = useCallback(
    (patient: TChosenPatient) => getValues(name) === null && setValue(name, patient as PathValue<T, Path<T>>),
    [getValues, setValue, name],
  );
  return (
    <PresetPatientField
      id={id}
      presetPatientId={presetPatientId}
      value={field.value as TChosenPatient | null}
      error={fieldState.error?.message}
      disabled={disabled}
      onChange={field.onChange}
      onBlur={field.onBlur}
      onPreset={onPreset}
    />
  );
}
