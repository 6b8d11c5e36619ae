import { useEffect } from 'react';
import { useWatch } from 'react-hook-form';
import { ZCodeProof, type TCodeProof } from '#domain/second-factor';
import { useAppForm, type TAppForm } from '../../lib/use-app-form.ts';
import { FormField } from '../ui/form-field.tsx';
import { Input } from '../ui/input.tsx';
import { cn } from '../../lib/utils.ts';

/** What the proof form holds: both methods have a code, so one flat form serves both. */
export interface TProofValues {
  method: 'totp' | 'recovery';
  code: string;
}
export type TProofForm = TAppForm<TProofValues, TCodeProof>;

const PROOF_FIELDS = ['code'] as const;

export function useFactorProofForm(): TProofForm {
  return useAppForm<TProofValues, TCodeProof>({ schema: ZCodeProof, defaultValues: { method: 'totp', code: '' }, fields: PROOF_FIELDS });
}

const METHOD_LABELS = { totp: 'Authenticator app', recovery: 'Recovery code' } as const;
export const CODE_METHODS: readonly TProofValues['method'][] = ['totp', 'recovery'];

/**
 * A second factor typed in: a code from the authenticator app, or one of the recovery codes,
 * among the `methods` the user has (issue 50: one with a passkey and no app is not asked for an
 * app code). The sign-in's second step and every "confirm it is you" dialog use these fields.
 */
export function FactorProofFields({
  form,
  idPrefix,
  autoFocus,
  methods = CODE_METHODS,
}: {
  form: TProofForm;
  idPrefix: string;
  autoFocus?: boolean;
  methods?: readonly TProofValues['method'][];
}) {
  const chosen = useWatch({ control: form.control, name: 'method' });
  // The form starts on the app's code; a user without the app starts on what she has.
  const method = methods.includes(chosen) ? chosen : (methods[0] ?? chosen);
  useEffect(() => {
    if (method !== chosen) form.setValue('method', method);
  }, [form, method, chosen]);
  const choose = (next: TProofValues['method']) => {
    form.setValue('method', next);
    form.setValue('code', '');
    form.clearErrors();
  };
  return (
    <div className="space-y-3">
      {methods.length > 1 && (
        <div role="radiogroup" aria-label="Second factor" className="grid grid-cols-2 gap-1 rounded-md bg-slate-100 p-1">
          {methods.map((option) => (
            <button
              key={option}
              type="button"
              role="radio"
              aria-checked={method === option}
              onClick={() => choose(option)}
              className={cn(
                'rounded px-2 py-1.5 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                method === option ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
              )}
            >
              {METHOD_LABELS[option]}
            </button>
          ))}
        </div>
      )}
      {method === 'totp' ? (
        <FormField id={`${idPrefix}-code`} label="6-digit code from your app" error={form.formState.errors.code?.message}>
          {(control) => (
            <Input
              {...control}
              key="totp"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder="123456"
              autoFocus={autoFocus}
              className="font-mono tracking-widest"
              {...form.register('code')}
            />
          )}
        </FormField>
      ) : (
        <FormField id={`${idPrefix}-code`} label="Recovery code" error={form.formState.errors.code?.message}>
          {(control) => (
            <Input
              {...control}
              key="recovery"
              autoComplete="off"
              spellCheck={false}
              placeholder="xxxx-xxxx-xxxx-xxxx"
              autoFocus={autoFocus}
              className="font-mono"
              {...form.register('code')}
            />
          )}
        </FormField>
      )}
    </div>
  );
}
