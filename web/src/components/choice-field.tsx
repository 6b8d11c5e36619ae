import type { ComponentProps } from 'react';
import { FormField } from './ui/form-field.tsx';
import { SELECT_CLASS } from './ui/select.tsx';

/** A labelled select of coded values. */
export function Choice<V extends string>({
  id,
  label,
  options,
  labels,
  blank,
  required,
  error,
  ...select
}: { id: string; label: string; options: readonly V[]; labels: Record<V, string>; blank?: string; required?: boolean; error?: string | undefined } & Omit<
  ComponentProps<'select'>,
  'id'
>) {
  return (
    <FormField id={id} label={label} required={required} error={error}>
      {(controlProps) => (
        <select {...controlProps} className={SELECT_CLASS} {...select}>
          {blank !== undefined && <option value="">{blank}</option>}
          {options.map((option) => (
            <option key={option} value={option}>
              {labels[option]}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
