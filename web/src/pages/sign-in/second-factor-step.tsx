import { useLocation } from 'wouter';
import { useSecondFactorStep } from '../../api/auth/second-factor-step.ts';
import { FactorProofFields, useFactorProofForm } from '../../components/second-factor/factor-proof-fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { describeApiError } from '../../lib/api-errors.ts';
import { pathAfterSignIn } from '../../lib/return-path.ts';
import { SignInError } from './sign-in-error.tsx';

/**
 * The sign-in's second step: the password (or the clinic's identity provider) was accepted and
 * no session exists yet; a code from the app, or a recovery code, makes one. A sign-in that has
 * expired or taken too many wrong codes starts over from the password.
 */
export function SecondFactorStep({ onStartOver }: { onStartOver: () => void }) {
  const [, navigate] = useLocation();
  const step = useSecondFactorStep();
  const form = useFactorProofForm();
  const error = step.error ? describeApiError(step.error) : null;
  const expired = error?.code === 'signIn.noChallenge';

  const submit = form.onSubmit((proof) =>
    step.mutate(proof, {
      onSuccess: () => navigate(pathAfterSignIn(), { replace: true }),
      onError: (failure) => {
        form.setValue('code', '');
        form.showServerError(describeApiError(failure));
      },
    }),
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Second factor" data-testid="second-factor-step">
      <p className="text-sm text-slate-700">Your password was right. Now confirm it is you with your second factor.</p>
      {error && <SignInError error={error} />}
      {expired ? (
        <Button type="button" className="w-full" onClick={onStartOver}>
          Start again
        </Button>
      ) : (
        <>
          <FactorProofFields form={form} idPrefix="sign-in" autoFocus />
          <Button type="submit" className="w-full" disabled={step.isPending}>
            {step.isPending && <Spinner className="size-4 text-white" />}
            {step.isPending ? 'Checking...' : 'Verify'}
          </Button>
          <button type="button" onClick={onStartOver} className="w-full text-center text-sm text-slate-600 underline-offset-2 hover:underline">
            Use another account
          </button>
        </>
      )}
    </form>
  );
}
