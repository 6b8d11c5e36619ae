import type { ComponentProps } from 'react';
import { APPOINTMENT_DURATIONS } from '#domain/appointments';
import { cn } from '../../lib/utils.ts';
import { SELECT_CLASS } from '../ui/select.tsx';

/** An appointment's length, from the spec's choices (section 5): the scheduling and the rescheduling forms. */
export function DurationSelect({ className, ...props }: ComponentProps<'select'>) {
  return (
    <select className={cn(SELECT_CLASS, className)} {...props}>
      {APPOINTMENT_DURATIONS.map((minutes) => (
        <option key={minutes} value={minutes}>
          {minutes} minutes
        </option>
      ))}
    </select>
  );
}
