import type { ReactNode } from 'react';
import { Label } from './label.tsx';

/** A native select styled as the inputs are: native, so it works the same with a keyboard, a screen reader and on a phone. */
export const SELECT_CLASS =
  'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1 disabled:cursor-not-allowed disabled:opacity-50 aria-[invalid=true]:border-destructive';

export interface TFilterChoice {
  value: string;
  label: string;
}

/**
 * One filter of a list: its label, then a select whose empty value ("All roles", "Anyone") means
 * no filter, before the choices. `children` go under it (a line saying the choices failed to load).
 */
export function FilterSelect({
  id,
  label,
  allLabel,
  value,
  choices,
  onChange,
  busy,
  describedBy,
  children,
}: {
  id: string;
  label: string;
  allLabel: string;
  value: string;
  choices: readonly TFilterChoice[];
  onChange: (value: string) => void;
  /** The choices are still loading. */
  busy?: boolean;
  /** The id of a hint under it, read with the select. */
  describedBy?: string | undefined;
  children?: ReactNode;
}) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        className={SELECT_CLASS}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-busy={busy || undefined}
        aria-describedby={describedBy}
      >
        <option value="">{allLabel}</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      {children}
    </div>
  );
}
