import type { Ref } from 'react';
import { useLocation } from 'wouter';
import { ZLogin, type TLogin } from '#domain/auth';
import type { TSecondFactorNeeded } from '#domain/second-factor';
import { needsSecondFactor, useSignIn } from '../../api/auth/sign-in.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { describeApiError } from '../../lib/api-errors.ts';
import { pathAfterSignIn } from '../../lib/return-path.ts';
import { useAppForm, type TAppForm } from '../../lib/use-app-form.ts';
import { SignInError } from './sign-in-error.tsx';

export type TSignInForm = TAppForm<TLogin>;

const SIGN_IN_FIELDS = ['email', 'password'] as const;

export function useSignInForm(): TSignInForm {
  return useAppForm<TLogin>({ schema: ZLogin, defaultValues: { email: '', password: '' }, fields: SIGN_IN_FIELDS });
}

export function SignInForm({
  form,
  submitRef,
  onSecondFactor,
}: {
  form: TSignInForm;
  submitRef: Ref<HTMLButtonElement>;
  onSecondFactor: (methods: TSecondFactorNeeded['secondFactor']['methods']) => void;
}) {
  const [, navigate] = useLocation();
  const signIn = useSignIn();
  const { register, handleSubmit, formState } = form;
  const error = signIn.error ? describeApiError(signIn.error) : null;

  const onSubmit = handleSubmit((values) =>
    signIn.mutate(values, {
      onSuccess: (answer) => (needsSecondFactor(answer) ? onSecondFactor(answer.secondFactor.methods) : navigate(pathAfterSignIn(), { replace: true })),
      // The alert above the form says what happened (the form's own alert stays unused); a 400
      // also names the fields at fault.
      onError: (failure) => form.showServerError(describeApiError(failure)),
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Sign in">
      {error && <SignInError error={error} />}

      <FormField id="sign-in-email" label="Email" error={formState.errors.email?.message}>
        {(control) => <Input {...control} type="email" autoComplete="username" placeholder="you@clinic.example" {...register('email')} />}
      </FormField>

      <FormField id="sign-in-password" label="Password" error={formState.errors.password?.message}>
        {(control) => <Input {...control} type="password" autoComplete="current-password" {...register('password')} />}
      </FormField>

      <Button ref={submitRef} type="submit" className="w-full" disabled={signIn.isPending}>
        {signIn.isPending && <Spinner className="size-4 text-white" />}
        {signIn.isPending ? 'Signing in...' : 'Sign in'}
      </Button>
    </form>
  );
}
