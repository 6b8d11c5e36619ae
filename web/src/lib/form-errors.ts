import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { TFieldError } from '#domain/errors';
import type { TDisplayError } from './api-errors.ts';

/** Where the server's name for a field differs from the form's (the payload's `appointmentDate` is the form's `date`). */
export type TServerPaths<TValues extends FieldValues> = Readonly<Partial<Record<string, Path<TValues>>>>;

/**
 * Shows the server's field errors (a 400's `errors`) under the form's own fields, as if the
 * browser had found them, and moves focus to the first so the user starts there. A path the
 * server names differently is read through `serverPaths`. Paths that name no field of this form
 * are returned, as the server sent them, for the caller to show elsewhere.
 */
export function placeFieldErrors<TValues extends FieldValues>(
  form: { setError: UseFormSetError<TValues> },
  fieldErrors: readonly TFieldError[],
  fieldNames: readonly Path<TValues>[],
  serverPaths: TServerPaths<TValues> = {},
): TFieldError[] {
  const isField = (path: string): path is Path<TValues> => (fieldNames as readonly string[]).includes(path);
  const unplaced: TFieldError[] = [];
  let placed = 0;
  for (const fieldError of fieldErrors) {
    const path = serverPaths[fieldError.path] ?? fieldError.path;
    if (!isField(path)) {
      unplaced.push(fieldError);
      continue;
    }
    form.setError(path, { type: 'server', message: fieldError.message }, { shouldFocus: placed === 0 });
    placed += 1;
  }
  return unplaced;
}

/**
 * A failed write on a form: its field errors go under the fields (placeFieldErrors), and what is
 * left is for the form's own alert: null when every error found its field (nothing more to
 * say), else the error with only the field errors no field shows.
 */
export function placeServerError<TValues extends FieldValues>(
  form: { setError: UseFormSetError<TValues> },
  described: TDisplayError,
  fieldNames: readonly Path<TValues>[],
  serverPaths: TServerPaths<TValues> = {},
): TDisplayError | null {
  const unplaced = placeFieldErrors(form, described.fieldErrors, fieldNames, serverPaths);
  const allPlaced = described.fieldErrors.length > 0 && unplaced.length === 0;
  return allPlaced ? null : { ...described, fieldErrors: unplaced };
}
