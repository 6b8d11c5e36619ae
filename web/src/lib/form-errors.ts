import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { TFieldError } from '#domain/errors';

/**
 * Shows the server's field errors (a 400's `errors`) under the form's own fields, as if the
 * browser had found them, and moves focus to the first so the user starts there. Paths that
 * name no field of this form are returned for the caller to show elsewhere.
 */
export function placeFieldErrors<TValues extends FieldValues>(
  form: { setError: UseFormSetError<TValues> },
  fieldErrors: readonly TFieldError[],
  fieldNames: readonly Path<TValues>[],
): TFieldError[] {
  const isField = (path: string): path is Path<TValues> => (fieldNames as readonly string[]).includes(path);
  const unplaced: TFieldError[] = [];
  let placed = 0;
  for (const fieldError of fieldErrors) {
    if (!isField(fieldError.path)) {
      unplaced.push(fieldError);
      continue;
    }
    form.setError(fieldError.path, { type: 'server', message: fieldError.message }, { shouldFocus: placed === 0 });
    placed += 1;
  }
  return unplaced;
}
