import { CircleExclamationPoint } from 'lucide-react';
import type { TDisplayError } from '../lib/api-errors.ts';

/** A form's failed save that no field shows: why, and any field errors of fields it does not have. */
export function FormErrorAlert({ error, testId }: { error: TDisplayError; testId: string }) {
  return (
    <div role="alert" data-testid={testId} className="flex gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm">
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
