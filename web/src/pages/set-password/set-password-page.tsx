import { CircleCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { SignedOutFrame } from '../../components/layout/signed-out-frame.tsx';
import { PASSWORD_MIN, passwordProblem } from '#domain/passwords';
import { useLinkInfo } from '../../api/auth/password-link-info.ts';
import { useSetPassword } from '../../api/auth/set-password.ts';
import { buttonClass } from '../../components/ui/button-variants.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { LoadingBlock, Spinner } from '../../components/ui/spinner.tsx';
import { apiErrorCode, describeApiError } from '../../lib/api-errors.ts';
import { SIGN_IN_PATH } from '../../lib/brand.ts';
import { useAppForm } from '../../lib/use-app-form.ts';
import { useFragmentToken } from './fragment-token.ts';

/** /set-password: where an invite or reset link leads; works signed out. */
export function SetPasswordPage() {
  const token = useFragmentToken();
  return (
    <SignedOutFrame>
      <Card className="w-full max-w-md">
        {token ? (
          <WithToken token={token} />
        ) : (
          <BadLink title="This link is not valid" detail="Check that you copied the whole link, or ask your clinic's admin for a new one." />
        )}
      </Card>
    </SignedOutFrame>
  );
}

function BadLink({ title, detail }: { title: string; detail: string }) {
  return (
    <>
      <CardHeader>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        <CardDescription>{detail}</CardDescription>
      </CardHeader>
      <CardContent>
        <Link href={SIGN_IN_PATH} className={buttonClass({ variant: 'outline' })}>
          Go to sign in
        </Link>
      </CardContent>
    </>
  );
}

function WithToken({ token }: { token: string }) {
  const info = useLinkInfo(token);
  const [done, setDone] = useState(false);
  if (info.isPending)
    return (
      <CardContent className="p-6">
        <LoadingBlock />
      </CardContent>
    );
  if (info.isError) {
    const code = apiErrorCode(info.error);
    if (code === 'link.expired') return <BadLink title="This link has expired" detail="Ask your clinic's admin for a new link." />;
    if (code === 'link.used')
      return (
        <BadLink title="This link has already been used" detail="If you have set your password, sign in. Otherwise ask your clinic's admin for a new link." />
      );
    if (code === 'link.invalid')
      return <BadLink title="This link is not valid" detail="Check that you copied the whole link, or ask your clinic's admin for a new one." />;
    return <BadLink title="Could not check this link" detail={describeApiError(info.error).message} />;
  }
  if (done) {
    return (
      <>
        <CardHeader>
          <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight text-slate-900">
            <CircleCheck className="size-6 text-green-700" aria-hidden="true" />
            Password set
          </h1>
          <CardDescription role="status">You can now sign in as {info.data.email}.</CardDescription>
        </CardHeader>
        <CardContent>
          <Link href={SIGN_IN_PATH} className={buttonClass({})}>
            Sign in
          </Link>
        </CardContent>
      </>
    );
  }
  return <PasswordForm token={token} email={info.data.email} firstName={info.data.firstName} purpose={info.data.purpose} onDone={() => setDone(true)} />;
}

interface TPasswordFields {
  password: string;
  confirm: string;
}

function PasswordForm({
  token,
  email,
  firstName,
  purpose,
  onDone,
}: {
  token: string;
  email: string;
  firstName: string | null;
  purpose: 'invite' | 'reset';
  onDone: () => void;
}) {
  const setPasswordMutation = useSetPassword();
  // The password rules are the server's (domain/passwords.ts); the two must match.
  const form = useAppForm<TPasswordFields>({
    check: ({ password, confirm }) => {
      const problem = passwordProblem(password, email);
      if (problem) return { password: problem };
      return { confirm: password === confirm ? undefined : 'The passwords do not match' };
    },
    defaultValues: { password: '', confirm: '' },
    fields: ['password'],
  });
  const {
    register,
    formState: { errors },
    formError,
  } = form;

  // Signed out: no toast; the field or the line under the form says what the server refused.
  const submit = form.onSubmit(({ password }) =>
    setPasswordMutation.mutate({ token, password }, { onSuccess: onDone, onError: (error) => form.showServerError(describeApiError(error)) }),
  );

  return (
    <>
      <CardHeader>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{purpose === 'invite' ? 'Set your password' : 'Reset your password'}</h1>
        <CardDescription>
          {purpose === 'invite' && firstName ? `Welcome, ${firstName}. ` : ''}Choose a password for <span className="font-medium text-slate-900">{email}</span>.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="space-y-4">
          {/* Lets password managers save the new password against the right account. */}
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <FormField id="new-password" label="New password" required error={errors.password?.message}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="new-password"
                {...register('password')}
                aria-describedby={[control['aria-describedby'], 'password-rules'].filter(Boolean).join(' ')}
              />
            )}
          </FormField>
          <p id="password-rules" className="text-sm text-slate-600">
            At least {PASSWORD_MIN} characters; avoid common passwords and your email name.
          </p>
          <FormField id="confirm-password" label="Confirm password" required error={errors.confirm?.message}>
            {(control) => <Input {...control} type="password" autoComplete="new-password" {...register('confirm')} />}
          </FormField>
          {formError && (
            <p role="alert" className="text-sm text-red-700">
              {formError.message}
            </p>
          )}
          <Button type="submit" className="w-full" disabled={setPasswordMutation.isPending}>
            {setPasswordMutation.isPending && <Spinner className="size-4" />}
            {purpose === 'invite' ? 'Set password' : 'Reset password'}
          </Button>
        </form>
      </CardContent>
    </>
  );
}
