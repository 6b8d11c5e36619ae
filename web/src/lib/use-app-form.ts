import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import {
  useForm,
  type FieldError,
  type FieldErrors,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormHandleSubmit,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
import type { ZodType } from 'zod';
import type { TDisplayError } from './api-errors.ts';
import { placeServerError, type TServerPaths } from './form-errors.ts';
import { reportMutationError } from './mutation-errors.ts';

/** A message per field, from a rule the schema cannot know; undefined where the field is fine. */
export type TFormCheck<TValues extends FieldValues> = (values: TValues) => Partial<Record<Path<TValues>, string | undefined>>;

export interface TAppFormOptions<TValues extends FieldValues, TOutput> extends Omit<UseFormProps<TValues, unknown, TOutput>, 'resolver'> {
  /** The rules, from #domain: checked in the browser before anything is sent; its output is what the submit handler gets. */
  schema?: ZodType<TOutput, TValues>;
  /**
   * Rules the schema cannot know (a total across the form and an upload widget, a text that
   * must change), checked with it and shown the same way. With neither schema nor check, the
   * fields' own `register` rules apply.
   */
  check?: TFormCheck<TValues>;
  /** The form's own fields: a server field error naming one shows under it. */
  fields: readonly Path<TValues>[];
  /** Server paths that name a field differently. */
  serverPaths?: TServerPaths<TValues>;
}

export interface TAppFormExtras<TValues extends FieldValues, TOutput> {
  /** What the server said that no field shows (the form's own alert), or null. */
  formError: TDisplayError | null;
  setFormError: (error: TDisplayError | null) => void;
  /** handleSubmit, clearing the last server error first when the values pass. */
  onSubmit: UseFormHandleSubmit<TValues, TOutput>;
  /** A described failure onto the form: its field errors under the fields, the rest into `formError`. */
  showServerError: (described: TDisplayError) => void;
  /**
   * A failed write: the common toast (reportMutationError), then showServerError. Returns the
   * described error, or null when the session was lost (the logged-out handling takes over).
   */
  failed: (error: unknown, description: string, options?: { withReason?: boolean }) => TDisplayError | null;
  /**
   * Of the submitted values, those of the fields the user changed (react-hook-form's dirty
   * fields): what an edit sends. With `record`, a changed field whose value comes out equal to
   * the record's (a space trimmed away) is left out too.
   */
  changedValues: <T extends object>(values: T, record?: Partial<Record<keyof T, unknown>>) => Partial<T>;
}

export type TAppForm<TValues extends FieldValues, TOutput = TValues> = UseFormReturn<TValues, unknown, TOutput> & TAppFormExtras<TValues, TOutput>;

const sameValue = (a: unknown, b: unknown) => a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));

/**
 * The one form primitive (issue 28): react-hook-form, validated with the schema from #domain
 * (and any `check`), the server's 400 field errors placed under the fields, the rest in
 * `formError`, and only what changed sent on an edit.
 */
export function useAppForm<TValues extends FieldValues, TOutput = TValues>({
  schema,
  check,
  fields,
  serverPaths,
  ...options
}: TAppFormOptions<TValues, TOutput>): TAppForm<TValues, TOutput> {
  const rules = useRef({ schema, check });
  useEffect(() => {
    rules.current = { schema, check };
  });
  const [resolver] = useState(() => (schema || check ? appFormResolver<TValues, TOutput>(rules) : undefined));
  const form = useForm<TValues, unknown, TOutput>({ ...options, resolver });
  const [formError, setFormError] = useState<TDisplayError | null>(null);

  const showServerError = (described: TDisplayError) => setFormError(placeServerError(form, described, fields, serverPaths));

  return {
    ...form,
    formError,
    setFormError,
    onSubmit: ((onValid, onInvalid) =>
      form.handleSubmit((values, event) => {
        setFormError(null);
        return onValid(values, event);
      }, onInvalid)) as UseFormHandleSubmit<TValues, TOutput>,
    showServerError,
    failed: (error, description, failedOptions) => {
      const described = reportMutationError(error, description, failedOptions);
      if (described) showServerError(described);
      return described;
    },
    changedValues: (values, record) => {
      const changed: Partial<typeof values> = {};
      for (const name of Object.keys(values) as (keyof typeof values & string)[]) {
        if (!form.getFieldState(name as unknown as Path<TValues>).isDirty) continue;
        if (record && name in record && sameValue(values[name], record[name])) continue;
        changed[name] = values[name];
      }
      return changed;
    },
  };
}

/** The schema's errors and the check's, as one resolver; both are read when it runs, so they may use the latest state. */
function appFormResolver<TValues extends FieldValues, TOutput>(rules: {
  current: { schema?: ZodType<TOutput, TValues> | undefined; check?: TFormCheck<TValues> | undefined };
}): Resolver<TValues, unknown, TOutput> {
  return async (values, context, options) => {
    const { schema, check } = rules.current;
    const result = schema
      ? await (zodResolver(schema) as unknown as Resolver<TValues, unknown, TOutput>)(values, context, options)
      : { values: values as unknown as TOutput, errors: {} };
    const errors: Record<string, unknown> = { ...(result.errors as Record<string, unknown>) };
    for (const [name, message] of Object.entries(check?.(values) ?? {})) {
      if (typeof message === 'string') placeError(errors, name, { type: 'check', message });
    }
    return Object.keys(errors).length > 0 ? { values: {}, errors: errors as FieldErrors<TValues> } : result;
  };
}

/**
 * A check's error under its field's path, nested as react-hook-form reads errors ('reasons.0' is
 * errors.reasons[0]); a field the schema already faulted keeps the schema's message.
 */
function placeError(errors: Record<string, unknown>, path: string, error: FieldError): void {
  const parts = path.split('.');
  let at = errors;
  for (const part of parts.slice(0, -1)) {
    if (typeof at[part] !== 'object' || at[part] === null) at[part] = {};
    at = at[part] as Record<string, unknown>;
  }
  const last = parts.at(-1)!;
  if (!(last in at)) at[last] = error;
}
