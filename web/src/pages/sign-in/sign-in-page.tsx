import { useRef } from 'react';
import { SignedOutFrame } from '../../components/layout/signed-out-frame.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx';
import { DemoAccounts, useHasDemoAccounts } from './demo-accounts.tsx';
import { cn } from '../../lib/utils.ts';
import { SignInForm, useSignInForm } from './sign-in-form.tsx';

/** /login: where GET /api/login leads when no single sign-on provider is configured. */
export function SignInPage() {
  const form = useSignInForm();
  const submitRef = useRef<HTMLButtonElement>(null);
  const hasDemo = useHasDemoAccounts();

  const fillDemoAccount = (email: string, password: string) => {
    form.clearErrors();
    form.setValue('email', email, { shouldDirty: true });
    form.setValue('password', password, { shouldDirty: true });
    // Enter (or one more click) now signs in.
    submitRef.current?.focus();
  };

  return (
    <SignedOutFrame>
      <Card className={cn('grid w-full overflow-hidden', hasDemo ? 'max-w-4xl md:grid-cols-2' : 'max-w-md')}>
        <div>
          <CardHeader>
            <h1 className="text-2xl font-bold tracking-tight text-slate-900">Sign in</h1>
            <CardDescription>Use your clinic account to open your workspace.</CardDescription>
          </CardHeader>
          <CardContent>
            <SignInForm form={form} submitRef={submitRef} />
          </CardContent>
        </div>
        {hasDemo && (
          <div className="border-t bg-slate-50 p-6 md:border-l md:border-t-0">
            <DemoAccounts onPick={fillDemoAccount} />
          </div>
        )}
      </Card>
    </SignedOutFrame>
  );
}
