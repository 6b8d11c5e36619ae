import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { patientQueryOptions } from '../api/patients/patient.ts';
import { PatientPicker, type TChosenPatient } from './patient-picker.tsx';
import { FormField } from './ui/form-field.tsx';
import { Spinner } from './ui/spinner.tsx';

/**
 * A form's patient: searched for, or the screen's own patient (`presetPatientId`: a list
 * filtered to her) once her record is read, until the user changes it. `onPreset` puts her in
 * the form without marking it changed by the user. The note form and the lab order form share it.
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
