import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, type Ref } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useLocation } from 'wouter';
import { ZLogin, type TLogin } from '#domain/auth';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { describeApiError } from '../../lib/api-errors.ts';
import { useSignIn } from './api/sign-in.ts';
import { SignInError } from './sign-in-error.tsx';

export type TSignInForm = UseFormReturn<TLogin>;

export function useSignInForm(): TSignInForm {
  return useForm<TLogin>({ resolver: zodResolver(ZLogin), defaultValues: { email: '', password: '' } });
}

export function SignInForm({ form, submitRef }: { form: TSignInForm; submitRef: Ref<HTMLButtonElement> }) {
  const [, navigate] = useLocation();
  const signIn = useSignIn();
  const { register, handleSubmit, setError, formState } = form;
  const error = signIn.error ? describeApiError(signIn.error) : null;

  // A 400 names the fields at fault: show each under its field as well.
  useEffect(() => {
    for (const fieldError of error?.fieldErrors ?? []) {
      if (fieldError.path === 'email' || fieldError.path === 'password') {
        setError(fieldError.path, { message: fieldError.message });
      }
    }
  }, [signIn.error]);

  const onSubmit = handleSubmit((values) =>
    signIn.mutate(values, { onSuccess: () => navigate('/', { replace: true }) }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Sign in">
      {error && <SignInError error={error} />}

      <div className="space-y-2">
        <Label htmlFor="sign-in-email">Email</Label>
        <Input
          id="sign-in-email"
          type="email"
          autoComplete="username"
          placeholder="you@clinic.example"
          aria-invalid={formState.errors.email ? true : undefined}
          aria-describedby={formState.errors.email ? 'sign-in-email-error' : undefined}
          {...register('email')}
        />
        {formState.errors.email && (
          <p id="sign-in-email-error" className="text-sm text-red-700">
            {formState.errors.email.message}
          </p>
        )}
      </div>

      <div className="space-y-2">
        <Label htmlFor="sign-in-password">Password</Label>
        <Input
          id="sign-in-password"
          type="password"
          autoComplete="current-password"
          aria-invalid={formState.errors.password ? true : undefined}
          aria-describedby={formState.errors.password ? 'sign-in-password-error' : undefined}
          {...register('password')}
        />
        {formState.errors.password && (
          <p id="sign-in-password-error" className="text-sm text-red-700">
            {formState.errors.password.message}
          </p>
        )}
      </div>

      <Button ref={submitRef} type="submit" className="w-full" disabled={signIn.isPending}>
        {signIn.isPending && <Spinner className="size-4 text-white" />}
        {signIn.isPending ? 'Signing in...' : 'Sign in'}
      </Button>
    </form>
  );
}
