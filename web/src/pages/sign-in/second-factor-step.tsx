import { useLocation } from 'wouter';
import { KeyRound } from 'lucide-react';
import type { TSecondFactorNeeded } from '#domain/second-factor';
import { usePasskeySignIn, useSecondFactorStep } from '../../api/auth/second-factor-step.ts';
import { describeFactorError } from '../../components/second-factor/passkey-errors.ts';
import { CODE_METHODS, FactorProofFields, useFactorProofForm } from '../../components/second-factor/factor-proof-fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { describeApiError } from '../../lib/api-errors.ts';
import { pathAfterSignIn } from '../../lib/return-path.ts';
import { SignInError } from './sign-in-error.tsx';

type TSecondFactorMethod = TSecondFactorNeeded['secondFactor']['methods'][number];

/**
 * The sign-in's second step: the password (or the clinic's identity provider) was accepted and
 * no session exists yet; a code from the app, or a recovery code, makes one. A sign-in that has
 * expired or taken too many wrong codes starts over from the password.
 */
export function SecondFactorStep({ methods, onStartOver }: { methods: TSecondFactorMethod[] | null; onStartOver: () => void }) {
  const [, navigate] = useLocation();
  const step = useSecondFactorStep();
  const passkey = usePasskeySignIn();
  const form = useFactorProofForm();
  const failure = passkey.error ?? step.error;
  const error = failure ? describeFactorError(failure) : null;
  const expired = error?.code === 'signIn.noChallenge';
  // Unknown after an identity provider's sign-in: every way is offered.
  const offersPasskey = methods === null || methods.includes('webauthn');
  // Only the codes she has: a passkey user is not asked for an app's code (issue 50).
  const codeMethods = methods === null ? CODE_METHODS : CODE_METHODS.filter((method) => methods.includes(method));
  const offersCodes = codeMethods.length > 0;
  const signedIn = () => navigate(pathAfterSignIn(), { replace: true });

  const submit = form.onSubmit((proof) => {
    passkey.reset();
    step.mutate(proof, {
      onSuccess: signedIn,
      onError: (failure) => {
        form.setValue('code', '');
        form.showServerError(describeApiError(failure));
      },
    });
  });

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
          {offersPasskey && (
            <Button
              type="button"
              variant={methods?.includes('totp') ? 'outline' : 'default'}
              className="w-full"
              disabled={passkey.isPending}
              onClick={() => {
                step.reset();
                passkey.mutate(undefined, { onSuccess: signedIn });
              }}
            >
              {passkey.isPending ? <Spinner className="size-4" /> : <KeyRound aria-hidden="true" />}
              Use a passkey or security key
            </Button>
          )}
          {offersPasskey && offersCodes && (
            <p className="text-center text-xs uppercase tracking-wide text-slate-500">
              {codeMethods.includes('totp') ? 'or enter a code' : 'or a recovery code'}
            </p>
          )}
          {offersCodes && (
            <>
              <FactorProofFields form={form} idPrefix="sign-in" autoFocus={!offersPasskey} methods={codeMethods} />
              <Button type="submit" className="w-full" disabled={step.isPending}>
                {step.isPending && <Spinner className="size-4 text-white" />}
                {step.isPending ? 'Checking...' : 'Verify'}
              </Button>
            </>
          )}
          <button type="button" onClick={onStartOver} className="w-full text-center text-sm text-slate-600 underline-offset-2 hover:underline">
            Use another account
          </button>
        </>
      )}
    </form>
  );
}
