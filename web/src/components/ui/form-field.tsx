import type { ReactNode } from 'react';
import { cn } from '../../lib/utils.ts';
import { Label } from './label.tsx';

/** What the control inside a FormField must carry so its label and error reach screen readers. */
export interface TFieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export interface TFormFieldProps {
  id: string;
  label: ReactNode;
  /** Marks the label with a red asterisk (the control still needs its own `required`). */
  required?: boolean;
  /** Shown in red under the control (spec section 2: field errors in red under each field). */
  error?: string | undefined;
  /** What the field wants, said under the control (and read with it by screen readers). */
  hint?: ReactNode;
  /** Names the error for tests (`<testId>-error`); defaults to the id. */
  testId?: string;
  className?: string;
  children: (control: TFieldControlProps) => ReactNode;
}

/** A label, its control and the field's error, wired together once for every form. */
export function FormField({ id, label, required, error, hint, testId, className, children }: TFormFieldProps) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('space-y-2', className)}>
      <Label htmlFor={id}>
        {label}
        {required && (
          <span className="ml-0.5 text-red-700" aria-hidden="true">
            *
          </span>
        )}
      </Label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} data-testid={`${testId ?? id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
